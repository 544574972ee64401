import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { weightedLength } from '../../src/text-length.js'
import type { Connection } from '../../daemon/platforms/types.js'
import { x } from '../../daemon/platforms/x.js'
import { filePart, type MultipartPart } from '../fixtures/loopback.js'
import { startMediaHost } from '../fixtures/media-host.js'
import { gif, jpeg, mp4 } from '../helpers/media-files.js'
import { storedMedia, type StoredMedia } from '../helpers/stored-media.js'
import { connectionOf, oauthContext, platformError, type OAuthContext } from '../fixtures/platform-context.js'
import { FakeX } from '../fixtures/x-server.js'

let fake: FakeX
let mediaHost: Awaited<ReturnType<typeof startMediaHost>>
let ctx: OAuthContext
let connection: Connection
let stored: StoredMedia

/** Parts with each file's bytes as their length and SHA-256: a mismatch in megabytes of video reads as one line, not a diff of every byte. */
const digested = (parts: MultipartPart[]) => parts.map((p) => ('bytes' in p ? { ...p, bytes: `${p.bytes.length} bytes, sha256 ${createHash('sha256').update(p.bytes).digest('hex')}` } : p))

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
  stored = await storedMedia()
  ctx = await oauthContext(fake.url, { clientId: fake.clientId, clientSecret: fake.clientSecret, redirectUri: REDIRECT_URI }, { authorize: '/i/oauth2/authorize', token: '/2/oauth2/token' })
  fake.now = () => ctx.clock.now()
  connection = await connect()
})

afterAll(async () => {
  await fake.server.close()
  await mediaHost.close()
  await stored.close()
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

  it('sends an uploaded image by the one-request upload, then its alt text by POST /2/media/metadata', async () => {
    const photo = jpeg(1200, 675, 10_000)
    const image = await stored.attach(photo, 'image/jpeg', { alt_text: 'A red bicycle against a wall' })
    const published = await x.publish(connection, { postId: 'pst_uploaded_image', content: 'A bicycle', mediaUrls: [], media: [image] }, ctx)
    const [id] = fake.posts.get(published.platform_post_id!)!.mediaIds
    expect(fake.requests.slice(-3).map((r) => [r.path, r.body])).toEqual([
      ['/2/media/upload', { media: photo.toString('base64'), media_category: 'tweet_image' }],
      ['/2/media/metadata', { id, metadata: { alt_text: { text: 'A red bicycle against a wall' } } }],
      ['/2/tweets', { text: 'A bicycle', media: { media_ids: [id] } }],
    ])
  })

  it('sends an uploaded video by the chunked upload: INIT, APPEND of 4 MB segments streamed from the store, FINALIZE, STATUS after the wait X names', async () => {
    const clip = mp4(1280, 720, 10_000, { padding: 9_000_000 })
    const video = await stored.attach(clip, 'video/mp4', { alt_text: 'X keeps no alt text for video' })
    const before = ctx.clock.now()
    const published = await x.publish(connection, { postId: 'pst_uploaded_video', content: 'A video', mediaUrls: [], media: [video] }, ctx)
    const [id] = fake.posts.get(published.platform_post_id!)!.mediaIds
    const upload = fake.chunked.get(id!)!
    const segment = (n: number) => filePart('media', video.filename, 'application/octet-stream', clip.subarray(n * 4 * 1024 * 1024, (n + 1) * 4 * 1024 * 1024))
    expect(upload.requests.map(digested)).toEqual([
      [
        { name: 'command', value: 'INIT' },
        { name: 'media_type', value: 'video/mp4' },
        { name: 'total_bytes', value: String(clip.length) },
        { name: 'media_category', value: 'tweet_video' },
      ],
      ...[0, 1, 2].map((n) => digested([{ name: 'command', value: 'APPEND' }, { name: 'media_id', value: id! }, { name: 'segment_index', value: String(n) }, segment(n)])),
      [
        { name: 'command', value: 'FINALIZE' },
        { name: 'media_id', value: id },
      ],
    ])
    expect(Buffer.concat(upload.segments).equals(clip)).toBe(true)
    // FINALIZE said check after 1 s; the STATUS then said in_progress, check after 3 s; then succeeded.
    expect([upload.polls, ctx.clock.now() - before]).toEqual([2, 4_000])
    expect(fake.altText.has(id!)).toBe(false)
  })

  it('sends a GIF by the chunked upload as tweet_gif, with its alt text; a processing failure is permanent with X’s reason', async () => {
    const animation = gif(320, 240)
    const item = await stored.attach(animation, 'image/gif', { alt_text: 'A spinning logo' })
    fake.processingPolls = 0
    try {
      const published = await x.publish(connection, { postId: 'pst_uploaded_gif', content: 'A GIF', mediaUrls: [], media: [item] }, ctx)
      const [id] = fake.posts.get(published.platform_post_id!)!.mediaIds
      expect(fake.chunked.get(id!)!.requests[0]).toEqual([
        { name: 'command', value: 'INIT' },
        { name: 'media_type', value: 'image/gif' },
        { name: 'total_bytes', value: String(animation.length) },
        { name: 'media_category', value: 'tweet_gif' },
      ])
      expect(fake.altText.get(id!)).toBe('A spinning logo')
    } finally {
      fake.processingPolls = 1
    }
    const clip = await stored.attach(mp4(640, 360, 2_000), 'video/mp4')
    fake.failNext('GET /2/media/upload', { status: 200, body: { data: { id: '1', processing_info: { state: 'failed', progress_percent: 12, error: { code: 1, name: 'InvalidMedia', message: 'Unsupported video format' } } } } })
    const error = await platformError(x.publish(connection, { postId: 'pst_bad_video', content: 'Broken', mediaUrls: [], media: [clip] }, ctx))
    expect(error).toMatchObject({ kind: 'permanent', code: 'media_rejected', message: `media ${clip.filename}: X could not process it: Unsupported video format` })
  })

  it('refuses at validation a GIF with other media, and a video from a media URL, saying what X takes', () => {
    const item = (content_type: 'image/gif' | 'image/png') => ({ content_type, bytes: 1000, width: 10, height: 10, duration_ms: null, alt_text: null })
    expect(x.uploadsMedia).toBe(true)
    expect(x.check({ content: 'x', media_urls: [], media: [item('image/png'), item('image/gif')] }, {})).toEqual([
      { pointer: '#/media/1', code: 'media_mixed', detail: 'is a GIF, and the post has other media; X takes up to 4 images, or one GIF, or one video: move the GIF to a thread part' },
    ])
    expect(x.check({ content: 'x', media_urls: ['https://m.example/clip.mp4'] }, {})).toEqual([
      { pointer: '#/media_urls/0', code: 'media_type_unsupported', detail: 'is a .mp4 file; smm sends X a video uploaded to smm (POST /v1/media, then "media": [{"id": …}]), not one from a media URL' },
    ])
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
