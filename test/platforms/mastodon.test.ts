import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mastodon } from '../../daemon/platforms/mastodon.js'
import type { Connection, PlatformContext } from '../../daemon/platforms/types.js'
import { FakeMastodon } from '../fixtures/mastodon-server.js'
import { filePart } from '../fixtures/loopback.js'
import { PNG, startMediaHost } from '../fixtures/media-host.js'
import { connectionOf, platformContext, platformError } from '../fixtures/platform-context.js'
import { jpeg, mp4 } from '../helpers/media-files.js'
import { storedMedia, type StoredMedia } from '../helpers/stored-media.js'

let instance: FakeMastodon
let mediaHost: Awaited<ReturnType<typeof startMediaHost>>
let ctx: Awaited<ReturnType<typeof platformContext>>
let stored: StoredMedia
let connection: Connection
const credentials = () => ({ instance_url: instance.url, access_token: 'token-alice' })

beforeAll(async () => {
  instance = await FakeMastodon.start()
  mediaHost = await startMediaHost()
  stored = await storedMedia()
  ctx = await platformContext()
  connection = connectionOf('mastodon', credentials(), await mastodon.verify(credentials(), ctx))
})

afterAll(async () => {
  await instance.server.close()
  await mediaHost.close()
  await stored.close()
})

describe('mastodon', () => {
  it('connects: handle, display name and the instance limits', async () => {
    instance.maxCharacters = 1000
    const verified = await mastodon.verify({ instance_url: `${instance.url}/`, access_token: ' token-alice ' }, ctx)
    instance.maxCharacters = 500
    expect(verified.handle).toBe('@alice@social.example')
    expect(verified.display_name).toBe('Alice Example')
    expect(verified.settings).toMatchObject({ max_characters: 1000, max_media_attachments: 4, characters_reserved_per_url: 23 })
  })

  it('refuses a bad token at connect time with the instance reason', async () => {
    const error = await platformError(mastodon.verify({ instance_url: instance.url, access_token: 'nope' }, ctx))
    expect(error.kind).toBe('auth')
    expect(error.message).toContain('The access token is invalid')
  })

  it('checks length the Mastodon way: every link counts 23, the instance limit applies', () => {
    const link = `https://example.com/${'a'.repeat(200)}`
    expect(mastodon.check({ content: `${'x'.repeat(470)} ${link}`, media_urls: [] }, connection.settings)).toEqual([])
    const tooLong = mastodon.check({ content: 'x'.repeat(501), media_urls: [] }, connection.settings)
    expect(tooLong).toEqual([expect.objectContaining({ pointer: '#/content', code: 'too_long' })])
    expect(tooLong[0]!.detail).toContain('allows 500')
    expect(mastodon.check({ content: 'x'.repeat(900), media_urls: [] }, { ...connection.settings, max_characters: 1000 })).toEqual([])
    const media = mastodon.check({ content: 'hi', media_urls: ['a', 'b', 'c', 'd', 'e'].map((n) => `https://m.example/${n}.png`) }, connection.settings)
    expect(media).toEqual([expect.objectContaining({ pointer: '#/media_urls', code: 'too_many_media' })])
  })

  it('publishes text with an image: uploads the media, waits for processing, posts with an Idempotency-Key', async () => {
    const published = await mastodon.publish(connection, { postId: 'pst_01JMASTODON', content: 'Hello fediverse', mediaUrls: [mediaHost.media('cat.png')] }, ctx)
    const status = instance.statuses.get(published.platform_post_id!)!
    expect(status.content).toBe('Hello fediverse')
    expect(status.media_ids).toHaveLength(1)
    expect(instance.media.get(status.media_ids[0]!)).toMatchObject({ type: 'image/png', filename: 'cat.png' })
    expect(published.url).toBe(`${instance.url}/@alice/${published.platform_post_id}`)
    expect(instance.requests.filter((r) => r.path === '/api/v1/statuses').at(-1)!.idempotencyKey).toBe('smm-pst_01JMASTODON')
  })

  it('uploads each media to POST /api/v2/media (the file, its alt text as description), waits on the clock while it processes, then posts media_ids in order', async () => {
    const photo = jpeg(1600, 900, 40_000)
    const image = await stored.attach(photo, 'image/jpeg', { alt_text: 'Sunrise over the harbour' })
    const before = ctx.clock.now()
    const published = await mastodon.publish(connection, { postId: 'pst_01JMASTOUPLOAD', content: 'Two pictures', mediaUrls: [mediaHost.media('cat.png')], media: [image] }, ctx)
    const status = instance.statuses.get(published.platform_post_id!)!
    expect(status.media_ids.map((id) => instance.media.get(id)!.parts)).toEqual([
      [filePart('file', 'cat.png', 'image/png', PNG)],
      [filePart('file', `${image.id}.jpg`, 'image/jpeg', photo), { name: 'description', value: 'Sunrise over the harbour' }],
    ])
    // Each upload answered 202 and was looked at again after the first wait (500 ms), on the injected clock.
    expect(ctx.clock.now() - before).toBe(1_000)
    const polls = instance.requests.filter((r) => r.method === 'GET' && status.media_ids.some((id) => r.path === `/api/v1/media/${id}`))
    expect(polls.map((r) => r.path)).toEqual(status.media_ids.flatMap((id) => [`/api/v1/media/${id}`, `/api/v1/media/${id}`]))
  })

  it('a video the instance is still processing after about ten minutes is transient (media_processing), and no status is posted', async () => {
    const clip = await stored.attach(mp4(1280, 720, 8_000), 'video/mp4', { alt_text: 'A clip' })
    const statuses = instance.statuses.size
    instance.processingPolls = 1_000
    try {
      const before = ctx.clock.now()
      const error = await platformError(mastodon.publish(connection, { postId: 'pst_01JMASTOSLOW', content: 'A video', mediaUrls: [], media: [clip] }, ctx))
      expect(error).toMatchObject({ kind: 'transient', code: 'media_processing', outcomeUnknown: false })
      expect(error.message).toBe(`Mastodon's processing of ${clip.id}.mp4 was not done after 10 min; trying again later`)
      expect(ctx.clock.now() - before).toBe(600_500)
      expect(instance.statuses.size).toBe(statuses)
    } finally {
      instance.processingPolls = 1
    }
  })

  it('takes its media rules from the instance’s configuration.media_attachments: types, sizes, pixels, description length', async () => {
    const saved = instance.mediaAttachments
    instance.mediaAttachments = { supported_mime_types: ['image/jpeg', 'image/png', 'video/mp4'], image_size_limit: 2_000_000, image_matrix_limit: 1_000_000, video_size_limit: 10_000_000, video_matrix_limit: 500_000, description_limit: 100 }
    try {
      const small = connectionOf('mastodon', credentials(), await mastodon.verify(credentials(), ctx))
      const item = (content_type: 'image/webp' | 'image/jpeg' | 'video/mp4', bytes: number, width: number, height: number, alt_text: string | null = null) => ({ content_type, bytes, width, height, duration_ms: content_type === 'video/mp4' ? 5000 : null, alt_text })
      expect(mastodon.check({ content: 'x', media_urls: [], media: [item('image/webp', 1000, 10, 10), item('image/jpeg', 3_000_000, 1200, 900, 'y'.repeat(101))] }, small.settings)).toEqual([
        { pointer: '#/media/0', code: 'media_type_unsupported', detail: 'is image/webp; this Mastodon instance takes images of type image/jpeg, image/png: convert it to one of them, or leave this platform out' },
        { pointer: '#/media/1', code: 'media_too_large', detail: 'is 3 MB; this Mastodon instance takes images up to 2 MB' },
        { pointer: '#/media/1', code: 'media_too_big', detail: 'has 1,080,000 pixels (1200×900); this Mastodon instance takes images of at most 1,000,000 pixels' },
        { pointer: '#/media/1/alt_text', code: 'too_long', detail: 'is 101 characters; this Mastodon instance keeps alt text of at most 100' },
      ])
      expect(mastodon.check({ content: 'x', media_urls: [], media: [item('video/mp4', 1000, 1280, 720), item('image/jpeg', 1000, 10, 10)] }, small.settings)).toEqual([
        { pointer: '#/media/0', code: 'media_too_big', detail: 'has 921,600 pixels (1280×720); this Mastodon instance takes videos of at most 500,000 pixels' },
        { pointer: '#/media', code: 'media_mixed', detail: 'mixes images and a video; this Mastodon instance takes images or one video per post, not both: move one to a thread part' },
      ])
    } finally {
      instance.mediaAttachments = saved
    }
  })

  it('re-sending the same post returns the same status instead of a duplicate', async () => {
    const first = await mastodon.publish(connection, { postId: 'pst_01JRESEND', content: 'Once only', mediaUrls: [] }, ctx)
    const again = await mastodon.publish(connection, { postId: 'pst_01JRESEND', content: 'Once only', mediaUrls: [] }, ctx)
    expect(again.platform_post_id).toBe(first.platform_post_id)
    expect([...instance.statuses.values()].filter((s) => s.content === 'Once only')).toHaveLength(1)
    expect(mastodon.idempotencyWindowMs).toBe(3_600_000)
  })

  it('publishes a thread as a chain of replies (in_reply_to_id), each part under its own Idempotency-Key', async () => {
    expect([mastodon.thread, mastodon.firstComment]).toEqual(['replies', 'reply'])
    const root = await mastodon.publish(connection, { postId: 'pst_01JTHREAD', content: 'Part one', mediaUrls: [] }, ctx)
    const ref = { platform_post_id: root.platform_post_id, ref: null }
    const comment = await mastodon.publish(connection, { postId: 'pst_01JTHREAD', content: 'First comment', mediaUrls: [], followUp: { index: 1, kind: 'first_comment', root: ref, parent: ref } }, ctx)
    const two = await mastodon.publish(connection, { postId: 'pst_01JTHREAD', content: 'Part two', mediaUrls: [], followUp: { index: 2, kind: 'thread', root: ref, parent: ref } }, ctx)
    const twoRef = { platform_post_id: two.platform_post_id, ref: null }
    const three = await mastodon.publish(connection, { postId: 'pst_01JTHREAD', content: 'Part three', mediaUrls: [], followUp: { index: 3, kind: 'thread', root: ref, parent: twoRef } }, ctx)
    expect(instance.statuses.get(comment.platform_post_id!)!.in_reply_to_id).toBe(root.platform_post_id)
    expect(instance.statuses.get(two.platform_post_id!)!.in_reply_to_id).toBe(root.platform_post_id)
    expect(instance.statuses.get(three.platform_post_id!)!.in_reply_to_id).toBe(two.platform_post_id)
    expect(instance.statuses.get(root.platform_post_id!)!.in_reply_to_id).toBeNull()
    expect(instance.requests.filter((r) => r.path === '/api/v1/statuses').slice(-4).map((r) => r.idempotencyKey)).toEqual([
      'smm-pst_01JTHREAD',
      'smm-pst_01JTHREAD-1',
      'smm-pst_01JTHREAD-2',
      'smm-pst_01JTHREAD-3',
    ])
    // A part re-sent after a lost answer finds the status it made, not a second one.
    const again = await mastodon.publish(connection, { postId: 'pst_01JTHREAD', content: 'Part three', mediaUrls: [], followUp: { index: 3, kind: 'thread', root: ref, parent: twoRef } }, ctx)
    expect(again.platform_post_id).toBe(three.platform_post_id)
  })

  it('a 503 then a 429 are transient (with the reset time), and the retry succeeds', async () => {
    instance.failNext('POST /api/v1/statuses', { status: 503, body: { error: 'Service Unavailable' } })
    const down = await platformError(mastodon.publish(connection, { postId: 'pst_01JRETRY', content: 'Retry me', mediaUrls: [] }, ctx))
    expect(down.kind).toBe('transient')
    const reset = new Date(ctx.clock.now() + 90_000).toISOString()
    instance.failNext('POST /api/v1/statuses', { status: 429, body: { error: 'Too many requests' }, headers: { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset } })
    const limited = await platformError(mastodon.publish(connection, { postId: 'pst_01JRETRY', content: 'Retry me', mediaUrls: [] }, ctx))
    expect(limited).toMatchObject({ kind: 'transient', code: 'rate_limited', retryAfterMs: 90_000 })
    const published = await mastodon.publish(connection, { postId: 'pst_01JRETRY', content: 'Retry me', mediaUrls: [] }, ctx)
    expect(instance.statuses.get(published.platform_post_id!)!.content).toBe('Retry me')
  })

  it('a validation error is permanent and carries the instance message', async () => {
    const error = await platformError(mastodon.publish(connection, { postId: 'pst_01JLONG', content: 'y'.repeat(600), mediaUrls: [] }, ctx))
    expect(error.kind).toBe('permanent')
    expect(error.message).toContain('Validation failed: Text character limit of 500 exceeded')
  })

  it('bad media fails only this target, permanently, naming the URL', async () => {
    const fake = await platformError(mastodon.publish(connection, { postId: 'pst_01JMEDIA', content: 'x', mediaUrls: [mediaHost.media('not-really.png')] }, ctx))
    expect(fake).toMatchObject({ kind: 'permanent', code: 'media_type_unsupported' })
    expect(fake.message).toContain('not-really.png')
    const pdf = await platformError(mastodon.publish(connection, { postId: 'pst_01JMEDIA', content: 'x', mediaUrls: [mediaHost.media('doc.pdf')] }, ctx))
    expect(pdf.code).toBe('media_type_unsupported')
    const missing = await platformError(mastodon.publish(connection, { postId: 'pst_01JMEDIA', content: 'x', mediaUrls: [mediaHost.media('gone.png')] }, ctx))
    expect(missing).toMatchObject({ kind: 'permanent', code: 'media_unavailable' })
    const huge = await platformError(mastodon.publish(connection, { postId: 'pst_01JMEDIA', content: 'x', mediaUrls: [mediaHost.media('huge.png')] }, ctx))
    expect(huge.code).toBe('media_too_large')
  })

  it('a revoked token is an auth failure', async () => {
    instance.tokens.add('token-bob')
    const bob = { ...connection, credentials: { instance_url: instance.url, access_token: 'token-bob' } }
    instance.tokens.delete('token-bob')
    const error = await platformError(mastodon.publish(bob, { postId: 'pst_01JREVOKED', content: 'x', mediaUrls: [] }, ctx))
    expect(error).toMatchObject({ kind: 'auth' })
    expect(error.message).toContain('The access token is invalid')
  })

  it('reads favourites, reblogs and replies back', async () => {
    const published = await mastodon.publish(connection, { postId: 'pst_01JMETRICS', content: 'Count me', mediaUrls: [] }, ctx)
    instance.statuses.get(published.platform_post_id!)!.favourites = 7
    const counts = await mastodon.metrics!(connection, [published.platform_post_id!, '999'], ctx)
    expect(counts.get(published.platform_post_id!)).toEqual({ impressions: null, likes: 7, reposts: 2, replies: 1, quotes: 0, clicks: null })
    expect(counts.has('999')).toBe(false)
  })
})
