import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { liftLimits } from './helpers/posts.js'

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon({ backgroundWorkers: false })
  await liftLimits(t)
})
afterAll(() => t.stop())

const get = (query: string, key = t.key) => t.http.get(`/v1/analytics${query}`, { key })
const pointers = (body: any) => (body.errors as { pointer: string }[]).map((e) => e.pointer).sort()

describe('GET /v1/analytics input', () => {
  it('lists every malformed field at once: bad dates, a time without a zone, an unknown interval and platform', async () => {
    const res = await get('?from=2026-02-30&to=2026-11-01T10:00:00&interval=year&platform=myspace')
    expect(res.status).toBe(422)
    expect(res.headers['content-type']).toContain('application/problem+json')
    expect(res.body.code).toBe('validation_error')
    expect(pointers(res.body)).toEqual(['#/from', '#/interval', '#/platform', '#/to'])
    const from = res.body.errors.find((e: any) => e.pointer === '#/from')
    expect(from.detail).toContain('YYYY-MM-DD')
    expect(res.body.errors.find((e: any) => e.pointer === '#/interval').detail).toBe('must be day, week or month')
  })

  it('dates outside the years 0001 to 9999 are 422, so every timestamp answered stays RFC 3339', async () => {
    for (const [query, pointer] of [
      ['?from=0000-12-01&to=0001-01-02', '#/from'],
      ['?from=0000-12-31T23:00:00Z&to=0001-01-02T00:00:00Z', '#/from'],
      ['?from=9999-12-01&to=9999-12-31T23:00:00-02:00', '#/to'],
      ['?from=9999-12-20&to=9999-12-31', '#/to'],
    ] as const) {
      const res = await get(query)
      expect(res.status, query).toBe(422)
      expect(res.body.errors, query).toEqual([expect.objectContaining({ pointer, detail: expect.stringContaining('outside the years 0001 to 9999') })])
    }
    // The edges themselves are writable and answered.
    const first = await get('?from=0001-01-01T00:00:00Z&to=0001-01-05T00:00:00Z&interval=day')
    expect(first.status).toBe(200)
    expect(first.body.from).toBe('0001-01-01T00:00:00.000Z')
    const last = await get('?from=9999-12-20T00:00:00Z&to=9999-12-31T23:00:00Z')
    expect(last.status).toBe(200)
    expect(last.body.to).toBe('9999-12-31T23:00:00.000Z')
  })

  it('from after to, or equal to it, is 422 invalid_range', async () => {
    const res = await get('?from=2026-11-10&to=2026-11-01')
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '#/to', code: 'invalid_range' })])
    const empty = await get('?from=2026-11-01T00:00:00Z&to=2026-11-01T00:00:00Z')
    expect(empty.body.errors).toEqual([expect.objectContaining({ pointer: '#/to', code: 'invalid_range' })])
  })

  it('a future from with the default to names from', async () => {
    const res = await get('?from=2030-01-01')
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '#/from', code: 'invalid_range' })])
  })

  it('366 days is the most: a leap year of dates passes, one more day is 422 range_too_long', async () => {
    const leap = await get('?from=2028-01-01&to=2028-12-31')
    expect(leap.status).toBe(200)
    expect(leap.body.series).toHaveLength(366)
    const tooLong = await get('?from=2025-01-01&to=2026-01-02')
    expect(tooLong.status).toBe(422)
    expect(tooLong.body.errors).toEqual([expect.objectContaining({ pointer: '#/to', code: 'range_too_long' })])
    expect(tooLong.body.errors[0].detail).toContain('366 days')
    expect((await get('?from=2025-01-01T00:00:00Z&to=2026-01-02T00:00:00Z')).status).toBe(200)
    expect((await get('?from=2025-01-01T00:00:00Z&to=2026-01-02T00:00:01Z')).status).toBe(422)
  })

  it('unknown account and post ids are named, together with a range error', async () => {
    const res = await get('?account_id=acc_nope&post_id=pst_nope&from=2026-11-10&to=2026-11-01')
    expect(res.status).toBe(422)
    expect(pointers(res.body)).toEqual(['#/account_id', '#/post_id', '#/to'])
  })

  it('an unknown query parameter is a typo to report, not to ignore', async () => {
    const res = await get('?form=2026-11-01')
    expect(res.status).toBe(422)
    expect(res.body).toMatchObject({ code: 'unknown_field', errors: [expect.objectContaining({ pointer: '#/form' })] })
  })

  it('needs the analytics:read scope', async () => {
    const me = await t.http.get('/v1/me', { key: t.key })
    const key = await t.daemon.store.apiKeys.create(me.body.id, { name: 'posts only', scopes: ['posts:read'] }, t.clock.now(), null)
    const res = await get('', key.secret)
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('insufficient_scope')
  })

  it('with nothing published, counts are 0 and every metric is null', async () => {
    const res = await get('?interval=month')
    expect(res.status).toBe(200)
    expect(res.body.totals).toEqual({
      posts_scheduled: 0,
      posts_published: 0,
      posts_failed: 0,
      publish_success_rate: null,
      median_publish_delay_ms: null,
      impressions: null,
      likes: null,
      reposts: null,
      replies: null,
      quotes: null,
      clicks: null,
      engagements: null,
      engagement_rate: null,
    })
    expect(res.body.by_platform).toEqual([])
    expect(res.body.top_posts).toEqual([])
  })
})
