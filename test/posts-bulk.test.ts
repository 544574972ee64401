import { personalWorkspaceId } from '../src/ids.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { eventsOf, feedAccount, liftLimits } from './helpers/posts.js'

let t: TestDaemon
let account: string
const iso = (ms: number) => new Date(ms).toISOString()
const later = (minutes: number) => iso(t.clock.now() + minutes * 60_000)
const post = (content: string, minutes = 60) => ({ account_id: account, content, platforms: ['feed'], scheduled_at: later(minutes) })

beforeAll(async () => {
  t = await startTestDaemon()
  await liftLimits(t)
  account = await feedAccount(t)
})
afterAll(() => t.stop())

const bulk = (body: unknown, headers: Record<string, string> = {}) => t.http.post('/v1/posts/bulk', body, { key: t.key, headers })
const postIds = async () => (await t.daemon.store.posts.list([personalWorkspaceId((await t.http.get('/v1/me', { key: t.key })).body.id)], { order: 'asc' }, 10_000)).map((r) => r.post.id)

describe('POST /v1/posts/bulk', () => {
  it('creates every post, answered in the order sent, each with its post.scheduled event', async () => {
    const res = await bulk({ posts: [post('third', 180), post('first', 60), post('second', 120)] })
    expect(res.status).toBe(201)
    expect(res.body.data.map((p: any) => p.content)).toEqual(['third', 'first', 'second'])
    expect(res.body.data.map((p: any) => p.scheduled_at)).toEqual([later(180), later(60), later(120)])
    for (const created of res.body.data) {
      expect(created).toMatchObject({ status: 'scheduled', account_id: account, targets: [{ platform: 'feed', status: 'pending' }] })
      const got = await t.http.get(`/v1/posts/${created.id}`, { key: t.key })
      expect(got.body).toEqual(created)
    }
    const events = (await eventsOf(t, 'post.scheduled')).filter((e) => res.body.data.some((p: any) => p.id === e.data.id))
    expect(events.map((e) => e.data)).toEqual(res.body.data)
  })

  it('creates none when one post among valid ones is invalid, pointing at its index, and lists the errors of every post', async () => {
    const before = await postIds()
    const res = await bulk({
      posts: [post('fine'), post('also fine'), { account_id: account, content: '', platforms: ['feed'], scheduled_at: later(60) }, post('fine again'), { ...post('late'), scheduled_at: iso(t.clock.now() - 3_600_000), colour: 'red' }],
    })
    expect(res.status).toBe(422)
    expect(res.body.code).toBe('validation_error')
    expect(res.body.errors.map((e: any) => `${e.pointer} ${e.code}`).sort()).toEqual(['#/posts/2/content required', '#/posts/4/colour unknown_field', '#/posts/4/scheduled_at in_the_past'])
    expect(await postIds()).toEqual(before)
  })

  it('refuses an empty batch and one over 500 posts, naming the limit, before checking any post', async () => {
    const tooMany = await bulk({ posts: Array.from({ length: 501 }, (_, i) => post(`p${i}`)) })
    expect(tooMany.status).toBe(422)
    expect(tooMany.body.errors).toEqual([expect.objectContaining({ pointer: '#/posts', detail: expect.stringContaining('at most 500 posts') })])
    const empty = await bulk({ posts: [] })
    expect(empty.status).toBe(422)
    expect(empty.body.errors[0].pointer).toBe('#/posts')
    const notAList = await bulk({ post: [post('x')] })
    expect(notAList.body.errors.map((e: any) => e.pointer).sort()).toEqual(['#/post', '#/posts'])
  })

  it('takes 500 posts in one request, counted once by the rate limiter', async () => {
    const remaining = (h: Record<string, string>) => Number(/"minute";r=(\d+)/.exec(h.ratelimit!)![1])
    const before = await t.http.get('/v1/me', { key: t.key })
    const res = await bulk({ posts: Array.from({ length: 500 }, (_, i) => post(`n${i}`, 60 + i)) })
    expect(res.status).toBe(201)
    expect(res.body.data).toHaveLength(500)
    expect(res.body.data[499].content).toBe('n499')
    expect(remaining(res.headers)).toBe(remaining(before.headers) - 1)
  })

  it('with dry_run validates and creates nothing', async () => {
    const before = await postIds()
    const ok = await bulk({ posts: [post('a'), post('b')], dry_run: true })
    expect(ok.status).toBe(200)
    expect(ok.body).toEqual({ valid: true, count: 2 })
    const bad = await bulk({ posts: [post('a'), { ...post('b'), platforms: ['mastodon'] }], dry_run: true })
    expect(bad.status).toBe(422)
    expect(bad.body.errors).toEqual([expect.objectContaining({ pointer: '#/posts/1/platforms/0', code: 'platform_not_connected' })])
    expect(await postIds()).toEqual(before)
  })

  it('replays a retry with the same Idempotency-Key instead of creating the posts twice', async () => {
    const body = { posts: [post('once'), post('only')] }
    const first = await bulk(body, { 'idempotency-key': 'bulk-once' })
    const again = await bulk(body, { 'idempotency-key': 'bulk-once' })
    expect(again.status).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.body).toEqual(first.body)
    const ids = await postIds()
    expect(ids.filter((id) => first.body.data.some((p: any) => p.id === id))).toHaveLength(2)
  })
})
