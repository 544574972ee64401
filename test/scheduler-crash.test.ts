import { personalWorkspaceId } from '../src/ids.js'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { createSecretBox, loadSecretKey } from '../daemon/secret-box.js'
import { openStore } from '../daemon/store/index.js'

const ACCOUNTS = 8
const PER_ACCOUNT = 500
const TOTAL = ACCOUNTS * PER_ACCOUNT
/** The first account's posts are threads of three parts (the post and two more): feed items of their own. */
const THREAD = [
  { content: 'part two', media_urls: [] },
  { content: 'part three', media_urls: [] },
]
const ITEMS = TOTAL + PER_ACCOUNT * THREAD.length
const dataDir = mkdtempSync(join(tmpdir(), 'smm-crash-'))
const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  rmSync(dataDir, { recursive: true, force: true })
})

/** Starts the daemon in a child process and resolves once it listens. */
function startChild(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/daemon-process.ts', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child))
    child.once('exit', (code) => reject(new Error(`daemon exited with ${code} before listening`)))
  })
}

/** Seeds the data dir as the API would have: accounts on feed, posts all due now. */
async function seed(): Promise<void> {
  const store = await openStore({ dataDir })
  const box = createSecretBox(loadSecretKey(dataDir))
  const now = Date.now()
  const owner = (await store.bootstrapOwner({ name: 'owner' }, now))!.user
  for (let a = 0; a < ACCOUNTS; a++) {
    const account = await store.accounts.create(personalWorkspaceId(owner.id), owner.id, `Brand ${a}`, now)
    await store.accounts.connect([personalWorkspaceId(owner.id)], account.id, { platform: 'feed', handle: 'feed', displayName: 'feed', sealedCredentials: box.seal({}, `${account.id}:feed`), settings: {} }, now, null)
    for (let i = 0; i < PER_ACCOUNT; i++) {
      await store.posts.create({ userId: owner.id, keyId: null }, { workspaceId: personalWorkspaceId(owner.id), accountId: account.id, content: `post ${a}/${i}`, mediaUrls: [], platforms: ['feed'], scheduledAt: now, ...(a === 0 ? { thread: THREAD } : {}) }, now)
    }
  }
  await store.close()
}

const count = (db: Database.Database, sql: string) => (db.prepare(sql).get() as { n: number }).n

describe('a daemon killed with SIGKILL while publishing', () => {
  it('ends every post final after a restart: none lost, none published twice to feed', async () => {
    await seed()
    const db = new Database(join(dataDir, 'smm.db'), { readonly: true })
    const first = await startChild()
    // Kill it once publishing is well under way, but far from done, at a moment when attempts are in flight.
    for (let published = 0, publishing = 0; published < TOTAL / 10 || publishing === 0; ) {
      await new Promise((resolve) => setTimeout(resolve, 2))
      published = count(db, "SELECT count(*) AS n FROM post_targets WHERE status = 'published'")
      publishing = count(db, "SELECT count(*) AS n FROM post_targets WHERE status = 'publishing'")
    }
    first.kill('SIGKILL')
    await new Promise((resolve) => first.once('exit', resolve))
    const atKill = {
      published: count(db, "SELECT count(*) AS n FROM post_targets WHERE status = 'published'"),
      publishing: count(db, "SELECT count(*) AS n FROM post_targets WHERE status = 'publishing'"),
      inFeed: count(db, 'SELECT count(*) AS n FROM feed_items'),
    }
    expect(atKill.published).toBeLessThan(TOTAL)
    // The kill lands mid-publish: some targets are left `publishing`, some of those already in
    // the feed but not yet recorded as published (outcomes are written a batch at a time).
    expect(atKill.publishing).toBeGreaterThan(0)

    const second = await startChild()
    for (let open = TOTAL; open > 0; ) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      open = count(db, "SELECT count(*) AS n FROM posts WHERE status IN ('scheduled', 'publishing')")
    }
    second.kill('SIGTERM')
    await new Promise((resolve) => second.once('exit', resolve))

    expect(db.prepare('SELECT status, count(*) AS n FROM posts GROUP BY status').all()).toEqual([{ status: 'published', n: TOTAL }])
    expect(count(db, 'SELECT count(*) AS n FROM feed_items')).toBe(ITEMS)
    expect(count(db, 'SELECT count(DISTINCT post_id) AS n FROM feed_items')).toBe(ITEMS)
    // Every part of every thread recorded once, in order, whatever the kill interrupted.
    expect(count(db, 'SELECT count(*) AS n FROM post_target_parts')).toBe(PER_ACCOUNT * (1 + THREAD.length))
    expect(count(db, 'SELECT count(*) AS n FROM (SELECT post_id FROM post_target_parts GROUP BY post_id HAVING max(idx) = 2 AND count(*) = 3)')).toBe(PER_ACCOUNT)
    // One published event per post and per target: a re-sent attempt is recorded once.
    expect(count(db, "SELECT count(*) AS n FROM events WHERE type = 'post.published'")).toBe(TOTAL)
    expect(count(db, "SELECT count(*) AS n FROM events WHERE type = 'post.target.published'")).toBe(TOTAL)
    expect(atKill.inFeed).toBeGreaterThanOrEqual(atKill.published)
    db.close()
  }, 120_000)
})
