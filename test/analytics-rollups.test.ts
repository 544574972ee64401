import { personalWorkspaceId } from '../src/ids.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { SCOPES } from '../src/api/common.js'
import { openDatabase } from '../daemon/store/sqlite/db.js'
import { eventsStore } from '../daemon/store/sqlite/events.js'
import { accountsStore } from '../daemon/store/sqlite/accounts.js'
import { usersStore } from '../daemon/store/sqlite/users.js'
import { postsStore } from '../daemon/store/sqlite/posts.js'
import { queuesStore } from '../daemon/store/sqlite/queues.js'
import { publishingStore } from '../daemon/store/sqlite/publishing.js'
import { metricsStore } from '../daemon/store/sqlite/metrics.js'
import { metricsRollups } from '../daemon/store/sqlite/metrics-rollups.js'
import { openSqliteStore } from '../daemon/store/sqlite/index.js'
import { medianOf } from '../daemon/store/sqlite/analytics-rollups.js'
import { FOLD_AT } from '../daemon/store/sqlite/migrations/0023-rollup-journal.js'
import { COUNT_COLUMNS, METRIC_COLUMNS } from '../daemon/store/sqlite/migrations/0031-counts-apart-from-metrics.js'
import { ROLLUP_COLUMNS } from '../daemon/store/sqlite/migrations/0006-analytics-rollups.js'
import { DELAY_FOLD_AT, foldDelays } from '../daemon/store/sqlite/migrations/0029-delays-journaled.js'
import type { Aggregate } from '../daemon/store/port.js'
import { migrations } from '../daemon/store/sqlite/schema.js'
import { schemaVersion } from '../daemon/store/migrations.js'
import type { PlatformName } from '../daemon/platforms/types.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'

// The rollups behind GET /v1/analytics are kept by triggers; after every kind of write the
// store's full recount (drift) must find nothing to correct, and the report must show the change.

const CONSISTENT = { hours: 0, delays: 0, top: 0 }
const HOUR = 3_600_000
const DAY = 24 * HOUR
const T0 = Date.parse('2026-06-01T00:00:00Z')

let t: TestDaemon
let key: string
let userId: string
let account: string

const store = () => t.daemon.store
const report = async (query: string) => (await t.http.get(`/v1/analytics${query}`, { key })).body
const day = (iso: string) => `?from=${iso}&to=${iso}`

async function publish(postId: string, outcomes: Partial<Record<PlatformName, 'published' | 'failed'>>, at: number) {
  await store().publishing.claimDue(at, 100, Number.MAX_SAFE_INTEGER)
  for (const [platform, kind] of Object.entries(outcomes) as [PlatformName, 'published' | 'failed'][]) {
    const claimed = await store().publishing.claimTarget({ postId, platform, accountId: account, dueAt: at }, at, 60_000)
    expect(claimed).toBeDefined()
    const outcome = kind === 'published' ? { kind, platformPostId: `${postId}-${platform}`, url: null } : { kind, code: 'platform_rejected', detail: 'no' }
    expect(await store().publishing.settle(claimed!, outcome, at + 3_000)).toBe(true)
  }
}

beforeAll(async () => {
  const { ManualClock } = await import('../src/time.js')
  t = await startTestDaemon({ clock: new ManualClock(T0 - DAY), backgroundWorkers: false })
  const user = await store().users.create({ name: 'rollups', plan: 'enterprise', timezone: 'UTC' }, t.clock.now())
  userId = user.id
  await store().users.setPlan(userId, 'enterprise', { per_minute: 1e6, per_hour: 1e6, per_day: 1e6 })
  key = (await store().apiKeys.create(userId, { name: 'all', scopes: SCOPES }, t.clock.now(), null)).secret
  account = (await store().accounts.create(personalWorkspaceId(userId), userId, 'A', t.clock.now())).id
})

afterAll(async () => {
  await t.stop()
})

describe('analytics rollups stay equal to the raw rows', () => {
  const ids: Record<string, string> = {}

  it('through create', async () => {
    for (const [name, at, platforms] of [
      ['a', T0 + 10 * HOUR, ['feed', 'mastodon']],
      ['b', T0 + 11 * HOUR + 30 * 60_000, ['feed']],
      ['c', T0 + DAY + 9 * HOUR, ['mastodon']],
    ] as const) {
      ids[name] = (await store().posts.create({ userId, keyId: null }, { workspaceId: personalWorkspaceId(userId), accountId: account, content: name, mediaUrls: [], platforms: [...platforms], scheduledAt: at }, T0 - DAY)).post.id
    }
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    expect((await report(day('2026-06-01'))).totals.posts_scheduled).toBe(3)
    expect((await report(day('2026-06-02'))).totals.posts_scheduled).toBe(1)
  })

  it('through an update that moves a post to another day and redraws its platforms', async () => {
    const change = await store().posts.update([personalWorkspaceId(userId)], ids.b!, { scheduledAt: T0 + DAY + 15 * HOUR, platforms: ['mastodon', 'discord'] }, 1, T0 - DAY, null)
    expect(change.kind).toBe('ok')
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    expect((await report(day('2026-06-01'))).totals.posts_scheduled).toBe(2)
    const next = await report(day('2026-06-02'))
    expect(next.totals.posts_scheduled).toBe(3)
    expect(next.by_platform.map((p: any) => [p.platform, p.posts_scheduled])).toEqual([['mastodon', 2], ['discord', 1]])
  })

  it('through a cancel', async () => {
    expect((await store().posts.cancel([personalWorkspaceId(userId)], ids.b!, T0 - DAY, null)).kind).toBe('ok')
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    expect((await report(day('2026-06-02'))).totals.posts_scheduled).toBe(1)
  })

  it('through publishing outcomes, with exact medians', async () => {
    await publish(ids.a!, { feed: 'published', mastodon: 'failed' }, T0 + 10 * HOUR)
    await publish(ids.c!, { mastodon: 'published' }, T0 + DAY + 9 * HOUR + 4_000)
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    const both = await report('?from=2026-06-01&to=2026-06-02')
    expect(both.totals).toMatchObject({ posts_scheduled: 3, posts_published: 2, posts_failed: 1, median_publish_delay_ms: 5_000 })
    expect(both.series.map((b: any) => b.median_publish_delay_ms)).toEqual([3_000, 7_000])
  })

  it('through a batch of outcomes recorded together, which sums them itself', async () => {
    // Three posts over two hours of 20 June on two accounts, seven targets: a batch publishes,
    // fails, retries, leaves unconfirmed, repeats one outcome and meets one already recorded.
    const other = (await store().accounts.create(personalWorkspaceId(userId), userId, 'B', t.clock.now())).id
    const june20 = Date.parse('2026-06-20T09:00:00Z')
    const posts = [
      [account, june20, ['feed', 'mastodon', 'discord']],
      [account, june20 + 20 * 60_000, ['feed', 'mastodon']],
      [other, june20 + HOUR, ['feed', 'bluesky']],
    ] as const
    const made: { id: string; at: number }[] = []
    for (const [acc, at, platforms] of posts) {
      made.push({ id: (await store().posts.create({ userId, keyId: null }, { workspaceId: personalWorkspaceId(userId), accountId: acc, content: 'batch', mediaUrls: [], platforms: [...platforms], scheduledAt: at }, T0)).post.id, at })
    }
    const [p1, p2, p3] = made as [{ id: string; at: number }, { id: string; at: number }, { id: string; at: number }]
    const now = june20 + 2 * HOUR
    await store().publishing.claimDue(now, 100, Number.MAX_SAFE_INTEGER)
    const refs = posts.flatMap(([acc, at, platforms], i) => platforms.map((platform) => ({ postId: made[i]!.id, platform, accountId: acc, dueAt: at })))
    const claims = await store().publishing.claimTargets(refs.map((ref) => ({ ref, now })), 60_000)
    expect(claims.every(Boolean)).toBe(true)
    const held = (postId: string, platform: PlatformName) => claims.find((c) => c!.postId === postId && c!.platform === platform)!
    // One recorded on its own first: the batch's repeat of it is refused, and counts nothing twice.
    expect(await store().publishing.settle(held(p3.id, 'bluesky'), { kind: 'published', platformPostId: 'b1', url: null }, now + 500)).toBe(true)
    const published = (id: string) => ({ kind: 'published' as const, platformPostId: id, url: null })
    const results = await store().publishing.settleAll([
      { ...held(p1.id, 'feed'), outcome: published('f1'), at: now + 1_000 },
      { ...held(p1.id, 'mastodon'), outcome: { kind: 'failed', code: 'platform_rejected', detail: 'no' }, at: now + 2_000 },
      { ...held(p1.id, 'discord'), outcome: { kind: 'retry', at: now + 90_000, code: 'network_error', detail: 'later' }, at: now + 2_000 },
      { ...held(p2.id, 'feed'), outcome: published('f2'), at: now + 4_000 },
      { ...held(p2.id, 'mastodon'), outcome: { kind: 'unconfirmed', detail: 'unknown' }, at: now + 4_000 },
      { ...held(p2.id, 'feed'), outcome: published('f2 again'), at: now + 5_000 },
      { ...held(p3.id, 'feed'), outcome: published('f3'), at: now + 6_000 },
      { ...held(p3.id, 'bluesky'), outcome: published('b1 again'), at: now + 6_000 },
    ])
    expect(results).toEqual([true, true, true, true, true, false, true, false])
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    const day20 = await report(day('2026-06-20'))
    // Targets: 4 published, 1 failed (the unconfirmed and the retried one are neither).
    expect(day20.totals).toMatchObject({ posts_scheduled: 7, posts_published: 4, posts_failed: 1 })
    // Delays from each post's time: 2 h 1 s, 1 h 40 min 4 s, 1 h 0.5 s and 1 h 6 s.
    const delays = [2 * HOUR + 1_000, HOUR + 40 * 60_000 + 4_000, HOUR + 500, HOUR + 6_000].sort((a, b) => a - b)
    expect(day20.totals.median_publish_delay_ms).toBe((delays[1]! + delays[2]!) / 2)
    const byAccount = (await t.http.get(`/v1/analytics?from=2026-06-20&to=2026-06-20&account_id=${other}`, { key })).body
    expect(byAccount.totals).toMatchObject({ posts_scheduled: 2, posts_published: 2, posts_failed: 0 })
    // The retried target is counted when its next attempt is recorded, alone or in a batch.
    const [again] = await store().publishing.claimTargets([{ ref: refs[2]!, now: now + 90_000 }], 60_000)
    expect(again).toMatchObject({ postId: p1.id })
    expect(await store().publishing.settleAll([{ ...again!, outcome: published('d1'), at: now + 91_000 }])).toEqual([true])
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    expect((await report(day('2026-06-20'))).totals).toMatchObject({ posts_published: 5, posts_failed: 1 })
  })

  it('through a batch of outcomes that fails part-way, which leaves the rollups as they were', async () => {
    const at = Date.parse('2026-06-23T09:00:00Z')
    const id = (await store().posts.create({ userId, keyId: null }, { workspaceId: personalWorkspaceId(userId), accountId: account, content: 'rolled back', mediaUrls: [], platforms: ['feed'], scheduledAt: at }, T0)).post.id
    await store().publishing.claimDue(at, 100, Number.MAX_SAFE_INTEGER)
    const [claimed] = await store().publishing.claimTargets([{ ref: { postId: id, platform: 'feed', accountId: account, dueAt: at }, now: at }], 60_000)
    const held = { postId: id, platform: 'feed' as const, claim: claimed!.claim }
    const before = await report(day('2026-06-23'))
    // An outcome the store cannot write (an id that is not text, nor JSON) throws after the first was written.
    await expect(
      store().publishing.settleAll([
        { ...held, outcome: { kind: 'published', platformPostId: 'x', url: null }, at: at + 1_000 },
        { ...held, outcome: { kind: 'published', platformPostId: 1n as never, url: null }, at: at + 1_000 },
      ]),
    ).rejects.toThrow()
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    expect(await report(day('2026-06-23'))).toEqual(before)
    // Recorded again, it counts once.
    expect(await store().publishing.settleAll([{ ...held, outcome: { kind: 'published', platformPostId: 'x', url: null }, at: at + 2_000 }])).toEqual([true])
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    expect((await report(day('2026-06-23'))).totals).toMatchObject({ posts_scheduled: 1, posts_published: 1 })
  })

  it('through a claim that publishes feed posts itself, as an attempt and its outcome would', async () => {
    const ws = personalWorkspaceId(userId)
    const at = Date.parse('2026-06-24T09:00:00Z')
    const fed = (await store().accounts.create(ws, userId, 'Fed', T0)).id
    await store().accounts.connect([ws], fed, { platform: 'feed', handle: 'feed', displayName: 'feed', sealedCredentials: Buffer.from('sealed'), settings: {} }, T0, null)
    const create = async (content: string, i: number, extra: { thread?: { content: string; media_urls: string[] }[]; platforms?: PlatformName[] } = {}) =>
      (await store().posts.create({ userId, keyId: null }, { workspaceId: ws, accountId: fed, content, mediaUrls: [], platforms: ['feed'], scheduledAt: at + i * 60_000, ...extra }, T0)).post.id
    const own = [await create('one', 0), await create('two', 1)]
    // A thread is several items, and a post also on another platform needs an attempt there: both are left to attempts.
    const threaded = await create('three', 2, { thread: [{ content: 'and more', media_urls: [] }] })
    const mixed = await create('four', 3, { platforms: ['feed', 'mastodon'] })
    const now = at + HOUR
    const inStore = new Map([['feed' as const, (accountId: string, postId: string) => ({ platformPostId: postId, url: `https://smm.test/feeds/${accountId}.html#${postId}` })]])
    const before = (await store().events.listAfter('', 1e6)).length
    expect(await store().publishing.claimDue(now, 100, Number.MAX_SAFE_INTEGER, inStore)).toEqual({
      claimed: 4,
      missed: 0,
      published: own.map((postId, i) => ({ postId, platform: 'feed', dueAt: at + i * 60_000, attempts: 1 })),
    })
    for (const id of own) {
      const record = (await store().posts.get([ws], id))!
      expect(record.post).toMatchObject({ status: 'published', published_at: new Date(now).toISOString(), updated_at: new Date(now).toISOString() })
      expect(record.post.targets).toEqual([
        expect.objectContaining({ platform: 'feed', status: 'published', attempts: 1, platform_post_id: id, url: `https://smm.test/feeds/${fed}.html#${id}`, error: null }),
      ])
    }
    for (const id of [threaded, mixed]) expect((await store().posts.get([ws], id))!.post.status).toBe('publishing')
    expect((await store().feed.recent(fed, 10)).map((item) => [item.postId, item.content])).toEqual([[own[1], 'two'], [own[0], 'one']])
    const events = (await store().events.listAfter('', 1e6)).slice(before)
    expect(events.map((e) => [e.type, (e.data as { id: string }).id, (e.data as { status: string }).status])).toEqual(
      own.flatMap((id) => [['post.target.published', id, 'published'], ['post.published', id, 'published']]),
    )
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    expect((await report(day('2026-06-24'))).totals).toMatchObject({ posts_scheduled: 5, posts_published: 2, median_publish_delay_ms: HOUR - 30_000 })
  })

  it('through snapshots, newer ones replacing the latest counts', async () => {
    const reading = (likes: number) => ({ impressions: 100, likes, reposts: 1, replies: null, quotes: 0, clicks: null })
    await store().metrics.record([{ postId: ids.c!, platform: 'mastodon', metrics: reading(3), nextAt: null, failures: 0 }], T0 + 2 * DAY)
    await store().metrics.record([{ postId: ids.c!, platform: 'mastodon', metrics: reading(8), nextAt: null, failures: 0 }], T0 + 3 * DAY)
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    expect((await report(day('2026-06-02'))).totals).toMatchObject({ impressions: 100, likes: 8, replies: null, engagements: 9, engagement_rate: 0.09 })
  })

  it('through a batch of snapshots of several targets, several each, out of order, some older than the latest', async () => {
    const seed = openSqliteStore(t.daemon.databaseFile)
    onTestFinished(() => seed.close())
    const at = T0 + 20 * DAY
    const posted: string[] = []
    for (const [i, platforms] of [['mastodon'], ['mastodon', 'bluesky'], ['mastodon']].entries()) {
      posted.push((await store().posts.create({ userId, keyId: null }, { workspaceId: personalWorkspaceId(userId), accountId: account, content: `batch ${i}`, mediaUrls: [], platforms: platforms as PlatformName[], scheduledAt: at + i * HOUR }, T0 - DAY)).post.id)
    }
    const [kept, both, gone] = posted as [string, string, string]
    const m = (likes: number | null, impressions: number | null = null) => ({ impressions, likes, reposts: null, replies: null, quotes: null, clicks: null })
    seed.metrics.snapshotsSync([{ postId: kept, platform: 'mastodon', takenAt: at + DAY, metrics: m(50, 1_000) }])
    expect((await store().posts.cancel([personalWorkspaceId(userId)], gone, T0 - DAY, null)).kind).toBe('ok')
    seed.metrics.snapshotsSync([
      // Older than the latest kept: a snapshot only.
      { postId: kept, platform: 'mastodon', takenAt: at + HOUR, metrics: m(7) },
      { postId: both, platform: 'bluesky', takenAt: at + 3 * DAY, metrics: m(9, 90) },
      { postId: both, platform: 'mastodon', takenAt: at + 2 * DAY, metrics: m(4) },
      { postId: both, platform: 'bluesky', takenAt: at + 2 * DAY, metrics: m(1) },
      // Two readings at the same time: the later one is kept, as one by one.
      { postId: both, platform: 'mastodon', takenAt: at + 3 * DAY, metrics: m(5) },
      { postId: both, platform: 'mastodon', takenAt: at + 3 * DAY, metrics: m(6, 60) },
      // A cancelled post's target counts nowhere.
      { postId: gone, platform: 'mastodon', takenAt: at + 3 * DAY, metrics: m(100) },
    ])
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    const day20 = await report(day('2026-06-21'))
    expect(day20.totals).toMatchObject({ posts_scheduled: 3, likes: 65, impressions: 1_150, engagements: 65 })
    expect(day20.top_posts.map((p: any) => [p.post_id, p.platform, p.engagements])).toEqual([
      [kept, 'mastodon', 50],
      [both, 'bluesky', 9],
      [both, 'mastodon', 6],
    ])
    expect((await store().metrics.history(both, 'mastodon')).map((s) => s.likes)).toEqual([4, 6])
    // Counts that stop being reported leave the sums and the ranking.
    seed.metrics.snapshotsSync([{ postId: kept, platform: 'mastodon', takenAt: at + 4 * DAY, metrics: m(null) }])
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    const after = await report(day('2026-06-21'))
    expect(after.totals).toMatchObject({ likes: 15, impressions: 150, engagements: 15 })
    expect(after.top_posts.map((p: any) => p.post_id)).toEqual([both, both])
    // Undone by a cancel, redone by nothing else: the post's counts leave with it.
    expect((await store().posts.cancel([personalWorkspaceId(userId)], both, T0 - DAY, null)).kind).toBe('ok')
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    expect((await report(day('2026-06-21'))).totals).toMatchObject({ posts_scheduled: 1, likes: null })
  })

  it('through a retry, which keeps the post on its day and its delays true', async () => {
    t.clock.set(T0 + 5 * DAY + 12 * HOUR)
    expect((await store().posts.retry([personalWorkspaceId(userId)], ids.a!, t.clock.now(), null)).kind).toBe('ok')
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    // Both targets still count on 1 June: the feed one published with its 3 s delay, the other no longer failed.
    expect((await report(day('2026-06-01'))).totals).toMatchObject({ posts_scheduled: 2, posts_published: 1, posts_failed: 0, median_publish_delay_ms: 3_000 })
    expect((await report(day('2026-06-06'))).totals.posts_scheduled).toBe(0)
    // The retried target goes out days late, and says so: its delay is measured from 1 June.
    await publish(ids.a!, { mastodon: 'published' }, t.clock.now())
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    const after = await report(day('2026-06-01'))
    expect(after.totals).toMatchObject({ posts_scheduled: 2, posts_published: 2, posts_failed: 0 })
    expect(after.by_platform.find((p: any) => p.platform === 'mastodon').median_publish_delay_ms).toBe(5 * DAY + 2 * HOUR + 3_000)
  })

  it('across a daemon restart', async () => {
    const before = await report('?from=2026-06-01&to=2026-06-30')
    await t.restart()
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    expect(await report('?from=2026-06-01&to=2026-06-30')).toEqual(before)
  })

  it('reads the partial hours of a half-hour zone from the raw rows', async () => {
    const kolkata = await store().users.create({ name: 'kolkata', plan: 'enterprise', timezone: 'Asia/Kolkata' }, t.clock.now())
    await store().users.setPlan(kolkata.id, 'enterprise', { per_minute: 1e6, per_hour: 1e6, per_day: 1e6 })
    const k = (await store().apiKeys.create(kolkata.id, { name: 'all', scopes: SCOPES }, t.clock.now(), null)).secret
    const acc = (await store().accounts.create(personalWorkspaceId(kolkata.id), kolkata.id, 'K', t.clock.now())).id
    // 18:15Z is 23:45 on the 1st in Kolkata (UTC+5:30); 18:45Z is 00:15 on the 2nd: one UTC hour, two local days.
    for (const at of ['2026-07-01T18:15:00Z', '2026-07-01T18:45:00Z', '2026-07-01T18:50:00Z']) {
      await store().posts.create({ userId: kolkata.id, keyId: null }, { workspaceId: personalWorkspaceId(kolkata.id), accountId: acc, content: at, mediaUrls: [], platforms: ['feed'], scheduledAt: Date.parse(at) }, t.clock.now())
    }
    const res = (await t.http.get('/v1/analytics?from=2026-07-01&to=2026-07-02', { key: k })).body
    expect(res.series.map((b: any) => [b.start, b.posts_scheduled])).toEqual([
      ['2026-06-30T18:30:00.000Z', 1],
      ['2026-07-01T18:30:00.000Z', 2],
    ])
    // Totals add up the range's whole hours and its two partial ones, not the buckets.
    expect(res.totals.posts_scheduled).toBe(3)
    expect((await t.http.get('/v1/analytics?from=2026-07-02&to=2026-07-02', { key: k })).body.by_platform).toEqual([expect.objectContaining({ platform: 'feed', posts_scheduled: 2 })])
  })
})

describe('top_posts, walked down the ranking or read from the range', () => {
  it('gives the same most engaging targets either way', async () => {
    const owner = await store().users.create({ name: 'ranked', plan: 'enterprise', timezone: 'UTC' }, t.clock.now())
    const acc = (await store().accounts.create(personalWorkspaceId(owner.id), owner.id, 'R', t.clock.now())).id
    const start = Date.parse('2026-08-01T00:00:00Z')
    const created: Promise<{ postId: string; at: number; engagements: number }>[] = []
    // Seeded through a second SQLite store on the daemon's file, whose units of work can be
    // batched in one transaction: 2,200 posts one by one would take most of a minute.
    const seed = openSqliteStore(t.daemon.databaseFile)
    onTestFinished(() => seed.close())
    // More engaged targets in range than the walk threshold (2,000), one an hour, in one transaction.
    seed.db.transaction(() => {
      for (let i = 0; i < 2_200; i++) {
        const at = start + i * HOUR
        const engagements = (i * 7_919) % 1_000
        created.push(seed.posts.create({ userId: owner.id, keyId: null }, { workspaceId: personalWorkspaceId(owner.id), accountId: acc, content: `r${i}`, mediaUrls: [], platforms: ['mastodon'], scheduledAt: at }, start - DAY).then((r) => ({ postId: r.post.id, at, engagements })))
      }
    })()
    // The store's functions write synchronously and resolve after: the ids are collected once committed.
    const seeded = await Promise.all(created)
    const last = start + 2_200 * HOUR
    await store().publishing.claimDue(last, 10_000, Number.MAX_SAFE_INTEGER)
    seed.db.transaction(() => {
      for (const s of seeded) {
        void seed.publishing.claimTarget({ postId: s.postId, platform: 'mastodon', accountId: acc, dueAt: s.at }, s.at, 60_000)
        // The claim just taken (synchronously, as the store writes): the target's first.
        void seed.publishing.settle({ postId: s.postId, platform: 'mastodon', claim: 1 }, { kind: 'published', platformPostId: s.postId, url: null }, s.at + 1_000)
        seed.metrics.snapshotsSync([{ postId: s.postId, platform: 'mastodon', takenAt: s.at + HOUR, metrics: { impressions: null, likes: s.engagements, reposts: null, replies: null, quotes: null, clicks: null } }])
      }
    })()
    expect(seeded).toHaveLength(2_200)
    expect(await store().analytics.drift()).toEqual(CONSISTENT)
    const expected = (from: number, to: number) =>
      seeded
        .filter((s) => s.at >= from && s.at < to)
        .sort((a, b) => b.engagements - a.engagements || (a.postId < b.postId ? -1 : 1))
        .slice(0, 10)
        .map((s) => ({ postId: s.postId, platform: 'mastodon', url: null, engagements: s.engagements }))
    const topOf = async (from: number, to: number) =>
      (await store().analytics.report({ workspaceId: personalWorkspaceId(owner.id), from, to, buckets: [{ start: from, end: to }], top: 10 })).top
    // All 2,200 in range: the ranking is walked. A week (168): the posts in range are read and
    // sorted. The week before: none has engagements, and none is read.
    expect(await topOf(start, last)).toEqual(expected(start, last))
    expect(await topOf(start + 100 * HOUR, start + 268 * HOUR)).toEqual(expected(start + 100 * HOUR, start + 268 * HOUR))
    expect(await topOf(start - 7 * DAY, start)).toEqual([])
  })
})

describe('the rollup journal (migration 23)', () => {
  it('folds into the rollups as it fills, and reports what the raw rows say before and after, over random writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-journal-'))
    const s = openSqliteStore(join(dir, 'smm.db'))
    onTestFinished(() => {
      s.close()
      rmSync(dir, { recursive: true, force: true })
    })
    let seed = 11
    const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
    const pick = <T>(items: readonly T[]) => items[Math.floor(rnd() * items.length)]!
    const start = Date.parse('2026-03-01T00:00:00Z')
    const days = 40
    const user = await s.users.create({ name: 'journal', plan: 'enterprise', timezone: 'UTC' }, start)
    const ws = personalWorkspaceId(user.id)
    const by = { userId: user.id, keyId: null }
    const accounts: string[] = []
    for (let i = 0; i < 3; i++) accounts.push((await s.accounts.create(ws, user.id, `J${i}`, start)).id)
    const platforms = ['feed', 'mastodon', 'bluesky'] as const
    const journaled = () => s.db.prepare('SELECT count(*) FROM analytics_pending').pluck().get() as number
    const folded = () => s.db.prepare('SELECT count(*) FROM analytics_counts').pluck().get() as number

    // The figures a report must give, counted from the raw rows: per day, per platform, in all.
    type Figures = { scheduled: number; published: number; failed: number; likes: number | null; impressions: number | null }
    const raw = (accountId?: string, platform?: string) => {
      const rows = s.db
        .prepare(
          `SELECT p.account_id, p.scheduled_at, t.platform, t.status, m.likes, m.impressions FROM posts p JOIN post_targets t ON t.post_id = p.id
             LEFT JOIN target_metrics m ON m.post_id = t.post_id AND m.platform = t.platform
            WHERE p.workspace_id = ? AND p.status NOT IN ('cancelled', 'draft', 'pending_approval', 'rejected')`,
        )
        .all(ws) as { account_id: string; scheduled_at: number; platform: string; status: string; likes: number | null; impressions: number | null }[]
      const add = (into: Map<string | number, Figures>, key: string | number, r: (typeof rows)[number]) => {
        const f = into.get(key) ?? into.set(key, { scheduled: 0, published: 0, failed: 0, likes: null, impressions: null }).get(key)!
        f.scheduled++
        f.published += Number(r.status === 'published')
        f.failed += Number(r.status === 'failed')
        if (r.likes !== null) f.likes = (f.likes ?? 0) + r.likes
        if (r.impressions !== null) f.impressions = (f.impressions ?? 0) + r.impressions
      }
      const byDay = new Map<string | number, Figures>()
      const byPlatform = new Map<string | number, Figures>()
      for (const r of rows) {
        if ((accountId && r.account_id !== accountId) || (platform && r.platform !== platform)) continue
        add(byDay, Math.floor((r.scheduled_at - start) / DAY), r)
        add(byPlatform, r.platform, r)
      }
      return { byDay, byPlatform }
    }
    const figuresOf = (a: Aggregate): Figures => ({ scheduled: a.scheduled, published: a.published, failed: a.failed, likes: a.likes, impressions: a.impressions })
    const check = async () => {
      expect(await s.analytics.drift()).toEqual(CONSISTENT)
      for (const [accountId, platform] of [[undefined, undefined], [accounts[1], undefined], [undefined, 'mastodon'], [accounts[2], 'bluesky']] as const) {
        const buckets = Array.from({ length: days }, (_, i) => ({ start: start + i * DAY, end: start + (i + 1) * DAY }))
        const report = await s.analytics.report({ workspaceId: ws, from: start, to: start + days * DAY, buckets, accountId, platform, top: 3 })
        const expected = raw(accountId, platform)
        expect(new Map([...report.byBucket].map(([i, a]) => [i, figuresOf(a)]))).toEqual(expected.byDay)
        expect(new Map(report.byPlatform.map((a) => [a.platform, figuresOf(a)]))).toEqual(expected.byPlatform)
      }
    }

    // Posts on the hour and off it, on every account, then moved, redrawn and cancelled.
    const posts: { id: string; version: number }[] = []
    for (let i = 0; i < 900; i++) {
      const chosen = platforms.filter(() => rnd() < 0.6)
      const input = { workspaceId: ws, accountId: pick(accounts), content: `j${i}`, mediaUrls: [], platforms: chosen.length ? [...chosen] : ['feed' as const], scheduledAt: start + Math.floor(rnd() * days * DAY) }
      const made = await s.posts.create(by, input, start - DAY)
      posts.push({ id: made.post.id, version: made.version })
    }
    expect(journaled()).toBeGreaterThan(0)
    await check()
    for (const post of posts.slice(0, 100)) {
      const changes = rnd() < 0.5 ? { scheduledAt: start + Math.floor(rnd() * days * DAY) } : { platforms: [pick(platforms)] }
      const changed = await s.posts.update([ws], post.id, changes, post.version, start - DAY, null)
      expect(changed.kind).toBe('ok')
    }
    for (const post of posts.slice(100, 140)) expect((await s.posts.cancel([ws], post.id, start - DAY, null)).kind).toBe('ok')
    await check()

    // Published in the scheduler's batches, some failing; then readings of the published ones.
    const end = start + days * DAY
    while ((await s.publishing.claimDue(end, 500, Number.MAX_SAFE_INTEGER)).claimed > 0);
    const refs = await s.publishing.reserveDue(end, 100_000, 60_000)
    for (let from = 0; from < refs.length; from += 200) {
      const claimed = (await s.publishing.claimTargets(refs.slice(from, from + 200).map((ref) => ({ ref, now: end })), 60_000)).filter((c) => c !== undefined)
      await s.publishing.settleAll(
        claimed.map((c) => ({
          postId: c.postId,
          platform: c.platform,
          claim: c.claim,
          at: end + Math.floor(rnd() * 5_000),
          outcome: rnd() < 0.1 ? { kind: 'failed' as const, code: 'platform_rejected', detail: 'no' } : { kind: 'published' as const, platformPostId: `${c.postId}-${c.platform}`, url: null },
        })),
      )
    }
    await check()
    const published = s.db.prepare("SELECT post_id AS postId, platform FROM post_targets WHERE status = 'published'").all() as { postId: string; platform: PlatformName }[]
    for (let from = 0; from < published.length; from += 500) {
      s.metrics.snapshotsSync(
        published.slice(from, from + 500).flatMap((t) => [1, 2].map((k) => ({ ...t, takenAt: end + k * HOUR, metrics: { impressions: rnd() < 0.3 ? null : Math.floor(rnd() * 900), likes: Math.floor(rnd() * 40) * k, reposts: 0, replies: null, quotes: 0, clicks: null } }))),
      )
    }
    // The journal has been folded on the way (the rollups hold rows only once it has) and holds some still.
    expect(folded()).toBeGreaterThan(0)
    expect(journaled()).toBeGreaterThan(0)
    expect(journaled()).toBeLessThan(FOLD_AT)
    await check()
    const before = await s.analytics.report({ workspaceId: ws, from: start, to: end, buckets: [{ start, end }], top: 5 })
    // Rows that change nothing fill the journal up to its size: it folds, and the figures stay.
    s.db.prepare(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO analytics_pending (workspace_id, account_id, platform, hour) SELECT ?, ?, 'feed', 0 FROM n`).run(FOLD_AT - journaled(), ws, accounts[0])
    expect(journaled()).toBe(0)
    await check()
    expect(await s.analytics.report({ workspaceId: ws, from: start, to: end, buckets: [{ start, end }], top: 5 })).toEqual(before)
  }, 90_000)
})

describe('migration 26', () => {
  it('keeps every rollup row under its numbered scope, folds on into them, and drops them with their workspace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-scopes-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, 'smm.db')
    // Written at 25 by today's stores (but the analytics reader, which reads 26's tables), folded once.
    const db = openDatabase(file, migrations.filter((m) => m.version <= 25))
    const events = eventsStore(db)
    const accounts = accountsStore(db, events)
    const users = usersStore(db)
    const posts = postsStore(db, events, accounts, queuesStore(db))
    // Its outcomes one by one through the triggers of 25: today's batch of outcomes writes 29's journal of delays.
    const publishing = publishingStore(db, events, accounts, null)
    const user = await users.create({ name: 'old', plan: 'enterprise', timezone: 'UTC' }, T0)
    const ws = personalWorkspaceId(user.id)
    const accs = [(await accounts.create(ws, user.id, 'one', T0)).id, (await accounts.create(ws, user.id, 'two', T0)).id]
    for (let i = 0; i < 60; i++) {
      const input = { workspaceId: ws, accountId: accs[i % 2]!, content: `p${i}`, mediaUrls: [], platforms: i % 3 ? (['feed'] as const) : (['feed', 'mastodon'] as const), scheduledAt: T0 + (i % 7) * HOUR + i * 60_000 }
      await posts.create({ userId: user.id, keyId: null }, { ...input, platforms: [...input.platforms] }, T0 - DAY)
    }
    await publishing.claimDue(T0 + DAY, 100, Number.MAX_SAFE_INTEGER)
    const refs = await publishing.reserveDue(T0 + DAY, 1_000, 60_000)
    const claimed = (await publishing.claimTargets(refs.map((ref) => ({ ref, now: T0 + DAY })), 60_000)).filter((c) => c !== undefined)
    await publishing.settleAll(claimed.map((c, i) => ({ postId: c.postId, platform: c.platform, claim: c.claim, at: T0 + DAY + i, outcome: i % 4 ? { kind: 'published' as const, platformPostId: `x${i}`, url: null } : { kind: 'failed' as const, code: 'platform_rejected', detail: 'no' } })))
    // Rows that change nothing fill the journal up to its size: it folds into the rollups of 25.
    const journaled = () => db.prepare('SELECT count(*) FROM analytics_pending').pluck().get() as number
    db.prepare(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO analytics_pending (workspace_id, account_id, platform, hour) SELECT ?, ?, 'feed', 0 FROM n`).run(FOLD_AT - journaled(), ws, accs[0])
    expect(journaled()).toBe(0)
    const before = db.prepare('SELECT * FROM analytics_hours ORDER BY 1, 2, 3, 4').all() as Record<string, unknown>[]
    // Each account on each of its platforms, all accounts on each, all of both; over the 7 hours.
    expect(new Set(before.map((r) => `${r.account_scope} ${r.platform}`)).size).toBe(2 * 2 + 2 + 1)
    // And a change still in the journal when the migration runs.
    await posts.create({ userId: user.id, keyId: null }, { workspaceId: ws, accountId: accs[1]!, content: 'late', mediaUrls: [], platforms: ['bluesky'], scheduledAt: T0 + 30 * HOUR }, T0)
    db.close()

    const s = openSqliteStore(file)
    onTestFinished(() => s.close())
    // Each row's counts and its metrics, kept apart since migration 31 (a row with no metrics has none kept: zeros).
    const byIds = () =>
      s.db
        .prepare(
          `SELECT c.workspace_id, c.account_scope, c.platform, r.scope, r.hour, r.scheduled, r.published, r.failed, ${METRIC_COLUMNS.map((col) => `coalesce(m.${col}, 0) AS ${col}`).join(', ')}
             FROM analytics_counts r JOIN analytics_scopes c ON c.id = r.scope LEFT JOIN analytics_metrics m ON m.scope = r.scope AND m.hour = r.hour ORDER BY 1, 2, 3, r.hour`,
        )
        .all()
        .map((row) => {
          const { scope, ...rest } = row as Record<string, unknown>
          expect(scope).toEqual(expect.any(Number))
          return rest
        })
    // Every row but those of all accounts on all platforms, which migration 28 drops (a report sums the platforms' rows).
    expect(byIds()).toEqual(before.filter((r) => r.account_scope !== '*' || r.platform !== '*'))
    expect(await s.analytics.drift()).toEqual(CONSISTENT)
    const report = await s.analytics.report({ workspaceId: ws, from: T0, to: T0 + 2 * DAY, buckets: [{ start: T0, end: T0 + DAY }, { start: T0 + DAY, end: T0 + 2 * DAY }], top: 3 })
    expect(report.totals).toMatchObject({ scheduled: 81, published: 60, failed: 20 })
    expect(report.byBucket.get(1)).toMatchObject({ scheduled: 1, published: 0 })
    // The journal folds into the numbered rows: the late post's platform gets its scopes, on its account and all.
    s.db.prepare(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO analytics_pending (workspace_id, account_id, platform, hour) SELECT ?, ?, 'feed', 0 FROM n`).run(FOLD_AT - (s.db.prepare('SELECT count(*) FROM analytics_pending').pluck().get() as number), ws, accs[0])
    expect(s.db.prepare('SELECT count(*) FROM analytics_pending').pluck().get()).toBe(0)
    expect(s.db.prepare('SELECT count(*) FROM analytics_scopes').pluck().get()).toBe(8)
    expect(await s.analytics.drift()).toEqual(CONSISTENT)
    expect(await s.analytics.report({ workspaceId: ws, from: T0, to: T0 + 2 * DAY, buckets: [{ start: T0, end: T0 + DAY }, { start: T0 + DAY, end: T0 + 2 * DAY }], top: 3 })).toEqual(report)
    // A workspace's scopes and rollup rows go with it (one whose accounts have gone, their rows left at zero).
    const shared = await s.workspaces.create(user.id, { name: 'Shared', approvalRequired: false, timezone: 'UTC' }, T0)
    const rows = () => s.db.prepare('SELECT (SELECT count(*) FROM analytics_counts) + (SELECT count(*) FROM analytics_metrics)').pluck().get() as number
    const kept = rows()
    s.db.prepare("INSERT INTO analytics_scopes (workspace_id, account_scope, platform) VALUES (?, '*', '*')").run(shared.id)
    for (const table of ['analytics_counts', 'analytics_metrics']) s.db.prepare(`INSERT INTO ${table} (scope, hour) SELECT id, 1 FROM analytics_scopes WHERE workspace_id = ?`).run(shared.id)
    expect(rows()).toBe(kept + 2)
    expect(await s.workspaces.delete(shared.id)).toEqual({ kind: 'ok' })
    expect(s.db.prepare('SELECT count(*) FROM analytics_scopes').pluck().get()).toBe(8)
    expect(rows()).toBe(kept)
  })
})

describe('the delays journal (migration 29)', () => {
  /** A store over a fresh file, with one workspace of three accounts and posts over ten days on them. */
  async function seeded(s: ReturnType<typeof openSqliteStore>, posts: number) {
    let seed = 29
    const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
    const user = await s.users.create({ name: 'delays', plan: 'enterprise', timezone: 'UTC' }, T0)
    const ws = personalWorkspaceId(user.id)
    const accounts: string[] = []
    for (let i = 0; i < 3; i++) accounts.push((await s.accounts.create(ws, user.id, `D${i}`, T0)).id)
    const platforms = ['feed', 'mastodon', 'bluesky'] as const
    for (let i = 0; i < posts; i++) {
      const chosen = platforms.filter(() => rnd() < 0.6)
      const input = { workspaceId: ws, accountId: accounts[i % 3]!, content: `d${i}`, mediaUrls: [], platforms: chosen.length ? [...chosen] : ['feed' as const], scheduledAt: T0 + Math.floor(rnd() * 10 * DAY) }
      await s.posts.create({ userId: user.id, keyId: null }, input, T0 - DAY)
    }
    // Publishes the due targets of posts due by `until`, in the scheduler's batches, each a random
    // few seconds to minutes late (some fail), so each day has its own median.
    const publishUntil = async (until: number) => {
      while ((await s.publishing.claimDue(until, 500, Number.MAX_SAFE_INTEGER)).claimed > 0);
      const refs = await s.publishing.reserveDue(until, 100_000, 60_000)
      for (let from = 0; from < refs.length; from += 100) {
        const claimed = (await s.publishing.claimTargets(refs.slice(from, from + 100).map((ref) => ({ ref, now: ref.dueAt })), 60_000)).filter((c) => c !== undefined)
        await s.publishing.settleAll(
          claimed.map((c) => {
            const due = refs.find((r) => r.postId === c.postId && r.platform === c.platform)!.dueAt
            return { postId: c.postId, platform: c.platform, claim: c.claim, at: due + Math.floor(rnd() * 600_000), outcome: rnd() < 0.1 ? { kind: 'failed' as const, code: 'platform_rejected', detail: 'no' } : { kind: 'published' as const, platformPostId: `${c.postId}-${c.platform}`, url: null } }
          }),
        )
      }
    }
    return { userId: user.id, ws, accounts, publishUntil }
  }

  const buckets = Array.from({ length: 10 }, (_, i) => ({ start: T0 + i * DAY, end: T0 + (i + 1) * DAY }))
  const counted = (s: ReturnType<typeof openSqliteStore>, table: string) => s.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number

  /** The exact medians, from the raw rows: in all, per platform and per day. */
  function rawMedians(s: ReturnType<typeof openSqliteStore>, ws: string, accountId?: string, platform?: string) {
    const rows = s.db
      .prepare(
        `SELECT p.account_id, p.scheduled_at, t.platform, t.published_at - p.scheduled_at AS delay FROM posts p JOIN post_targets t ON t.post_id = p.id
          WHERE p.workspace_id = ? AND p.status NOT IN ('cancelled', 'draft', 'pending_approval', 'rejected') AND t.status = 'published'`,
      )
      .all(ws) as { account_id: string; scheduled_at: number; platform: string; delay: number }[]
    const chosen = rows.filter((r) => (!accountId || r.account_id === accountId) && (!platform || r.platform === platform) && r.scheduled_at >= T0 && r.scheduled_at < T0 + 10 * DAY)
    const median = (of: typeof chosen) => medianOf(Float64Array.from(of.map((r) => r.delay)))
    const byDay = new Map<number, number | null>()
    const byPlatform = new Map<string, number | null>()
    for (const i of new Set(chosen.map((r) => Math.floor((r.scheduled_at - T0) / DAY)))) byDay.set(i, median(chosen.filter((r) => Math.floor((r.scheduled_at - T0) / DAY) === i)))
    for (const p of new Set(chosen.map((r) => r.platform))) byPlatform.set(p, median(chosen.filter((r) => r.platform === p)))
    return { total: median(chosen), byDay, byPlatform }
  }

  /** The store's recount finds nothing to correct, and each report's medians are the raw rows'; returns the reports. */
  async function check(s: ReturnType<typeof openSqliteStore>, ws: string, accounts: string[]) {
    expect(await s.analytics.drift()).toEqual(CONSISTENT)
    const reports = []
    for (const [accountId, platform] of [[undefined, undefined], [accounts[1], undefined], [undefined, 'mastodon'], [accounts[2], 'bluesky']] as const) {
      const report = await s.analytics.report({ workspaceId: ws, from: T0, to: T0 + 10 * DAY, buckets, accountId, platform, top: 3 })
      const expected = rawMedians(s, ws, accountId, platform)
      expect(report.totals.medianDelayMs).toBe(expected.total)
      expect(new Map([...report.byBucket].filter(([, a]) => a.published > 0).map(([i, a]) => [i, a.medianDelayMs]))).toEqual(expected.byDay)
      expect(new Map(report.byPlatform.filter((a) => a.published > 0).map((a) => [a.platform, a.medianDelayMs]))).toEqual(expected.byPlatform)
      reports.push(report)
    }
    return reports
  }

  it('reports the same medians from the journal, from the tree and from both, through removals before a fold and folds as it fills', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-delays-'))
    const s = openSqliteStore(join(dir, 'smm.db'))
    onTestFinished(() => {
      s.close()
      rmSync(dir, { recursive: true, force: true })
    })
    const { userId, ws, accounts, publishUntil } = await seeded(s, 400)

    // The first five days' outcomes: their delays are all in the journal, none in the tree yet.
    await publishUntil(T0 + 5 * DAY)
    expect(counted(s, 'publish_delays_pending')).toBeGreaterThan(100)
    expect(counted(s, 'publish_delays')).toBe(0)
    const unfolded = await check(s, ws, accounts)
    // Folded, they are all in the tree, in key order, and every report is what it was.
    s.db.exec(foldDelays())
    expect(counted(s, 'publish_delays_pending')).toBe(0)
    expect(counted(s, 'publish_delays')).toBeGreaterThan(100)
    expect(await check(s, ws, accounts)).toEqual(unfolded)

    // The rest: the tree holds the first days' delays, the journal the last days'.
    await publishUntil(T0 + 10 * DAY)
    const journaled = counted(s, 'publish_delays_pending')
    expect(journaled).toBeGreaterThan(100)
    await check(s, ws, accounts)

    // A write that takes no delay away (cancelling a post nobody published) leaves the journal be.
    const later = await s.posts.create({ userId, keyId: null }, { workspaceId: ws, accountId: accounts[0]!, content: 'later', mediaUrls: [], platforms: ['feed'], scheduledAt: T0 + 20 * DAY }, T0)
    expect((await s.posts.cancel([ws], later.post.id, T0, null)).kind).toBe('ok')
    expect(counted(s, 'publish_delays_pending')).toBe(journaled)
    // Deleting an account takes its posts' delays away, those in the tree and those in the journal
    // alike: the journal is folded first, and the reports follow.
    const gone = s.db.prepare("SELECT count(*) FROM publish_delays_pending WHERE account_id = ?").pluck().get(accounts[0]) as number
    expect(gone).toBeGreaterThan(0)
    expect(s.db.prepare('SELECT count(*) FROM publish_delays WHERE account_id = ?').pluck().get(accounts[0])).toBeGreaterThan(0)
    expect((await s.posts.deleteAccount([ws], accounts[0]!, { cancelPosts: true }, T0 + 11 * DAY, null)).kind).toBe('ok')
    expect(counted(s, 'publish_delays_pending')).toBe(0)
    expect(s.db.prepare('SELECT count(*) FROM publish_delays WHERE account_id = ?').pluck().get(accounts[0])).toBe(0)
    const afterRemoval = await check(s, ws, accounts)

    // Another workspace's delays fill the journal up to its size: the row that fills it folds it,
    // and this workspace's reports stay as they were. The other workspace's delays go with it.
    const other = await s.workspaces.create(userId, { name: 'Other', approvalRequired: false, timezone: 'UTC' }, T0)
    const fill = s.db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < @count)
       INSERT INTO publish_delays_pending (workspace_id, account_id, scheduled_at, post_id, platform, delay) SELECT @ws, 'acc_other', @at + i, 'pst_' || (@at + i), 'feed', 1000 FROM n`,
    )
    fill.run({ count: DELAY_FOLD_AT - 1, ws: other.id, at: T0 })
    expect(counted(s, 'publish_delays_pending')).toBe(DELAY_FOLD_AT - 1)
    fill.run({ count: 10, ws: other.id, at: T0 + DAY })
    expect(counted(s, 'publish_delays_pending')).toBe(9)
    expect(s.db.prepare('SELECT count(*) FROM publish_delays WHERE workspace_id = ?').pluck().get(other.id)).toBe(DELAY_FOLD_AT)
    expect((await s.workspaces.delete(other.id)).kind).toBe('ok')
    expect(counted(s, 'publish_delays_pending')).toBe(0)
    expect(s.db.prepare('SELECT count(*) FROM publish_delays WHERE workspace_id = ?').pluck().get(other.id)).toBe(0)
    expect(await check(s, ws, accounts)).toEqual(afterRemoval)
  }, 60_000)

  it('is what migration 29 starts the delays written before it with', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-delays-29-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, 'smm.db')
    // Written at 28 by today's stores but the batch of outcomes, whose delays the triggers of 28
    // write instead (today's batch writes 29's journal): all in the tree.
    const db = openDatabase(file, migrations.filter((m) => m.version <= 28))
    const events = eventsStore(db)
    const accounts = accountsStore(db, events)
    const publishing = publishingStore(db, events, accounts, null)
    const users = usersStore(db)
    const posts = postsStore(db, events, accounts, queuesStore(db))
    const user = await users.create({ name: 'old', plan: 'enterprise', timezone: 'UTC' }, T0)
    const ws = personalWorkspaceId(user.id)
    const accs = [(await accounts.create(ws, user.id, 'one', T0)).id, (await accounts.create(ws, user.id, 'two', T0)).id, (await accounts.create(ws, user.id, 'three', T0)).id]
    for (let i = 0; i < 90; i++) {
      const input = { workspaceId: ws, accountId: accs[i % 3]!, content: `p${i}`, mediaUrls: [], platforms: i % 2 ? (['feed'] as const) : (['feed', 'mastodon'] as const), scheduledAt: T0 + (i % 10) * DAY + i * 60_000 }
      await posts.create({ userId: user.id, keyId: null }, { ...input, platforms: [...input.platforms] }, T0 - DAY)
    }
    await publishing.claimDue(T0 + 5 * DAY, 100, Number.MAX_SAFE_INTEGER)
    const refs = await publishing.reserveDue(T0 + 5 * DAY, 1_000, 60_000)
    const claimed = (await publishing.claimTargets(refs.map((ref) => ({ ref, now: T0 + 5 * DAY })), 60_000)).filter((c) => c !== undefined)
    await publishing.settleAll(claimed.map((c, i) => ({ postId: c.postId, platform: c.platform, claim: c.claim, at: T0 + 5 * DAY + i * 7_000, outcome: i % 5 ? { kind: 'published' as const, platformPostId: `x${i}`, url: null } : { kind: 'failed' as const, code: 'platform_rejected', detail: 'no' } })))
    const written = db.prepare('SELECT * FROM publish_delays ORDER BY 1, 2, 3, 4, 5').all()
    expect(written.length).toBeGreaterThan(20)
    db.close()

    const s = openSqliteStore(file)
    onTestFinished(() => s.close())
    expect(s.db.prepare('SELECT * FROM publish_delays ORDER BY 1, 2, 3, 4, 5').all()).toEqual(written)
    expect(counted(s, 'publish_delays_pending')).toBe(0)
    const before = await check(s, ws, accs)
    // Outcomes after it go to the journal, beside the tree's; deleting an account folds and drops.
    const { publishing: now } = s
    while ((await now.claimDue(T0 + 10 * DAY, 100, Number.MAX_SAFE_INTEGER)).claimed > 0);
    const rest = await now.reserveDue(T0 + 10 * DAY, 1_000, 60_000)
    const again = (await now.claimTargets(rest.map((ref) => ({ ref, now: T0 + 10 * DAY })), 60_000)).filter((c) => c !== undefined)
    await now.settleAll(again.map((c, i) => ({ postId: c.postId, platform: c.platform, claim: c.claim, at: T0 + 10 * DAY + i * 11_000, outcome: { kind: 'published' as const, platformPostId: `y${i}`, url: null } })))
    expect(counted(s, 'publish_delays_pending')).toBe(again.length)
    expect(await check(s, ws, accs)).not.toEqual(before)
    expect((await s.posts.deleteAccount([ws], accs[1]!, { cancelPosts: true }, T0 + 11 * DAY, null)).kind).toBe('ok')
    expect(counted(s, 'publish_delays_pending')).toBe(0)
    await check(s, ws, accs)
  })
})

/** A database at `version` (a fresh file), written by today's stores: a workspace of two accounts, and those stores. */
async function oldDatabase(version: number, prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'smm.db')
  const db = openDatabase(file, migrations.filter((m) => m.version <= version))
  const events = eventsStore(db)
  const accounts = accountsStore(db, events)
  const user = await usersStore(db).create({ name: 'old', plan: 'enterprise', timezone: 'UTC' }, T0)
  const ws = personalWorkspaceId(user.id)
  const accs = [(await accounts.create(ws, user.id, 'one', T0)).id, (await accounts.create(ws, user.id, 'two', T0)).id]
  return { file, db, accounts, user, ws, accs, posts: postsStore(db, events, accounts, queuesStore(db)), publishing: publishingStore(db, events, accounts) }
}

describe('migration 30', () => {
  it('keeps the ranking in one tree by rank, which snapshots, cancels and a deleted account keep true', async () => {
    // Ranked at 29 (a table by target and an index by rank) by today's stores.
    const { file, db, accounts, user, ws, accs, posts, publishing } = await oldDatabase(29, 'smm-ranking-')
    const ids: string[] = []
    for (let i = 0; i < 8; i++) {
      const platforms: PlatformName[] = i % 2 ? ['mastodon'] : ['mastodon', 'bluesky']
      ids.push((await posts.create({ userId: user.id, keyId: null }, { workspaceId: ws, accountId: accs[i % 2]!, content: `p${i}`, mediaUrls: [], platforms, scheduledAt: T0 + i * HOUR }, T0 - DAY)).post.id)
    }
    // One still scheduled, to be cancelled with its counts.
    const later = (await posts.create({ userId: user.id, keyId: null }, { workspaceId: ws, accountId: accs[0]!, content: 'later', mediaUrls: [], platforms: ['mastodon'], scheduledAt: T0 + 5 * DAY }, T0 - DAY)).post.id
    await publishing.claimDue(T0 + DAY, 100, Number.MAX_SAFE_INTEGER)
    const refs = await publishing.reserveDue(T0 + DAY, 1_000, 60_000)
    const claimed = (await publishing.claimTargets(refs.map((ref) => ({ ref, now: T0 + DAY })), 60_000)).filter((c) => c !== undefined)
    await publishing.settleAll(claimed.map((c, i) => ({ postId: c.postId, platform: c.platform, claim: c.claim, at: T0 + DAY + i, outcome: { kind: 'published' as const, platformPostId: `x${i}`, url: null } })))
    const m = (likes: number | null) => ({ impressions: null, likes, reposts: null, replies: null, quotes: null, clicks: null })
    // Ties (3 and 3, 7 and 7) rank by post and platform; a null ranks nowhere.
    const likes = [3, 7, 3, null, 7, 12, 1, 5]
    metricsStore(db, accounts, metricsRollups(db)).snapshotsSync([
      ...ids.map((postId, i) => ({ postId, platform: 'mastodon' as const, takenAt: T0 + 2 * DAY, metrics: m(likes[i]!) })),
      { postId: ids[0]!, platform: 'bluesky', takenAt: T0 + 2 * DAY, metrics: m(7) },
    ])
    const ranking = (d: typeof db) => d.prepare('SELECT workspace_id, engagements, post_id, platform, scheduled_at, account_id FROM top_targets ORDER BY workspace_id, engagements DESC, post_id, platform').all()
    const before = ranking(db)
    expect(before).toHaveLength(8)
    db.close()

    const s = openSqliteStore(file)
    onTestFinished(() => s.close())
    expect(ranking(s.db)).toEqual(before)
    // The table is the ranking: no index beside its key, read in its own order.
    expect(s.db.prepare('SELECT origin FROM pragma_index_list(?)').pluck().all('top_targets')).toEqual(['pk'])
    // Every trigger finds a target's entries by the key, not by target (which would read the whole tree).
    const triggers = s.db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%DELETE FROM top_targets%'").pluck().all() as string[]
    expect(triggers).toHaveLength(3)
    for (const sql of triggers) expect(sql.match(/DELETE FROM top_targets WHERE [^;]*/g)).toEqual([expect.stringMatching(/^DELETE FROM top_targets WHERE \(workspace_id, engagements, post_id, platform\) IN \(SELECT /)])
    expect(s.db.prepare('SELECT engagements, post_id FROM top_targets').raw().all()).toEqual(before.map((r: any) => [r.engagements, r.post_id]))
    expect(await s.analytics.drift()).toEqual(CONSISTENT)
    const top = async (n: number) => (await s.analytics.report({ workspaceId: ws, from: T0, to: T0 + 7 * DAY, buckets: [{ start: T0, end: T0 + 7 * DAY }], top: n })).top.map((r) => [r.postId, r.platform, r.engagements])
    expect(await top(3)).toEqual([[ids[5], 'mastodon', 12], ...[[ids[0], 'bluesky', 7], [ids[1], 'mastodon', 7], [ids[4], 'mastodon', 7]].sort((a, b) => `${a[0]} ${a[1]}`.localeCompare(`${b[0]} ${b[1]}`)).slice(0, 2)])
    // An entry moves with its target's engagements, leaves with them, and comes with the first.
    s.metrics.snapshotsSync([
      { postId: ids[6]!, platform: 'mastodon', takenAt: T0 + 3 * DAY, metrics: m(40) },
      { postId: ids[5]!, platform: 'mastodon', takenAt: T0 + 3 * DAY, metrics: m(null) },
      { postId: ids[3]!, platform: 'mastodon', takenAt: T0 + 3 * DAY, metrics: m(2) },
      // Older than the latest: kept as a snapshot, ranks nothing.
      { postId: ids[7]!, platform: 'mastodon', takenAt: T0 + DAY, metrics: m(90) },
    ])
    expect(await s.analytics.drift()).toEqual(CONSISTENT)
    expect((await top(1))[0]).toEqual([ids[6], 'mastodon', 40])
    expect(s.db.prepare('SELECT count(*) FROM top_targets WHERE post_id IN (?, ?, ?, ?)').pluck().get(ids[3], ids[5], ids[6], ids[7])).toBe(3)
    // A cancelled post's entries go (and it had none yet); a deleted account's posts take theirs.
    s.metrics.snapshotsSync([{ postId: later, platform: 'mastodon', takenAt: T0 + 3 * DAY, metrics: m(30) }])
    expect(s.db.prepare('SELECT count(*) FROM top_targets WHERE post_id = ?').pluck().get(later)).toBe(1)
    expect((await s.posts.cancel([ws], later, T0 + 3 * DAY, null)).kind).toBe('ok')
    expect(s.db.prepare('SELECT count(*) FROM top_targets WHERE post_id = ?').pluck().get(later)).toBe(0)
    expect(await s.analytics.drift()).toEqual(CONSISTENT)
    expect((await s.posts.deleteAccount([ws], accs[1]!, { cancelPosts: true }, T0 + 3 * DAY, null)).kind).toBe('ok')
    expect(s.db.prepare('SELECT DISTINCT account_id FROM top_targets').pluck().all()).toEqual([accs[0]])
    expect(await s.analytics.drift()).toEqual(CONSISTENT)
  })
})

describe('migration 31', () => {
  it("keeps each rollup row's counts and metrics apart, exactly, folds on into them, and reports what the raw rows say", async () => {
    // Written at 30 by today's stores (but the analytics reader, which reads 31's tables), folded once.
    const { file, db, accounts, user, ws, accs, posts, publishing } = await oldDatabase(30, 'smm-counts-')
    const ids: string[] = []
    for (let i = 0; i < 40; i++) {
      const platforms: PlatformName[] = i % 3 ? ['mastodon'] : ['feed', 'mastodon', 'bluesky']
      ids.push((await posts.create({ userId: user.id, keyId: null }, { workspaceId: ws, accountId: accs[i % 2]!, content: `p${i}`, mediaUrls: [], platforms, scheduledAt: T0 + (i % 9) * HOUR + i * 60_000 }, T0 - DAY)).post.id)
    }
    // Two posts a day later, alone in their hours: one cancelled once folded, its rollup row left at zeros.
    const alone = []
    for (const [i, accountId] of accs.entries()) alone.push((await posts.create({ userId: user.id, keyId: null }, { workspaceId: ws, accountId, content: `alone ${i}`, mediaUrls: [], platforms: ['bluesky'], scheduledAt: T0 + DAY + (i + 1) * HOUR }, T0 - DAY)).post.id)
    await publishing.claimDue(T0 + HOUR * 10, 100, Number.MAX_SAFE_INTEGER)
    const refs = await publishing.reserveDue(T0 + HOUR * 10, 1_000, 60_000)
    const claimed = (await publishing.claimTargets(refs.map((ref) => ({ ref, now: T0 + HOUR * 10 })), 60_000)).filter((c) => c !== undefined)
    await publishing.settleAll(claimed.map((c, i) => ({ postId: c.postId, platform: c.platform, claim: c.claim, at: T0 + HOUR * 10 + i, outcome: i % 5 ? { kind: 'published' as const, platformPostId: `x${i}`, url: null } : { kind: 'failed' as const, code: 'platform_rejected', detail: 'no' } })))
    const m = (i: number) => ({ impressions: i % 4 ? 100 + i : null, likes: i % 3, reposts: null, replies: i, quotes: 0, clicks: null })
    // Metrics on the Mastodon targets of every other post: hours with counts and no metrics stay.
    metricsStore(db, accounts, metricsRollups(db)).snapshotsSync(ids.filter((_, i) => i % 2).map((postId, i) => ({ postId, platform: 'mastodon' as const, takenAt: T0 + 2 * DAY, metrics: m(i) })))
    const journaled = () => db.prepare('SELECT count(*) FROM analytics_pending').pluck().get() as number
    const fill = (d: typeof db) => d.prepare(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO analytics_pending (workspace_id, account_id, platform, hour) SELECT ?, ?, 'feed', 0 FROM n`).run(FOLD_AT - (d.prepare('SELECT count(*) FROM analytics_pending').pluck().get() as number), ws, accs[0])
    fill(db)
    expect(journaled()).toBe(0)
    expect((await posts.cancel([ws], alone[0]!, T0, null)).kind).toBe('ok')
    fill(db)
    const before = db.prepare('SELECT c.workspace_id, c.account_scope, c.platform, r.* FROM analytics_rollups r JOIN analytics_scopes c ON c.id = r.scope ORDER BY 1, 2, 3, r.hour').all() as Record<string, number>[]
    const zeros = before.filter((r) => ROLLUP_COLUMNS.every((c) => r[c] === 0))
    // The cancelled post's two rows (its account's and all accounts'); the rest count something, and some have no metrics.
    expect(zeros).toHaveLength(2)
    expect(before.filter((r) => r.scheduled && METRIC_COLUMNS.every((c) => r[c] === 0)).length).toBeGreaterThan(before.length / 3)
    // And a change still in the journal when the migration runs.
    await posts.create({ userId: user.id, keyId: null }, { workspaceId: ws, accountId: accs[1]!, content: 'late', mediaUrls: [], platforms: ['feed'], scheduledAt: T0 + 3 * HOUR }, T0)
    expect(journaled()).toBe(1)
    db.close()

    const s = openSqliteStore(file)
    onTestFinished(() => s.close())
    const rowsOf = (table: string, columns: readonly string[]) =>
      s.db.prepare(`SELECT c.workspace_id, c.account_scope, c.platform, r.scope, r.hour, ${columns.map((col) => `r.${col}`).join(', ')} FROM ${table} r JOIN analytics_scopes c ON c.id = r.scope ORDER BY 1, 2, 3, r.hour`).all()
    const part = (columns: readonly string[]) =>
      before.filter((r) => columns.some((c) => r[c] !== 0)).map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !ROLLUP_COLUMNS.includes(k as never) || columns.includes(k))))
    // Narrow rows: the counts alone beside their key; each table only the rows its figures are not all zero in.
    expect(s.db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('analytics_counts')).toEqual(['scope', 'hour', ...COUNT_COLUMNS])
    expect(rowsOf('analytics_counts', COUNT_COLUMNS)).toEqual(part(COUNT_COLUMNS))
    expect(rowsOf('analytics_metrics', METRIC_COLUMNS)).toEqual(part(METRIC_COLUMNS))
    expect(s.db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'analytics_rollups'").pluck().get()).toBe(0)
    expect(await s.analytics.drift()).toEqual(CONSISTENT)
    // What the raw rows say, in all and per platform, against the report.
    const raw = () =>
      s.db
        .prepare(
          `SELECT t.platform, count(*) AS scheduled, sum(t.status = 'published') AS published, sum(t.status = 'failed') AS failed, sum(m.likes) AS likes, sum(m.impressions) AS impressions, sum(m.replies) AS replies
             FROM posts p JOIN post_targets t ON t.post_id = p.id LEFT JOIN target_metrics m ON m.post_id = t.post_id AND m.platform = t.platform
            WHERE p.workspace_id = ? AND p.status <> 'cancelled' GROUP BY t.platform ORDER BY t.platform`,
        )
        .all(ws)
    const range = { workspaceId: ws, from: T0, to: T0 + 3 * DAY, buckets: [{ start: T0, end: T0 + DAY }, { start: T0 + DAY, end: T0 + 3 * DAY }], top: 3 }
    const figures = (r: Awaited<ReturnType<typeof s.analytics.report>>) =>
      r.byPlatform.map((a) => ({ platform: a.platform, scheduled: a.scheduled, published: a.published, failed: a.failed, likes: a.likes, impressions: a.impressions, replies: a.replies })).sort((a, b) => a.platform.localeCompare(b.platform))
    const report = await s.analytics.report(range)
    expect(figures(report)).toEqual(raw())
    expect(report.totals).toMatchObject({ scheduled: 3 * 14 + 26 + 1 + 1, published: expect.any(Number) })
    expect(report.byBucket.get(1)).toMatchObject({ scheduled: 1, published: 0, likes: null })
    // The journal folds on into the two tables: a count-only change leaves the metrics' rows as they were.
    const metricsRows = rowsOf('analytics_metrics', METRIC_COLUMNS)
    await s.posts.create({ userId: user.id, keyId: null }, { workspaceId: ws, accountId: accs[0]!, content: 'later', mediaUrls: [], platforms: ['mastodon'], scheduledAt: T0 + 30 * HOUR }, T0)
    fill(s.db)
    expect(s.db.prepare('SELECT count(*) FROM analytics_pending').pluck().get()).toBe(0)
    expect(rowsOf('analytics_metrics', METRIC_COLUMNS)).toEqual(metricsRows)
    expect(await s.analytics.drift()).toEqual(CONSISTENT)
    const after = await s.analytics.report(range)
    expect(after.totals.scheduled).toBe(report.totals.scheduled + 1)
    expect(after.byBucket.get(1)).toMatchObject({ scheduled: 2, published: 0 })
    // A metrics change folds into the metrics' rows alone.
    const countsRows = rowsOf('analytics_counts', COUNT_COLUMNS)
    s.metrics.snapshotsSync([{ postId: ids[2]!, platform: 'mastodon', takenAt: T0 + 3 * DAY, metrics: m(7) }])
    fill(s.db)
    expect(rowsOf('analytics_counts', COUNT_COLUMNS)).toEqual(countsRows)
    expect(await s.analytics.drift()).toEqual(CONSISTENT)
    expect(figures(await s.analytics.report(range))).toEqual(raw())
  })
})

describe('medianOf', () => {
  it('is the middle value, or the mean of the middle two, of any order of values', () => {
    let seed = 7
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31)
    for (let n = 1; n < 60; n++) {
      const values = Array.from({ length: n }, () => (next() % 20_001) - 10_000)
      const sorted = [...values].sort((a, b) => a - b)
      const expected = n % 2 ? sorted[n >> 1]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2
      expect(medianOf(Float64Array.from(values))).toBe(expected)
    }
    expect(medianOf(new Float64Array())).toBeNull()
  })
})

describe('migration 6', () => {
  it('backfills the rollups of a database written before it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-rollups-'))
    try {
      const file = join(dir, 'smm.db')
      const db = openDatabase(file, migrations.filter((m) => m.version < 6))
      // Today's stores write the old data, so they get the columns and tables later migrations
      // add (7, 8, 10, 11, 12, 16, 17, 18, 19, 20) for a while, and today's events table (20 keys
      // events by workspace) in place of version 5's; they are dropped again below, leaving the file as
      // version 5 had it.
      const later = {
        columns: [
          ['post_targets', 'attempts_before_retry INTEGER NOT NULL DEFAULT 0'],
          ['post_targets', 'uncertain_since INTEGER'],
          ['post_targets', 'error_part INTEGER'],
          ['post_targets', 'claim INTEGER NOT NULL DEFAULT 0'],
          ['posts', "thread TEXT NOT NULL DEFAULT '[]'"],
          ['posts', 'first_comment TEXT'],
          ['posts', "overrides TEXT NOT NULL DEFAULT '{}'"],
          ['posts', 'series_id TEXT'],
          ['posts', 'occurrence INTEGER'],
          ['posts', 'repeat_rule TEXT'],
          ['posts', 'workspace_id TEXT'],
          ['accounts', 'workspace_id TEXT'],
          ['posts', "media TEXT NOT NULL DEFAULT '[]'"],
        ],
        tables: {
          queue_slots: 'account_id, day, minute',
          post_target_parts: 'post_id, platform, idx, kind, platform_post_id, url, ref, published_at',
          post_series: 'id, workspace_id, user_id, account_id, template, last_occurrence, ended_at, awaiting_approval, created_at',
          post_comments: 'id, post_id, author, body, decision, created_at',
          analytics_deferred: 'post_id, platform, status, published_at',
          outbox: 'event_id',
          workspaces: 'id, name, personal_of, approval_required, timezone, created_at',
          workspace_members: 'workspace_id, user_id, role, created_at',
          events_now: 'id, workspace_id, type, data, actor, created_at, dispatched_at',
          media: 'id, user_id, status, release_at, created_at',
          post_media: 'post_id, media_id',
        },
      }
      for (const [table, column] of later.columns) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column}`)
      for (const [table, columns] of Object.entries(later.tables)) db.exec(`CREATE TABLE ${table} (${columns})`)
      db.exec('ALTER TABLE events RENAME TO events_v5; ALTER TABLE events_now RENAME TO events')
      const events = eventsStore(db)
      const accounts = accountsStore(db, events)
      const users = usersStore(db)
      const posts = postsStore(db, events, accounts, queuesStore(db))
      const publishing = publishingStore(db, events, accounts)
      // Version 5 has no rollups to keep: migration 6 computes them from the raw rows.
      const metrics = metricsStore(db, accounts, null)
      const user = await users.create({ name: 'old', plan: 'enterprise', timezone: 'UTC' }, T0)
      const acc = (await accounts.create(personalWorkspaceId(user.id), user.id, 'old', T0)).id
      const a = (await posts.create({ userId: user.id, keyId: null }, { workspaceId: personalWorkspaceId(user.id), accountId: acc, content: 'a', mediaUrls: [], platforms: ['feed', 'mastodon'], scheduledAt: T0 + HOUR }, T0)).post.id
      await posts.create({ userId: user.id, keyId: null }, { workspaceId: personalWorkspaceId(user.id), accountId: acc, content: 'b', mediaUrls: [], platforms: ['feed'], scheduledAt: T0 + DAY }, T0)
      const cancelled = (await posts.create({ userId: user.id, keyId: null }, { workspaceId: personalWorkspaceId(user.id), accountId: acc, content: 'c', mediaUrls: [], platforms: ['feed'], scheduledAt: T0 + DAY }, T0)).post.id
      await posts.cancel([personalWorkspaceId(user.id)], cancelled, T0, null)
      await publishing.claimDue(T0 + HOUR, 10, Number.MAX_SAFE_INTEGER)
      for (const platform of ['feed', 'mastodon'] as const) {
        const claimed = await publishing.claimTarget({ postId: a, platform, accountId: acc, dueAt: T0 + HOUR }, T0 + HOUR, 60_000)
        await publishing.settle(claimed!, { kind: 'published', platformPostId: platform, url: null }, T0 + HOUR + (platform === 'feed' ? 1_000 : 2_000))
      }
      await metrics.record([{ postId: a, platform: 'mastodon', metrics: { impressions: null, likes: 4, reposts: 1, replies: 0, quotes: null, clicks: null }, nextAt: null, failures: 0 }], T0 + 2 * HOUR)
      for (const [table, column] of later.columns) db.exec(`ALTER TABLE ${table} DROP COLUMN ${column!.split(' ')[0]}`)
      db.exec('ALTER TABLE events RENAME TO events_now; ALTER TABLE events_v5 RENAME TO events')
      for (const table of Object.keys(later.tables)) db.exec(`DROP TABLE ${table}`)
      db.close()

      const upgraded = openSqliteStore(file)
      try {
        expect(upgraded.db.pragma('user_version', { simple: true })).toBe(schemaVersion(migrations))
        expect(await upgraded.analytics.drift()).toEqual(CONSISTENT)
        const buckets = [{ start: T0, end: T0 + DAY }, { start: T0 + DAY, end: T0 + 2 * DAY }]
        const rows = await upgraded.analytics.report({ workspaceId: personalWorkspaceId(user.id), from: T0, to: T0 + 2 * DAY, buckets, top: 10 })
        expect(rows.totals).toMatchObject({ scheduled: 3, published: 2, failed: 0, medianDelayMs: 1_500, likes: 4, engagements: 5, impressions: null })
        expect(rows.byBucket.get(1)).toMatchObject({ scheduled: 1, published: 0, medianDelayMs: null })
      } finally {
        upgraded.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
