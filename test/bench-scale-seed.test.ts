import { personalWorkspaceId } from '../src/ids.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { armBurst, seedScale } from '../bench/scale-seed.js'
import { openSqliteStore } from '../daemon/store/sqlite/index.js'

// The scale benchmark's data must be what the daemon itself would have written, or its figures
// say nothing: the seed writes by bulk SQL with the rollup triggers set aside, so these check
// that it leaves a database the store finds consistent, and its triggers as they were.

let dir = ''
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const triggersOf = (store: ReturnType<typeof openSqliteStore>) =>
  store.db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all()

describe('the scale benchmark’s seed', () => {
  it('leaves rollups that match the raw rows, the triggers as migrations made them, and every foreign key kept', async () => {
    dir = mkdtempSync(join(tmpdir(), 'smm-scale-seed-'))
    const file = join(dir, 'smm.db')
    const fresh = openSqliteStore(file)
    const owner = await fresh.bootstrapOwner({ name: 'owner', timezone: 'UTC' }, Date.now())
    const triggers = triggersOf(fresh)
    await fresh.close()

    const seed = await seedScale(dir, { posts: 3_000, bursts: 1, burstPosts: 200 })
    expect(seed.rows.posts).toBe(3_200)
    expect(seed.rows.events).toBeGreaterThan(5_000)

    const store = openSqliteStore(file)
    try {
      expect(await store.analytics.drift()).toEqual({ hours: 0, delays: 0, top: 0 })
      expect(triggersOf(store)).toEqual(triggers)
      expect(store.db.pragma('foreign_key_check')).toEqual([])
      expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal')
      expect(store.db.prepare('SELECT count(*) FROM events WHERE dispatched_at IS NULL AND type LIKE ?').pluck().get('post.%')).toBe(0)
      expect(store.db.prepare('SELECT count(*) FROM events WHERE NOT json_valid(data)').pluck().get()).toBe(0)
      // The posts read as the store's own: published ones with their targets out.
      const [latestPublished] = await store.posts.list([personalWorkspaceId(owner!.user.id)], { order: 'desc', statuses: ['published'] }, 1)
      expect(latestPublished!.post.status).toBe('published')
      expect(latestPublished!.post.targets.map((t) => [t.status, t.attempts, t.parts.length])).toEqual(latestPublished!.post.platforms.map(() => ['published', 1, 1]))
    } finally {
      await store.close()
    }

    // Arming a burst moves its posts (and their figures, through the triggers) to the time given.
    const at = Date.now() + 60_000
    expect(armBurst(dir, seed.burstAccounts[0]!, at)).toBe(200)
    const after = openSqliteStore(file)
    try {
      expect(await after.analytics.drift()).toEqual({ hours: 0, delays: 0, top: 0 })
      expect((await after.publishing.due(at - 1)).next).toBe(at)
    } finally {
      await after.close()
    }
  })
})
