import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { linkedin, littleEscape } from '../../daemon/platforms/linkedin.js'
import type { Connection } from '../../daemon/platforms/types.js'
import { FakeLinkedIn } from '../fixtures/linkedin-server.js'
import { PNG, startMediaHost } from '../fixtures/media-host.js'
import { connectionOf, oauthContext, platformError, type OAuthContext } from '../fixtures/platform-context.js'
import { jpeg, mp4 } from '../helpers/media-files.js'
import { storedMedia, type StoredMedia } from '../helpers/stored-media.js'

let fake: FakeLinkedIn
let mediaHost: Awaited<ReturnType<typeof startMediaHost>>
let ctx: OAuthContext
let connection: Connection
let stored: StoredMedia

beforeAll(async () => {
  fake = await FakeLinkedIn.start()
  mediaHost = await startMediaHost()
  stored = await storedMedia()
  ctx = await oauthContext(fake.url, fake, { authorize: '/oauth/v2/authorization', token: '/oauth/v2/accessToken' })
  const verified = await linkedin.oauth.exchange({ code: fake.authorize(), options: {} }, ctx)
  connection = connectionOf('linkedin', {}, verified)
})

afterAll(async () => {
  await fake.server.close()
  await mediaHost.close()
  await stored.close()
})

const publish = (postId: string, content: string, mediaUrls: string[] = []) => linkedin.publish(connection, { postId, content, mediaUrls }, ctx)

describe('linkedin: connecting', () => {
  it('declares the documented endpoints, the three scopes and no PKCE (web apps use the client secret)', () => {
    expect(linkedin.oauth.endpoints).toEqual({
      authorizeUrl: 'https://www.linkedin.com/oauth/v2/authorization',
      tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
      apiUrl: 'https://api.linkedin.com',
    })
    expect(linkedin.oauth.scopes).toEqual(['openid', 'profile', 'w_member_social'])
    expect(linkedin.oauth.pkce).toBe(false)
    expect(linkedin.idempotencyWindowMs).toBe(0)
  })

  it('exchanges the code (client id and secret in the form) and learns the member from userinfo', async () => {
    const verified = await linkedin.oauth.exchange({ code: fake.authorize(), options: {} }, ctx)
    expect(verified.display_name).toBe('Ada Lovelace')
    expect(verified.settings).toEqual({ person_urn: 'urn:li:person:A1b2C3' })
    expect(verified.credentials).toMatchObject({ person_urn: 'urn:li:person:A1b2C3', expires_at: ctx.clock.now() + 5_183_999_000 })
    expect(verified.credentials.refresh_token).toBeUndefined()
    expect(verified.credentials).not.toHaveProperty('id_token')
    const form = new URLSearchParams(fake.requests.filter((r) => r.path === '/oauth/v2/accessToken').at(-1)!.body.toString())
    expect(Object.fromEntries(form)).toMatchObject({ grant_type: 'authorization_code', client_id: 'li-client', client_secret: 'li-secret', redirect_uri: fake.redirectUri })
  })

  it('a code used twice is refused as the grant, not the app', async () => {
    const code = fake.authorize()
    await linkedin.oauth.exchange({ code, options: {} }, ctx)
    const error = await platformError(linkedin.oauth.exchange({ code, options: {} }, ctx))
    expect(error).toMatchObject({ kind: 'auth', code: 'grant_refused' })
    expect(error.message).toContain('authorization code not found')
  })

  it('refreshes with the refresh_token grant where LinkedIn gave one, keeping the member', async () => {
    const verified = await linkedin.oauth.exchange({ code: fake.authorize({ refresh: true }), options: {} }, ctx)
    expect(verified.credentials.refresh_token_expires_at).toBe(ctx.clock.now() + 31_535_999_000)
    ctx.clock.advance(59 * 86_400_000)
    const fresh = await linkedin.oauth.refresh!(verified.credentials, ctx)
    expect(fresh.access_token).not.toBe(verified.credentials.access_token)
    expect(fresh).toMatchObject({ person_urn: 'urn:li:person:A1b2C3', refresh_token: verified.credentials.refresh_token, expires_at: ctx.clock.now() + 5_183_999_000 })
    const form = new URLSearchParams(fake.requests.filter((r) => r.path === '/oauth/v2/accessToken').at(-1)!.body.toString())
    expect(Object.fromEntries(form)).toEqual({ grant_type: 'refresh_token', refresh_token: verified.credentials.refresh_token, client_id: 'li-client', client_secret: 'li-secret' })
  })

  it('without a refresh token the person must reconnect, said plainly', async () => {
    const error = await platformError(linkedin.oauth.refresh!({ access_token: 'token-x', person_urn: 'urn:li:person:A1b2C3' }, ctx))
    expect(error).toMatchObject({ kind: 'auth', code: 'refresh_unavailable' })
    expect(error.message).toContain('connect LinkedIn again')
  })
})

describe('linkedin: rules', () => {
  it('allows 3,000 characters, at most 20 images, and only image types', () => {
    expect(linkedin.check({ content: 'x'.repeat(3000), media_urls: [] }, {})).toEqual([])
    expect(linkedin.check({ content: 'x'.repeat(3001), media_urls: [] }, {})).toEqual([expect.objectContaining({ pointer: '#/content', code: 'too_long', detail: 'is 3,001 characters; LinkedIn allows 3,000' })])
    expect(linkedin.check({ content: '', media_urls: [] }, {})).toEqual([expect.objectContaining({ pointer: '#/content', code: 'required' })])
    const many = Array.from({ length: 21 }, (_, i) => `https://m.example/${i}.png`)
    expect(linkedin.check({ content: 'hi', media_urls: many }, {})).toEqual([expect.objectContaining({ pointer: '#/media_urls', code: 'too_many_media' })])
    const video = linkedin.check({ content: 'hi', media_urls: ['https://m.example/a.png', 'https://m.example/clip.mp4'] }, {})
    expect(video).toEqual([expect.objectContaining({ pointer: '#/media_urls/1', code: 'media_type_unsupported' })])
    expect(video[0]!.detail).toContain('LinkedIn')
  })

  it('escapes the little-format characters, but not hashtags or links', () => {
    expect(littleEscape('Launch (beta) at 10:00 *today* @team [v2] {x} <y> a_b ~ | \\')).toBe('Launch \\(beta\\) at 10:00 \\*today\\* \\@team \\[v2\\] \\{x\\} \\<y\\> a\\_b \\~ \\| \\\\')
    expect(littleEscape('#launch day, issue #42 and C# https://example.com/a_b~c (see)')).toBe('#launch day, issue #42 and C\\# https://example.com/a_b~c \\(see\\)')
  })
})

describe('linkedin: publishing', () => {
  it('a first comment goes through the Comments API on the post’s URN; thread parts are posts of their own', async () => {
    expect([linkedin.thread, linkedin.firstComment]).toEqual(['consecutive', 'comment'])
    const post = await publish('pst_01JLICOMMENT', 'We are hiring')
    const ref = { platform_post_id: post.platform_post_id, ref: null }
    const comment = await linkedin.publish(connection, { postId: 'pst_01JLICOMMENT', content: 'Apply (today): https://jobs.example', mediaUrls: [], followUp: { index: 1, kind: 'first_comment', root: ref, parent: ref } }, ctx)
    expect(comment.platform_post_id).toMatch(/^urn:li:comment:\(urn:li:activity:\d+,\d+\)$/)
    expect(fake.comments.get(comment.platform_post_id!)).toEqual({ object: post.platform_post_id, actor: 'urn:li:person:A1b2C3', text: 'Apply (today): https://jobs.example' })
    const sent = fake.requests.filter((r) => r.path.endsWith('/comments')).at(-1)!
    expect(sent.path).toBe(`/rest/socialActions/${encodeURIComponent(post.platform_post_id!)}/comments`)
    expect(sent.headers).toMatchObject({ 'linkedin-version': expect.stringMatching(/^\d{6}$/), 'x-restli-protocol-version': '2.0.0' })
    const next = await linkedin.publish(connection, { postId: 'pst_01JLICOMMENT', content: 'Part two', mediaUrls: [], followUp: { index: 2, kind: 'thread', root: ref, parent: ref } }, ctx)
    expect(fake.posts.get(next.platform_post_id!)!.commentary).toBe('Part two')
  })

  it('publishes text through the Posts API with the version headers and returns the URN and its URL', async () => {
    const published = await publish('pst_01JLITEXT', 'Hello (LinkedIn) #smm')
    expect(published.platform_post_id).toMatch(/^urn:li:share:\d+$/)
    expect(published.url).toBe(`https://www.linkedin.com/feed/update/${published.platform_post_id}`)
    const sent = fake.requests.filter((r) => r.path === '/rest/posts').at(-1)!
    expect(sent.headers).toMatchObject({ 'linkedin-version': expect.stringMatching(/^\d{6}$/), 'x-restli-protocol-version': '2.0.0', 'content-type': 'application/json' })
    expect(sent.headers.authorization).toBe(`Bearer ${connection.credentials.access_token}`)
    expect(JSON.parse(sent.body.toString())).toEqual({
      author: 'urn:li:person:A1b2C3',
      commentary: 'Hello \\(LinkedIn\\) #smm',
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    })
  })

  it('one image: initializeUpload for the member, PUT of the bytes with the token, content.media', async () => {
    const published = await publish('pst_01JLIONE', 'A cat', [mediaHost.media('cat.png')])
    const post = fake.posts.get(published.platform_post_id!)!
    const image = post.content.media.id as string
    expect(fake.images.get(image)).toEqual({ owner: 'urn:li:person:A1b2C3', uploaded: { bytes: PNG.length, type: 'image/png', authorization: `Bearer ${connection.credentials.access_token}`, body: PNG } })
    const init = fake.requests.filter((r) => r.path === '/rest/images?action=initializeUpload').at(-1)!
    expect(init.headers).toMatchObject({ 'linkedin-version': expect.stringMatching(/^\d{6}$/), 'x-restli-protocol-version': '2.0.0' })
    expect(JSON.parse(init.body.toString())).toEqual({ initializeUploadRequest: { owner: 'urn:li:person:A1b2C3' } })
  })

  it('several images: each uploaded, then content.multiImage in order', async () => {
    const published = await publish('pst_01JLIMANY', 'Three cats', [mediaHost.media('cat.png'), mediaHost.media('cat.png'), mediaHost.media('cat.png')])
    const images = fake.posts.get(published.platform_post_id!)!.content.multiImage.images as Array<{ id: string }>
    expect(images).toHaveLength(3)
    expect(new Set(images.map((i) => i.id)).size).toBe(3)
    for (const { id } of images) expect(fake.images.get(id)!.uploaded).toMatchObject({ bytes: PNG.length })
  })

  it('uploaded images go by the Images API, their bytes PUT from the store, and the post names each with its alt text', async () => {
    const photo = jpeg(1200, 627, 8_000)
    const media = [await stored.attach(photo, 'image/jpeg', { alt_text: 'Our stand at the fair' })]
    const published = await linkedin.publish(connection, { postId: 'pst_01JLIUPLOAD', content: 'Two pictures', mediaUrls: [mediaHost.media('cat.png')], media }, ctx)
    const images = fake.posts.get(published.platform_post_id!)!.content.multiImage.images as Array<{ id: string; altText?: string }>
    expect(images).toEqual([{ id: expect.stringMatching(/^urn:li:image:/) }, { id: expect.stringMatching(/^urn:li:image:/), altText: 'Our stand at the fair' }])
    expect(fake.images.get(images[1]!.id)!.uploaded).toMatchObject({ type: 'image/jpeg', body: photo })
    const alone = await linkedin.publish(connection, { postId: 'pst_01JLIALONE', content: 'One picture', mediaUrls: [], media }, ctx)
    expect(fake.posts.get(alone.platform_post_id!)!.content.media).toEqual({ id: expect.stringMatching(/^urn:li:image:/), altText: 'Our stand at the fair' })
  })

  it('an uploaded video goes by the Videos API: initializeUpload with its size, each 4 MB part PUT from the store, finalizeUpload with the ETags, posted once AVAILABLE', async () => {
    const clip = mp4(1280, 720, 6_000, { padding: 5_000_000 })
    const video = await stored.attach(clip, 'video/mp4')
    const before = ctx.clock.now()
    const published = await linkedin.publish(connection, { postId: 'pst_01JLIVIDEO', content: 'A video', mediaUrls: [], media: [video] }, ctx)
    const { id } = fake.posts.get(published.platform_post_id!)!.content.media as { id: string }
    const item = fake.videos.get(id)!
    const init = fake.requests.filter((r) => r.path === '/rest/videos?action=initializeUpload').at(-1)!
    expect(JSON.parse(init.body.toString())).toEqual({ initializeUploadRequest: { owner: 'urn:li:person:A1b2C3', fileSizeBytes: clip.length, uploadCaptions: false, uploadThumbnail: false } })
    expect([...item.parts.keys()]).toEqual([0, 1])
    expect(item.parts.get(0)!.type).toBe('application/octet-stream')
    expect(Buffer.concat([item.parts.get(0)!.body, item.parts.get(1)!.body]).equals(clip)).toBe(true)
    expect(item.finalized).toEqual([item.parts.get(0)!.etag, item.parts.get(1)!.etag])
    // PROCESSING once, then AVAILABLE after the first wait, on the injected clock.
    expect(ctx.clock.now() - before).toBe(2_000)
    expect(linkedin.uploadsMedia).toBe(true)
  })

  it('a file that is not an image fails this target, naming the URL, before anything is posted', async () => {
    const before = fake.posts.size
    const error = await platformError(publish('pst_01JLIBAD', 'x', [mediaHost.media('not-really.png')]))
    expect(error).toMatchObject({ kind: 'permanent', code: 'media_type_unsupported' })
    expect(error.message).toContain('not-really.png')
    expect(fake.posts.size).toBe(before)
  })

  it('LinkedIn refusing an image is permanent with its message', async () => {
    fake.failNext('POST /rest/posts', { status: 422, body: { message: '/content/media/id :: Image urn:li:image:C4E1 is not available', status: 422 } })
    const error = await platformError(publish('pst_01JLIREFUSED', 'x', [mediaHost.media('cat.png')]))
    expect(error).toMatchObject({ kind: 'permanent', code: 'platform_rejected' })
    expect(error.message).toContain('is not available')
  })

  it('the same text twice is a permanent duplicate_content', async () => {
    await publish('pst_01JLIDUP1', 'Exactly once')
    const error = await platformError(publish('pst_01JLIDUP2', 'Exactly once'))
    expect(error).toMatchObject({ kind: 'permanent', code: 'duplicate_content' })
    expect(error.message).toContain('Content is a duplicate of urn:li:share:')
  })

  it('an expired token is an auth failure: the person reconnects', async () => {
    const expired = { ...connection, credentials: { ...connection.credentials, access_token: 'token-expired' } }
    const error = await platformError(linkedin.publish(expired, { postId: 'pst_01JLIEXP', content: 'x', mediaUrls: [] }, ctx))
    expect(error).toMatchObject({ kind: 'auth', code: 'token_expired' })
    expect(error.message).toContain('Invalid access token')
  })

  it('429 is transient, waiting as long as Retry-After says by our clock; 500 is transient too', async () => {
    const until = new Date(Math.ceil((ctx.clock.now() + 120_000) / 1000) * 1000)
    fake.failNext('POST /rest/posts', { status: 429, body: { message: 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.', status: 429 }, headers: { 'retry-after': until.toUTCString() } })
    const limited = await platformError(publish('pst_01JLI429', 'Later'))
    expect(limited).toMatchObject({ kind: 'transient', code: 'rate_limited', retryAfterMs: until.getTime() - ctx.clock.now() })
    expect(limited.message).toContain('throttle')
    fake.failNext('POST /rest/posts', { status: 500, body: { message: 'Internal Server Error', status: 500 } })
    expect(await platformError(publish('pst_01JLI500', 'Later'))).toMatchObject({ kind: 'transient' })
  })

  it('a 400 with LinkedIn error JSON is permanent with its message', async () => {
    fake.failNext('POST /rest/posts', { status: 400, body: { message: 'Invalid visibility value', serviceErrorCode: 100, status: 400 } })
    const error = await platformError(publish('pst_01JLI400', 'x'))
    expect(error).toMatchObject({ kind: 'permanent', code: 'platform_rejected' })
    expect(error.message).toBe('LinkedIn answered 400: Invalid visibility value')
  })
})

describe('linkedin: metrics', () => {
  it('reads likes and comments from socialActions; impressions and reposts are not reported', async () => {
    const published = await publish('pst_01JLIMETRICS', 'Count me')
    Object.assign(fake.posts.get(published.platform_post_id!)!, { likes: 12, comments: 3 })
    const counts = await linkedin.metrics!(connection, [published.platform_post_id!, 'urn:li:share:1'], ctx)
    expect(counts.get(published.platform_post_id!)).toEqual({ impressions: null, likes: 12, reposts: null, replies: 4, quotes: null, clicks: null })
    expect(counts.has('urn:li:share:1')).toBe(false)
  })

  it('an app without r_member_social is told so, without marking the connection for reconnecting', async () => {
    fake.canReadSocial = false
    const error = await platformError(linkedin.metrics!(connection, [[...fake.posts.keys()][0]!], ctx))
    fake.canReadSocial = true
    expect(error).toMatchObject({ kind: 'permanent', code: 'metrics_not_permitted' })
    expect(error.message).toContain('r_member_social')
  })
})
