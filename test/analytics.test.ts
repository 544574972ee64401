import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mastodon } from '../daemon/platforms/mastodon.js'
import { SCOPES } from '../src/api/common.js'
import { loopbackTls } from './fixtures/loopback.js'
import { FakeMastodon } from './fixtures/mastodon-server.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'

// A New York user's month around the autumn DST change (Sunday 1 November 2026, 02:00 EDT →
// 01:00 EST), seeded through the API, the scheduler and the metrics collector against a
// loopback Mastodon. Every expected figure below is worked out by hand from this table:
//
// post  account  platforms          scheduled (UTC)      local (New York)       outcome (publish delay)
// P1    A        feed, mastodon     2026-10-30 14:00     Fri 30 Oct 10:00 EDT   both published (2 s)
// P7    B        feed               2026-11-01 03:30     Sat 31 Oct 23:30 EDT   published (0)
// P2    A        mastodon           2026-11-02 04:30     Sun  1 Nov 23:30 EST   published (4 s)
// P3    B        feed               2026-11-02 05:30     Mon  2 Nov 00:30 EST   published (10 s)
// P4    A        feed, mastodon     2026-11-03 15:00     Tue  3 Nov 10:00 EST   feed published (0), mastodon rejected
// P5    A        feed               2026-11-04 15:00     cancelled: never counted
// P6    B        feed               2026-11-25 15:00     still scheduled
//
// Mastodon counts (latest): P1 5 favourites, 2 reblogs, 1 reply, 0 quotes = 8 engagements;
// P2 9 favourites (7 at the first read), 2, 1, 0 = 12.

let t: TestDaemon
let instance: FakeMastodon
let key: string
let accountA: string
let accountB: string
const ids: Record<string, string> = {}
const SEC = 1000
const MIN = 60 * SEC

const collector = () => t.daemon.workers.find((w) => w.name === 'metrics-collector')!
const report = async (query = '', as = key) => t.http.get(`/v1/analytics${query}`, { key: as })

beforeAll(async () => {
  instance = await FakeMastodon.start()
  const { cert } = await loopbackTls()
  const { ManualClock } = await import('../src/time.js')
  t = await startTestDaemon({
    clock: new ManualClock(Date.parse('2026-10-20T12:00:00Z')),
    allowPrivateNetwork: true,
    backgroundWorkers: false,
    overrides: { egress: { ca: [cert] }, platforms: [mastodon] },
  })
  // Analytics answers in the user's timezone: a New York user, made the way `smm admin` does.
  const now = t.clock.now()
  const user = await t.daemon.store.users.create({ name: 'nyc', plan: 'enterprise', timezone: 'America/New_York' }, now)
  await t.daemon.store.users.setPlan(user.id, 'enterprise', { per_minute: 1e6, per_hour: 1e6, per_day: 1e6 })
  key = (await t.daemon.store.apiKeys.create(user.id, { name: 'all', scopes: SCOPES }, now, null)).secret

  accountA = (await t.http.post('/v1/accounts', { name: 'A' }, { key })).body.id
  accountB = (await t.http.post('/v1/accounts', { name: 'B' }, { key })).body.id
  for (const account of [accountA, accountB]) expect((await t.http.post(`/v1/accounts/${account}/connections`, { platform: 'feed' }, { key })).status).toBe(201)
  const connected = await t.http.post(`/v1/accounts/${accountA}/connections`, { platform: 'mastodon', credentials: { instance_url: instance.url, access_token: 'token-alice' } }, { key })
  expect(connected.status).toBe(201)

  const plan: [name: string, account: string, platforms: string[], at: string, lateMs: number][] = [
    ['P1', accountA, ['feed', 'mastodon'], '2026-10-30T14:00:00Z', 2 * SEC],
    ['P7', accountB, ['feed'], '2026-11-01T03:30:00Z', 0],
    ['P2', accountA, ['mastodon'], '2026-11-02T04:30:00Z', 4 * SEC],
    ['P3', accountB, ['feed'], '2026-11-02T05:30:00Z', 10 * SEC],
    ['P4', accountA, ['feed', 'mastodon'], '2026-11-03T15:00:00Z', 0],
    ['P5', accountA, ['feed'], '2026-11-04T15:00:00Z', 0],
    ['P6', accountB, ['feed'], '2026-11-25T15:00:00Z', 0],
  ]
  for (const [name, account, platforms, at] of plan) {
    const res = await t.http.post('/v1/posts', { account_id: account, content: `${name} content`, scheduled_at: at, platforms }, { key })
    expect(res.status).toBe(201)
    ids[name] = res.body.id
  }
  expect((await t.http.delete(`/v1/posts/${ids.P5}`, { key })).status).toBe(200)

  // Publish each at its time plus its delay; Mastodon rejects P4.
  for (const [name, , , at, lateMs] of plan.slice(0, 5)) {
    t.clock.set(Date.parse(at) + lateMs)
    if (name === 'P4') instance.failNext('POST /api/v1/statuses', { status: 422, body: { error: 'Validation failed: Text is not allowed' } })
    await t.daemon.scheduler.tick(t.clock.now())
    // The first metrics read of each Mastodon status is 15 minutes after it was published.
    if (name === 'P1' || name === 'P2') {
      const status = [...instance.statuses.values()].find((s) => s.content === `${name} content`)!
      status.favourites = name === 'P1' ? 5 : 7
      t.clock.advance(15 * MIN)
      await collector().tick!(t.clock.now())
    }
  }
  // P2 gains two favourites by its next read: the report shows the latest snapshot.
  ;[...instance.statuses.values()].find((s) => s.content === 'P2 content')!.favourites = 9
  t.clock.set(Date.parse('2026-11-04T12:00:00Z'))
  await collector().tick!(t.clock.now())
})

afterAll(async () => {
  await t.stop()
  await instance.server.close()
})

const RANGE = '?from=2026-10-26&to=2026-11-30'
const nothingReported = { impressions: null, likes: null, reposts: null, replies: null, quotes: null, clicks: null, engagements: null, engagement_rate: null }

describe('GET /v1/analytics over a known month', () => {
  it('the seed went as planned (published, failed, cancelled, scheduled)', async () => {
    const statuses = await Promise.all(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7'].map(async (n) => (await t.http.get(`/v1/posts/${ids[n]}`, { key })).body.status))
    expect(statuses).toEqual(['published', 'published', 'published', 'partially_published', 'cancelled', 'scheduled', 'published'])
  })

  it('totals: publishing performance from our records, engagement from the latest snapshots', async () => {
    const res = await report(RANGE)
    expect(res.status).toBe(200)
    expect(res.body.from).toBe('2026-10-26T04:00:00.000Z')
    // `to` is a whole day: the range ends when 1 December starts in New York (EST).
    expect(res.body.to).toBe('2026-12-01T05:00:00.000Z')
    expect(res.body.interval).toBe('day')
    expect(res.body.totals).toEqual({
      posts_scheduled: 8,
      posts_published: 6,
      posts_failed: 1,
      publish_success_rate: 6 / 7,
      // Delays 0, 0, 2 s, 2 s, 4 s, 10 s: the middle two are both 2 s.
      median_publish_delay_ms: 2000,
      impressions: null,
      likes: 14,
      reposts: 4,
      replies: 2,
      // Mastodon reports quotes, and there were none: 0, not null.
      quotes: 0,
      clicks: null,
      engagements: 20,
      // No platform here reports impressions, so there is no rate to give.
      engagement_rate: null,
    })
  })

  it('by platform: feed reports no metrics, so they are null (not 0); Mastodon has its own rates', async () => {
    const res = await report(RANGE)
    expect(res.body.by_platform).toEqual([
      { platform: 'feed', posts_scheduled: 5, posts_published: 4, posts_failed: 0, publish_success_rate: 1, median_publish_delay_ms: 1000, ...nothingReported },
      {
        platform: 'mastodon',
        posts_scheduled: 3,
        posts_published: 2,
        posts_failed: 1,
        publish_success_rate: 2 / 3,
        median_publish_delay_ms: 3000,
        impressions: null,
        likes: 14,
        reposts: 4,
        replies: 2,
        quotes: 0,
        clicks: null,
        engagements: 20,
        engagement_rate: null,
      },
    ])
  })

  it('top posts: by latest engagements, with the platform URL', async () => {
    const res = await report(RANGE)
    const statusOf = (name: string) => [...instance.statuses.values()].find((s) => s.content === `${name} content`)!.id
    expect(res.body.top_posts).toEqual([
      { post_id: ids.P2, platform: 'mastodon', url: `${instance.url}/@alice/${statusOf('P2')}`, engagements: 12 },
      { post_id: ids.P1, platform: 'mastodon', url: `${instance.url}/@alice/${statusOf('P1')}`, engagements: 8 },
    ])
  })

  it('daily series: local days, the 23:30 post on the 25-hour DST day in that day, empty days present', async () => {
    const res = await report(RANGE)
    const series = res.body.series as any[]
    expect(series).toHaveLength(36)
    expect(series[0].start).toBe('2026-10-26T04:00:00.000Z')
    const day = (utcStart: string) => series.find((b) => b.start === utcStart)
    // Sunday 1 November starts at midnight EDT (04:00Z) and lasts 25 hours, to 05:00Z on the 2nd.
    expect(series.map((b) => b.start)).toContain('2026-11-02T05:00:00.000Z')
    expect(day('2026-11-01T04:00:00.000Z')).toMatchObject({ posts_scheduled: 1, posts_published: 1, likes: 9, engagements: 12, median_publish_delay_ms: 4000 })
    expect(day('2026-10-31T04:00:00.000Z')).toMatchObject({ posts_scheduled: 1, median_publish_delay_ms: 0, engagements: null })
    expect(day('2026-11-02T05:00:00.000Z')).toMatchObject({ posts_scheduled: 1, median_publish_delay_ms: 10_000 })
    expect(day('2026-11-03T05:00:00.000Z')).toMatchObject({ posts_scheduled: 2, posts_published: 1, posts_failed: 1, publish_success_rate: 0.5 })
    // The still-scheduled post counts as scheduled on its day, neither published nor failed.
    expect(day('2026-11-25T05:00:00.000Z')).toMatchObject({ posts_scheduled: 1, posts_published: 0, posts_failed: 0, publish_success_rate: null, median_publish_delay_ms: null })
    expect(day('2026-10-27T04:00:00.000Z')).toEqual({ start: '2026-10-27T04:00:00.000Z', posts_scheduled: 0, posts_published: 0, posts_failed: 0, publish_success_rate: null, median_publish_delay_ms: null, ...nothingReported })
    expect(series.reduce((n, b) => n + b.posts_scheduled, 0)).toBe(8)
  })

  it('weekly series start on Monday in New York: Sunday 23:30 stays in its week', async () => {
    const res = await report(`${RANGE}&interval=week`)
    expect(res.body.interval).toBe('week')
    expect(res.body.series.map((b: any) => [b.start, b.posts_scheduled, b.engagements])).toEqual([
      ['2026-10-26T04:00:00.000Z', 4, 20], // Mon 26 Oct – Sun 1 Nov: P1 (2 targets), P7 and P2
      ['2026-11-02T05:00:00.000Z', 3, null], // P3 and P4 (2 targets)
      ['2026-11-09T05:00:00.000Z', 0, null],
      ['2026-11-16T05:00:00.000Z', 0, null],
      ['2026-11-23T05:00:00.000Z', 1, null], // P6, still scheduled
      ['2026-11-30T05:00:00.000Z', 0, null], // only its Monday is in range
    ])
  })

  it('monthly series: Saturday 31 October 23:30 local is October, though it is November in UTC', async () => {
    const res = await report('?from=2026-10-01&to=2026-11-30&interval=month')
    expect(res.body.series.map((b: any) => [b.start, b.posts_scheduled, b.posts_published])).toEqual([
      ['2026-10-01T04:00:00.000Z', 3, 3],
      ['2026-11-01T04:00:00.000Z', 5, 3],
    ])
  })

  it('a bucket that starts before `from` is listed at its own start but counts only the range', async () => {
    const res = await report('?from=2026-10-31T00:00:00-04:00&to=2026-11-02T00:00:00-05:00&interval=week')
    expect(res.body.from).toBe('2026-10-31T04:00:00.000Z')
    expect(res.body.series.map((b: any) => [b.start, b.posts_scheduled])).toEqual([['2026-10-26T04:00:00.000Z', 2]])
  })

  it('filters: by platform, by account, by post', async () => {
    const feed = (await report(`${RANGE}&platform=feed`)).body
    expect(feed.totals).toMatchObject({ posts_scheduled: 5, ...nothingReported })
    expect(feed.by_platform.map((p: any) => p.platform)).toEqual(['feed'])
    expect(feed.top_posts).toEqual([])
    const b = (await report(`${RANGE}&account_id=${accountB}`)).body
    expect(b.totals).toMatchObject({ posts_scheduled: 3, posts_published: 2, median_publish_delay_ms: 5000, engagements: null })
    const p2 = (await report(`${RANGE}&post_id=${ids.P2}`)).body
    expect(p2.totals).toMatchObject({ posts_scheduled: 1, likes: 9, reposts: 2, replies: 1, quotes: 0, engagements: 12 })
    expect(p2.top_posts.map((p: any) => p.post_id)).toEqual([ids.P2])
  })

  it('defaults to the 30 days ending today in the user’s timezone, daily', async () => {
    const res = await report()
    expect(res.status).toBe(200)
    // The clock says 2026-11-04T12:00Z: 07:00 on 4 November in New York.
    expect(res.body).toMatchObject({ from: '2026-10-06T04:00:00.000Z', to: '2026-11-05T05:00:00.000Z', interval: 'day' })
    expect(res.body.series).toHaveLength(30)
    expect(res.body.totals.posts_scheduled).toBe(7)
  })

  it('another user sees none of it', async () => {
    const res = await report(RANGE, t.key)
    expect(res.status).toBe(200)
    expect(res.body.totals).toMatchObject({ posts_scheduled: 0, engagements: null })
    expect((await report(`${RANGE}&post_id=${ids.P2}`, t.key)).status).toBe(422)
  })

  it('spring forward: Sunday 14 March 2027 is a 23-hour day, and 23:30 that night is on it', async () => {
    t.clock.set(Date.parse('2027-03-10T12:00:00Z'))
    // 23:30 EDT on 14 March is 03:30Z on the 15th.
    const created = await t.http.post('/v1/posts', { account_id: accountB, content: 'spring', scheduled_at: '2027-03-14T23:30:00-04:00', platforms: ['feed'] }, { key })
    t.clock.set(Date.parse('2027-03-15T03:30:00Z'))
    await t.daemon.scheduler.tick(t.clock.now())
    const day = (await report('?from=2027-03-14&to=2027-03-14')).body
    expect(day).toMatchObject({ from: '2027-03-14T05:00:00.000Z', to: '2027-03-15T04:00:00.000Z' })
    expect(day.series).toEqual([expect.objectContaining({ start: '2027-03-14T05:00:00.000Z', posts_scheduled: 1, posts_published: 1 })])
    expect((await report('?from=2027-03-15&to=2027-03-15')).body.totals.posts_scheduled).toBe(0)
    expect((await t.http.get(`/v1/posts/${created.body.id}`, { key })).body.status).toBe('published')
  })
})
