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

/**
 * The first 10 posts are claimed before any edit is sent (those edits must lose), the last 10
 * fall due only after every edit has landed (those must win), and the 60 in between race:
 * their edits are in flight while the clock reaches each post's time and the scheduler claims it.
 */
async function race<T>(base: number, send: () => Promise<T>[]): Promise<T[]> {
  t.clock.set(base + 9)
  await t.daemon.scheduler.tick(t.clock.now())
  const all = Promise.all(send())
  for (let i = 10; i < N - 10; i++) {
    t.clock.set(base + i)
    await t.daemon.scheduler.tick(t.clock.now())
    // A few milliseconds per step, so requests land between claims rather than after them all.
    await new Promise((resolve) => setTimeout(resolve, 3))
  }
  const results = await all
  t.clock.set(base + N)
  await t.daemon.scheduler.tick(t.clock.now())
  return results
}

describe('edits racing the scheduler’s claim', () => {
  it('DELETE vs claim: each post is either cancelled and never published, or published and the DELETE got 409', async () => {
    const { ids, base } = await duePosts()
    const results = await race(base, () => ids.map((id) => t.http.delete(`/v1/posts/${id}`, { key: t.key })))
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
    expect(results.slice(0, 10).every((r) => r.status === 409)).toBe(true)
    expect(results.slice(N - 10).every((r) => r.status === 200)).toBe(true)
    expect(cancelled).toBeGreaterThanOrEqual(10)
  })

  it('PUT vs claim: the feed shows the edit exactly when the PUT won', async () => {
    const { ids, base } = await duePosts()
    const results = await race(base, () => ids.map((id, i) => t.http.put(`/v1/posts/${id}`, { content: `edited ${i}` }, { key: t.key })))
    const feed = new Map((await t.daemon.store.feed.recent(account, 10 * N)).map((i) => [i.postId, i]))
    for (const [i, id] of ids.entries()) {
      const post = (await t.http.get(`/v1/posts/${id}`, { key: t.key })).body
      expect(post.status).toBe('published')
      expect([200, 409]).toContain(results[i]!.status)
      const expected = results[i]!.status === 200 ? `edited ${i}` : `original ${i}`
      expect(post.content).toBe(expected)
      expect(feed.get(id)!.content).toBe(expected)
    }
    expect(results.slice(0, 10).every((r) => r.status === 409)).toBe(true)
    expect(results.slice(N - 10).every((r) => r.status === 200)).toBe(true)
  })
})
