import * as v from 'valibot'
import type { FieldError } from '../../src/errors.js'
import type { OutboundResponse } from '../egress.js'
import { baseUrl, HttpsUrl, Secret } from './credential-schemas.js'
import { fetchMedia, filePart, multipart, type MediaFile } from './media.js'
import { excerpt, jsonOrUndefined, platformRequest, statusError } from './platform-http.js'
import { checkLimits, hasMedia, measureDraft } from './limits.js'
import { PlatformError, type CredentialPlatform, type PlatformContext, type PlatformLimits } from './types.js'

const Credentials = v.strictObject({
  bot_token: v.pipe(Secret('the token @BotFather gave, e.g. 123456:ABC-DEF…'), v.regex(/^\d+:[\w-]+$/, 'is not a bot token (digits, a colon, then letters, digits, - and _)')),
  chat_id: v.pipe(
    v.union([v.pipe(v.number(), v.integer(), v.transform(String)), v.pipe(v.string(), v.trim())]),
    v.regex(/^(-?\d+|@\w{4,})$/, 'must be a numeric chat id (e.g. -1001234567890) or a public @channelusername'),
  ),
  // A self-hosted Bot API server (telegram-bot-api) works too; the default is Telegram's.
  api_url: v.optional(HttpsUrl('a Bot API server, default https://api.telegram.org'), 'https://api.telegram.org'),
})
type Credentials = v.InferOutput<typeof Credentials>

const LABEL = 'Telegram'
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp']
const VIDEO_TYPES = ['video/mp4']
// The Bot API counts UTF-16 code units, as JavaScript strings do: 4,096 in a message, 1,024 in
// the caption under media; an album holds 10 photos or videos.
const LIMITS: PlatformLimits = {
  text: { max: 4096, count: 'utf16', caption_max: 1024 },
  media: {
    max: 10,
    types: [...PHOTO_TYPES, ...VIDEO_TYPES],
    // Bot API sendPhoto: 10 MB, width and height adding up to at most 10,000, a ratio of at most
    // 20; sendVideo: 50 MB through a bot. An album (sendMediaGroup) mixes photos and videos. No alt text.
    image: { types: [...PHOTO_TYPES], max_bytes: 10 * 1024 * 1024, max_width: 10_000, max_height: 10_000, min_aspect_ratio: 1 / 20, max_aspect_ratio: 20 },
    video: { types: ['video/mp4'], max_bytes: 50 * 1024 * 1024 },
    mixed: true,
    alt_text_max: null,
  },
}
// Bot API upload limits: 10 MB for photos, 50 MB for other files.
const MAX_PHOTO_BYTES = 10 * 1024 * 1024
const MAX_VIDEO_BYTES = 50 * 1024 * 1024

interface BotAnswer<T> {
  ok: boolean
  result?: T
  error_code?: number
  description?: string
  parameters?: { retry_after?: number; migrate_to_chat_id?: number }
}

interface Message {
  message_id: number
  chat: { id: number; type: string; username?: string; title?: string }
}

/** Bot API errors are `{ok: false, error_code, description, parameters}`. */
function failure(response: OutboundResponse, ctx: PlatformContext): PlatformError {
  const body = jsonOrUndefined<BotAnswer<unknown>>(response)
  const reason = body?.description ?? excerpt(response)
  const detail = `${LABEL} answered ${response.status}: ${reason}`
  if (body?.parameters?.retry_after !== undefined) return new PlatformError('transient', 'rate_limited', detail, body.parameters.retry_after * 1000)
  if (body?.parameters?.migrate_to_chat_id !== undefined) {
    return new PlatformError('permanent', 'chat_migrated', `${detail}; the group became a supergroup: reconnect with chat_id ${body.parameters.migrate_to_chat_id}`)
  }
  return statusError(LABEL, response, reason, ctx.clock.now())
}

/** One Bot API call; the token is in the path, so it never appears in an error detail. */
async function call<T>(ctx: PlatformContext, credentials: Credentials, method: string, body: { json?: unknown; form?: FormData }): Promise<T> {
  const url = `${baseUrl(credentials.api_url)}/bot${credentials.bot_token}/${method}`
  const encoded = body.form ? await multipart(body.form) : { body: JSON.stringify(body.json ?? {}), contentType: 'application/json' }
  const response = await platformRequest(ctx, LABEL, url, { method: 'POST', body: encoded.body, headers: { 'content-type': encoded.contentType } })
  const answer = jsonOrUndefined<BotAnswer<T>>(response)
  if (response.status !== 200 || !answer?.ok) throw failure(response, ctx)
  return answer.result as T
}

function messageLink(message: Message): string | null {
  if (message.chat.username) return `https://t.me/${message.chat.username}/${message.message_id}`
  // Private channels and supergroups have ids -100…; their links open for members only.
  const id = String(message.chat.id)
  return id.startsWith('-100') ? `https://t.me/c/${id.slice(4)}/${message.message_id}` : null
}

async function download(ctx: PlatformContext, url: string, index: number): Promise<MediaFile> {
  const file = await fetchMedia(ctx, url, index, { label: LABEL, types: LIMITS.media.types!, maxBytes: MAX_VIDEO_BYTES })
  if (file.kind === 'image' && file.bytes.length > MAX_PHOTO_BYTES) {
    throw new PlatformError('permanent', 'media_too_large', `media ${url}: ${file.bytes.length} bytes; Telegram takes photos up to ${MAX_PHOTO_BYTES}`)
  }
  return file
}

export const telegram: CredentialPlatform = {
  name: 'telegram',
  label: 'Telegram',
  auth: 'credentials',
  credentials: Credentials,
  // The Bot API has no idempotency key: a re-send would post twice.
  idempotencyWindowMs: 0,
  // A follow-up quotes the message before it (reply_parameters), as a chat shows a thread.
  thread: 'replies',
  firstComment: 'reply',

  limits: LIMITS,
  measure: (draft) => measureDraft(LIMITS, draft),

  check(draft) {
    const errors: FieldError[] = checkLimits(LIMITS, draft, { label: LABEL })
    if (draft.content.trim() === '' && !hasMedia(draft)) errors.push({ pointer: '#/content', code: 'required', detail: 'must not be empty on Telegram unless the post has media' })
    return errors
  },

  async verify(raw, ctx) {
    const credentials = v.parse(Credentials, raw)
    const bot = await call<{ id: number; username: string; first_name: string }>(ctx, credentials, 'getMe', {})
    const chat = await call<{ id: number; type: string; title?: string; username?: string; first_name?: string }>(ctx, credentials, 'getChat', { json: { chat_id: credentials.chat_id } })
    const name = chat.title ?? chat.first_name ?? String(chat.id)
    return {
      handle: chat.username ? `@${chat.username}` : String(chat.id),
      display_name: `${name} (via @${bot.username})`,
      settings: { chat_id: chat.id, chat_type: chat.type, chat_username: chat.username ?? null, bot_username: bot.username },
    }
  },

  async publish(connection, request, ctx) {
    const credentials = v.parse(Credentials, connection.credentials)
    const files = []
    for (const [index, url] of request.mediaUrls.entries()) files.push(await download(ctx, url, index))
    const caption = request.content === '' ? {} : { caption: request.content }
    // The id is `<chat>:<message>`; a reply names the message in this chat (Bot API ReplyParameters).
    const parentId = request.followUp?.parent.platform_post_id?.split(':').pop()
    const reply = parentId ? { reply_parameters: { message_id: Number(parentId) } } : {}
    let message: Message
    // No parse_mode, here or on captions: the text is plain, so `<a>`, `*bold*` or a
    // `tg://user?id=` link in a post is shown as written, never parsed into markup or mentions.
    if (files.length === 0) {
      message = await call<Message>(ctx, credentials, 'sendMessage', { json: { chat_id: credentials.chat_id, text: request.content, ...reply } })
    } else if (files.length === 1) {
      const file = files[0]!
      const field = file.kind === 'video' ? 'video' : 'photo'
      const form = new FormData()
      form.append('chat_id', credentials.chat_id)
      if (caption.caption) form.append('caption', caption.caption)
      if (reply.reply_parameters) form.append('reply_parameters', JSON.stringify(reply.reply_parameters))
      form.append(field, filePart(file), file.filename)
      message = await call<Message>(ctx, credentials, file.kind === 'video' ? 'sendVideo' : 'sendPhoto', { form })
    } else {
      // An album: each file is a part named in the media list by attach://; the caption goes on the first.
      const form = new FormData()
      form.append('chat_id', credentials.chat_id)
      const media = files.map((file, index) => ({ type: file.kind === 'video' ? 'video' : 'photo', media: `attach://file${index}`, ...(index === 0 ? caption : {}) }))
      form.append('media', JSON.stringify(media))
      if (reply.reply_parameters) form.append('reply_parameters', JSON.stringify(reply.reply_parameters))
      files.forEach((file, index) => form.append(`file${index}`, filePart(file), file.filename))
      const messages = await call<Message[]>(ctx, credentials, 'sendMediaGroup', { form })
      message = messages[0]!
    }
    return { platform_post_id: `${message.chat.id}:${message.message_id}`, url: messageLink(message) }
  },
}
