import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { loopbackPlatform, startLoopbackServer, type LoopbackServer } from './helpers/loopback-platform.js'
import { eventsOf, feedAccount, liftLimits, otherUser } from './helpers/posts.js'

let t: TestDaemon
let loop: LoopbackServer
let account: string
const iso = (ms: number) => new Date(ms).toISOString()
const later = (minutes: number) => iso(t.clock.now() + minutes * 60_000)

beforeAll(async () => {
  loop = await startLoopbackServer()
  t = await startTestDaemon({
    allowPrivateNetwork: true,
    overrides: { egress: { ca: loop.ca }, platforms: [loopbackPlatform('discord', { idempotent: false })] },
  })
  await liftLimits(t)
  account = await feedAccount(t)
})
afterAll(async () => {
  await t.stop()
  await loop.close()
})

const create = (body: Record<string, unknown>, key = t.key) => t.http.post('/v1/posts', body, { key })

describe('POST /v1/posts', () => {
  it('creates a scheduled post with one pending target per platform, an ETag and its event', async () => {
    const res = await create({ account_id: account, content: 'Hello', scheduled_at: '2026-11-21T14:30:00+01:00', platforms: ['feed'] })
    expect(res.status).toBe(201)
    expect(res.headers.location).toBe(`/v1/posts/${res.body.id}`)
    expect(res.headers.etag).toMatch(/^"v\d+"$/)
    expect(res.body).toEqual({
      id: expect.stringMatching(/^pst_[0-9A-Z]{26}$/),
      workspace_id: expect.stringMatching(/^wsp_[0-9A-Z]{26}$/),
      account_id: account,
      content: 'Hello',
      media_urls: [],
      media: [],
      platforms: ['feed'],
      thread: [],
      first_comment: null,
      overrides: {},
      scheduled_at: '2026-11-21T13:30:00.000Z',
      status: 'scheduled',
      targets: [{ platform: 'feed', status: 'pending', attempts: 0, platform_post_id: null, url: null, published_at: null, error: null, parts: [] }],
      created_at: iso(t.clock.now()),
      updated_at: iso(t.clock.now()),
      published_at: null,
      cancelled_at: null,
      series_id: null,
      occurrence: null,
      repeat: null,
    })
    const [event] = (await eventsOf(t, 'post.scheduled')).filter((e) => e.data.id === res.body.id)
    expect(event!.data).toEqual(res.body)
    const got = await t.http.get(`/v1/posts/${res.body.id}`, { key: t.key })
    expect(got.body).toEqual(res.body)
    expect(got.headers.etag).toBe(res.headers.etag)
  })

  it('lists every schema error at once, with pointers', async () => {
    const res = await create({ account_id: account, content: 'x', scheduled_at: '2026-11-21T14:30:00', media_urls: ['http://example.com/a.png', 'not a url'], platforms: [], colour: 'red' })
    expect(res.status).toBe(422)
    expect(res.body.code).toBe('validation_error')
    const pointers = res.body.errors.map((e: any) => `${e.pointer} ${e.code}`).sort()
    expect(pointers).toEqual(['#/colour unknown_field', '#/media_urls/0 invalid_value', '#/media_urls/1 invalid_value', '#/platforms invalid_value', '#/scheduled_at invalid_value'])
    expect(res.body.errors.find((e: any) => e.pointer === '#/scheduled_at').detail).toMatch(/zone/)
  })

  it('checks the account, the connections, the clock and each platform’s rules together, naming the platform', async () => {
    const res = await create({ account_id: account, content: 'é'.repeat(10_001), scheduled_at: iso(t.clock.now() - 6 * 60_000), platforms: ['feed', 'discord', 'feed'] })
    expect(res.status).toBe(422)
    // A repeated platform is a schema error; fixing it shows the rest, all at once.
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer: '#/platforms', detail: 'must not name a platform twice' })]))
    const res2 = await create({ account_id: account, content: 'é'.repeat(10_001), scheduled_at: iso(t.clock.now() - 6 * 60_000), platforms: ['feed', 'discord'] })
    expect(res2.status).toBe(422)
    const byPointer = Object.fromEntries(res2.body.errors.map((e: any) => [e.pointer, e]))
    expect(Object.keys(byPointer).sort()).toEqual(['#/content', '#/platforms/1', '#/scheduled_at'])
    expect(byPointer['#/content']).toMatchObject({ code: 'content_too_long', detail: 'is 10,001 characters; feed allows at most 10,000' })
    expect(byPointer['#/platforms/1']).toMatchObject({ code: 'platform_not_connected', detail: expect.stringContaining('not connected to discord') })
    expect(byPointer['#/scheduled_at']).toMatchObject({ code: 'in_the_past' })
  })

  it('counts graphemes, not code units: 10,000 emoji with skin tones fit the feed', async () => {
    const res = await create({ account_id: account, content: '👍🏽'.repeat(10_000), scheduled_at: later(60), platforms: ['feed'] })
    expect(res.status).toBe(201)
  })

  it('needs content or media, and accepts a time within the 5-minute grace', async () => {
    const empty = await create({ account_id: account, content: '  ', platforms: ['feed'] })
    expect(empty.status).toBe(422)
    expect(empty.body.errors).toEqual([expect.objectContaining({ pointer: '#/content', code: 'required' })])
    const mediaOnly = await create({ account_id: account, media_urls: ['https://cdn.example.com/a.png'], scheduled_at: iso(t.clock.now() - 4 * 60_000), platforms: ['feed'] })
    expect(mediaOnly.status).toBe(201)
    expect(mediaOnly.body.content).toBe('')
  })

  it("treats another user's account as unknown: 422 at #/account_id, and nothing is created", async () => {
    const other = await otherUser(t)
    const theirs = await feedAccount(t, 'Theirs', other.key)
    const before = (await t.http.get('/v1/posts?limit=100', { key: t.key })).body.data.length
    const res = await create({ account_id: theirs, content: 'not mine', platforms: ['feed'] })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '#/account_id', code: 'not_found' })])
    expect((await t.http.get('/v1/posts?limit=100', { key: t.key })).body.data.length).toBe(before)
    const missing = await create({ account_id: 'acc_nope', content: 'x', platforms: ['feed'] })
    expect(missing.body.errors).toEqual([expect.objectContaining({ pointer: '#/account_id' })])
  })
})

describe('GET /v1/posts', () => {
  it('filters by status, account, platform and time, in either order, across pages', async () => {
    const own = await feedAccount(t, 'Lister')
    const base = t.clock.now() + 3_600_000
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      const res = await create({ account_id: own, content: `n${i}`, scheduled_at: iso(base + (4 - i) * 60_000), platforms: ['feed'] })
      ids.push(res.body.id)
    }
    await t.http.delete(`/v1/posts/${ids[0]}`, { key: t.key })
    const all: string[] = []
    let cursor: string | null = null
    do {
      const res: any = await t.http.get(`/v1/posts?account_id=${own}&limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key: t.key })
      expect(res.status).toBe(200)
      all.push(...res.body.data.map((p: any) => p.id))
      cursor = res.body.next_cursor
    } while (cursor)
    expect(all).toEqual([...ids].reverse())
    const desc = await t.http.get(`/v1/posts?account_id=${own}&order=desc&status=scheduled`, { key: t.key })
    expect(desc.body.data.map((p: any) => p.id)).toEqual(ids.slice(1))
    const either = await t.http.get(`/v1/posts?account_id=${own}&status=cancelled,published`, { key: t.key })
    expect(either.body.data.map((p: any) => p.id)).toEqual([ids[0]])
    // ?count=true says how many match from this page on, so a client can say how many more there are.
    const counted = await t.http.get(`/v1/posts?account_id=${own}&status=scheduled&limit=1&count=true`, { key: t.key })
    expect(counted.body).toMatchObject({ total: ids.length - 1, has_more: true })
    expect(counted.body.data).toHaveLength(1)
    const rest = await t.http.get(`/v1/posts?account_id=${own}&status=scheduled&limit=1&count=true&cursor=${counted.body.next_cursor}`, { key: t.key })
    expect(rest.body.total).toBe(ids.length - 2)
    expect((await t.http.get(`/v1/posts?account_id=${own}`, { key: t.key })).body).not.toHaveProperty('total')
    const window = await t.http.get(`/v1/posts?account_id=${own}&from=${encodeURIComponent(iso(base + 60_000))}&to=${encodeURIComponent(iso(base + 3 * 60_000))}`, { key: t.key })
    expect(window.body.data.map((p: any) => p.content)).toEqual(['n3', 'n2'])
    const none = await t.http.get(`/v1/posts?account_id=${own}&platform=discord`, { key: t.key })
    expect(none.body.data).toEqual([])
    const bad = await t.http.get('/v1/posts?status=scheduled,done&order=up&cursor=zzz', { key: t.key })
    expect(bad.status).toBe(422)
    expect(bad.body.errors.map((e: any) => e.pointer).sort()).toEqual(['#/cursor', '#/order', '#/status'])
    expect(bad.body.errors.find((e: any) => e.pointer === '#/status').detail).toBe(
      'must be one or more of draft, pending_approval, rejected, scheduled, publishing, published, partially_published, failed, cancelled, separated by commas',
    )
  })
})

describe('PUT and DELETE /v1/posts/{id}', () => {
  it('merges a subset, re-validates the whole, and bumps the ETag', async () => {
    const post = await create({ account_id: account, content: 'draft', scheduled_at: later(30), platforms: ['feed'] })
    const res = await t.http.put(`/v1/posts/${post.body.id}`, { content: 'final', scheduled_at: later(45) }, { key: t.key })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ content: 'final', scheduled_at: later(45), platforms: ['feed'] })
    expect(res.headers.etag).not.toBe(post.headers.etag)
    const bad = await t.http.put(`/v1/posts/${post.body.id}`, { content: 'x'.repeat(10_001), account_id: 'acc_other', platforms: ['feed', 'discord'] }, { key: t.key })
    expect(bad.status).toBe(422)
    expect(bad.body.errors.map((e: any) => e.pointer).sort()).toEqual(['#/account_id', '#/content', '#/platforms/1'])
    const events = (await eventsOf(t, 'post.updated')).filter((e) => e.data.id === post.body.id)
    expect(events.map((e) => e.data.content)).toEqual(['final'])
  })

  it('honours If-Match: a stale ETag is 412 and changes nothing', async () => {
    const post = await create({ account_id: account, content: 'v1', scheduled_at: later(30), platforms: ['feed'] })
    const first = await t.http.put(`/v1/posts/${post.body.id}`, { content: 'v2' }, { key: t.key, headers: { 'if-match': post.headers.etag! } })
    expect(first.status).toBe(200)
    const stale = await t.http.put(`/v1/posts/${post.body.id}`, { content: 'v3' }, { key: t.key, headers: { 'if-match': post.headers.etag! } })
    expect(stale.status).toBe(412)
    expect(stale.body.code).toBe('precondition_failed')
    expect(stale.headers.etag).toBe(first.headers.etag)
    expect((await t.http.get(`/v1/posts/${post.body.id}`, { key: t.key })).body.content).toBe('v2')
    const star = await t.http.put(`/v1/posts/${post.body.id}`, { content: 'v3' }, { key: t.key, headers: { 'if-match': '*' } })
    expect(star.status).toBe(200)
  })

  it('cancels once (event once), answers 200 again, and refuses edits afterwards with 409', async () => {
    const post = await create({ account_id: account, content: 'bye', scheduled_at: later(30), platforms: ['feed'] })
    const first = await t.http.delete(`/v1/posts/${post.body.id}`, { key: t.key })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ status: 'cancelled', cancelled_at: iso(t.clock.now()) })
    const second = await t.http.delete(`/v1/posts/${post.body.id}`, { key: t.key })
    expect(second.status).toBe(200)
    expect(second.body).toEqual(first.body)
    expect((await eventsOf(t, 'post.cancelled')).filter((e) => e.data.id === post.body.id)).toHaveLength(1)
    const edit = await t.http.put(`/v1/posts/${post.body.id}`, { content: 'back' }, { key: t.key })
    expect(edit.status).toBe(409)
    expect(edit.body).toMatchObject({ code: 'post_not_editable', post_status: 'cancelled' })
  })

  it('refuses PUT and DELETE once published (409), and 404s another user’s post', async () => {
    const post = await create({ account_id: account, content: 'out', scheduled_at: later(1), platforms: ['feed'] })
    t.clock.advance(60_000)
    await t.daemon.scheduler.tick(t.clock.now())
    expect((await t.http.get(`/v1/posts/${post.body.id}`, { key: t.key })).body.status).toBe('published')
    expect((await t.http.put(`/v1/posts/${post.body.id}`, { content: 'x' }, { key: t.key })).status).toBe(409)
    const del = await t.http.delete(`/v1/posts/${post.body.id}`, { key: t.key })
    expect(del.status).toBe(409)
    expect(del.body.code).toBe('post_not_editable')
    const other = await otherUser(t)
    expect((await t.http.get(`/v1/posts/${post.body.id}`, { key: other.key })).status).toBe(404)
    expect((await t.http.delete(`/v1/posts/${post.body.id}`, { key: other.key })).status).toBe(404)
  })
})
