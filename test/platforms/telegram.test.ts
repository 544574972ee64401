import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { telegram } from '../../daemon/platforms/telegram.js'
import type { Connection, PlatformContext } from '../../daemon/platforms/types.js'
import { startMediaHost } from '../fixtures/media-host.js'
import { connectionOf, platformContext, platformError } from '../fixtures/platform-context.js'
import { FakeTelegram } from '../fixtures/telegram-server.js'

let fake: FakeTelegram
let mediaHost: Awaited<ReturnType<typeof startMediaHost>>
let ctx: PlatformContext
let connection: Connection
const credentials = (overrides: Record<string, unknown> = {}) => ({ bot_token: '123456:ABC-def_ghi', chat_id: '@smmnews', api_url: fake.apiUrl, ...overrides })

beforeAll(async () => {
  fake = await FakeTelegram.start()
  mediaHost = await startMediaHost()
  ctx = await platformContext()
  connection = connectionOf('telegram', credentials(), await telegram.verify(credentials(), ctx))
})

afterAll(async () => {
  await fake.server.close()
  await mediaHost.close()
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
