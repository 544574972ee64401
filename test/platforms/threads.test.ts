import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTAINER_WAITS_MS } from '../../daemon/platforms/meta-containers.js'
import { threads } from '../../daemon/platforms/threads.js'
import type { Connection } from '../../daemon/platforms/types.js'
import { connectionOf, oauthContext, platformError, type OAuthContext } from '../fixtures/platform-context.js'
import { jpeg, mp4 } from '../helpers/media-files.js'
import { storedMedia, type StoredMedia } from '../helpers/stored-media.js'
import { FakeThreads } from '../fixtures/threads-server.js'

let fake: FakeThreads
let ctx: OAuthContext
let connection: Connection
let stored: StoredMedia

const DAY = 86_400_000

async function connect(): Promise<Connection> {
  const verified = await threads.oauth.exchange({ code: fake.issueCode('1234567890'), options: {} }, ctx)
  return connectionOf('threads', {}, verified)
}

beforeAll(async () => {
  stored = await storedMedia()
  fake = await FakeThreads.start()
  ctx = await oauthContext(fake.url, fake.app, { authorize: '/oauth/authorize', token: '/oauth/access_token' })
  connection = await connect()
})

afterAll(async () => {
  await stored.close()
  await fake.server.close()
})

describe('threads', () => {
  it('declares the documented OAuth flow: Threads scopes, comma-separated, no PKCE', () => {
    expect(threads.oauth.endpoints).toEqual({ authorizeUrl: 'https://threads.net/oauth/authorize', tokenUrl: 'https://graph.threads.net/oauth/access_token', apiUrl: 'https://graph.threads.net' })
    expect(threads.oauth.scopes).toEqual(['threads_basic', 'threads_content_publish', 'threads_manage_insights'])
    expect(threads.oauth).toMatchObject({ scopeSeparator: ',', pkce: false })
    expect(threads.idempotencyWindowMs).toBe(0)
  })

  it('exchanges the code, then the short-lived token for a 60-day one, and learns whose it is', async () => {
    const verified = await threads.oauth.exchange({ code: fake.issueCode('1234567890'), options: {} }, ctx)
    expect(verified).toMatchObject({ handle: '@alice', display_name: 'Alice Example' })
    const exchange = fake.sent('POST', '/oauth/access_token').at(-1)!
    expect(exchange.params).toEqual({
      client_id: fake.app.clientId,
      client_secret: fake.app.clientSecret,
      grant_type: 'authorization_code',
      redirect_uri: fake.app.redirectUri,
      code: expect.stringMatching(/^code-/),
    })
    const longLived = fake.sent('GET', '/access_token').at(-1)!
    expect(longLived.params).toEqual({ grant_type: 'th_exchange_token', client_secret: fake.app.clientSecret, access_token: expect.stringMatching(/^short-/) })
    expect(verified.credentials).toEqual({ access_token: expect.stringMatching(/^long-/), expires_at: ctx.clock.now() + 5_183_944_000, user_id: '1234567890' })
    expect(fake.sent('GET', '/v1.0/me').at(-1)!.params.fields).toBe('id,username,name')
  })

  it('a code used twice is refused as a grant the person must redo; a wrong app secret names the operator', async () => {
    const code = fake.issueCode('1234567890')
    await threads.oauth.exchange({ code, options: {} }, ctx)
    const reused = await platformError(threads.oauth.exchange({ code, options: {} }, ctx))
    expect(reused).toMatchObject({ kind: 'auth', code: 'grant_refused' })
    expect(reused.message).toContain('This authorization code has been used.')
    const wrongApp = await platformError(threads.oauth.exchange({ code: fake.issueCode('1234567890'), options: {} }, { ...ctx, app: { ...ctx.app, clientSecret: 'nope' } }))
    expect(wrongApp).toMatchObject({ kind: 'permanent', code: 'app_rejected' })
  })

  it('refreshes the long-lived token itself (there is no refresh token) for 60 more days', async () => {
    ctx.clock.advance(30 * DAY)
    const before = connection.credentials as { access_token: string; expires_at: number; user_id: string }
    const renewed = await threads.oauth.refresh!(before, ctx)
    expect(fake.sent('GET', '/refresh_access_token').at(-1)!.params).toEqual({ grant_type: 'th_refresh_token', access_token: before.access_token })
    expect(renewed).toEqual({ access_token: expect.stringMatching(/^long-/), expires_at: ctx.clock.now() + 5_183_944_000, user_id: '1234567890' })
    expect(renewed.access_token).not.toBe(before.access_token)
    fake.revoke(renewed.access_token)
    expect(await platformError(threads.oauth.refresh!(renewed, ctx))).toMatchObject({ kind: 'auth' })
  })

  it('publishes text: a TEXT container, then threads_publish with its id, and the permalink', async () => {
    const published = await threads.publish(connection, { postId: 'pst_01JTEXT', content: 'Hello Threads', mediaUrls: [] }, ctx)
    const [create] = fake.sent('POST', '/v1.0/1234567890/threads').slice(-1)
    expect(create!.params).toEqual({ media_type: 'TEXT', text: 'Hello Threads', access_token: (connection.credentials as { access_token: string }).access_token })
    const publish = fake.sent('POST', '/v1.0/1234567890/threads_publish').at(-1)!
    const container = fake.containers.get(publish.params.creation_id!)!
    expect(container.params.text).toBe('Hello Threads')
    expect(published).toEqual({ platform_post_id: container.published, url: `https://www.threads.net/@alice/post/C${container.published!.slice(-6)}` })
  })

  it('publishes a thread as replies: each part’s container names the part before by reply_to_id', async () => {
    expect([threads.thread, threads.firstComment]).toEqual(['replies', 'reply'])
    const root = await threads.publish(connection, { postId: 'pst_01JTHREAD', content: 'Thread 1/3', mediaUrls: [] }, ctx)
    const rootRef = { platform_post_id: root.platform_post_id, ref: null }
    const two = await threads.publish(connection, { postId: 'pst_01JTHREAD', content: 'Thread 2/3', mediaUrls: [], followUp: { index: 1, kind: 'thread', root: rootRef, parent: rootRef } }, ctx)
    expect(fake.sent('POST', '/v1.0/1234567890/threads').at(-1)!.params).toMatchObject({ media_type: 'TEXT', text: 'Thread 2/3', reply_to_id: root.platform_post_id })
    const three = await threads.publish(
      connection,
      { postId: 'pst_01JTHREAD', content: 'Thread 3/3, two images', mediaUrls: [fake.image('a.jpg'), fake.image('b.jpg')], followUp: { index: 2, kind: 'thread', root: rootRef, parent: { platform_post_id: two.platform_post_id, ref: null } } },
      ctx,
    )
    // On a carousel the reply goes on the CAROUSEL container that is published, not on its items.
    const creates = fake.sent('POST', '/v1.0/1234567890/threads').slice(-3)
    expect(creates.map((c) => c.params.reply_to_id)).toEqual([undefined, undefined, two.platform_post_id])
    expect(fake.media.get(three.platform_post_id!)!.container.params).toMatchObject({ media_type: 'CAROUSEL', reply_to_id: two.platform_post_id })
    expect(fake.media.get(root.platform_post_id!)!.container.params.reply_to_id).toBeUndefined()
  })

  it('publishes one image as an IMAGE container with the text', async () => {
    await threads.publish(connection, { postId: 'pst_01JIMAGE', content: 'A cat', mediaUrls: [fake.image('cat.jpg')] }, ctx)
    const create = fake.sent('POST', '/threads').at(-1)!
    expect(create.params).toMatchObject({ media_type: 'IMAGE', image_url: fake.image('cat.jpg'), text: 'A cat' })
    expect(create.params.is_carousel_item).toBeUndefined()
  })

  it('publishes several images as a carousel: item containers, then a CAROUSEL with their ids as children', async () => {
    const before = fake.requests.length
    const urls = [fake.image('a.jpg'), fake.image('b.png'), fake.image('c.jpg')]
    const published = await threads.publish(connection, { postId: 'pst_01JCAROUSEL', content: 'Three pictures', mediaUrls: urls }, ctx)
    const creates = fake.requests.slice(before).filter((r) => r.path.endsWith('/threads'))
    expect(creates.map((r) => r.params.media_type)).toEqual(['IMAGE', 'IMAGE', 'IMAGE', 'CAROUSEL'])
    expect(creates.slice(0, 3).map((r) => [r.params.image_url, r.params.is_carousel_item, r.params.text])).toEqual(urls.map((u) => [u, 'true', undefined]))
    const carousel = [...fake.containers.values()].find((c) => c.published === published.platform_post_id)!
    expect(carousel.params).toMatchObject({ media_type: 'CAROUSEL', text: 'Three pictures' })
    const children = carousel.params.children!.split(',')
    expect(children.map((id) => fake.containers.get(id)!.params.image_url)).toEqual(urls)
  })

  it('waits for a container still processing, on the clock, then publishes', async () => {
    fake.processingReads = 3
    const start = ctx.clock.now()
    const published = await threads.publish(connection, { postId: 'pst_01JWAIT', content: 'Patience', mediaUrls: [fake.image('slow.jpg')] }, ctx)
    fake.processingReads = 0
    expect(published.platform_post_id).toBeTruthy()
    expect(ctx.clock.now() - start).toBe(CONTAINER_WAITS_MS[0] + CONTAINER_WAITS_MS[1] + CONTAINER_WAITS_MS[2])
  })

  it('gives up after five minutes of processing, transiently, without publishing', async () => {
    fake.processingReads = 1_000
    const start = ctx.clock.now()
    const publishes = fake.sent('POST', '/threads_publish').length
    const error = await platformError(threads.publish(connection, { postId: 'pst_01JSLOW', content: 'Too slow', mediaUrls: [] }, ctx))
    fake.processingReads = 0
    expect(error).toMatchObject({ kind: 'transient', code: 'media_processing' })
    expect(ctx.clock.now() - start).toBe(300_000)
    expect(fake.sent('POST', '/threads_publish')).toHaveLength(publishes)
  })

  it('a container in ERROR is permanent, with Meta\'s message', async () => {
    const error = await platformError(threads.publish(connection, { postId: 'pst_01JBROKEN', content: 'x', mediaUrls: [fake.image('broken.jpg')] }, ctx))
    expect(error).toMatchObject({ kind: 'permanent', code: 'media_rejected' })
    expect(error.message).toContain('UNKNOWN')
  })

  it('an expired token is an auth failure carrying Meta\'s message', async () => {
    const stale = { ...connection, credentials: { ...connection.credentials, access_token: 'long-expired' } }
    const error = await platformError(threads.publish(stale, { postId: 'pst_01JEXPIRED', content: 'x', mediaUrls: [] }, ctx))
    expect(error).toMatchObject({ kind: 'auth', code: 'credentials_rejected' })
    expect(error.message).toContain('Error validating access token')
  })

  it('a rate limit (code 4) is transient with the wait from the usage header', async () => {
    fake.failNext('POST /v1.0/:id/threads', {
      status: 400,
      body: { error: { message: 'Application request limit reached', type: 'OAuthException', code: 4, fbtrace_id: 'x' } },
      headers: { 'x-business-use-case-usage': JSON.stringify({ '1234567890': [{ type: 'threads', call_count: 100, total_cputime: 10, total_time: 10, estimated_time_to_regain_access: 15 }] }) },
    })
    const error = await platformError(threads.publish(connection, { postId: 'pst_01JLIMIT', content: 'x', mediaUrls: [] }, ctx))
    expect(error).toMatchObject({ kind: 'transient', code: 'rate_limited', retryAfterMs: 900_000 })
    fake.failNext('POST /v1.0/:id/threads_publish', { status: 429, body: { error: { message: 'Too many calls', code: 613 } }, headers: { 'retry-after': '60' } })
    expect(await platformError(threads.publish(connection, { postId: 'pst_01JLIMIT', content: 'x', mediaUrls: [] }, ctx))).toMatchObject({ kind: 'transient', retryAfterMs: 60_000 })
  })

  it('invalid media fails permanently naming it: a type Threads does not take, or a URL that is not there', async () => {
    const gone = await platformError(threads.publish(connection, { postId: 'pst_01JMEDIA', content: 'x', mediaUrls: [fake.image('gone.gif')] }, ctx))
    expect(gone).toMatchObject({ kind: 'permanent', code: 'media_unavailable' })
    expect(gone.message).toContain('gone.gif')
    fake.failNext('POST /v1.0/:id/threads', { status: 400, body: { error: { message: 'The media could not be fetched from this uri', type: 'OAuthException', code: 100, error_subcode: 2207052 } } })
    const refused = await platformError(threads.publish(connection, { postId: 'pst_01JMEDIA', content: 'x', mediaUrls: [fake.image('cat.jpg')] }, ctx))
    expect(refused).toMatchObject({ kind: 'permanent', code: 'platform_rejected' })
    expect(refused.message).toContain('The media could not be fetched from this uri')
  })

  it('reads likes, replies, reposts, quotes and views (as impressions) back; a deleted post is skipped', async () => {
    const published = await threads.publish(connection, { postId: 'pst_01JMETRICS', content: 'Count me', mediaUrls: [] }, ctx)
    fake.media.get(published.platform_post_id!)!.counts = { likes: 7, replies: 2, reposts: 3, quotes: 1, views: 420 }
    const counts = await threads.metrics!(connection, [published.platform_post_id!, '999'], ctx)
    expect(counts.get(published.platform_post_id!)).toEqual({ impressions: 420, likes: 7, reposts: 3, replies: 2, quotes: 1, clicks: null })
    expect(counts.has('999')).toBe(false)
    expect(fake.sent('GET', '/insights').at(-1)!.params.metric).toBe('likes,replies,reposts,quotes,views')
  })

  it('checks 500 characters the Threads way (an emoji counts its UTF-8 bytes), links, carousel size and image types', () => {
    expect(threads.check({ content: 'x'.repeat(500), media_urls: [] }, {})).toEqual([])
    const long = threads.check({ content: 'x'.repeat(501), media_urls: [] }, {})
    expect(long).toEqual([expect.objectContaining({ pointer: '#/content', code: 'too_long' })])
    expect(long[0]!.detail).toContain('Threads allows 500')
    expect(threads.measure({ content: `${'x'.repeat(496)}👍`, media_urls: [] }, {})).toEqual({ length: 500, limit: 500 })
    expect(threads.check({ content: '', media_urls: [] }, {})).toEqual([expect.objectContaining({ pointer: '#/content', code: 'required' })])
    const links = Array.from({ length: 6 }, (_, i) => `https://example.com/${i}`).join(' ')
    expect(threads.check({ content: links, media_urls: [] }, {})).toEqual([expect.objectContaining({ pointer: '#/content', code: 'too_many_links' })])
    const many = threads.check({ content: 'x', media_urls: Array.from({ length: 21 }, (_, i) => `https://m.example/${i}.jpg`) }, {})
    expect(many).toEqual([expect.objectContaining({ pointer: '#/media_urls', code: 'too_many_media' })])
    expect(many[0]!.detail).toContain('Threads')
    const gif = threads.check({ content: 'x', media_urls: ['https://m.example/a.gif'] }, {})
    expect(gif).toEqual([expect.objectContaining({ pointer: '#/media_urls', code: 'media_type_unsupported' })])
  })
  it('publishes uploaded media by their public URLs: image_url and video_url containers with alt text, alone and as a carousel', async () => {
    const photo = await stored.attach(jpeg(1080, 1080, 2_000), 'image/jpeg', { alt_text: 'A bowl of ramen', url: 'https://smm.example/media/tokenphoto.jpg' })
    const clip = await stored.attach(mp4(1080, 1920, 8_000), 'video/mp4', { alt_text: 'A short walk through', url: 'https://smm.example/media/tokenclip.mp4' })
    const own = (r: { params: Record<string, string> }) => Object.fromEntries(Object.entries(r.params).filter(([k]) => k !== 'access_token' && k !== 'appsecret_proof'))
    let before = fake.requests.length
    await threads.publish(connection, { postId: 'pst_01JTHREADSUPV', content: 'A reel', mediaUrls: [], media: [clip] }, ctx)
    expect(fake.requests.slice(before).filter((r) => r.path.endsWith('/threads')).map(own)).toEqual([{ media_type: 'VIDEO', video_url: clip.url, alt_text: 'A short walk through', text: 'A reel' }])
    before = fake.requests.length
    const published = await threads.publish(connection, { postId: 'pst_01JTHREADSUPC', content: 'Dinner', mediaUrls: [], media: [photo, clip] }, ctx)
    const creates = fake.requests.slice(before).filter((r) => r.path.endsWith('/threads')).map(own)
    expect(creates.slice(0, 2)).toEqual([
      { media_type: 'IMAGE', image_url: photo.url, alt_text: 'A bowl of ramen', is_carousel_item: 'true' },
      { media_type: 'VIDEO', video_url: clip.url, alt_text: 'A short walk through', is_carousel_item: 'true' },
    ])
    expect(creates[2]).toMatchObject({ media_type: 'CAROUSEL', text: 'Dinner' })
    expect(published.platform_post_id).toBeTruthy()
    expect([threads.uploadsMedia, threads.limits.media.send]).toEqual([true, 'url'])
  })

})
