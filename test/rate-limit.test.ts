import { afterEach, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'

let t: TestDaemon
afterEach(() => t?.stop())

/** Parses `RateLimit: "minute";r=99;t=45, …` into { minute: { r, t }, … }. */
function remaining(header: string | undefined): Record<string, { r: number; t: number }> {
  const out: Record<string, { r: number; t: number }> = {}
  for (const item of (header ?? '').split(', ')) {
    const m = /^"(\w+)";r=(\d+);t=(\d+)$/.exec(item)
    if (m) out[m[1]!] = { r: Number(m[2]), t: Number(m[3]) }
  }
  return out
}

async function burst(n: number, key: string) {
  const statuses: number[] = []
  for (let i = 0; i < n; i++) statuses.push((await t.http.get('/v1/me', { key })).status)
  return statuses
}

describe('per-key rate limits', () => {
  it('admits 100 a minute, then 429 with a Retry-After after which a retry is admitted; refusals are not counted', async () => {
    t = await startTestDaemon()
    t.clock.set(Date.UTC(2026, 10, 21, 12, 0, 15))
    const first = await t.http.get('/v1/me', { key: t.key })
    expect(first.headers['ratelimit-policy']).toBe('"minute";q=100;w=60, "hour";q=5000;w=3600, "day";q=50000;w=86400')
    expect(remaining(first.headers.ratelimit)).toEqual({ minute: { r: 99, t: 45 }, hour: { r: 4999, t: 3585 }, day: { r: 49999, t: 43185 } })
    expect(await burst(99, t.key)).toEqual(Array(99).fill(200))
    const refused = await t.http.get('/v1/me', { key: t.key })
    expect(refused.status).toBe(429)
    expect(refused.headers['retry-after']).toBe('45')
    expect(refused.body).toMatchObject({ code: 'rate_limited', violated: ['minute'] })
    await burst(5, t.key)
    t.clock.advance(44_000)
    expect((await t.http.get('/v1/me', { key: t.key })).status).toBe(429)
    t.clock.advance(1_000)
    const again = await t.http.get('/v1/me', { key: t.key })
    expect(again.status).toBe(200)
    // 101 admitted this hour: the 7 refusals left no trace.
    expect(remaining(again.headers.ratelimit).hour!.r).toBe(5000 - 101)
  })

  it('enforces the hour and day windows too, for custom enterprise limits, and names the window', async () => {
    t = await startTestDaemon()
    t.clock.set(Date.UTC(2026, 10, 21, 23, 0, 0))
    await t.daemon.store.users.setPlan((await t.daemon.store.users.owner())!.id, 'enterprise', { per_minute: 1000, per_hour: 30, per_day: 40 })
    expect(await burst(30, t.key)).toEqual(Array(30).fill(200))
    const hour = await t.http.get('/v1/me', { key: t.key })
    expect(hour.status).toBe(429)
    expect(hour.body.violated).toEqual(['hour'])
    expect(hour.headers['retry-after']).toBe('3600')
    t.clock.advance(3_600_000 - 1000)
    expect((await t.http.get('/v1/me', { key: t.key })).status).toBe(429)
    t.clock.advance(1000) // 00:00 UTC: a new hour and a new day
    expect(await burst(30, t.key)).toEqual(Array(30).fill(200))
    t.clock.set(Date.UTC(2026, 10, 22, 5, 0, 0))
    expect(await burst(10, t.key)).toEqual(Array(10).fill(200))
    const day = await t.http.get('/v1/me', { key: t.key })
    expect(day.body.violated).toEqual(['day'])
    expect(day.headers['ratelimit-policy']).toBe('"minute";q=1000;w=60, "hour";q=30;w=3600, "day";q=40;w=86400')
    expect(Number(day.headers['retry-after'])).toBe(19 * 3600)
  })

  it('gives business plans twice the limits', async () => {
    t = await startTestDaemon()
    await t.daemon.store.users.setPlan((await t.daemon.store.users.owner())!.id, 'business')
    const res = await t.http.get('/v1/me', { key: t.key })
    expect(res.headers['ratelimit-policy']).toBe('"minute";q=200;w=60, "hour";q=10000;w=3600, "day";q=100000;w=86400')
    expect(res.body.limits).toEqual({ per_minute: 200, per_hour: 10000, per_day: 100000 })
  })

  it('keeps counts across a restart', async () => {
    t = await startTestDaemon()
    t.clock.set(Date.UTC(2026, 10, 21, 12, 0, 0))
    await burst(60, t.key)
    await t.restart()
    const res = await t.http.get('/v1/me', { key: t.key })
    expect(remaining(res.headers.ratelimit)).toMatchObject({ minute: { r: 39 }, hour: { r: 4939 }, day: { r: 49939 } })
  })

  it('counts each key on its own', async () => {
    t = await startTestDaemon()
    const second = await t.http.post('/v1/api-keys', { name: 'second' }, { key: t.key })
    await burst(99, t.key)
    expect((await t.http.get('/v1/me', { key: t.key })).status).toBe(429)
    expect((await t.http.get('/v1/me', { key: second.body.secret })).status).toBe(200)
  })
})
