import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { weightedLength } from '../../src/text-length.js'
import type { Connection } from '../../daemon/platforms/types.js'
import { x } from '../../daemon/platforms/x.js'
import { startMediaHost } from '../fixtures/media-host.js'
import { connectionOf, oauthContext, platformError, type OAuthContext } from '../fixtures/platform-context.js'
import { FakeX } from '../fixtures/x-server.js'

let fake: FakeX
let mediaHost: Awaited<ReturnType<typeof startMediaHost>>
let ctx: OAuthContext
let connection: Connection

const REDIRECT_URI = 'https://smm.example/oauth/callback'

/** The browser leg, as the connect flow runs it: PKCE pair, the authorize URL, the code X sends back. */
async function authorize(scopes: readonly string[] = x.oauth.scopes) {
  const verifier = randomBytes(32).toString('base64url')
  const url = new URL(ctx.app.authorizeUrl)
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: ctx.app.clientId,
    redirect_uri: REDIRECT_URI,
    scope: scopes.join(x.oauth.scopeSeparator),
    state: 'state-1',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString()
  const answer = await ctx.http(url.toString())
  expect(answer.status).toBe(302)
  const back = new URL(answer.headers.location!)
  return { code: back.searchParams.get('code')!, verifier }
}

async function connect(): Promise<Connection> {
  const { code, verifier } = await authorize()
  const verified = await x.oauth.exchange({ code, codeVerifier: verifier, options: {} }, ctx)
  return connectionOf('x', {}, verified, 'acc_x')
}

beforeAll(async () => {
  fake = await FakeX.start()
  mediaHost = await startMediaHost()
  ctx = await oauthContext(fake.url, { clientId: fake.clientId, clientSecret: fake.clientSecret, redirectUri: REDIRECT_URI }, { authorize: '/i/oauth2/authorize', token: '/2/oauth2/token' })
  fake.now = () => ctx.clock.now()
  connection = await connect()
})

afterAll(async () => {
  await fake.server.close()
  await mediaHost.close()
})

describe('x: connecting', () => {
  it("declares X's documented endpoints, scopes and PKCE", () => {
    expect(x.oauth.endpoints).toEqual({ authorizeUrl: 'https://x.com/i/oauth2/authorize', tokenUrl: 'https://api.x.com/2/oauth2/token', apiUrl: 'https://api.x.com' })
    expect(x.oauth.scopes).toEqual(expect.arrayContaining(['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access']))
    expect(x.oauth.pkce).toBe(true)
    expect(x.idempotencyWindowMs).toBe(0)
  })

  it('exchanges the code with its PKCE verifier and Basic client auth: tokens, expiry, who the account is', async () => {
    const { code, verifier } = await authorize()
    const verified = await x.oauth.exchange({ code, codeVerifier: verifier, options: {} }, ctx)
    expect(verified.handle).toBe('@alice')
    expect(verified.display_name).toBe('Alice Example')
    expect(verified.credentials).toMatchObject({ user_id: fake.user.id, access_token: expect.stringMatching(/^xat-/), refresh_token: expect.stringMatching(/^xrt-/) })
    expect(verified.credentials.expires_at).toBe(ctx.clock.now() + 7_200_000)
    const tokenCall = fake.requests.filter((r) => r.path === '/2/oauth2/token').at(-1)!
    expect(tokenCall.authorization).toBe(`Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`)
  })

  it('a wrong verifier or a code used twice is refused as a grant the person must start again', async () => {
    const { code } = await authorize()
    const wrong = await platformError(x.oauth.exchange({ code, codeVerifier: 'not-the-verifier', options: {} }, ctx))
    expect(wrong).toMatchObject({ kind: 'auth', code: 'grant_refused' })
    expect(wrong.message).toContain('code verifier did not match')
    const reused = await platformError(x.oauth.exchange({ code, codeVerifier: 'not-the-verifier', options: {} }, ctx))
    expect(reused.kind).toBe('auth')
  })

  it("a wrong client secret names the operator's app, not the person", async () => {
    const { code, verifier } = await authorize()
    const error = await platformError(x.oauth.exchange({ code, codeVerifier: verifier, options: {} }, { ...ctx, app: { ...ctx.app, clientSecret: 'wrong' } }))
    expect(error).toMatchObject({ kind: 'permanent', code: 'app_rejected' })
  })

  it('refreshes: the rotated refresh token replaces the old one, which no longer works', async () => {
    const own = await connect()
    const before = own.credentials as { refresh_token: string; access_token: string }
    ctx.clock.advance(7_000_000)
    const fresh = await x.oauth.refresh!(own.credentials as never, ctx)
    expect(fresh.refresh_token).not.toBe(before.refresh_token)
    expect(fresh.access_token).not.toBe(before.access_token)
    expect(fresh.expires_at).toBe(ctx.clock.now() + 7_200_000)
    expect(fresh.user_id).toBe(fake.user.id)
    const stale = await platformError(x.oauth.refresh!(own.credentials as never, ctx))
    expect(stale).toMatchObject({ kind: 'auth', code: 'grant_refused' })
    const published = await x.publish({ ...own, credentials: fresh }, { postId: 'pst_refreshed', content: 'After a refresh', mediaUrls: [] }, ctx)
    expect(fake.posts.get(published.platform_post_id!)!.text).toBe('After a refresh')
  })

  it('a revoked grant cannot refresh: the connection needs the person again', async () => {
    const own = await connect()
    fake.refreshTokens.delete((own.credentials as { refresh_token: string }).refresh_token)
    const error = await platformError(x.oauth.refresh!(own.credentials as never, ctx))
    expect(error.kind).toBe('auth')
    expect(error.message).toContain('Value passed for the token was invalid')
  })
})

describe('x: publishing', () => {
  it('publishes text: POST /2/tweets, the id and the post URL come back', async () => {
    const published = await x.publish(connection, { postId: 'pst_text', content: 'Hello from smm', mediaUrls: [] }, ctx)
    expect(fake.posts.get(published.platform_post_id!)).toMatchObject({ text: 'Hello from smm', mediaIds: [] })
    expect(published.url).toBe(`https://x.com/alice/status/${published.platform_post_id}`)
    expect(fake.requests.filter((r) => r.path === '/2/tweets').at(-1)!.body).toEqual({ text: 'Hello from smm' })
  })

  it('publishes a thread and a first comment as replies: reply.in_reply_to_tweet_id names the part before', async () => {
    expect([x.thread, x.firstComment]).toEqual(['replies', 'reply'])
    const root = await x.publish(connection, { postId: 'pst_thread', content: 'A thread 1/3', mediaUrls: [] }, ctx)
    const rootRef = { platform_post_id: root.platform_post_id, ref: null }
    const comment = await x.publish(connection, { postId: 'pst_thread', content: 'Link: https://example.com', mediaUrls: [], followUp: { index: 1, kind: 'first_comment', root: rootRef, parent: rootRef } }, ctx)
    const two = await x.publish(connection, { postId: 'pst_thread', content: 'A thread 2/3', mediaUrls: [], followUp: { index: 2, kind: 'thread', root: rootRef, parent: rootRef } }, ctx)
    const three = await x.publish(connection, { postId: 'pst_thread', content: 'A thread 3/3', mediaUrls: [], followUp: { index: 3, kind: 'thread', root: rootRef, parent: { platform_post_id: two.platform_post_id, ref: null } } }, ctx)
    expect(fake.posts.get(comment.platform_post_id!)!.inReplyTo).toBe(root.platform_post_id)
    expect(fake.posts.get(two.platform_post_id!)!.inReplyTo).toBe(root.platform_post_id)
    expect(fake.posts.get(three.platform_post_id!)!.inReplyTo).toBe(two.platform_post_id)
    expect(fake.requests.filter((r) => r.path === '/2/tweets').at(-1)!.body).toEqual({ text: 'A thread 3/3', reply: { in_reply_to_tweet_id: two.platform_post_id } })
    // A reply to a post that is gone is refused by X, for good.
    const gone = await platformError(x.publish(connection, { postId: 'pst_thread', content: 'orphan', mediaUrls: [], followUp: { index: 4, kind: 'thread', root: rootRef, parent: { platform_post_id: '1999999999999999999', ref: null } } }, ctx))
    expect(gone.kind).toBe('permanent')
  })

  it('publishes with images: each uploaded first (base64, tweet_image), their ids attached', async () => {
    const published = await x.publish(connection, { postId: 'pst_images', content: 'Two cats', mediaUrls: [mediaHost.media('cat.png'), mediaHost.media('cat.png')] }, ctx)
    const post = fake.posts.get(published.platform_post_id!)!
    expect(post.mediaIds).toHaveLength(2)
    for (const id of post.mediaIds) expect(fake.media.get(id)).toMatchObject({ category: 'tweet_image' })
    const order = fake.requests.slice(-3).map((r) => r.path)
    expect(order).toEqual(['/2/media/upload', '/2/media/upload', '/2/tweets'])
  })

  it("the fake holds our bodies to X's OpenAPI schemas: a field X does not declare is a 400", async () => {
    const token = (connection.credentials as { access_token: string }).access_token
    const answer = await ctx.http(`${fake.url}/2/media/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ media: 'iVBORw0KGgo=', media_category: 'tweet_image', media_type: 'image/png' }),
    })
    expect(answer.status).toBe(400)
    expect(answer.json<{ type: string }>().type).toBe('https://api.x.com/2/problems/invalid-request')
  })

  it('refuses, before uploading, a file that is no image X takes', async () => {
    const uploads = fake.requests.filter((r) => r.path === '/2/media/upload').length
    const error = await platformError(x.publish(connection, { postId: 'pst_pdf', content: 'A document', mediaUrls: [mediaHost.media('doc.pdf')] }, ctx))
    expect(error).toMatchObject({ kind: 'permanent', code: 'media_type_unsupported' })
    expect(fake.requests.filter((r) => r.path === '/2/media/upload').length).toBe(uploads)
  })

  it('a duplicate is permanent, with what X said', async () => {
    await x.publish(connection, { postId: 'pst_once', content: 'Only once', mediaUrls: [] }, ctx)
    const error = await platformError(x.publish(connection, { postId: 'pst_twice', content: 'Only once', mediaUrls: [] }, ctx))
    expect(error).toMatchObject({ kind: 'permanent', code: 'duplicate_content' })
    expect(error.message).toContain('You are not allowed to create a Tweet with duplicate content.')
  })

  it('429 is transient and waits until x-rate-limit-reset, counted from the injected clock', async () => {
    const reset = Math.floor(ctx.clock.now() / 1000) + 600
    fake.failNext('POST /2/tweets', {
      status: 429,
      body: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
      headers: { 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(reset) },
    })
    const error = await platformError(x.publish(connection, { postId: 'pst_limited', content: 'Rate limited', mediaUrls: [] }, ctx))
    expect(error).toMatchObject({ kind: 'transient', code: 'rate_limited', retryAfterMs: reset * 1000 - ctx.clock.now() })
  })

  it('401 is an auth error: the connection needs a refresh or the person', async () => {
    const error = await platformError(x.publish({ ...connection, credentials: { ...connection.credentials, access_token: 'revoked' } }, { postId: 'pst_401', content: 'Nope', mediaUrls: [] }, ctx))
    expect(error).toMatchObject({ kind: 'auth', code: 'credentials_rejected' })
    expect(error.message).toContain('X answered 401: Unauthorized')
  })

  it('5xx is transient; an invalid request is permanent with the errors[] message', async () => {
    fake.failNext('POST /2/tweets', { status: 503, body: { title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank', status: 503 } })
    expect(await platformError(x.publish(connection, { postId: 'pst_503', content: 'Later', mediaUrls: [] }, ctx))).toMatchObject({ kind: 'transient', code: 'platform_unavailable' })
    fake.failNext('POST /2/tweets', { status: 400, body: { errors: [{ message: 'Your media IDs are invalid.' }], title: 'Invalid Request', type: 'https://api.x.com/2/problems/invalid-request' } })
    const invalid = await platformError(x.publish(connection, { postId: 'pst_400', content: 'Bad', mediaUrls: [] }, ctx))
    expect(invalid).toMatchObject({ kind: 'permanent', code: 'platform_rejected' })
    expect(invalid.message).toContain('Your media IDs are invalid.')
  })
})

describe('x: counting and checking', () => {
  it("counts X's way: URLs 23, CJK and emoji 2", () => {
    expect(weightedLength(`read https://example.com/${'a'.repeat(200)}`)).toBe(5 + 23)
    expect(weightedLength('example.com')).toBe(23)
    expect(weightedLength('日本語')).toBe(6)
    expect(weightedLength('👍🏽 and 👨‍👩‍👧')).toBe(2 + 5 + 2)
    expect(weightedLength('café')).toBe(4)
    expect(x.measure({ content: '日本', media_urls: [] }, {})).toEqual({ length: 4, limit: 280 })
  })

  it('exactly 280 is fine, 281 is refused naming X', () => {
    expect(x.check({ content: 'a'.repeat(280), media_urls: [] }, {})).toEqual([])
    expect(x.check({ content: '字'.repeat(140), media_urls: [] }, {})).toEqual([])
    expect(x.check({ content: `${'a'.repeat(256)} https://example.com/${'b'.repeat(300)}`, media_urls: [] }, {})).toEqual([])
    const over = x.check({ content: 'a'.repeat(281), media_urls: [] }, {})
    expect(over).toEqual([expect.objectContaining({ pointer: '#/content', code: 'too_long' })])
    expect(over[0]!.detail).toContain('X allows 280')
    expect(x.check({ content: `${'字'.repeat(140)}a`, media_urls: [] }, {})).toHaveLength(1)
  })

  it('at most 4 images, of types X takes; text or media required', () => {
    const images = (n: number) => Array.from({ length: n }, (_, i) => `https://m.example/${i}.jpg`)
    expect(x.check({ content: 'hi', media_urls: images(4) }, {})).toEqual([])
    expect(x.check({ content: 'hi', media_urls: images(5) }, {})).toEqual([expect.objectContaining({ pointer: '#/media_urls', code: 'too_many_media' })])
    const video = x.check({ content: 'hi', media_urls: ['https://m.example/a.png', 'https://m.example/clip.mp4'] }, {})
    expect(video).toEqual([expect.objectContaining({ pointer: '#/media_urls/1', code: 'media_type_unsupported' })])
    expect(video[0]!.detail).toContain('X')
    expect(x.check({ content: '', media_urls: [] }, {})).toEqual([expect.objectContaining({ pointer: '#/content', code: 'required' })])
    expect(x.check({ content: '', media_urls: images(1) }, {})).toEqual([])
  })
})

describe('x: metrics', () => {
  it('maps public_metrics (retweets as reposts, impressions), leaves clicks null, skips deleted posts', async () => {
    const published = await x.publish(connection, { postId: 'pst_metrics', content: 'Count me', mediaUrls: [] }, ctx)
    fake.posts.get(published.platform_post_id!)!.likes = 7
    const counts = await x.metrics!(connection, [published.platform_post_id!, '1999999999999999999'], ctx)
    expect(counts.get(published.platform_post_id!)).toEqual({ impressions: 1200, likes: 7, reposts: 3, replies: 2, quotes: 1, clicks: null })
    expect(counts.has('1999999999999999999')).toBe(false)
  })
})
