import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { facebook } from '../../daemon/platforms/facebook.js'
import type { Connection } from '../../daemon/platforms/types.js'
import { FakeFacebook } from '../fixtures/facebook-server.js'
import { oauthContext, platformError, type OAuthContext } from '../fixtures/platform-context.js'
import { filePart } from '../fixtures/loopback.js'
import { jpeg, mp4 } from '../helpers/media-files.js'
import { storedMedia, type StoredMedia } from '../helpers/stored-media.js'

let fake: FakeFacebook
let ctx: OAuthContext
let connection: Connection
let stored: StoredMedia
const PAGE = { id: '104729', name: 'Corner Bakery' }

beforeAll(async () => {
  stored = await storedMedia()
  fake = await FakeFacebook.start()
  ctx = await oauthContext(fake.url, fake, { authorize: '/v26.0/dialog/oauth', token: '/v26.0/oauth/access_token' })
  connection = { accountId: 'acc_test', platform: 'facebook', credentials: { access_token: fake.pageToken(PAGE.id), page_id: PAGE.id }, settings: { page_id: PAGE.id }, handle: PAGE.name }
})

afterAll(async () => {
  await stored.close()
  await fake.server.close()
})

const exchange = (pages: Array<{ id: string; name: string; tasks?: string[] }>, options: Record<string, string> = {}) => facebook.oauth.exchange({ code: fake.authorize(pages), options }, ctx)
const publish = (postId: string, content: string, mediaUrls: string[] = []) => facebook.publish(connection, { postId, content, mediaUrls }, ctx)
const media = (name: string) => `https://media.example/${name}`

describe('facebook: connecting a Page', () => {
  it('declares one Graph version in its endpoints, the three Page scopes, no refresh', () => {
    const { authorizeUrl, tokenUrl, apiUrl } = facebook.oauth.endpoints
    const version = /\/(v\d+\.0)\//.exec(authorizeUrl)![1]
    expect(authorizeUrl).toBe(`https://www.facebook.com/${version}/dialog/oauth`)
    expect(tokenUrl).toBe(`https://graph.facebook.com/${version}/oauth/access_token`)
    expect(apiUrl).toBe('https://graph.facebook.com')
    expect(facebook.oauth.scopes).toEqual(['pages_show_list', 'pages_manage_posts', 'pages_read_engagement'])
    expect(facebook.oauth.refresh).toBeUndefined()
    expect(facebook.idempotencyWindowMs).toBe(0)
  })

  it('exchanges the code, then for a long-lived user token, and keeps the only Page and its non-expiring token', async () => {
    const verified = await exchange([PAGE])
    expect(verified).toMatchObject({ handle: 'Corner Bakery', display_name: 'Corner Bakery', settings: { page_id: PAGE.id } })
    expect(verified.credentials.page_id).toBe(PAGE.id)
    expect(fake.pageTokens.get(verified.credentials.access_token)).toBe(PAGE.id)
    expect(verified.credentials.expires_at).toBeUndefined()
    const tokenCalls = fake.requests.filter((r) => r.path === '/oauth/access_token').slice(-2)
    expect(tokenCalls[0]!.params).toEqual({ client_id: 'fb-app', client_secret: 'fb-secret', redirect_uri: fake.redirectUri, code: expect.any(String) })
    expect(tokenCalls[1]!.params).toMatchObject({ grant_type: 'fb_exchange_token', client_id: 'fb-app', client_secret: 'fb-secret' })
    const accounts = fake.requests.filter((r) => r.path === '/me/accounts').at(-1)!
    // Pages were listed with the long-lived token, so their tokens do not expire.
    expect(fake.userTokens.get(accounts.params.access_token!)!.longLived).toBe(true)
    expect(accounts.params.appsecret_proof).toBe(createHmac('sha256', 'fb-secret').update(accounts.params.access_token!).digest('hex'))
  })

  it('with several Pages, page_id picks one; without it the error lists them and says --page-id', async () => {
    const pages = [PAGE, { id: '2002', name: 'Night Market' }]
    const picked = await exchange(pages, { page_id: '2002' })
    expect(picked.credentials.page_id).toBe('2002')
    expect(picked.display_name).toBe('Night Market')
    const error = await platformError(exchange(pages))
    expect(error).toMatchObject({ kind: 'permanent', code: 'page_choice_needed' })
    expect(error.message).toContain('Corner Bakery (104729), Night Market (2002)')
    expect(error.message).toContain('--page-id ID')
    const unknown = await platformError(exchange(pages, { page_id: '999' }))
    expect(unknown).toMatchObject({ kind: 'permanent', code: 'page_not_granted' })
    expect(unknown.message).toContain('Night Market (2002)')
  })

  it('a grant that covers no Page says so', async () => {
    const error = await platformError(exchange([]))
    expect(error).toMatchObject({ kind: 'permanent', code: 'no_page_granted' })
    expect(error.message).toContain('covers no Page')
  })

  it('a Page role that cannot create content is refused at connect time', async () => {
    const error = await platformError(exchange([{ ...PAGE, tasks: ['ANALYZE'] }]))
    expect(error).toMatchObject({ kind: 'permanent', code: 'page_role_insufficient' })
  })

  it('a reused code is the grant refused; a wrong app secret is the operator app', async () => {
    const code = fake.authorize([PAGE])
    await facebook.oauth.exchange({ code, options: {} }, ctx)
    const reused = await platformError(facebook.oauth.exchange({ code, options: {} }, ctx))
    expect(reused).toMatchObject({ kind: 'auth', code: 'grant_refused' })
    expect(reused.message).toContain('This authorization code has been used.')
    const wrongSecret = await platformError(facebook.oauth.exchange({ code: fake.authorize([PAGE]), options: {} }, { ...ctx, app: { ...ctx.app, clientSecret: 'nope' } }))
    expect(wrongSecret).toMatchObject({ kind: 'permanent', code: 'app_rejected' })
    expect(wrongSecret.message).toContain('Error validating client secret')
  })
})

describe('facebook: rules', () => {
  it('allows 63,206 characters and image types only', () => {
    expect(facebook.check({ content: 'x'.repeat(63_206), media_urls: [] }, {})).toEqual([])
    expect(facebook.check({ content: 'x'.repeat(63_207), media_urls: [] }, {})).toEqual([expect.objectContaining({ pointer: '#/content', code: 'too_long', detail: 'is 63,207 characters; Facebook allows 63,206' })])
    expect(facebook.check({ content: ' ', media_urls: [] }, {})).toEqual([expect.objectContaining({ pointer: '#/content', code: 'required' })])
    expect(facebook.check({ content: 'hi', media_urls: [media('a.jpg'), media('b.pdf')] }, {})).toEqual([expect.objectContaining({ pointer: '#/media_urls/1', code: 'media_type_unsupported' })])
    const many = Array.from({ length: 11 }, (_, i) => media(`${i}.png`))
    expect(facebook.check({ content: 'hi', media_urls: many }, {})).toEqual([expect.objectContaining({ pointer: '#/media_urls', code: 'too_many_media' })])
  })
})

describe('facebook: publishing', () => {
  it('text goes to /{page-id}/feed as message with the Page token and its proof', async () => {
    const published = await publish('pst_01JFBTEXT', 'Fresh bread at 7')
    expect(published.platform_post_id).toMatch(new RegExp(`^${PAGE.id}_\\d+$`))
    expect(published.url).toBe(`https://www.facebook.com/${published.platform_post_id}`)
    expect(fake.posts.get(published.platform_post_id!)!.message).toBe('Fresh bread at 7')
    const sent = fake.requests.filter((r) => r.path === `/${PAGE.id}/feed`).at(-1)!
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(sent.params).toEqual({ message: 'Fresh bread at 7', access_token: connection.credentials.access_token, appsecret_proof: createHmac('sha256', 'fb-secret').update(String(connection.credentials.access_token)).digest('hex') })
  })

  it('a first comment is a comment on the Page post (POST /{post-id}/comments); thread parts are posts of their own', async () => {
    expect([facebook.thread, facebook.firstComment]).toEqual(['consecutive', 'comment'])
    const post = await publish('pst_01JFBCOMMENT', 'Opening hours changed')
    const ref = { platform_post_id: post.platform_post_id, ref: null }
    const comment = await facebook.publish(connection, { postId: 'pst_01JFBCOMMENT', content: 'Details: https://bakery.example/hours', mediaUrls: [], followUp: { index: 1, kind: 'first_comment', root: ref, parent: ref } }, ctx)
    expect(fake.comments.get(comment.platform_post_id!)).toEqual({ postId: post.platform_post_id, message: 'Details: https://bakery.example/hours' })
    expect(comment.url).toBe(`https://www.facebook.com/${post.platform_post_id}?comment_id=${comment.platform_post_id}`)
    expect(fake.posts.get(post.platform_post_id!)!.comments).toBe(1)
    const sent = fake.requests.filter((r) => r.path === `/${post.platform_post_id}/comments`).at(-1)!
    expect(sent.params).toMatchObject({ message: 'Details: https://bakery.example/hours', access_token: connection.credentials.access_token })
    const next = await facebook.publish(connection, { postId: 'pst_01JFBCOMMENT', content: 'And on Sundays', mediaUrls: [], followUp: { index: 2, kind: 'thread', root: ref, parent: ref } }, ctx)
    expect(fake.posts.get(next.platform_post_id!)!.message).toBe('And on Sundays')
  })

  it('one image is a photo post by URL with the text as caption', async () => {
    const published = await publish('pst_01JFBONE', 'Our croissants', [media('cat.png')])
    const post = fake.posts.get(published.platform_post_id!)!
    expect(post.photos).toHaveLength(1)
    expect(fake.photos.get(post.photos[0]!)).toEqual({ pageId: PAGE.id, url: media('cat.png'), published: true, caption: 'Our croissants' })
  })

  it('several images are uploaded unpublished, then attached to one feed post in order', async () => {
    const published = await publish('pst_01JFBMANY', 'The whole counter', [media('cat.png'), media('dog.jpg'), media('cat.png')])
    const post = fake.posts.get(published.platform_post_id!)!
    expect(post.message).toBe('The whole counter')
    expect(post.photos.map((id) => fake.photos.get(id)!)).toEqual([
      expect.objectContaining({ url: media('cat.png'), published: false }),
      expect.objectContaining({ url: media('dog.jpg'), published: false }),
      expect.objectContaining({ url: media('cat.png'), published: false }),
    ])
    const feed = fake.requests.filter((r) => r.path === `/${PAGE.id}/feed`).at(-1)!
    expect(JSON.parse(feed.params['attached_media[0]']!)).toEqual({ media_fbid: post.photos[0] })
  })

  it('an image Facebook cannot read is a permanent media_rejected with its message', async () => {
    const error = await platformError(publish('pst_01JFBBAD', 'x', [media('not-really.png')]))
    expect(error).toMatchObject({ kind: 'permanent', code: 'media_rejected' })
    expect(error.message).toContain('(#324) Requires upload file')
  })

  it('the same status twice is a permanent duplicate_content (code 506)', async () => {
    await publish('pst_01JFBDUP1', 'Closed on Monday')
    const error = await platformError(publish('pst_01JFBDUP2', 'Closed on Monday'))
    expect(error).toMatchObject({ kind: 'permanent', code: 'duplicate_content' })
    expect(error.message).toContain('(#506) Duplicate status message')
  })

  it('an expired or revoked token (code 190) is an auth failure', async () => {
    const dead = { ...connection, credentials: { access_token: 'EAAgone', page_id: PAGE.id } }
    const error = await platformError(facebook.publish(dead, { postId: 'pst_01JFBDEAD', content: 'x', mediaUrls: [] }, ctx))
    expect(error).toMatchObject({ kind: 'auth', code: 'token_expired' })
    expect(error.message).toContain('Session has expired')
  })

  it('throttling (code 32) is transient, waiting as long as the usage header says', async () => {
    fake.failNext('POST /:id/feed', {
      status: 400,
      body: { error: { message: '(#32) Page request limit reached', type: 'OAuthException', code: 32, fbtrace_id: 'Axyz' } },
      headers: { 'x-business-use-case-usage': JSON.stringify({ [PAGE.id]: [{ type: 'pages', call_count: 100, total_cputime: 12, total_time: 40, estimated_time_to_regain_access: 7 }] }) },
    })
    const error = await platformError(publish('pst_01JFB32', 'Later'))
    expect(error).toMatchObject({ kind: 'transient', code: 'rate_limited', retryAfterMs: 7 * 60_000 })
    expect(error.message).toContain('fbtrace_id Axyz')
    const until = new Date(Math.ceil((ctx.clock.now() + 90_000) / 1000) * 1000)
    fake.failNext('POST /:id/feed', { status: 429, body: { error: { message: 'Too many calls', type: 'OAuthException', code: 4 } }, headers: { 'retry-after': until.toUTCString() } })
    expect(await platformError(publish('pst_01JFB429', 'Later'))).toMatchObject({ kind: 'transient', code: 'rate_limited', retryAfterMs: until.getTime() - ctx.clock.now() })
  })

  it('other Graph errors are permanent with the message', async () => {
    fake.failNext('POST /:id/feed', { status: 400, body: { error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100, error_subcode: 1363026 } } })
    const error = await platformError(publish('pst_01JFB100', 'x'))
    expect(error).toMatchObject({ kind: 'permanent', code: 'platform_rejected' })
    expect(error.message).toBe('Facebook answered 400: (#100) Invalid parameter (code 100, subcode 1363026)')
  })
})

describe('facebook: metrics', () => {
  it('reads reactions, comments and shares from the post summaries; a deleted post is skipped', async () => {
    const published = await publish('pst_01JFBMETRICS', 'Count me')
    Object.assign(fake.posts.get(published.platform_post_id!)!, { reactions: 9, comments: 4, shares: 2 })
    const quiet = await publish('pst_01JFBQUIET', 'Nobody shared me')
    const counts = await facebook.metrics!(connection, [published.platform_post_id!, quiet.platform_post_id!, `${PAGE.id}_1`], ctx)
    expect(counts.get(published.platform_post_id!)).toEqual({ impressions: null, likes: 9, reposts: 2, replies: 4, quotes: null, clicks: null })
    expect(counts.get(quiet.platform_post_id!)).toMatchObject({ likes: 0, reposts: 0, replies: 0 })
    expect(counts.has(`${PAGE.id}_1`)).toBe(false)
    const read = fake.requests.filter((r) => r.method === 'GET' && r.path === `/${published.platform_post_id}`).at(-1)!
    expect(read.params.fields).toBe('reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),shares')
  })
  it('uploads photos as multipart `source` with their alt text (alt_text_custom), alone or attached to one feed post, and a video to /videos', async () => {
    const bytes = jpeg(1200, 900, 3_000)
    const photo = await stored.attach(bytes, 'image/jpeg', { alt_text: 'The new shop front' })
    const token = String(connection.credentials.access_token)
    const proof = createHmac('sha256', fake.clientSecret).update(token).digest('hex')
    let before = fake.requests.length
    const single = await facebook.publish(connection, { postId: 'pst_fb_upload1', content: 'We moved', mediaUrls: [], media: [photo] }, ctx)
    const sent = fake.requests.slice(before).find((r) => r.path.endsWith('/photos'))!
    expect(sent.parts).toEqual([
      { name: 'caption', value: 'We moved' },
      { name: 'alt_text_custom', value: 'The new shop front' },
      { name: 'access_token', value: token },
      { name: 'appsecret_proof', value: proof },
      filePart('source', photo.filename, 'image/jpeg', bytes),
    ])
    expect(single.platform_post_id).toMatch(/_\d+$/)
    before = fake.requests.length
    const two = await facebook.publish(connection, { postId: 'pst_fb_upload2', content: 'Inside and out', mediaUrls: [media('cat.png')], media: [photo] }, ctx)
    const photos = fake.requests.slice(before).filter((r) => r.path.endsWith('/photos'))
    expect(photos.map((r) => r.params.published)).toEqual(['false', 'false'])
    expect(photos[1]!.parts!.map((p) => p.name)).toEqual(['published', 'alt_text_custom', 'access_token', 'appsecret_proof', 'source'])
    expect(fake.posts.get(two.platform_post_id!)!.photos).toHaveLength(2)
    const clip = mp4(1280, 720, 4_000)
    const video = await stored.attach(clip, 'video/mp4')
    const published = await facebook.publish(connection, { postId: 'pst_fb_video', content: 'A tour', mediaUrls: [], media: [video] }, ctx)
    expect(fake.videos.get(published.platform_post_id!)).toEqual({ pageId: expect.any(String), description: 'A tour', bytes: clip })
    expect(facebook.uploadsMedia).toBe(true)
  })

})
