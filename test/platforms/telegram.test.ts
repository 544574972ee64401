import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { telegram } from '../../daemon/platforms/telegram.js'
import type { Connection, PlatformContext } from '../../daemon/platforms/types.js'
import { filePart } from '../fixtures/loopback.js'
import { PNG, startMediaHost } from '../fixtures/media-host.js'
import { jpeg, mp4, png } from '../helpers/media-files.js'
import { storedMedia, type StoredMedia } from '../helpers/stored-media.js'
import { connectionOf, platformContext, platformError } from '../fixtures/platform-context.js'
import { FakeTelegram } from '../fixtures/telegram-server.js'

let fake: FakeTelegram
let mediaHost: Awaited<ReturnType<typeof startMediaHost>>
let stored: StoredMedia
let ctx: PlatformContext
let connection: Connection
const credentials = (overrides: Record<string, unknown> = {}) => ({ bot_token: '123456:ABC-def_ghi', chat_id: '@smmnews', api_url: fake.apiUrl, ...overrides })

beforeAll(async () => {
  fake = await FakeTelegram.start()
  mediaHost = await startMediaHost()
  stored = await storedMedia()
  ctx = await platformContext()
  connection = connectionOf('telegram', credentials(), await telegram.verify(credentials(), ctx))
})

afterAll(async () => {
  await fake.server.close()
  await mediaHost.close()
  await stored.close()
})

describe('telegram', () => {
  it('connects: the chat and the bot', async () => {
    expect(connection.handle).toBe('@smmnews')
    const verified = await telegram.verify(credentials({ chat_id: -1009876543210 }), ctx)
    expect(verified).toMatchObject({ handle: '-1009876543210', display_name: 'Private notes (via @smm_test_bot)', settings: { chat_type: 'channel' } })
    expect(telegram.metrics).toBeUndefined()
  })

  it('refuses a bad token or an unknown chat at connect time with the Bot API reason', async () => {
    const token = await platformError(telegram.verify(credentials({ bot_token: '123456:wrong' }), ctx))
    expect(token).toMatchObject({ kind: 'auth' })
    expect(token.message).toContain('Unauthorized')
    const chat = await platformError(telegram.verify(credentials({ chat_id: '@nosuchchannel' }), ctx))
    expect(chat).toMatchObject({ kind: 'permanent' })
    expect(chat.message).toContain('Bad Request: chat not found')
    expect(chat.message).not.toContain('ABC-def_ghi')
  })

  it('checks 4,096 characters, 1,024 as a caption, 10 media', () => {
    expect(telegram.check({ content: 'x'.repeat(4096), media_urls: [] }, {})).toEqual([])
    expect(telegram.check({ content: 'x'.repeat(1025), media_urls: ['https://m.example/a.png'] }, {})[0]).toMatchObject({ code: 'too_long', detail: expect.stringContaining('caption') })
    expect(telegram.check({ content: 'x', media_urls: Array(11).fill('https://m.example/a.png') }, {})[0]).toMatchObject({ pointer: '#/media_urls' })
  })

  it('sends text with sendMessage and links the message in a public channel', async () => {
    const published = await telegram.publish(connection, { postId: 'pst_1', content: 'Hello channel', mediaUrls: [] }, ctx)
    expect(fake.sent.at(-1)).toMatchObject({ method: 'sendMessage', chat_id: '@smmnews', text: 'Hello channel', parse_mode: undefined })
    expect(published.url).toMatch(/^https:\/\/t\.me\/smmnews\/\d+$/)
    expect(published.platform_post_id).toBe(`-1001234567890:${published.url!.split('/').pop()}`)
  })

  it('sends a thread and a first comment as replies (reply_parameters naming the message before), with text or media', async () => {
    expect([telegram.thread, telegram.firstComment]).toEqual(['replies', 'reply'])
    const root = await telegram.publish(connection, { postId: 'pst_thread', content: 'Root', mediaUrls: [] }, ctx)
    const rootRef = { platform_post_id: root.platform_post_id, ref: null }
    const messageId = (id: string | null) => Number(id!.split(':').pop())
    const comment = await telegram.publish(connection, { postId: 'pst_thread', content: 'Comment', mediaUrls: [], followUp: { index: 1, kind: 'first_comment', root: rootRef, parent: rootRef } }, ctx)
    expect(fake.sent.at(-1)).toMatchObject({ method: 'sendMessage', text: 'Comment', reply_to: messageId(root.platform_post_id) })
    const photo = await telegram.publish(connection, { postId: 'pst_thread', content: 'With a cat', mediaUrls: [mediaHost.media('cat.png')], followUp: { index: 2, kind: 'thread', root: rootRef, parent: rootRef } }, ctx)
    expect(fake.sent.at(-1)).toMatchObject({ method: 'sendPhoto', reply_to: messageId(root.platform_post_id) })
    const parent = { platform_post_id: photo.platform_post_id, ref: null }
    await telegram.publish(connection, { postId: 'pst_thread', content: 'Album', mediaUrls: [mediaHost.media('cat.png'), mediaHost.media('cat.png')], followUp: { index: 3, kind: 'thread', root: rootRef, parent } }, ctx)
    expect(fake.sent.at(-1)).toMatchObject({ method: 'sendMediaGroup', reply_to: messageId(photo.platform_post_id) })
    expect(comment.platform_post_id).not.toBe(root.platform_post_id)
    // A reply to a message that is gone is the Bot API's refusal, for good.
    const gone = await platformError(telegram.publish(connection, { postId: 'pst_thread', content: 'x', mediaUrls: [], followUp: { index: 4, kind: 'thread', root: rootRef, parent: { platform_post_id: '-1001234567890:9999', ref: null } } }, ctx))
    expect(gone).toMatchObject({ kind: 'permanent' })
    expect(gone.message).toContain('message to be replied not found')
  })

  it('uploads one image with sendPhoto and several with sendMediaGroup, the caption on the first', async () => {
    await telegram.publish(connection, { postId: 'pst_2', content: 'One cat', mediaUrls: [mediaHost.media('cat.png')] }, ctx)
    expect(fake.sent.at(-1)).toMatchObject({ method: 'sendPhoto', caption: 'One cat', parse_mode: undefined, files: [{ field: 'photo', name: 'cat.png', type: 'image/png' }] })
    const album = await telegram.publish(connection, { postId: 'pst_3', content: 'Two cats', mediaUrls: [mediaHost.media('cat.png'), mediaHost.media('cat.png')] }, ctx)
    expect(fake.sent.at(-1)).toMatchObject({
      method: 'sendMediaGroup',
      media: [{ type: 'photo', media: 'attach://file0', caption: 'Two cats' }, { type: 'photo', media: 'attach://file1' }],
    })
    expect(album.url).toMatch(/^https:\/\/t\.me\/smmnews\/\d+$/)
  })

  it('sends an uploaded photo with sendPhoto and an uploaded video with sendVideo (its length and size), the file streamed as the part itself', async () => {
    const photo = jpeg(1280, 720, 20_000)
    const [image] = [await stored.attach(photo, 'image/jpeg', { alt_text: 'Telegram keeps none' })]
    await telegram.publish(connection, { postId: 'pst_10', content: 'A photo', mediaUrls: [], media: [image!] }, ctx)
    expect(fake.sent.at(-1)!.parts).toEqual([
      { name: 'chat_id', value: '@smmnews' },
      { name: 'caption', value: 'A photo' },
      filePart('photo', `${image!.id}.jpg`, 'image/jpeg', photo),
    ])
    const clip = mp4(640, 360, 12_400, { padding: 200_000 })
    const video = await stored.attach(clip, 'video/mp4')
    await telegram.publish(connection, { postId: 'pst_11', content: '', mediaUrls: [], media: [video] }, ctx)
    expect(fake.sent.at(-1)).toMatchObject({ method: 'sendVideo' })
    expect(fake.sent.at(-1)!.parts).toEqual([
      { name: 'chat_id', value: '@smmnews' },
      { name: 'duration', value: '12' },
      { name: 'width', value: '640' },
      { name: 'height', value: '360' },
      filePart('video', `${video.id}.mp4`, 'video/mp4', clip),
    ])
  })

  it('sends a media URL and uploads together as one album (sendMediaGroup), photos and a video, each file a part the list names', async () => {
    const still = png(800, 800)
    const clip = mp4(1280, 720, 5_000)
    const media = [await stored.attach(still, 'image/png'), await stored.attach(clip, 'video/mp4')]
    const root = await telegram.publish(connection, { postId: 'pst_12', content: 'Root', mediaUrls: [] }, ctx)
    const rootRef = { platform_post_id: root.platform_post_id, ref: null }
    await telegram.publish(connection, { postId: 'pst_12', content: 'All three', mediaUrls: [mediaHost.media('cat.png')], media, followUp: { index: 1, kind: 'thread', root: rootRef, parent: rootRef } }, ctx)
    const parent = Number(root.platform_post_id!.split(':').pop())
    expect(fake.sent.at(-1)!.parts).toEqual([
      { name: 'chat_id', value: '@smmnews' },
      {
        name: 'media',
        value: JSON.stringify([
          { type: 'photo', media: 'attach://file0', caption: 'All three' },
          { type: 'photo', media: 'attach://file1' },
          { type: 'video', media: 'attach://file2', duration: 5, width: 1280, height: 720 },
        ]),
      },
      { name: 'reply_parameters', value: JSON.stringify({ message_id: parent }) },
      filePart('file0', 'cat.png', 'image/png', PNG),
      filePart('file1', `${media[0]!.id}.png`, 'image/png', still),
      filePart('file2', `${media[1]!.id}.mp4`, 'video/mp4', clip),
    ])
    expect(fake.sent.at(-1)).toMatchObject({ method: 'sendMediaGroup', reply_to: parent })
  })

  it('checks uploaded media against the Bot API’s limits: a photo of 10 MB at most, a ratio up to 20, a video of 50 MB', () => {
    const item = (content_type: 'image/png' | 'video/mp4', bytes: number, width: number, height: number) => ({ content_type, bytes, width, height, duration_ms: content_type === 'video/mp4' ? 1000 : null, alt_text: null })
    expect(telegram.uploadsMedia).toBe(true)
    expect(telegram.check({ content: 'x', media_urls: [], media: [item('image/png', 11 * 1024 * 1024, 100, 100), item('image/png', 1000, 8000, 300), item('video/mp4', 51 * 1024 * 1024, 640, 360)] }, {})).toEqual([
      { pointer: '#/media/0', code: 'media_too_large', detail: 'is 11.5 MB; Telegram takes images up to 10.5 MB' },
      { pointer: '#/media/1', code: 'media_aspect_ratio', detail: 'has an aspect ratio of 26.67 (8000×300, width divided by height); Telegram takes images from 0.05 to 20: crop it' },
      { pointer: '#/media/2', code: 'media_too_large', detail: 'is 53.5 MB; Telegram takes videos up to 52.4 MB' },
    ])
  })

  it('private channels get a members-only t.me/c link', async () => {
    const privateChannel = { ...connection, credentials: credentials({ chat_id: '-1009876543210' }) }
    const published = await telegram.publish(privateChannel, { postId: 'pst_4', content: 'Notes', mediaUrls: [] }, ctx)
    expect(published.url).toMatch(/^https:\/\/t\.me\/c\/9876543210\/\d+$/)
  })

  it('a flood wait is transient for parameters.retry_after, a 502 too, and the retry succeeds', async () => {
    fake.faults.push({ status: 429, body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 35', parameters: { retry_after: 35 } } })
    expect(await platformError(telegram.publish(connection, { postId: 'pst_5', content: 'Later', mediaUrls: [] }, ctx))).toMatchObject({ kind: 'transient', retryAfterMs: 35_000 })
    fake.faults.push({ status: 502, body: { ok: false, error_code: 502, description: 'Bad Gateway' } })
    expect((await platformError(telegram.publish(connection, { postId: 'pst_5', content: 'Later', mediaUrls: [] }, ctx))).kind).toBe('transient')
    await telegram.publish(connection, { postId: 'pst_5', content: 'Later', mediaUrls: [] }, ctx)
    expect(fake.sent.at(-1)!.text).toBe('Later')
  })

  it('a rejected message is permanent with the Bot API description; bad media fails this target only', async () => {
    const error = await platformError(telegram.publish(connection, { postId: 'pst_6', content: 'x'.repeat(5000), mediaUrls: [] }, ctx))
    expect(error).toMatchObject({ kind: 'permanent' })
    expect(error.message).toContain('Bad Request: message is too long')
    const media = await platformError(telegram.publish(connection, { postId: 'pst_6', content: 'x', mediaUrls: [mediaHost.media('not-really.png')] }, ctx))
    expect(media).toMatchObject({ kind: 'permanent', code: 'media_type_unsupported' })
  })

  it('a bot removed from the channel or a revoked token is an auth failure', async () => {
    fake.faults.push({ status: 403, body: { ok: false, error_code: 403, description: 'Forbidden: bot is not a member of the channel chat' } })
    const kicked = await platformError(telegram.publish(connection, { postId: 'pst_7', content: 'x', mediaUrls: [] }, ctx))
    expect(kicked).toMatchObject({ kind: 'auth' })
    expect(kicked.message).toContain('bot is not a member')
    fake.tokens.clear()
    expect(await platformError(telegram.publish(connection, { postId: 'pst_7', content: 'x', mediaUrls: [] }, ctx))).toMatchObject({ kind: 'auth' })
  })
})
