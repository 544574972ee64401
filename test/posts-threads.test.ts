import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { loopbackPlatform, startLoopbackServer, type LoopbackServer } from './helpers/loopback-platform.js'
import { feedAccount, liftLimits } from './helpers/posts.js'

let t: TestDaemon
let loop: LoopbackServer
let account: string
const iso = (ms: number) => new Date(ms).toISOString()
const MIN = 60_000

beforeAll(async () => {
  loop = await startLoopbackServer()
  t = await startTestDaemon({
    allowPrivateNetwork: true,
    overrides: {
      egress: { ca: loop.ca },
      platforms: [
        // X's and Bluesky's lengths, replies chained; Discord with no replies and no comments.
        loopbackPlatform('x', { idempotent: false, maxChars: 280, timeoutMs: 300 }),
        loopbackPlatform('bluesky', { idempotent: true, maxChars: 300, timeoutMs: 300 }),
        loopbackPlatform('discord', { idempotent: false, maxChars: 2000, timeoutMs: 300, thread: 'consecutive', firstComment: null }),
      ],
    },
  })
  await liftLimits(t)
  account = await feedAccount(t)
  for (const platform of ['x', 'bluesky', 'discord']) {
    const res = await t.http.post(`/v1/accounts/${account}/connections`, { platform, credentials: { webhook_url: loop.url } }, { key: t.key })
    expect(res.status).toBe(201)
  }
})
afterAll(async () => {
  await t.stop()
  await loop.close()
})

const create = (body: Record<string, unknown>) => t.http.post('/v1/posts', { account_id: account, scheduled_at: iso(t.clock.now() + MIN), ...body }, { key: t.key })
const validate = (body: Record<string, unknown>) => t.http.post('/v1/posts/validate', { account_id: account, scheduled_at: iso(t.clock.now() + MIN), ...body }, { key: t.key })
const get = async (id: string) => (await t.http.get(`/v1/posts/${id}`, { key: t.key })).body
const tick = () => t.daemon.scheduler.tick(t.clock.now())
const pointers = (body: { errors: { pointer: string; code: string }[] }) => body.errors.map((e) => [e.pointer, e.code]).sort()
const long = (n: number) => 'a'.repeat(n)

describe('threads, first comments and per-platform versions: the contract', () => {
  it('keeps what was asked and answers it back: the thread, the first comment, the overrides', async () => {
    const res = await create({
      content: 'Main post',
      platforms: ['x', 'bluesky'],
      thread: [{ content: 'two' }, { media_urls: ['https://example.com/3.png'] }],
      first_comment: 'Link in the first comment: https://example.com',
      overrides: { bluesky: { content: 'Bluesky version', first_comment: null } },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      content: 'Main post',
      thread: [{ content: 'two', media_urls: [] }, { content: '', media_urls: ['https://example.com/3.png'] }],
      first_comment: 'Link in the first comment: https://example.com',
      overrides: { bluesky: { content: 'Bluesky version', first_comment: null } },
    })
    expect(res.body.targets.map((target: { parts: unknown[] }) => target.parts)).toEqual([[], []])
    await t.http.delete(`/v1/posts/${res.body.id}`, { key: t.key })
  })

  it('checks each target’s version against its own platform, pointing where the text came from', async () => {
    const res = await create({
      content: 'fits everywhere',
      platforms: ['feed', 'x', 'discord'],
      thread: [{ content: 'ok' }, { content: '  ' }, { content: long(281) }],
      first_comment: 'a comment',
      overrides: {
        x: { content: long(281), thread: [{ content: long(300) }] },
        bluesky: { content: 'not a target' },
        discord: { first_comment: 'still none on Discord' },
      },
    })
    expect(res.status).toBe(422)
    expect(pointers(res.body)).toEqual(
      [
        ['#/first_comment', 'not_supported'], // the feed has no comments
        ['#/overrides/bluesky', 'not_targeted'],
        ['#/overrides/discord/first_comment', 'not_supported'],
        ['#/overrides/x/content', 'content_too_long'],
        ['#/overrides/x/thread/0/content', 'content_too_long'],
        ['#/thread/1/content', 'required'],
      ].sort(),
    )
    const detail = (pointer: string) => res.body.errors.find((e: { pointer: string }) => e.pointer === pointer).detail
    expect(detail('#/first_comment')).toMatch(/feed/)
    expect(detail('#/overrides/discord/first_comment')).toMatch(/discord/)
    expect(detail('#/overrides/bluesky')).toMatch(/bluesky is not one of this post's platforms \(feed, x, discord\)/)
    expect(detail('#/overrides/x/thread/0/content')).toMatch(/x allows at most 280/)
    // The base thread's 281 characters go to the feed and Discord only (X has its own thread): within their limits.
    expect((await t.http.get('/v1/posts?limit=100', { key: t.key })).body.data.filter((p: { status: string }) => p.status === 'scheduled')).toEqual([])
  })

  it('an override that leaves a platform nothing to say is refused once, at the override', async () => {
    const res = await validate({ content: 'base', platforms: ['feed', 'x'], overrides: { feed: { content: ' ' }, x: { content: '' } } })
    expect(res.status).toBe(422)
    expect(pointers(res.body)).toEqual([
      ['#/overrides/feed/content', 'required'],
      ['#/overrides/x/content', 'required'],
    ])
  })

  it('points a part too long for one platform at the thread part, naming the platform', async () => {
    const res = await validate({ content: 'hi', platforms: ['x', 'bluesky'], thread: [{ content: 'fine' }, { content: long(290) }], first_comment: long(301) })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: '#/thread/1/content', detail: expect.stringMatching(/x allows/) }),
        expect.objectContaining({ pointer: '#/first_comment', detail: expect.stringMatching(/x allows/) }),
        expect.objectContaining({ pointer: '#/first_comment', detail: expect.stringMatching(/bluesky allows/) }),
      ]),
    )
    expect(res.body.errors.filter((e: { pointer: string }) => e.pointer === '#/thread/1/content')).toHaveLength(1)
    const tooMany = await validate({ content: 'hi', platforms: ['x'], thread: Array.from({ length: 25 }, () => ({ content: 'x' })) })
    expect(tooMany.status).toBe(422)
    expect(pointers(tooMany.body)).toEqual([['#/thread', 'too_long']].map(([p]) => [p, expect.any(String)]))
  })

  it('validate measures every part of every target’s version', async () => {
    const res = await validate({
      content: 'hello',
      platforms: ['x', 'bluesky'],
      first_comment: 'first',
      thread: [{ content: 'second part' }],
      overrides: { bluesky: { thread: [], first_comment: null, content: 'hello bluesky' } },
    })
    expect(res.status).toBe(200)
    expect(res.body.targets).toEqual([
      {
        platform: 'x',
        length: 5,
        limit: 280,
        parts: [
          { index: 1, kind: 'first_comment', length: 5, limit: 280 },
          { index: 2, kind: 'thread', length: 11, limit: 280 },
        ],
        warnings: [],
      },
      { platform: 'bluesky', length: 13, limit: 300, parts: [], warnings: [] },
    ])
  })

  it('PUT replaces the thread, the comment and the overrides, and checks the whole again', async () => {
    const created = await create({ content: 'edit me', platforms: ['x', 'bluesky'], thread: [{ content: 'two' }], overrides: { bluesky: { content: 'b' } } })
    const id = created.body.id
    const edited = await t.http.put(`/v1/posts/${id}`, { thread: [], first_comment: 'now a comment', overrides: { x: { content: 'x only' } } }, { key: t.key })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ thread: [], first_comment: 'now a comment', overrides: { x: { content: 'x only' } } })
    // Dropping X from the platforms leaves its override without a target.
    const orphan = await t.http.put(`/v1/posts/${id}`, { platforms: ['bluesky'] }, { key: t.key })
    expect(orphan.status).toBe(422)
    expect(pointers(orphan.body)).toEqual([['#/overrides/x', 'not_targeted']])
    const cleared = await t.http.put(`/v1/posts/${id}`, { first_comment: null }, { key: t.key })
    expect(cleared.body.first_comment).toBeNull()
    await t.http.delete(`/v1/posts/${id}`, { key: t.key })
  })

  it('bulk checks each post’s parts the same way, at #/posts/<index>/…', async () => {
    const res = await t.http.post(
      '/v1/posts/bulk',
      { posts: [{ account_id: account, content: 'ok', platforms: ['x'] }, { account_id: account, content: 'ok', platforms: ['x'], overrides: { x: { thread: [{ content: long(281) }] } } }], dry_run: true },
      { key: t.key },
    )
    expect(res.status).toBe(422)
    expect(pointers(res.body)).toEqual([['#/posts/1/overrides/x/thread/0/content', 'content_too_long']])
  })

  it('GET /v1/platforms says how each platform chains parts and takes a first comment', async () => {
    const res = await t.http.get('/v1/platforms', { key: t.key })
    const facts = Object.fromEntries(res.body.data.map((p: { name: string; thread: string; first_comment: string | null }) => [p.name, [p.thread, p.first_comment]]))
    expect(facts).toMatchObject({ feed: ['consecutive', null], x: ['replies', 'reply'], discord: ['consecutive', null], mastodon: ['replies', 'reply'], facebook: ['consecutive', 'comment'], linkedin: ['consecutive', 'comment'], instagram: ['consecutive', 'comment'], slack: ['consecutive', null], telegram: ['replies', 'reply'], threads: ['replies', 'reply'] })
  })
})

describe('threads and first comments: publishing part by part', () => {
  it('publishes the post, then its first comment and thread as replies, each recorded with its own id', async () => {
    loop.reply({ status: 200 })
    const res = await create({ content: 'root', platforms: ['x', 'discord'], first_comment: 'comment', thread: [{ content: 'one' }, { content: 'two' }], overrides: { discord: { first_comment: null } } })
    expect(res.status).toBe(201)
    const before = loop.received.length
    t.clock.advance(MIN)
    await tick()
    const post = await get(res.body.id)
    expect(post.status).toBe('published')
    const sent = loop.received.slice(before)
    expect(sent.map((r) => r.content).sort()).toEqual(['comment', 'one', 'one', 'root', 'root', 'two', 'two'].sort())
    const x = post.targets.find((target: { platform: string }) => target.platform === 'x')
    expect(x.parts.map((p: { index: number; kind: string }) => [p.index, p.kind])).toEqual([[0, 'post'], [1, 'first_comment'], [2, 'thread'], [3, 'thread']])
    const id = (i: number) => x.parts[i].platform_post_id
    // X chains: the comment and the first thread part answer the post; the second thread part the
    // first (Discord's copies answer nothing). Each part has its own key.
    expect(x.platform_post_id).toBe(id(0))
    expect(new Set(sent.filter((r) => r.in_reply_to !== null).map((r) => r.idempotency_key))).toEqual(new Set([`${res.body.id}-1`, `${res.body.id}-2`, `${res.body.id}-3`]))
    expect(sent.find((r) => r.content === 'comment')!.in_reply_to).toBe(id(0))
    expect(sent.filter((r) => r.content === 'one').map((r) => r.in_reply_to).sort()).toEqual([id(0), null].sort())
    expect(sent.filter((r) => r.content === 'two').map((r) => r.in_reply_to).sort()).toEqual([id(2), null].sort())
    // Discord: consecutive messages, no comment.
    const discord = post.targets.find((target: { platform: string }) => target.platform === 'discord')
    expect(discord.parts.map((p: { kind: string }) => p.kind)).toEqual(['post', 'thread', 'thread'])
  })

  it('a post of one part is its own part 0 once published, with nothing else to resume', async () => {
    const res = await create({ content: 'just one', platforms: ['feed'] })
    t.clock.advance(MIN)
    await tick()
    const [target] = (await get(res.body.id)).targets
    expect(target).toMatchObject({ status: 'published', error: null })
    expect(target.parts).toEqual([{ index: 0, kind: 'post', platform_post_id: target.platform_post_id, url: target.url, published_at: target.published_at }])
  })

  it('on the feed, each thread part is an item of its own after the post', async () => {
    const res = await create({ content: 'feed root', platforms: ['feed'], thread: [{ content: 'feed two' }] })
    t.clock.advance(MIN)
    await tick()
    const post = await get(res.body.id)
    expect(post.status).toBe('published')
    expect(post.targets[0].parts.map((p: { platform_post_id: string }) => p.platform_post_id)).toEqual([res.body.id, `${res.body.id}-1`])
    const items = await t.daemon.store.feed.recent(account, 10)
    expect(items.filter((i) => i.postId.startsWith(res.body.id)).map((i) => [i.postId, i.content]).sort()).toEqual([
      [res.body.id, 'feed root'],
      [`${res.body.id}-1`, 'feed two'],
    ])
  })

  it('a part that fails leaves the parts before it recorded; a retry resumes at that part and never sends one twice', async () => {
    const res = await create({ content: 'p0', platforms: ['x'], thread: [{ content: 'p1' }, { content: 'p2' }] })
    const id = res.body.id
    // Parts 0 and 1 go out; part 2 is refused for good.
    loop.reply({ status: 200 }, { status: 200 }, { status: 400, body: { message: 'duplicate content' } }, { status: 200 })
    const before = loop.received.length
    t.clock.advance(MIN)
    await tick()
    const failed = await get(id)
    expect(failed.status).toBe('failed')
    expect(failed.targets[0]).toMatchObject({
      status: 'failed',
      platform_post_id: null,
      error: { code: 'platform_rejected', part: 2, detail: expect.stringMatching(/^Part 2 of 3 \(a thread part\): duplicate content; parts 0–1 are out/) },
    })
    expect(failed.targets[0].parts.map((p: { index: number }) => p.index)).toEqual([0, 1])
    expect(loop.received.slice(before).map((r) => r.content)).toEqual(['p0', 'p1', 'p2'])
    const [p0, p1] = failed.targets[0].parts

    loop.reply({ status: 200 })
    const retried = await t.http.post(`/v1/posts/${id}/retry`, {}, { key: t.key })
    expect(retried.status).toBe(200)
    const mark = loop.received.length
    await tick()
    const done = await get(id)
    expect(done.status).toBe('published')
    // Only part 2 was sent again, as a reply to part 1; the target keeps the post's own id.
    expect(loop.received.slice(mark)).toEqual([expect.objectContaining({ content: 'p2', in_reply_to: p1.platform_post_id, idempotency_key: `${id}-2` })])
    expect(done.targets[0]).toMatchObject({ status: 'published', platform_post_id: p0.platform_post_id, url: p0.url, error: null })
    expect(done.targets[0].parts.map((p: { index: number }) => p.index)).toEqual([0, 1, 2])
    expect(done.targets[0].parts.slice(0, 2)).toEqual([p0, p1])
  })

  it('a transient failure of a later part retries from that part after the backoff', async () => {
    const res = await create({ content: 'q0', platforms: ['bluesky'], first_comment: 'q1' })
    const id = res.body.id
    loop.reply({ status: 200 }, { status: 503 }, { status: 200 })
    const before = loop.received.length
    t.clock.advance(MIN)
    await tick()
    expect(await get(id)).toMatchObject({ status: 'publishing', targets: [{ status: 'pending', error: { code: 'platform_error', part: 1 } }] })
    t.clock.advance(90_000)
    await tick()
    const done = await get(id)
    expect(done.status).toBe('published')
    expect(loop.received.slice(before).map((r) => r.content)).toEqual(['q0', 'q1', 'q1'])
    expect(done.targets[0].parts.map((p: { kind: string }) => p.kind)).toEqual(['post', 'first_comment'])
  })

  it('a part that got no answer on a platform without idempotency is unconfirmed at that part; a retry sends that part, never the ones before', async () => {
    const res = await create({ content: 'u0', platforms: ['x'], first_comment: 'u1', thread: [{ content: 'u2' }] })
    const id = res.body.id
    loop.reply({ status: 200 }, 'hang')
    const before = loop.received.length
    t.clock.advance(MIN)
    await tick()
    loop.reply({ status: 200 })
    const unconfirmed = await get(id)
    expect(unconfirmed.targets[0]).toMatchObject({ status: 'unconfirmed', error: { code: 'unconfirmed', part: 1, detail: expect.stringMatching(/^Part 1 of 3 \(the first comment\): .*may or may not have published/) } })
    expect(unconfirmed.targets[0].parts.map((p: { index: number }) => p.index)).toEqual([0])
    expect(loop.received.slice(before).map((r) => r.content)).toEqual(['u0', 'u1'])
    const mark = loop.received.length
    expect((await t.http.post(`/v1/posts/${id}/retry`, {}, { key: t.key })).status).toBe(200)
    await tick()
    expect((await get(id)).status).toBe('published')
    expect(loop.received.slice(mark).map((r) => r.content)).toEqual(['u1', 'u2'])
  })

  it('on an idempotent platform, a part that timed out is sent again under the same key, and the parts before it are not', async () => {
    const res = await create({ content: 'i0', platforms: ['bluesky'], thread: [{ content: 'i1' }, { content: 'i2' }] })
    const id = res.body.id
    loop.reply({ status: 200 }, { status: 200 }, 'hang')
    const before = loop.received.length
    t.clock.advance(MIN)
    await tick()
    loop.reply({ status: 200 })
    expect(await get(id)).toMatchObject({ status: 'publishing', targets: [{ status: 'pending', error: { part: 2 } }] })
    t.clock.advance(90_000)
    await tick()
    const done = await get(id)
    expect(done.status).toBe('published')
    const sent = loop.received.slice(before)
    expect(sent.map((r) => [r.content, r.idempotency_key])).toEqual([
      ['i0', id],
      ['i1', `${id}-1`],
      ['i2', `${id}-2`],
      ['i2', `${id}-2`],
    ])
  })
})

