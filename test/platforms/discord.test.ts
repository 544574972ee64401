import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { discord } from '../../daemon/platforms/discord.js'
import type { Connection, PlatformContext } from '../../daemon/platforms/types.js'
import { FakeDiscord } from '../fixtures/discord-server.js'
import { filePart } from '../fixtures/loopback.js'
import { PNG, startMediaHost } from '../fixtures/media-host.js'
import { connectionOf, platformContext, platformError } from '../fixtures/platform-context.js'
import { jpeg, mp4 } from '../helpers/media-files.js'
import { storedMedia, type StoredMedia } from '../helpers/stored-media.js'

let fake: FakeDiscord
let mediaHost: Awaited<ReturnType<typeof startMediaHost>>
let ctx: PlatformContext
let connection: Connection
let stored: StoredMedia

beforeAll(async () => {
  stored = await storedMedia()
  fake = await FakeDiscord.start()
  mediaHost = await startMediaHost()
  ctx = await platformContext()
  connection = connectionOf('discord', { webhook_url: fake.hookUrl() }, await discord.verify({ webhook_url: fake.hookUrl() }, ctx))
})

afterAll(async () => {
  await fake.server.close()
  await mediaHost.close()
  await stored.close()
})

describe('discord', () => {
  it('connects: the webhook name, channel and server', async () => {
    const verified = await discord.verify({ webhook_url: fake.hookUrl() }, ctx)
    expect(verified).toMatchObject({ handle: 'smm announcements', settings: { channel_id: '900', guild_id: '800' } })
    expect(discord.metrics).toBeUndefined()
    expect(discord.idempotencyWindowMs).toBe(0)
    // A webhook cannot reply or comment: thread parts are messages after the post, a first comment is refused.
    expect([discord.thread, discord.firstComment]).toEqual(['consecutive', null])
  })

  it('refuses a deleted webhook or a wrong token at connect time with Discord reason', async () => {
    const unknown = await platformError(discord.verify({ webhook_url: fake.hookUrl('1999') }, ctx))
    expect(unknown.kind).toBe('auth')
    expect(unknown.message).toContain('Unknown Webhook')
    const wrong = await platformError(discord.verify({ webhook_url: fake.hookUrl('1100', 'not-the-token') }, ctx))
    expect(wrong.message).toContain('Invalid Webhook Token')
  })

  it('checks 2,000 characters and 10 files', () => {
    expect(discord.check({ content: '😀'.repeat(2000), media_urls: [] }, {})).toEqual([])
    expect(discord.check({ content: 'x'.repeat(2001), media_urls: [] }, {})[0]).toMatchObject({ pointer: '#/content', code: 'too_long' })
    expect(discord.check({ content: 'x', media_urls: Array(11).fill('https://m.example/a.png') }, {})[0]).toMatchObject({ pointer: '#/media_urls' })
  })

  it('publishes with ?wait=true, a media URL’s image uploaded as an attachment, and links the message', async () => {
    const published = await discord.publish(connection, { postId: 'pst_1', content: 'New release!', mediaUrls: [mediaHost.media('cat.png')] }, ctx)
    const message = fake.messages.at(-1)!
    expect(published).toEqual({ platform_post_id: message.id, url: `https://discord.com/channels/800/900/${message.id}` })
    expect(message.content).toBe('New release!')
    expect(message.parts).toEqual([
      { name: 'payload_json', value: JSON.stringify({ content: 'New release!', allowed_mentions: { parse: [] }, attachments: [{ id: 0, filename: 'cat.png' }] }) },
      filePart('files[0]', 'cat.png', 'image/png', PNG),
    ])
    expect(message.attachments).toEqual([{ filename: 'cat.png', content_type: 'image/png', size: PNG.length }])
  })

  it('sends uploaded media as files[n] parts streamed from the store, each with its alt text as the attachment’s description', async () => {
    const photo = jpeg(1200, 800, 5_000)
    const clip = mp4(640, 360, 3_000, { padding: 300_000 })
    const media = [await stored.attach(photo, 'image/jpeg', { alt_text: 'The team on stage' }), await stored.attach(clip, 'video/mp4')]
    await discord.publish(connection, { postId: 'pst_9', content: 'Launch day', mediaUrls: [mediaHost.media('cat.png')], media }, ctx)
    const message = fake.messages.at(-1)!
    // The media URLs' files first, then the uploads, in order: one list as Discord shows it.
    expect(message.parts).toEqual([
      {
        name: 'payload_json',
        value: JSON.stringify({
          content: 'Launch day',
          allowed_mentions: { parse: [] },
          attachments: [
            { id: 0, filename: 'cat.png' },
            { id: 1, filename: `${media[0]!.id}.jpg`, description: 'The team on stage' },
            { id: 2, filename: `${media[1]!.id}.mp4` },
          ],
        }),
      },
      filePart('files[0]', 'cat.png', 'image/png', PNG),
      filePart('files[1]', `${media[0]!.id}.jpg`, 'image/jpeg', photo),
      filePart('files[2]', `${media[1]!.id}.mp4`, 'video/mp4', clip),
    ])
    expect(message.attachments.map((a) => a.description ?? null)).toEqual([null, 'The team on stage', null])
  })

  it('declares that it sends uploaded media by upload, with alt text of up to 1,024 characters, and checks them', () => {
    expect([discord.uploadsMedia, discord.limits.media.send ?? 'upload', discord.limits.media.alt_text_max]).toEqual([true, 'upload', 1024])
    const big = { content_type: 'video/mp4' as const, bytes: 11 * 1024 * 1024, width: 640, height: 360, duration_ms: 3000, alt_text: 'a'.repeat(1025) }
    expect(discord.check({ content: 'x', media_urls: [], media: [big] }, {})).toEqual([
      { pointer: '#/media/0', code: 'media_too_large', detail: 'is 11.5 MB; Discord takes videos up to 10.5 MB' },
      { pointer: '#/media/0/alt_text', code: 'too_long', detail: 'is 1,025 characters; Discord keeps alt text of at most 1,024' },
    ])
  })

  it('a 429 is transient with retry_after, a 502 too, and the retry succeeds', async () => {
    fake.faults.push({ status: 429, body: { message: 'You are being rate limited.', retry_after: 1.25, global: false }, headers: { 'retry-after': '2', 'x-ratelimit-scope': 'user' } })
    const limited = await platformError(discord.publish(connection, { postId: 'pst_2', content: 'Again', mediaUrls: [] }, ctx))
    expect(limited).toMatchObject({ kind: 'transient', code: 'rate_limited', retryAfterMs: 1250 })
    fake.faults.push({ status: 502, body: { message: 'Bad Gateway', code: 0 } })
    expect((await platformError(discord.publish(connection, { postId: 'pst_2', content: 'Again', mediaUrls: [] }, ctx))).kind).toBe('transient')
    const published = await discord.publish(connection, { postId: 'pst_2', content: 'Again', mediaUrls: [] }, ctx)
    expect(fake.messages.at(-1)!.id).toBe(published.platform_post_id)
  })

  it('a rejected message is permanent, with the field messages Discord gave', async () => {
    const error = await platformError(discord.publish(connection, { postId: 'pst_3', content: 'x'.repeat(2001), mediaUrls: [] }, ctx))
    expect(error.kind).toBe('permanent')
    expect(error.message).toContain('Invalid Form Body; content: Must be 2000 or fewer in length.')
  })

  it('a media URL that is not media fails only this target', async () => {
    const error = await platformError(discord.publish(connection, { postId: 'pst_4', content: 'x', mediaUrls: [mediaHost.media('doc.pdf')] }, ctx))
    expect(error).toMatchObject({ kind: 'permanent', code: 'media_type_unsupported' })
  })

  it('a webhook deleted since connecting is an auth failure', async () => {
    fake.webhooks.set('1101', 'other-token')
    const other = { ...connection, credentials: { webhook_url: fake.hookUrl('1101', 'other-token') } }
    fake.webhooks.delete('1101')
    const error = await platformError(discord.publish(other, { postId: 'pst_5', content: 'x', mediaUrls: [] }, ctx))
    expect(error).toMatchObject({ kind: 'auth' })
    expect(error.message).toContain('Unknown Webhook')
  })

  it('pings nobody: @everyone, @here, roles and users in the text stay text, with media too', async () => {
    const content = 'Hi @everyone and @here, <@&555> and <@123>'
    await discord.publish(connection, { postId: 'pst_6', content, mediaUrls: [] }, ctx)
    expect(fake.messages.at(-1)).toMatchObject({ content, allowed_mentions: { parse: [] }, pinged: [] })
    await discord.publish(connection, { postId: 'pst_7', content, mediaUrls: [mediaHost.media('cat.png')] }, ctx)
    expect(fake.messages.at(-1)).toMatchObject({ content, allowed_mentions: { parse: [] }, pinged: [] })
  })

  it('a connection that allows user mentions pings the users named, never everyone or a role', async () => {
    const mentioning = { ...connection, credentials: { webhook_url: fake.hookUrl(), allow_user_mentions: true } }
    await discord.publish(mentioning, { postId: 'pst_8', content: 'Thanks <@123>! @everyone <@&555>', mediaUrls: [] }, ctx)
    expect(fake.messages.at(-1)).toMatchObject({ allowed_mentions: { parse: ['users'] }, pinged: ['<@123>'] })
  })
})
