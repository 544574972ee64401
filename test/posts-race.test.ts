import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { feedAccount, liftLimits } from './helpers/posts.js'

let t: TestDaemon
let account: string
const N = 80
const MIN = 60_000

beforeAll(async () => {
  t = await startTestDaemon()
  await liftLimits(t)
  account = await feedAccount(t, 'Racer')
})
afterAll(() => t.stop())

/** N posts due one millisecond apart, starting a minute from now; the clock stops just before the first. */
async function duePosts(): Promise<{ ids: string[]; base: number }> {
  const base = t.clock.now() + MIN
  const ids: string[] = []
  for (let i = 0; i < N; i++) {
    const at = new Date(base + i).toISOString()
    ids.push((await t.http.post('/v1/posts', { account_id: account, content: `original ${i}`, scheduled_at: at, platforms: ['feed'] }, { key: t.key })).body.id)
  }
  t.clock.set(base - 1)
  return { ids, base }
}

/** Sends every edit at once and, while they arrive, lets the posts fall due one by one and claims them. */
async function race<T>(base: number, edits: Promise<T>[]): Promise<T[]> {
  const all = Promise.all(edits)
  for (let i = 0; i < N; i++) {
    t.clock.set(base + i)
    await t.daemon.scheduler.tick(t.clock.now())
    // The first posts are claimed at once (their edits lose); then a few milliseconds per step,
    // so the remaining requests land between claims rather than after them all.
    if (i >= 10) await new Promise((resolve) => setTimeout(resolve, 4))
  }
  const results = await all
  await t.daemon.scheduler.tick(t.clock.now())
  return results
}

describe('edits racing the scheduler’s claim', () => {
  it('DELETE vs claim: each post is either cancelled and never published, or published and the DELETE got 409', async () => {
    const { ids, base } = await duePosts()
    const results = await race(base, ids.map((id) => t.http.delete(`/v1/posts/${id}`, { key: t.key })))
    const feed = new Map((await t.daemon.store.feed.recent(account, 10 * N)).map((i) => [i.postId, i]))
    let cancelled = 0
    for (const [i, id] of ids.entries()) {
      const post = (await t.http.get(`/v1/posts/${id}`, { key: t.key })).body
      if (results[i]!.status === 200) {
        cancelled++
        expect(post.status).toBe('cancelled')
        expect(feed.has(id)).toBe(false)
      } else {
        expect(results[i]!.status).toBe(409)
        expect(results[i]!.body.code).toBe('post_not_editable')
        expect(post.status).toBe('published')
        expect(feed.has(id)).toBe(true)
      }
    }
    // Both outcomes occur: the race was real.
    expect(cancelled).toBeGreaterThan(0)
    expect(cancelled).toBeLessThan(N)
  })

  it('PUT vs claim: the feed shows the edit exactly when the PUT won', async () => {
    const { ids, base } = await duePosts()
    const results = await race(base, ids.map((id, i) => t.http.put(`/v1/posts/${id}`, { content: `edited ${i}` }, { key: t.key })))
    const feed = new Map((await t.daemon.store.feed.recent(account, 10 * N)).map((i) => [i.postId, i]))
    for (const [i, id] of ids.entries()) {
      const post = (await t.http.get(`/v1/posts/${id}`, { key: t.key })).body
      expect(post.status).toBe('published')
      expect([200, 409]).toContain(results[i]!.status)
      const expected = results[i]!.status === 200 ? `edited ${i}` : `original ${i}`
      expect(post.content).toBe(expected)
      expect(feed.get(id)!.content).toBe(expected)
    }
    const won = results.filter((r) => (r as { status: number }).status === 200).length
    expect(won).toBeGreaterThan(0)
    expect(won).toBeLessThan(N)
  })
})
