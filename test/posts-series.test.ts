import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { eventsOf, feedAccount, liftLimits } from './helpers/posts.js'
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js'

// Recurring and evergreen posts over the API, on the test daemon's manual clock (November 2026),
// moved across New York's 2027 DST change (Sunday 14 March, 02:00 → 03:00). The daemon's
// certificate is made at its clock's time, so the clock starts in the present and moves on.
let t: TestDaemon
let account: string
let receiver: Receiver
const HOUR = 3_600_000
const DAY = 24 * HOUR
const iso = (ms: number) => new Date(ms).toISOString()

beforeAll(async () => {
  receiver = await startReceiver()
  t = await startTestDaemon({ allowPrivateNetwork: true, egress: { ca: [receiver.ca] }, backgroundWorkers: false })
  await liftLimits(t)
  expect((await t.http.patch('/v1/me', { timezone: 'America/New_York' }, { key: t.key })).status).toBe(200)
  account = await feedAccount(t)
})
afterAll(async () => {
  await t.stop()
  await receiver.close()
})

const create = (body: Record<string, unknown>) => t.http.post('/v1/posts', { account_id: account, content: 'Evergreen', platforms: ['feed'], ...body }, { key: t.key })
const series = async (id: string) => (await t.http.get(`/v1/posts?series_id=${id}&limit=100`, { key: t.key })).body.data as any[]
const tick = () => t.daemon.scheduler.tick(t.clock.now())
const errorsOf = (res: { body: any }) => res.body.errors.map((e: any) => [e.pointer, e.code])

describe('validation', () => {
  const at = '2027-03-08T09:00:00-05:00'
  it('refuses each bad repeat with its field and why', async () => {
    const cases: [Record<string, unknown>, string, string, RegExp][] = [
      [{ interval: 'PT30M', count: 3 }, '#/repeat/interval', 'invalid_value', /under one hour/],
      [{ interval: 'every week', count: 3 }, '#/repeat/interval', 'invalid_value', /ISO 8601 duration/],
      [{ interval: 'P1W', count: 1 }, '#/repeat/count', 'invalid_value', /at least 2/],
      [{ interval: 'P1W', count: 2.5 }, '#/repeat/count', 'invalid_value', /whole number/],
      [{ interval: 'P1W', until: '2027-03-01T00:00:00Z' }, '#/repeat/until', 'before_start', /before the first occurrence \(2027-03-08T14:00:00.000Z\)/],
      [{ interval: 'P1W' }, '#/repeat', 'required', /count or until/],
      [{ interval: 'P1W', count: 54 }, '#/repeat/count', 'too_long', /occurrence 54 .*beyond a year/],
      [{ interval: 'P1M', until: '2028-06-01T00:00:00Z' }, '#/repeat/until', 'too_long', /occurrence 14 would fall on 2028-04-08T13:00:00.000Z/],
      [{ interval: 'PT1H', count: 3, until: '2027-03-09T00:00:00Z', every: 'day' }, '#/repeat/every', 'unknown_field', /not a field/],
      // Out of any date's range: refused by the schema, before a date is computed from them.
      ...[9007199254740992, 3e9, 1e308, 8786].map((count): [Record<string, unknown>, string, string, RegExp] => [{ interval: 'PT1H', count }, '#/repeat/count', 'invalid_value', /at most 8785/]),
      [{ interval: 'P1D', count: 1e8 }, '#/repeat/count', 'invalid_value', /at most 8785/],
      ...['P275000Y', 'P999999999Y', 'P100000000M', 'P13M', 'P367D', 'PT8786H', 'P12M40D'].map((interval): [Record<string, unknown>, string, string, RegExp] => [{ interval, count: 2 }, '#/repeat/interval', 'invalid_value', /longer than a year/]),
      [{ interval: 'P275000Y', until: '2027-04-01T00:00:00Z' }, '#/repeat/interval', 'invalid_value', /longer than a year/],
    ]
    for (const [repeat, pointer, code, detail] of cases) {
      const res = await create({ scheduled_at: at, repeat })
      expect(res.status, JSON.stringify(repeat)).toBe(422)
      expect(res.body.errors, JSON.stringify(repeat)).toEqual([expect.objectContaining({ pointer, code, detail: expect.stringMatching(detail) })])
    }
    // A year exactly (a weekly series of 53, the last 364 days on) is allowed, as is an hourly one
    // as long, and a yearly one.
    const valid = async (repeat: Record<string, unknown>) =>
      (await t.http.post('/v1/posts/validate', { account_id: account, content: 'x', platforms: ['feed'], scheduled_at: at, repeat }, { key: t.key })).status
    for (const repeat of [{ interval: 'P1W', count: 53 }, { interval: 'PT1H', count: 2 }, { interval: 'PT1H', count: 8785 }, { interval: 'P1Y', count: 2 }, { interval: 'P12M', count: 2 }, { interval: 'P366D', until: '2027-04-01T00:00:00Z' }]) {
      expect(await valid(repeat), JSON.stringify(repeat)).toBe(200)
    }
    // Longer than a year only from where it starts: too long, at the field that makes it so.
    const long = await create({ scheduled_at: at, repeat: { interval: 'P1Y', count: 8785 } })
    expect(errorsOf(long)).toEqual([['#/repeat/count', 'too_long']])
    // Bulk parses each post the same way.
    const bulk = await t.http.post('/v1/posts/bulk', { posts: [{ account_id: account, content: 'x', platforms: ['feed'], repeat: { interval: 'PT5M', count: 2 } }] }, { key: t.key })
    expect(errorsOf(bulk)).toEqual([['#/posts/0/repeat/interval', 'invalid_value']])
    expect(await eventsOf(t, 'post.scheduled')).toEqual([])
  })
})

describe('a weekly series in New York', () => {
  it('keeps 09:00 local across the DST change, each occurrence a new post created when the one before is published', async () => {
    const res = await create({ scheduled_at: '2027-03-08T09:00:00-05:00', repeat: { interval: 'P1W', until: '2027-03-29T23:00:00-04:00' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      occurrence: 1,
      series_id: expect.stringMatching(/^ser_[0-9A-Z]{26}$/),
      repeat: { interval: 'P1W', count: null, until: '2027-03-30T03:00:00.000Z', timezone: 'America/New_York', starts_at: '2027-03-08T14:00:00.000Z' },
    })
    const id = res.body.series_id
    t.clock.set(Date.parse('2027-03-08T14:00:00Z'))
    await tick()
    let all = await series(id)
    // 09:00 EST is 14:00 UTC; a week on, 09:00 EDT is 13:00 UTC.
    expect(all.map((p) => [p.occurrence, p.status, p.scheduled_at])).toEqual([
      [1, 'published', '2027-03-08T14:00:00.000Z'],
      [2, 'scheduled', '2027-03-15T13:00:00.000Z'],
    ])
    // Editing one occurrence changes it alone: the next is the series' text at the series' time.
    const edited = await t.http.put(`/v1/posts/${all[1].id}`, { content: 'Just this once', scheduled_at: '2027-03-15T10:30:00-04:00' }, { key: t.key })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ content: 'Just this once', series_id: id, occurrence: 2 })
    t.clock.set(Date.parse('2027-03-15T14:30:00Z'))
    await tick()
    all = await series(id)
    expect(all.map((p) => [p.occurrence, p.status, p.content, p.scheduled_at])).toEqual([
      [1, 'published', 'Evergreen', '2027-03-08T14:00:00.000Z'],
      [2, 'published', 'Just this once', '2027-03-15T14:30:00.000Z'],
      [3, 'scheduled', 'Evergreen', '2027-03-22T13:00:00.000Z'],
    ])
    // A series' rule cannot be changed by an edit.
    const refused = await t.http.put(`/v1/posts/${all[2].id}`, { repeat: { interval: 'P2W', count: 3 } }, { key: t.key })
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: '#/repeat', code: 'immutable', detail: expect.stringMatching(/series=true.*new one/) })])
    t.clock.set(Date.parse('2027-03-22T13:00:00Z'))
    await tick()
    t.clock.set(Date.parse('2027-03-29T13:00:00Z'))
    await tick()
    all = await series(id)
    expect(all.map((p) => [p.occurrence, p.status])).toEqual([[1, 'published'], [2, 'published'], [3, 'published'], [4, 'published']])
    const ended = (await eventsOf(t, 'post.series_ended')).filter((e) => e.data.series_id === id)
    expect(ended.map((e) => [e.data.id, e.data.reason])).toEqual([[all[3].id, 'until']])
    // One-off posts say so.
    const single = await create({ scheduled_at: iso(t.clock.now() + HOUR) })
    expect(single.body).toMatchObject({ series_id: null, occurrence: null, repeat: null })
    await t.http.delete(`/v1/posts/${single.body.id}`, { key: t.key })
  })
})

describe('cancelling', () => {
  it('skips one occurrence with a plain DELETE and stops the series with ?series=true', async () => {
    const first = await create({ scheduled_at: iso(t.clock.now() + HOUR), repeat: { interval: 'P1D', count: 10 } })
    const id = first.body.series_id
    const skipped = await t.http.delete(`/v1/posts/${first.body.id}`, { key: t.key })
    expect(skipped.status).toBe(200)
    let all = await series(id)
    expect(all.map((p) => [p.occurrence, p.status, p.scheduled_at])).toEqual([
      [1, 'cancelled', iso(t.clock.now() + HOUR)],
      [2, 'scheduled', iso(t.clock.now() + HOUR + DAY)],
    ])
    const stopped = await t.http.delete(`/v1/posts/${all[1].id}?series=true`, { key: t.key })
    expect(stopped.status).toBe(200)
    expect(stopped.body).toMatchObject({ status: 'cancelled', occurrence: 2 })
    all = await series(id)
    expect(all.map((p) => p.status)).toEqual(['cancelled', 'cancelled'])
    const ended = (await eventsOf(t, 'post.series_ended')).filter((e) => e.data.series_id === id)
    expect(ended.map((e) => e.data.reason)).toEqual(['cancelled'])
  })

  it('refuses ?series=true on a post that is no occurrence, naming the query field', async () => {
    const single = await create({ scheduled_at: iso(t.clock.now() + HOUR) })
    const res = await t.http.delete(`/v1/posts/${single.body.id}?series=true`, { key: t.key })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '#/series', detail: expect.stringMatching(/not an occurrence of a series/) })])
    expect((await t.http.get(`/v1/posts/${single.body.id}`, { key: t.key })).body.status).toBe('scheduled')
    expect((await t.http.delete(`/v1/posts/${single.body.id}?series=maybe`, { key: t.key })).status).toBe(422)
  })
})

describe('after downtime', () => {
  it('skips the occurrences that fell due while the daemon was down rather than publish a backlog', async () => {
    const start = t.clock.now() + HOUR
    const first = await create({ scheduled_at: iso(start), repeat: { interval: 'P1D', count: 30 } })
    // Three days and a bit later, the first is over the catch-up window: it fails, and the series resumes tomorrow.
    t.clock.set(start + 3 * DAY + HOUR)
    await tick()
    const all = await series(first.body.series_id)
    expect(all.map((p) => [p.occurrence, p.status, p.scheduled_at])).toEqual([
      [1, 'failed', iso(start)],
      [5, 'scheduled', iso(start + 4 * DAY)],
    ])
    expect(all[0].targets[0].error.code).toBe('missed_schedule')
    await t.http.delete(`/v1/posts/${all[1].id}?series=true`, { key: t.key })
  })
})

describe('webhooks', () => {
  it('delivers post.series_ended, signed, to an endpoint subscribed to it', async () => {
    const deliver = async () => {
      // The receiver verifies webhook-timestamp against its own clock: keep it on ours for the delivery.
      vi.useFakeTimers({ toFake: ['Date'] })
      vi.setSystemTime(t.clock.now())
      try {
        await t.daemon.workers.find((w) => w.name === 'webhook-delivery')!.tick!(t.clock.now())
      } finally {
        vi.useRealTimers()
      }
    }
    // What the tests before left in the outbox goes out first, to no one.
    await deliver()
    const hook = await t.http.post('/v1/webhooks', { url: receiver.url, events: ['post.series_ended'] }, { key: t.key })
    expect(hook.status).toBe(201)
    receiver.secrets.push(hook.body.secret)
    const first = await create({ scheduled_at: iso(t.clock.now() + HOUR), repeat: { interval: 'PT2H', count: 2 } })
    t.clock.advance(HOUR)
    await tick()
    t.clock.advance(2 * HOUR)
    await tick()
    await deliver()
    expect(receiver.received).toHaveLength(1)
    const [got] = await receiver.waitFor(1)
    expect(got!.verifiedWith).toEqual([0])
    expect(got!.payload).toMatchObject({ type: 'post.series_ended', data: { series_id: first.body.series_id, occurrence: 2, status: 'published', reason: 'count' } })
  })
})
