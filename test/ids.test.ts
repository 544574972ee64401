import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newId, type IdPrefix } from '../src/ids.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { feedAccount, liftLimits } from './helpers/posts.js'

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
/** An id's 80-bit random part, as a number. */
const randomPart = (id: string) => [...id.slice(-16)].reduce((n, c) => n * 32n + BigInt(CROCKFORD.indexOf(c)), 0n)
/** How far apart two ids' random parts are (the time parts being the same). */
const gap = (a: string, b: string) => (randomPart(b) > randomPart(a) ? randomPart(b) - randomPart(a) : randomPart(a) - randomPart(b))
const FAR = 1n << 32n

describe('ids', () => {
  it('of one kind, made in one millisecond, sort as they were made, none within 2^32 of the one before', () => {
    const now = Date.parse('2026-11-21T12:00:00Z')
    const ids = Array.from({ length: 2_000 }, (_, i) => newId(i % 2 ? 'pst' : 'msg', now))
    for (const kind of ['pst', 'msg']) {
      const mine = ids.filter((id) => id.startsWith(kind))
      expect([...mine].sort()).toEqual(mine)
      for (let i = 1; i < mine.length; i++) expect(gap(mine[i - 1]!, mine[i]!) > FAR, `${mine[i - 1]} ${mine[i]}`).toBe(true)
    }
  })

  it('keep their order past what one millisecond holds, and when the clock goes back', () => {
    const now = Date.parse('2026-11-21T12:00:01Z')
    const ids = Array.from({ length: 40_000 }, () => newId('dlv', now))
    ids.push(newId('dlv', now - 5_000), newId('dlv', now + 1))
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('of kinds nothing sorts (requests, generations) share nothing: each is its time and fresh random bits', () => {
    const now = Date.parse('2026-11-21T12:00:02Z')
    for (const kind of ['req', 'gen'] as IdPrefix[]) {
      const ids = Array.from({ length: 500 }, () => newId(kind, now))
      // Fresh bits are in no order: made in one millisecond, about half go down.
      const down = ids.slice(1).filter((id, i) => id < ids[i]!).length
      expect(down).toBeGreaterThan(150)
      for (let i = 1; i < ids.length; i++) expect(gap(ids[i - 1]!, ids[i]!) > FAR).toBe(true)
    }
  })
})

describe('ids the daemon hands out', () => {
  let t: TestDaemon
  beforeAll(async () => {
    t = await startTestDaemon()
    await liftLimits(t)
  })
  afterAll(() => t.stop())

  it('tell nothing of one another: request ids to anyone, and accounts and the posts of a bulk made in one millisecond', async () => {
    // The test daemon's clock stands still: every account and post below is made in the same
    // millisecond (request ids take the machine's time).
    const seen: string[] = []
    const accounts: string[] = []
    for (let i = 0; i < 10; i++) {
      seen.push((await t.http.get('/healthz')).headers['x-request-id']!)
      accounts.push(await feedAccount(t, `Brand ${i}`))
    }
    seen.push(...accounts)
    const bulk = await t.http.post('/v1/posts/bulk', { posts: Array.from({ length: 10 }, (_, i) => ({ account_id: accounts[0], content: `Post ${i}`, platforms: ['feed'] })) }, { key: t.key })
    expect(bulk.status).toBe(201)
    const posts = bulk.body.data.map((p: { id: string }) => p.id)
    seen.push(...posts)
    const time = (id: string) => id.split('_')[1]!.slice(0, 10)
    // Each kind's ids share one millisecond (a kind keeps the latest time it has seen, so another
    // daemon earlier in this process may have set it; the kinds need not agree with each other).
    expect(new Set(accounts.map(time)).size).toBe(1)
    expect(new Set(posts.map(time)).size).toBe(1)
    for (let i = 0; i < seen.length; i++) for (let j = i + 1; j < seen.length; j++) expect(gap(seen[i]!, seen[j]!) > FAR, `${seen[i]} ${seen[j]}`).toBe(true)
    // Lists still give them in the order they were made.
    const listed = (await t.http.get('/v1/accounts?limit=100', { key: t.key })).body.data.map((a: { id: string }) => a.id)
    expect(listed.filter((id: string) => accounts.includes(id))).toEqual(accounts)
    const page = (await t.http.get(`/v1/posts?account_id=${accounts[0]}&limit=100&order=asc`, { key: t.key })).body.data.map((p: { id: string }) => p.id)
    expect(page).toEqual(posts)
  })
})
