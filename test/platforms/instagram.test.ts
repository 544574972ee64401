import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { instagram } from '../../daemon/platforms/instagram.js'
import type { Connection } from '../../daemon/platforms/types.js'
import { FakeInstagram } from '../fixtures/instagram-server.js'
import { connectionOf, oauthContext, platformError, type OAuthContext } from '../fixtures/platform-context.js'
import { jpeg, mp4 } from '../helpers/media-files.js'
import { storedMedia, type StoredMedia } from '../helpers/stored-media.js'

let fake: FakeInstagram
let ctx: OAuthContext
let connection: Connection
let stored: StoredMedia

const IG_ID = '17841400000000001'
const DAY = 86_400_000

async function connect(): Promise<Connection> {
  const verified = await instagram.oauth.exchange({ code: fake.issueCode('2711000000'), options: {} }, ctx)
  return connectionOf('instagram', {}, verified)
}

beforeAll(async () => {
  stored = await storedMedia()
  fake = await FakeInstagram.start()
  ctx = await oauthContext(fake.url, fake.app, { authorize: '/oauth/authorize', token: '/oauth/access_token' })
  connection = await connect()
})

afterAll(async () => {
  await stored.close()
  await fake.server.close()
})

describe('instagram', () => {
  it('declares Business Login for Instagram: its endpoints and scopes, comma-separated, no PKCE', () => {
    expect(instagram.oauth.endpoints).toEqual({ authorizeUrl: 'https://www.instagram.com/oauth/authorize', tokenUrl: 'https://api.instagram.com/oauth/access_token', apiUrl: 'https://graph.instagram.com' })
    expect(instagram.oauth.scopes).toEqual(['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_insights'])
    expect(instagram.oauth).toMatchObject({ scopeSeparator: ',', pkce: false })
    expect(instagram.idempotencyWindowMs).toBe(0)
  })

  it('exchanges the code at the token URL, the short-lived token for a 60-day one at the API origin, and keeps the professional account id', async () => {
    const verified = await instagram.oauth.exchange({ code: fake.issueCode('2711000000'), options: {} }, ctx)
    expect(verified).toMatchObject({ handle: '@alice.shop', display_name: 'Alice Shop', settings: { account_type: 'BUSINESS' } })
    expect(fake.sent('POST', '/oauth/access_token').at(-1)!.params).toEqual({
      client_id: fake.app.clientId,
      client_secret: fake.app.clientSecret,
      grant_type: 'authorization_code',
      redirect_uri: fake.app.redirectUri,
      code: expect.stringMatching(/^code-/),
    })
    expect(fake.sent('GET', '/access_token').at(-1)!.params).toEqual({ grant_type: 'ig_exchange_token', client_secret: fake.app.clientSecret, access_token: expect.stringMatching(/^short-/) })
    expect(fake.sent('GET', '/v23.0/me').at(-1)!.params.fields).toBe('user_id,username,name,account_type')
    expect(verified.credentials).toEqual({ access_token: expect.stringMatching(/^long-/), expires_at: ctx.clock.now() + 5_183_944_000, user_id: IG_ID })
  })

  it('takes the grant flat as well as wrapped in data', async () => {
    fake.wrapGrant = false
    const verified = await instagram.oauth.exchange({ code: fake.issueCode('2711000000'), options: {} }, ctx)
    fake.wrapGrant = true
    expect(verified.credentials.user_id).toBe(IG_ID)
  })

  it('a reused code is a refused grant with Instagram\'s message', async () => {
    const code = fake.issueCode('2711000000')
    await instagram.oauth.exchange({ code, options: {} }, ctx)
    const error = await platformError(instagram.oauth.exchange({ code, options: {} }, ctx))
    expect(error).toMatchObject({ kind: 'auth', code: 'grant_refused' })
    expect(error.message).toContain('This authorization code has been used.')
  })

  it('refreshes the long-lived token at the API origin for 60 more days', async () => {
    ctx.clock.advance(40 * DAY)
    const before = connection.credentials as { access_token: string; expires_at: number; user_id: string }
    const renewed = await instagram.oauth.refresh!(before, ctx)
    expect(fake.sent('GET', '/refresh_access_token').at(-1)!.params).toEqual({ grant_type: 'ig_refresh_token', access_token: before.access_token })
    expect(renewed).toEqual({ access_token: expect.stringMatching(/^long-/), expires_at: ctx.clock.now() + 5_183_944_000, user_id: IG_ID })
    fake.revoke(renewed.access_token)
    expect(await platformError(instagram.oauth.refresh!(renewed, ctx))).toMatchObject({ kind: 'auth' })
  })

  it('publishes one image: a container with image_url and caption, then media_publish, and the permalink', async () => {
    const published = await instagram.publish(connection, { postId: 'pst_01JIGONE', content: 'New drop #shoes', mediaUrls: [fake.image('shoe.jpg')] }, ctx)
    const create = fake.sent('POST', `/v23.0/${IG_ID}/media`).at(-1)!
    expect(create.params).toEqual({ image_url: fake.image('shoe.jpg'), caption: 'New drop #shoes', access_token: (connection.credentials as { access_token: string }).access_token })
    const publish = fake.sent('POST', `/v23.0/${IG_ID}/media_publish`).at(-1)!
    expect(fake.containers.get(publish.params.creation_id!)!.published).toBe(published.platform_post_id)
    expect(published.url).toBe(`https://www.instagram.com/p/D${published.platform_post_id!.slice(-6)}/`)
    expect(fake.sent('GET', `/${publish.params.creation_id}`).at(-1)!.params.fields).toBe('status_code,status')
  })

  it('publishes a first comment as a comment on the post (POST /{ig-media-id}/comments); thread parts as posts of their own', async () => {
    expect([instagram.thread, instagram.firstComment]).toEqual(['consecutive', 'comment'])
    const post = await instagram.publish(connection, { postId: 'pst_01JIGCOMMENT', content: 'New drop', mediaUrls: [fake.image('shoe.jpg')] }, ctx)
    const rootRef = { platform_post_id: post.platform_post_id, ref: null }
    const comment = await instagram.publish(connection, { postId: 'pst_01JIGCOMMENT', content: 'Shop: link in bio', mediaUrls: [], followUp: { index: 1, kind: 'first_comment', root: rootRef, parent: rootRef } }, ctx)
    expect(fake.comments.get(comment.platform_post_id!)).toEqual({ mediaId: post.platform_post_id, message: 'Shop: link in bio' })
    expect(fake.sent('POST', `/v23.0/${post.platform_post_id}/comments`).at(-1)!.params).toMatchObject({ message: 'Shop: link in bio' })
    const next = await instagram.publish(connection, { postId: 'pst_01JIGCOMMENT', content: 'Part two', mediaUrls: [fake.image('2.jpg')], followUp: { index: 2, kind: 'thread', root: rootRef, parent: rootRef } }, ctx)
    expect(fake.media.get(next.platform_post_id!)!.container.params).toEqual(expect.objectContaining({ caption: 'Part two', image_url: fake.image('2.jpg') }))
  })

  it('publishes a carousel: item containers with is_carousel_item, then a CAROUSEL with children and the caption', async () => {
    const before = fake.requests.length
    const urls = [fake.image('1.jpg'), fake.image('2.jpg')]
    const published = await instagram.publish(connection, { postId: 'pst_01JIGCAR', content: 'Two views', mediaUrls: urls }, ctx)
    const creates = fake.requests.slice(before).filter((r) => r.path.endsWith('/media'))
    expect(creates.map((r) => [r.params.image_url, r.params.is_carousel_item, r.params.caption, r.params.media_type])).toEqual([
      [urls[0], 'true', undefined, undefined],
      [urls[1], 'true', undefined, undefined],
      [undefined, undefined, 'Two views', 'CAROUSEL'],
    ])
    const carousel = [...fake.containers.values()].find((c) => c.published === published.platform_post_id)!
    expect(carousel.params.children!.split(',').map((id) => fake.containers.get(id)!.params.image_url)).toEqual(urls)
  })

  it('a container in ERROR is permanent with its status text, and nothing is published', async () => {
    const publishes = fake.sent('POST', '/media_publish').length
    const error = await platformError(instagram.publish(connection, { postId: 'pst_01JIGERR', content: 'x', mediaUrls: [fake.image('broken.jpg')] }, ctx))
    expect(error).toMatchObject({ kind: 'permanent', code: 'media_rejected' })
    expect(error.message).toContain('Error: UNKNOWN')
    expect(fake.sent('POST', '/media_publish')).toHaveLength(publishes)
  })

  it('maps Graph errors: expired token → auth, rate limit → transient with the wait, invalid media → permanent with the message', async () => {
    const stale = { ...connection, credentials: { ...connection.credentials, access_token: 'long-gone' } }
    const expired = await platformError(instagram.publish(stale, { postId: 'pst_01JIG190', content: 'x', mediaUrls: [fake.image('a.jpg')] }, ctx))
    expect(expired).toMatchObject({ kind: 'auth', code: 'credentials_rejected' })
    expect(expired.message).toContain('Session has expired')

    fake.failNext('POST /v23.0/:id/media_publish', {
      status: 400,
      body: { error: { message: 'Application request limit reached', type: 'OAuthException', code: 4, is_transient: true, fbtrace_id: 'x' } },
      headers: { 'x-business-use-case-usage': JSON.stringify({ [IG_ID]: [{ type: 'instagram', call_count: 100, total_cputime: 1, total_time: 1, estimated_time_to_regain_access: 2 }] }) },
    })
    const limited = await platformError(instagram.publish(connection, { postId: 'pst_01JIGLIM', content: 'x', mediaUrls: [fake.image('a.jpg')] }, ctx))
    expect(limited).toMatchObject({ kind: 'transient', code: 'rate_limited', retryAfterMs: 120_000 })

    fake.failNext('POST /v23.0/:id/media', { status: 400, body: { error: { message: 'Only photo or video can be accepted as media type.', type: 'OAuthException', code: 9004, error_subcode: 2207052, fbtrace_id: 'x' } } })
    const invalid = await platformError(instagram.publish(connection, { postId: 'pst_01JIGBAD', content: 'x', mediaUrls: [fake.image('a.jpg')] }, ctx))
    expect(invalid).toMatchObject({ kind: 'permanent', code: 'platform_rejected' })
    expect(invalid.message).toContain('Only photo or video can be accepted as media type. (code 9004, subcode 2207052)')
  })

  it('a PNG never reaches Instagram: refused by its content before any container', async () => {
    const creates = fake.sent('POST', '/media').length
    const png = await platformError(instagram.publish(connection, { postId: 'pst_01JIGPNG', content: 'x', mediaUrls: [fake.image('logo.png')] }, ctx))
    expect(png).toMatchObject({ kind: 'permanent', code: 'media_type_unsupported' })
    expect(png.message).toContain('logo.png')
    expect(fake.sent('POST', '/media')).toHaveLength(creates)
  })

  it('reads likes, comments (replies), shares (reposts) and views (impressions); quotes are not an Instagram count', async () => {
    const published = await instagram.publish(connection, { postId: 'pst_01JIGMET', content: 'Count me', mediaUrls: [fake.image('m.jpg')] }, ctx)
    fake.media.get(published.platform_post_id!)!.counts = { likes: 12, comments: 4, shares: 2, views: 900 }
    const counts = await instagram.metrics!(connection, [published.platform_post_id!, '404'], ctx)
    expect(counts.get(published.platform_post_id!)).toEqual({ impressions: 900, likes: 12, reposts: 2, replies: 4, quotes: null, clicks: null })
    expect(counts.has('404')).toBe(false)
    expect(fake.sent('GET', '/insights').at(-1)!.params.metric).toBe('likes,comments,shares,views')
  })

  it('validates: media required, 2,200 characters, 30 hashtags, 20 mentions, 10 items, JPEG only, each naming Instagram', () => {
    const jpg = ['https://m.example/a.jpg']
    expect(instagram.check({ content: 'x'.repeat(2200), media_urls: jpg }, {})).toEqual([])
    const noMedia = instagram.check({ content: 'Just words', media_urls: [] }, {})
    expect(noMedia).toEqual([expect.objectContaining({ pointer: '#/media_urls', code: 'required' })])
    expect(noMedia[0]!.detail).toContain('Instagram')
    const long = instagram.check({ content: 'x'.repeat(2201), media_urls: jpg }, {})
    expect(long).toEqual([expect.objectContaining({ pointer: '#/content', code: 'too_long' })])
    expect(long[0]!.detail).toContain('Instagram allows 2,200')
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `#tag${i}`).join(' ')
    expect(instagram.check({ content: tags(30), media_urls: jpg }, {})).toEqual([])
    expect(instagram.check({ content: tags(31), media_urls: jpg }, {})).toEqual([expect.objectContaining({ pointer: '#/content', code: 'too_many_hashtags' })])
    const mentions = Array.from({ length: 21 }, (_, i) => `@user${i}`).join(' ')
    expect(instagram.check({ content: mentions, media_urls: jpg }, {})).toEqual([expect.objectContaining({ pointer: '#/content', code: 'too_many_mentions' })])
    expect(instagram.check({ content: 'mail me at a@b.example', media_urls: jpg }, {})).toEqual([])
    const eleven = instagram.check({ content: 'x', media_urls: Array.from({ length: 11 }, (_, i) => `https://m.example/${i}.jpg`) }, {})
    expect(eleven).toEqual([expect.objectContaining({ pointer: '#/media_urls', code: 'too_many_media' })])
    const png = instagram.check({ content: 'x', media_urls: ['https://m.example/a.png'] }, {})
    expect(png).toEqual([expect.objectContaining({ pointer: '#/media_urls', code: 'media_type_unsupported' })])
    expect(png[0]!.detail).toContain('Instagram publishes JPEG images only')
  })
  it('publishes uploaded media by their public URLs: image_url and video_url containers with alt text, alone and as a carousel', async () => {
    const photo = await stored.attach(jpeg(1080, 1080, 2_000), 'image/jpeg', { alt_text: 'A bowl of ramen', url: 'https://smm.example/media/tokenphoto.jpg' })
    const clip = await stored.attach(mp4(1080, 1920, 8_000), 'video/mp4', { alt_text: 'A short walk through', url: 'https://smm.example/media/tokenclip.mp4' })
    const own = (r: { params: Record<string, string> }) => Object.fromEntries(Object.entries(r.params).filter(([k]) => k !== 'access_token' && k !== 'appsecret_proof'))
    let before = fake.requests.length
    await instagram.publish(connection, { postId: 'pst_01JINSTAGRAMUPV', content: 'A reel', mediaUrls: [], media: [clip] }, ctx)
    expect(fake.requests.slice(before).filter((r) => r.path.endsWith('/media')).map(own)).toEqual([{ media_type: 'REELS', video_url: clip.url, caption: 'A reel' }])
    before = fake.requests.length
    const published = await instagram.publish(connection, { postId: 'pst_01JINSTAGRAMUPC', content: 'Dinner', mediaUrls: [], media: [photo, clip] }, ctx)
    const creates = fake.requests.slice(before).filter((r) => r.path.endsWith('/media')).map(own)
    expect(creates.slice(0, 2)).toEqual([
      { image_url: photo.url, alt_text: 'A bowl of ramen', is_carousel_item: 'true' },
      { media_type: 'VIDEO', video_url: clip.url, is_carousel_item: 'true' },
    ])
    expect(creates[2]).toMatchObject({ media_type: 'CAROUSEL', caption: 'Dinner' })
    expect(published.platform_post_id).toBeTruthy()
    expect([instagram.uploadsMedia, instagram.limits.media.send]).toEqual([true, 'url'])
  })

})
