import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mastodon } from '../daemon/platforms/mastodon.js'
import { loopbackTls } from './fixtures/loopback.js'
import { FakeMastodon } from './fixtures/mastodon-server.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { eventsOf, liftLimits } from './helpers/posts.js'

let t: TestDaemon
let instance: FakeMastodon
let account: string
const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR

const collector = () => t.daemon.workers.find((w) => w.name === 'metrics-collector')!
async function collectAt(at: number): Promise<void> {
  t.clock.set(at)
  await collector().tick!(at)
}
const connect = () => t.http.post(`/v1/accounts/${account}/connections`, { platform: 'mastodon', credentials: { instance_url: instance.url, access_token: 'token-alice' } }, { key: t.key })

/** Publishes a post to feed and Mastodon now; returns its id, its status id and when it went out. */
async function publishNow(content: string): Promise<{ postId: string; statusId: string; at: number }> {
  // Whatever earlier tests left is past its 30 days after this, and read for the last time here.
  await collectAt(t.clock.now() + 31 * DAY)
  const res = await t.http.post('/v1/posts', { account_id: account, content, platforms: ['feed', 'mastodon'] }, { key: t.key })
  await t.daemon.scheduler.tick(t.clock.now())
  const post = (await t.http.get(`/v1/posts/${res.body.id}`, { key: t.key })).body
  expect(post.status).toBe('published')
  return { postId: post.id, statusId: post.targets[1].platform_post_id, at: t.clock.now() }
}

/** How many times the instance was asked for this status. */
const reads = (statusId: string) => instance.requests.filter((r) => r.method === 'GET' && r.path === `/api/v1/statuses/${statusId}`).length
const snapshots = (postId: string, platform: 'feed' | 'mastodon' = 'mastodon') => t.daemon.store.metrics.history(postId, platform)

beforeAll(async () => {
  instance = await FakeMastodon.start()
  const { cert } = await loopbackTls()
  t = await startTestDaemon({ allowPrivateNetwork: true, backgroundWorkers: false, overrides: { egress: { ca: [cert] }, platforms: [mastodon] } })
  await liftLimits(t)
  account = (await t.http.post('/v1/accounts', { name: 'Brand' }, { key: t.key })).body.id
  expect((await t.http.post(`/v1/accounts/${account}/connections`, { platform: 'feed' }, { key: t.key })).status).toBe(201)
  expect((await connect()).status).toBe(201)
})

afterAll(async () => {
  await t.stop()
  await instance.server.close()
})

describe('the metrics collector', () => {
  it('reads every 15 min under 48 h, hourly under 7 days, daily under 30 days, then never', async () => {
    const { postId, statusId, at } = await publishNow('schedule')
    const expectReads = async (offset: number, n: number) => {
      await collectAt(at + offset)
      expect(reads(statusId), `reads by +${offset / MIN} min`).toBe(n)
    }
    await expectReads(14 * MIN, 0)
    await expectReads(15 * MIN, 1)
    await expectReads(29 * MIN, 1)
    await expectReads(30 * MIN, 2)
    // Overdue (the daemon was off for days): one read, not a catch-up burst, then the hourly step.
    await expectReads(3 * DAY, 3)
    await expectReads(3 * DAY + 59 * MIN, 3)
    await expectReads(3 * DAY + HOUR, 4)
    await expectReads(10 * DAY, 5)
    await expectReads(11 * DAY - MIN, 5)
    await expectReads(11 * DAY, 6)
    // The last step stops at the 30-day mark, which gets one final read.
    await expectReads(29 * DAY + 12 * HOUR, 7)
    await expectReads(30 * DAY - MIN, 7)
    await expectReads(30 * DAY, 8)
    await expectReads(31 * DAY, 8)
    await expectReads(90 * DAY, 8)
    const kept = await snapshots(postId)
    expect(kept).toHaveLength(8)
    expect(kept[0]).toEqual({ takenAt: at + 15 * MIN, impressions: null, likes: 0, reposts: 2, replies: 1, quotes: 0, clicks: null })
    // feed reports nothing: it is never asked, and keeps no snapshot.
    expect(await snapshots(postId, 'feed')).toEqual([])
  })

  it('keeps its schedule across a restart (the state is in SQLite)', async () => {
    const { postId, statusId, at } = await publishNow('restart')
    await collectAt(at + 15 * MIN)
    expect(reads(statusId)).toBe(1)
    await t.restart()
    await collectAt(at + 29 * MIN)
    expect(reads(statusId)).toBe(1)
    await collectAt(at + 30 * MIN)
    expect(reads(statusId)).toBe(2)
    expect(await snapshots(postId)).toHaveLength(2)
  })

  it('backs off when rate limited, as long as the instance asks (X-RateLimit-Reset), and after a 503', async () => {
    const { postId, statusId, at } = await publishNow('rate limited')
    t.clock.set(at + 15 * MIN)
    const reset = new Date(at + 20 * MIN).toISOString()
    instance.failNext('GET /api/v1/statuses/:id', { status: 429, body: { error: 'Too many requests' }, headers: { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset } })
    await collectAt(at + 15 * MIN)
    expect(reads(statusId)).toBe(1)
    expect(await snapshots(postId)).toEqual([])
    expect(t.logs.some((l) => l.includes('metrics read failed; backing off'))).toBe(true)
    await collectAt(at + 19 * MIN)
    expect(reads(statusId)).toBe(1)
    await collectAt(at + 20 * MIN)
    expect(reads(statusId)).toBe(2)
    expect(await snapshots(postId)).toHaveLength(1)
    // Next on schedule, 15 min after the read that worked; a 503 there waits a minute.
    instance.failNext('GET /api/v1/statuses/:id', { status: 503, body: { error: 'Service Unavailable' } })
    await collectAt(at + 35 * MIN)
    expect(reads(statusId)).toBe(3)
    await collectAt(at + 35 * MIN + 59_000)
    expect(reads(statusId)).toBe(3)
    await collectAt(at + 36 * MIN)
    expect(reads(statusId)).toBe(4)
    expect(await snapshots(postId)).toHaveLength(2)
  })

  it('a revoked token marks the connection reauth_required (once, with its event), and reading resumes after reconnecting', async () => {
    const { postId, statusId, at } = await publishNow('revoked')
    instance.tokens.delete('token-alice')
    await collectAt(at + 15 * MIN)
    const acc = (await t.http.get(`/v1/accounts/${account}`, { key: t.key })).body
    expect(acc.connections.find((c: any) => c.platform === 'mastodon').status).toBe('reauth_required')
    expect((await eventsOf(t, 'account.reauth_required')).filter((e) => e.data.platform === 'mastodon')).toHaveLength(1)
    // While the connection waits for the user, the instance is not asked.
    await collectAt(at + 30 * MIN)
    expect(reads(statusId)).toBe(1)
    expect((await t.http.get('/v1/analytics', { key: t.key })).status).toBe(200)
    instance.tokens.add('token-alice')
    expect((await connect()).status).toBe(201)
    await collectAt(at + 45 * MIN)
    expect(reads(statusId)).toBe(2)
    expect(await snapshots(postId)).toHaveLength(1)
  })

  it('a status deleted on the instance keeps its last counts', async () => {
    const { postId, statusId, at } = await publishNow('deleted later')
    instance.statuses.get(statusId)!.favourites = 3
    await collectAt(at + 15 * MIN)
    instance.statuses.delete(statusId)
    await collectAt(at + 30 * MIN)
    expect(reads(statusId)).toBe(2)
    const res = await t.http.get(`/v1/analytics?post_id=${postId}`, { key: t.key })
    expect(res.body.totals).toMatchObject({ likes: 3, engagements: 6 })
  })
})
