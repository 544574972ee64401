import { personalWorkspaceId } from '../src/ids.js'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { sql, startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { mastodon } from '../daemon/platforms/mastodon.js'
import { loopbackPlatform, startLoopbackServer, type LoopbackServer } from './helpers/loopback-platform.js'
import { eventsOf, feedAccount, liftLimits } from './helpers/posts.js'

let t: TestDaemon
let loop: LoopbackServer
const iso = (ms: number) => new Date(ms).toISOString()
const MIN = 60_000

beforeAll(async () => {
  loop = await startLoopbackServer()
  t = await startTestDaemon({
    allowPrivateNetwork: true,
    overrides: {
      egress: { ca: loop.ca },
      platforms: [
        loopbackPlatform('discord', { idempotent: false, timeoutMs: 300 }),
        // Without a declared concurrency, and given the time a loaded machine may take to send a wave of 4.
        loopbackPlatform('slack', { idempotent: true, timeoutMs: 2_000 }),
        // Idempotent for a while only: Mastodon's own hour, and a platform with a 10-minute window.
        loopbackPlatform('mastodon', { idempotent: true, windowMs: mastodon.idempotencyWindowMs, timeoutMs: 300 }),
        loopbackPlatform('telegram', { idempotent: true, windowMs: 10 * MIN, timeoutMs: 300 }),
        // A platform that declares its own concurrency.
        loopbackPlatform('bluesky', { idempotent: true, timeoutMs: 2_000, concurrency: { perPlatform: 8, perConnection: 6 } }),
      ],
    },
  })
  await liftLimits(t)
})
afterAll(async () => {
  await t.stop()
  await loop.close()
})

/** An account connected to feed and to every loopback platform. */
async function account(name: string): Promise<string> {
  const id = await feedAccount(t, name)
  for (const platform of ['discord', 'slack', 'mastodon', 'telegram']) {
    const res = await t.http.post(`/v1/accounts/${id}/connections`, { platform, credentials: { webhook_url: loop.url } }, { key: t.key })
    expect(res.status).toBe(201)
  }
  return id
}

const get = async (id: string) => (await t.http.get(`/v1/posts/${id}`, { key: t.key })).body
const tick = () => t.daemon.scheduler.tick(t.clock.now())
async function schedule(accountId: string, platforms: string[], inMs: number, content = 'hello'): Promise<string> {
  const res = await t.http.post('/v1/posts', { account_id: accountId, content, scheduled_at: iso(t.clock.now() + inMs), platforms }, { key: t.key })
  expect(res.status).toBe(201)
  return res.body.id
}

describe('concurrency', () => {
  it('sends at most 4 publishes at once for one connection, or what the platform declares', async () => {
    const acc = await account('Crowded')
    await t.http.post(`/v1/accounts/${acc}/connections`, { platform: 'bluesky', credentials: { webhook_url: loop.url } }, { key: t.key })
    for (const [platform, expected] of [['slack', 4], ['bluesky', 6]] as const) {
      // Answered in waves of as many as the limit lets out, 100 ms after each wave is complete:
      // one more request sent meanwhile would raise the peak above it.
      loop.reply({ status: 200, delayMs: 100, together: expected })
      for (let i = 0; i < 12; i++) await schedule(acc, [platform], MIN, `crowd ${platform} ${i}`)
      loop.resetPeak()
      t.clock.advance(MIN)
      await tick()
      expect([platform, loop.peak()]).toEqual([platform, expected])
    }
    loop.reply({ status: 200 })
  })
})

describe('fairness', () => {
  it('publishes a post that falls due during another account’s burst while the burst goes on, not after it', async () => {
    const busy = await account('Busy')
    await t.http.post(`/v1/accounts/${busy}/connections`, { platform: 'bluesky', credentials: { webhook_url: loop.url } }, { key: t.key })
    const other = await feedAccount(t, 'Other')
    // 36 posts at 6 at a time, each answered after 150 ms: the burst lasts about 0.9 s.
    loop.reply({ status: 200, delayMs: 150 })
    const burst: string[] = []
    for (let i = 0; i < 36; i++) burst.push(await schedule(busy, ['bluesky'], MIN, `burst ${i}`))
    const later = await schedule(other, ['feed'], MIN + 100, 'due during the burst')
    t.clock.advance(MIN)
    const running = tick()
    // 100 ms into the burst, the other post falls due.
    t.clock.advance(100)
    const statusOf = sql(t).prepare<[string], { status: string }>('SELECT status FROM posts WHERE id = ?')
    const publishedOf = () => burst.filter((id) => statusOf.get(id)!.status === 'published').length
    let burstDoneWhenLaterWas = -1
    await vi.waitFor(async () => {
      expect((await get(later)).status).toBe('published')
      burstDoneWhenLaterWas = publishedOf()
    }, { timeout: 10_000, interval: 10 })
    await running
    expect(burstDoneWhenLaterWas).toBeLessThan(36)
    expect(burst.map(() => 'published')).toEqual(await Promise.all(burst.map(async (id) => (await get(id)).status)))
    loop.reply({ status: 200 })
  })
})

describe('the lifecycle', () => {
  it('publishes a post at its time, not before, and shows it in the feed with its URL', async () => {
    const acc = await feedAccount(t, 'Lifecycle')
    const id = await schedule(acc, ['feed'], 2 * MIN, 'Launch day')
    t.clock.advance(2 * MIN - 1)
    await tick()
    expect((await get(id)).status).toBe('scheduled')
    t.clock.advance(1)
    const result = await tick()
    expect(result.claimed).toBeGreaterThanOrEqual(1)
    const post = await get(id)
    expect(post).toMatchObject({ status: 'published', published_at: iso(t.clock.now()) })
    expect(post.targets[0]).toMatchObject({ platform: 'feed', status: 'published', attempts: 1, platform_post_id: id, url: `${t.url}/feeds/${acc}.html#${id}` })
    const feed = await t.http.get(`/feeds/${acc}.json`)
    expect(feed.body.items.map((i: any) => i.id)).toEqual([id])
    const types = (await t.daemon.store.events.listAfter('', 1e6)).filter((e) => (e.data as any).id === id).map((e) => e.type)
    expect(types).toEqual(['post.scheduled', 'post.target.published', 'post.published'])
  })

  it('publishes on the other platforms when one rejects the post (partially_published), and retry re-queues only the failed one', async () => {
    const acc = await account('Partial')
    loop.reply({ status: 400, body: { message: 'embeds are not allowed' } })
    const id = await schedule(acc, ['feed', 'discord'], MIN)
    t.clock.advance(MIN)
    await tick()
    const post = await get(id)
    expect(post.status).toBe('partially_published')
    expect(post.targets).toEqual([
      expect.objectContaining({ platform: 'feed', status: 'published' }),
      expect.objectContaining({ platform: 'discord', status: 'failed', attempts: 1, error: { code: 'platform_rejected', detail: 'embeds are not allowed' } }),
    ])
    expect((await eventsOf(t, 'post.target.failed')).filter((e) => e.data.id === id).map((e) => e.data.platform)).toEqual(['discord'])
    expect((await eventsOf(t, 'post.partially_published')).filter((e) => e.data.id === id)).toHaveLength(1)

    loop.reply({ status: 200 })
    const before = loop.received.length
    const retried = await t.http.post(`/v1/posts/${id}/retry`, {}, { key: t.key })
    expect(retried.status).toBe(200)
    expect(retried.body.status).toBe('scheduled')
    await tick()
    const done = await get(id)
    expect(done.status).toBe('published')
    expect(done.targets[1]).toMatchObject({ status: 'published', platform_post_id: expect.stringMatching(/^msg-/), error: null })
    expect(loop.received.length).toBe(before + 1)
    expect((await t.daemon.store.feed.recent(acc, 10)).map((i) => i.postId)).toEqual([id])
    expect((await t.http.post(`/v1/posts/${id}/retry`, {}, { key: t.key })).status).toBe(409)
  })

  it('retries transient errors with exponential backoff, honouring Retry-After, then publishes', async () => {
    const acc = await account('Flaky')
    loop.reply({ status: 503 }, { status: 429, headers: { 'retry-after': '600' } }, { status: 200 })
    const id = await schedule(acc, ['discord'], MIN)
    t.clock.advance(MIN)
    await tick()
    expect(await get(id)).toMatchObject({ status: 'publishing', targets: [{ status: 'pending', attempts: 1, error: { code: 'platform_error' } }] })
    t.clock.advance(90_000 - 1)
    await tick()
    expect((await get(id)).targets[0].attempts).toBe(1)
    t.clock.advance(1)
    await tick()
    // 429 asked for 10 minutes, longer than the 4.5 min backoff.
    expect((await get(id)).targets[0]).toMatchObject({ attempts: 2, error: { code: 'rate_limited' } })
    t.clock.advance(10 * MIN - 1)
    await tick()
    expect((await get(id)).targets[0].attempts).toBe(2)
    t.clock.advance(1)
    await tick()
    expect(await get(id)).toMatchObject({ status: 'published', targets: [{ status: 'published', attempts: 3, error: null }] })
  })

  it('gives up after 5 attempts, about an hour in all', async () => {
    const acc = await account('Down')
    loop.reply({ status: 502 })
    const id = await schedule(acc, ['discord'], MIN)
    t.clock.advance(MIN)
    const start = t.clock.now()
    await tick()
    for (let i = 0; i < 10 && (await get(id)).status === 'publishing'; i++) {
      const next = sql(t).prepare('SELECT next_attempt_at AS at FROM post_targets WHERE post_id = ?').get(id) as { at: number }
      t.clock.set(next.at)
      await tick()
    }
    const post = await get(id)
    expect(post).toMatchObject({ status: 'failed', targets: [{ status: 'failed', attempts: 5, error: { code: 'platform_error', detail: expect.stringContaining('gave up after 5 attempts') } }] })
    expect(t.clock.now() - start).toBe((1.5 + 4.5 + 13.5 + 40.5) * MIN)
    loop.reply({ status: 200 })
  })

  it('retries a post days later without rewriting its time: the attempts keep counting, with a fresh allowance', async () => {
    const acc = await account('Retried')
    loop.reply({ status: 400, body: { message: 'embeds are not allowed' } })
    const id = await schedule(acc, ['discord'], MIN)
    const scheduledAt = iso(t.clock.now() + MIN)
    t.clock.advance(MIN)
    await tick()
    expect(await get(id)).toMatchObject({ status: 'failed', scheduled_at: scheduledAt, targets: [{ attempts: 1 }] })

    // Two days on, beyond the 24 h catch-up window: the retry is still published, not missed.
    t.clock.advance(2 * 24 * 60 * MIN)
    loop.reply({ status: 503 })
    const retried = await t.http.post(`/v1/posts/${id}/retry`, {}, { key: t.key })
    expect(retried.body).toMatchObject({ status: 'scheduled', scheduled_at: scheduledAt, targets: [{ status: 'pending', attempts: 1, error: null }] })
    await tick()
    expect(await get(id)).toMatchObject({ status: 'publishing', scheduled_at: scheduledAt, targets: [{ status: 'pending', attempts: 2, error: { code: 'platform_error' } }] })
    // The backoff starts again from its first step: this retry has had one attempt, not two.
    t.clock.advance(90_000)
    loop.reply({ status: 200 })
    await tick()
    const done = await get(id)
    expect(done).toMatchObject({ status: 'published', scheduled_at: scheduledAt, targets: [{ status: 'published', attempts: 3, error: null }] })
    expect(Date.parse(done.published_at) - Date.parse(scheduledAt)).toBe(2 * 24 * 60 * MIN + 90_000)
  })

  it('marks the connection reauth_required on an auth failure, once; later targets fail without a call; new posts are refused', async () => {
    const acc = await account('Revoked')
    loop.reply({ status: 401, body: { message: 'invalid webhook token' } })
    const a = await schedule(acc, ['discord'], MIN)
    const b = await schedule(acc, ['discord', 'feed'], 2 * MIN)
    t.clock.advance(MIN)
    await tick()
    expect(await get(a)).toMatchObject({ status: 'failed', targets: [{ status: 'failed', error: { code: 'unauthorized', detail: expect.stringContaining('Reconnect') } }] })
    const accountNow = (await t.http.get(`/v1/accounts/${acc}`, { key: t.key })).body
    expect(accountNow.connections.find((c: any) => c.platform === 'discord').status).toBe('reauth_required')
    const sent = loop.received.length
    t.clock.advance(MIN)
    await tick()
    loop.reply({ status: 200 })
    expect(loop.received.length).toBe(sent)
    expect(await get(b)).toMatchObject({
      status: 'partially_published',
      targets: [{ platform: 'discord', status: 'failed', error: { code: 'reauth_required' } }, { platform: 'feed', status: 'published' }],
    })
    expect((await eventsOf(t, 'account.reauth_required')).filter((e) => e.data.id === acc).map((e) => e.data.platform)).toEqual(['discord'])
    const refused = await t.http.post('/v1/posts', { account_id: acc, content: 'x', platforms: ['discord'] }, { key: t.key })
    expect(refused.status).toBe(422)
    expect(refused.body.errors[0]).toMatchObject({ pointer: '#/platforms/0', code: 'platform_not_connected' })
    // Connecting again restores it.
    await t.http.post(`/v1/accounts/${acc}/connections`, { platform: 'discord', credentials: { webhook_url: loop.url } }, { key: t.key })
    expect((await t.http.post('/v1/posts', { account_id: acc, content: 'x', platforms: ['discord'], scheduled_at: iso(t.clock.now() + MIN) }, { key: t.key })).status).toBe(201)
  })
})

describe('downtime and crashes', () => {
  it('catches up posts up to 24 h late and fails older ones with missed_schedule', async () => {
    const acc = await feedAccount(t, 'Catch-up')
    const ok = await schedule(acc, ['feed'], MIN)
    // The daemon was "down" (no tick) and comes back 23 h 59 min after the post's time.
    t.clock.advance(MIN + 24 * 3_600_000 - MIN)
    await tick()
    expect(await get(ok)).toMatchObject({ status: 'published' })
    const tooLate = await schedule(acc, ['feed'], MIN)
    t.clock.advance(MIN + 24 * 3_600_000 + 1)
    await tick()
    expect(await get(tooLate)).toMatchObject({ status: 'failed', targets: [{ status: 'failed', attempts: 0, error: { code: 'missed_schedule' } }] })
    expect((await eventsOf(t, 'post.failed')).filter((e) => e.data.id === tooLate)).toHaveLength(1)
    expect((await t.daemon.store.feed.recent(acc, 10)).map((i) => i.postId)).toEqual([ok])
  })

  it('after a restart, re-sends interrupted idempotent publishes and marks the others unconfirmed, never re-sending them', async () => {
    const acc = await account('Crash')
    const id = await schedule(acc, ['feed', 'discord', 'slack'], MIN)
    t.clock.advance(MIN)
    // Claim the post and every target as a dying daemon would have, without calling any platform.
    const { publishing } = t.daemon.store
    await publishing.claimDue(t.clock.now(), 10, 86_400_000)
    for (const ref of await publishing.reserveDue(t.clock.now(), 10, 300_000)) {
      if (ref.postId === id) expect(await publishing.claimTarget(ref, t.clock.now(), 300_000)).toBeDefined()
    }
    const before = loop.received.length
    await t.restart()
    await tick()
    const post = await get(id)
    expect(post.targets).toEqual([
      expect.objectContaining({ platform: 'feed', status: 'published' }),
      expect.objectContaining({ platform: 'discord', status: 'unconfirmed', error: expect.objectContaining({ code: 'unconfirmed' }) }),
      expect.objectContaining({ platform: 'slack', status: 'published' }),
    ])
    expect(post.status).toBe('partially_published')
    expect(loop.received.slice(before).map((r) => r.idempotency_key)).toEqual([id])
  })

  it("re-sends an interrupted Mastodon publish within the Idempotency-Key's hour, and past it marks it unconfirmed unsent", async () => {
    const acc = await account('Window')
    /** Schedules a post and leaves its target `publishing` as a daemon killed mid-attempt would. */
    const interrupted = async () => {
      const { publishing } = t.daemon.store
      const id = await schedule(acc, ['mastodon'], MIN)
      t.clock.advance(MIN)
      await publishing.claimDue(t.clock.now(), 10, 86_400_000)
      const [ref] = (await publishing.reserveDue(t.clock.now(), 10, 300_000)).filter((r) => r.postId === id)
      expect(await publishing.claimTarget(ref!, t.clock.now(), 300_000)).toBeDefined()
      return id
    }
    loop.reply({ status: 200 })

    const soon = await interrupted()
    t.clock.advance(10 * MIN)
    let before = loop.received.length
    await t.restart()
    await tick()
    expect(await get(soon)).toMatchObject({ status: 'published', targets: [{ platform: 'mastodon', status: 'published' }] })
    expect(loop.received.slice(before).filter((r) => r.idempotency_key === soon)).toHaveLength(1)

    // 56 min after it fell due: a re-send might leave after the hour, when the key is forgotten.
    const late = await interrupted()
    t.clock.advance(56 * MIN)
    before = loop.received.length
    await t.restart()
    await tick()
    expect(await get(late)).toMatchObject({
      status: 'failed',
      targets: [{ platform: 'mastodon', status: 'unconfirmed', error: { code: 'unconfirmed', detail: expect.stringContaining('mastodon recognises a repeated request for only 60 min') } }],
    })
    expect(loop.received.slice(before).filter((r) => r.idempotency_key === late)).toEqual([])
  })

  it('re-sends a publish that timed out only while the platform would still recognise the first request', async () => {
    const acc = await account('Window retry')
    loop.reply('hang')
    const id = await schedule(acc, ['telegram'], MIN)
    const sent = loop.received.length
    t.clock.advance(MIN)
    await tick()
    // A retry 1.5 min after the first request keeps inside the 10-minute window (with 5 min to spare)…
    expect(await get(id)).toMatchObject({ status: 'publishing', targets: [{ status: 'pending', attempts: 1 }] })
    t.clock.advance(1.5 * MIN)
    await tick()
    // …the next would be 4.5 min later, 6 min after the first: too close to the platform forgetting it. Unconfirmed instead.
    loop.reply({ status: 200 })
    expect(await get(id)).toMatchObject({
      status: 'failed',
      targets: [{ status: 'unconfirmed', attempts: 2, error: { code: 'unconfirmed', detail: expect.stringContaining('telegram recognises a repeated request for only 10 min') } }],
    })
    const sends = () => loop.received.slice(sent).filter((r) => r.idempotency_key === id).length
    expect(sends()).toBe(2)
    t.clock.advance(15 * MIN)
    await tick()
    expect(sends()).toBe(2)
  })

  it('counts the window from the first request that got no answer, whatever failed after it', async () => {
    const acc = await account('Window chain')
    loop.reply('hang')
    const id = await schedule(acc, ['telegram'], MIN)
    const sent = loop.received.length
    t.clock.advance(MIN)
    await tick()
    // The first request may have published; the second is refused outright (a 503 says nothing of the first)…
    loop.reply({ status: 503 })
    t.clock.advance(1.5 * MIN)
    await tick()
    // …so the third, 4.5 min later, would leave 10.5 min after the first: past telegram's window with its margin.
    expect(await get(id)).toMatchObject({
      status: 'failed',
      targets: [{ status: 'unconfirmed', attempts: 2, error: { code: 'unconfirmed', detail: expect.stringContaining('An earlier attempt got no answer from telegram') } }],
    })
    t.clock.advance(60 * MIN)
    await tick()
    expect(loop.received.slice(sent).filter((r) => r.idempotency_key === id)).toHaveLength(2)
  })

  it('lets a publish in flight finish on shutdown instead of abandoning it', async () => {
    const acc = await account('Shutdown')
    loop.reply({ status: 200, delayMs: 150 })
    const id = await schedule(acc, ['discord'], MIN)
    t.clock.advance(MIN)
    const sent = loop.received.length
    const ticking = t.daemon.scheduler.tick(t.clock.now())
    while (loop.received.length === sent) await new Promise((resolve) => setTimeout(resolve, 5))
    await t.restart()
    await ticking
    loop.reply({ status: 200 })
    expect(await get(id)).toMatchObject({ status: 'published', targets: [{ status: 'published', attempts: 1 }] })
    expect(loop.received.length).toBe(sent + 1)
  })

  it('marks a publish that timed out unconfirmed on a platform without idempotency', async () => {
    const acc = await account('Timeout')
    loop.reply('hang')
    const id = await schedule(acc, ['discord'], MIN)
    t.clock.advance(MIN)
    await tick()
    loop.reply({ status: 200 })
    expect(await get(id)).toMatchObject({ status: 'failed', targets: [{ status: 'unconfirmed', attempts: 1, error: { code: 'unconfirmed', detail: expect.stringContaining('may or may not have published') } }] })
  })
})

describe('scale', () => {
  it('publishes 10,000 posts due in the same second', async () => {
    const acc = await feedAccount(t, 'Scale')
    const me = (await t.http.get('/v1/me', { key: t.key })).body.id
    const at = t.clock.now() + MIN
    for (let i = 0; i < 10_000; i++) {
      await t.daemon.store.posts.create({ userId: me, keyId: null }, { workspaceId: personalWorkspaceId(me), accountId: acc, content: `post ${i}`, mediaUrls: [], platforms: ['feed'], scheduledAt: at + (i % 1000) }, t.clock.now())
    }
    t.clock.set(at + 999)
    // The tick resolves once everything due is out. It yields between claim batches, so the
    // sweep may claim part of the burst meanwhile: what counts is that every post is published.
    const ticking = tick()
    // The first posts go out while the rest are still being claimed: a burst's claims do not
    // hold up every attempt (nor another account's post) until the last of them.
    const scheduled = sql(t).prepare<[string], { n: number }>("SELECT count(*) AS n FROM posts WHERE account_id = ? AND status = 'scheduled'")
    const out = sql(t).prepare<[string], { n: number }>('SELECT count(*) AS n FROM feed_items WHERE account_id = ?')
    while (out.get(acc)!.n === 0) await new Promise((resolve) => setImmediate(resolve))
    expect(scheduled.get(acc)!.n).toBeGreaterThan(0)
    await ticking
    const counts = sql(t).prepare("SELECT status, count(*) AS n FROM posts WHERE account_id = ? GROUP BY status").all(acc)
    expect(counts).toEqual([{ status: 'published', n: 10_000 }])
    expect((await t.daemon.store.feed.recent(acc, 20_000)).length).toBe(10_000)
    // Outcomes recorded in batches sum their analytics per batch: the report counts every one.
    expect(await t.daemon.store.analytics.drift()).toEqual({ hours: 0, delays: 0, top: 0 })
    const day = new Date(at).toISOString().slice(0, 10)
    const report = (await t.http.get(`/v1/analytics?from=${day}&to=${day}&account_id=${acc}`, { key: t.key })).body
    expect(report.totals).toMatchObject({ posts_scheduled: 10_000, posts_published: 10_000, posts_failed: 0 })
    // How long it takes is the benchmark's to report (bench/scheduler.ts), not a test's to time.
  }, 120_000)
})
