import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { loopbackPlatform } from './helpers/loopback-platform.js'
import { eventsOf, feedAccount, liftLimits, otherUser } from './helpers/posts.js'

let t: TestDaemon
let account: string
const iso = (ms: number) => new Date(ms).toISOString()
const later = (minutes: number) => iso(t.clock.now() + minutes * 60_000)

beforeAll(async () => {
  // A 280-character platform beside the feed, so each target's own limit shows. It is never published to.
  t = await startTestDaemon({ overrides: { platforms: [loopbackPlatform('discord', { idempotent: false, maxChars: 280 })] } })
  await liftLimits(t)
  account = await feedAccount(t)
  const connected = await t.http.post(`/v1/accounts/${account}/connections`, { platform: 'discord', credentials: { webhook_url: 'https://127.0.0.1:9/hook' } }, { key: t.key })
  expect(connected.status).toBe(201)
})
afterAll(() => t.stop())

const validate = (body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
  t.http.post('/v1/posts/validate', body, { key: t.key, ...options })
const create = (body: unknown) => t.http.post('/v1/posts', body, { key: t.key })
/** A problem without its request id: the one part that differs between two requests. */
const sameProblem = ({ instance: _instance, ...problem }: Record<string, unknown>) => problem

/** Nothing a create leaves behind: no post, no post event. */
async function expectNothingCreated(): Promise<void> {
  expect((await t.http.get('/v1/posts?limit=100', { key: t.key })).body.data).toEqual([])
  const events = (await t.daemon.store.events.listAfter('', 1_000_000)).filter((e) => e.type.startsWith('post.'))
  expect(events).toEqual([])
  expect(await eventsOf(t, 'post.scheduled')).toEqual([])
}

describe('POST /v1/posts/validate', () => {
  it('answers valid with when the post would go out and each platform’s length against its limit, creating nothing', async () => {
    const content = 'We launch today 🚀 '.repeat(11).trim()
    const res = await validate({ account_id: account, content, scheduled_at: '2026-11-21T14:30:00+01:00', platforms: ['feed', 'discord'] })
    expect(res.status).toBe(200)
    expect(res.headers.location).toBeUndefined()
    expect(res.body).toEqual({
      valid: true,
      scheduled_at: '2026-11-21T13:30:00.000Z',
      targets: [
        // The feed counts graphemes (the rocket is one), the loopback platform UTF-16 units (two).
        { platform: 'feed', length: [...new Intl.Segmenter().segment(content)].length, limit: 10_000, parts: [], warnings: [] },
        { platform: 'discord', length: content.length, limit: 280, parts: [], warnings: [] },
      ],
    })
    expect(res.body.targets[0].length).toBeLessThan(res.body.targets[1].length)
    await expectNothingCreated()
  })

  it('normalises a missing time to now, as create would store it', async () => {
    const res = await validate({ account_id: account, content: 'Now', platforms: ['feed'] })
    expect(res.status).toBe(200)
    expect(res.body.scheduled_at).toBe(iso(t.clock.now()))
    await expectNothingCreated()
  })

  it('answers exactly the 422 problem create answers, for every kind of bad input, and creates nothing', async () => {
    const theirs = await feedAccount(t, 'Theirs', (await otherUser(t)).key)
    const bad: unknown[] = [
      // schema errors, all at once
      { account_id: account, content: 'x', scheduled_at: '2026-11-21T14:30:00', media_urls: ['http://example.com/a.png', 'not a url'], platforms: [], colour: 'red' },
      { account_id: account, content: 'x', platforms: ['feed', 'feed'] },
      { account_id: account, content: 'x', platforms: ['myspace'] },
      { content: 'x' },
      ['not', 'an', 'object'],
      // the account, the connections, the clock and each platform's rules, together
      { account_id: account, content: 'é'.repeat(10_001), scheduled_at: iso(t.clock.now() - 6 * 60_000), platforms: ['feed', 'discord'] },
      { account_id: account, content: 'x'.repeat(281), platforms: ['feed', 'discord'] },
      { account_id: account, content: '  ', platforms: ['feed'] },
      { account_id: account, content: 'x', platforms: ['feed', 'mastodon'] },
      { account_id: theirs, content: 'not mine', platforms: ['feed'] },
      { account_id: 'acc_nope', content: 'x', platforms: ['feed'] },
    ]
    for (const body of bad) {
      const created = await create(body)
      const validated = await validate(body)
      expect(created.status, JSON.stringify(body)).toBe(422)
      expect(validated.status, JSON.stringify(body)).toBe(422)
      expect(validated.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(sameProblem(validated.body), JSON.stringify(body)).toEqual(sameProblem(created.body))
      expect(validated.body.instance).toMatch(/^req_/)
    }
    const tooLong = await validate({ account_id: account, content: 'x'.repeat(281), platforms: ['feed', 'discord'] })
    expect(tooLong.body.errors).toEqual([{ pointer: '#/content', code: 'content_too_long', detail: 'is 281 characters; discord allows at most 280' }])
    await expectNothingCreated()
  })

  it('refuses a malformed body and a wrong content type as create does', async () => {
    for (const options of [{ raw: '{"account_id":', headers: { 'content-type': 'application/json' } }, { raw: 'x=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }]) {
      const created = await t.http.request('POST', '/v1/posts', { key: t.key, ...options })
      const validated = await t.http.request('POST', '/v1/posts/validate', { key: t.key, ...options })
      expect(validated.status).toBe(created.status)
      expect(sameProblem(validated.body)).toEqual(sameProblem(created.body))
    }
  })

  it('needs posts:write, like create', async () => {
    const key = await t.http.post('/v1/api-keys', { name: 'reader', scopes: ['posts:read'] }, { key: t.key })
    const res = await validate({ account_id: account, content: 'x', platforms: ['feed'] }, { key: key.body.secret })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('insufficient_scope')
  })

  it('honours an Idempotency-Key as any POST does: a retry replays the first answer, another body with it is refused', async () => {
    const body = { account_id: account, content: 'Checked twice', scheduled_at: later(60), platforms: ['feed'] }
    const first = await validate(body, { headers: { 'idempotency-key': 'check-once' } })
    const retry = await validate(body, { headers: { 'idempotency-key': 'check-once' } })
    expect(first.status).toBe(200)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    expect(retry.status).toBe(200)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.body).toEqual(first.body)
    const other = await validate({ ...body, content: 'Another text' }, { headers: { 'idempotency-key': 'check-once' } })
    expect(other.status).toBe(422)
    expect(other.body.code).toBe('idempotency_key_reused')
    await expectNothingCreated()
  })
})
