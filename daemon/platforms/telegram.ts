import * as v from 'valibot'
import type { FieldError } from '../../src/errors.js'
import type { OutboundResponse } from '../egress.js'
import { baseUrl, HttpsUrl, Secret } from './credential-schemas.js'
import { mediaToSend } from './media.js'
import { multipartBody, transferTimeouts, type Part, type Sendable } from './upload.js'
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

/**
 * One Bot API call, JSON or (with files) multipart streamed from where the files are kept, given
 * time by its size. The token is in the path, so it never appears in an error detail.
 */
async function call<T>(ctx: PlatformContext, credentials: Credentials, method: string, body: { json?: unknown; parts?: Part[] }): Promise<T> {
  const url = `${baseUrl(credentials.api_url)}/bot${credentials.bot_token}/${method}`
  const request = body.parts
    ? (({ body: stream, headers, bytes }) => ({ body: stream, headers, ...transferTimeouts(bytes) }))(multipartBody(body.parts))
    : { body: JSON.stringify(body.json ?? {}), headers: { 'content-type': 'application/json' } }
  const response = await platformRequest(ctx, LABEL, url, { method: 'POST', ...request })
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

/** What the Bot API takes of a video besides its bytes (InputMediaVideo, sendVideo), where smm read it. */
function videoFacts(item: Sendable): Record<string, number> {
  return {
    ...(item.duration_ms !== null ? { duration: Math.round(item.duration_ms / 1000) } : {}),
    ...(item.width !== null ? { width: item.width } : {}),
    ...(item.height !== null ? { height: item.height } : {}),
  }
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
  uploadsMedia: true,
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
    const files = await mediaToSend(ctx, request, { label: LABEL, types: LIMITS.media.types!, maxBytes: { image: MAX_PHOTO_BYTES, video: MAX_VIDEO_BYTES } })
    const caption: Part[] = request.content === '' ? [] : [['caption', request.content]]
    // The id is `<chat>:<message>`; a reply names the message in this chat (Bot API ReplyParameters).
    const parentId = request.followUp?.parent.platform_post_id?.split(':').pop()
    const reply = parentId ? { reply_parameters: { message_id: Number(parentId) } } : {}
    const replyPart: Part[] = parentId ? [['reply_parameters', JSON.stringify(reply.reply_parameters)]] : []
    let message: Message
    // No parse_mode, here or on captions: the text is plain, so `<a>`, `*bold*` or a
    // `tg://user?id=` link in a post is shown as written, never parsed into markup or mentions.
    // Telegram keeps no alt text: the Bot API has no field for it.
    if (files.length === 0) {
      message = await call<Message>(ctx, credentials, 'sendMessage', { json: { chat_id: credentials.chat_id, text: request.content, ...reply } })
    } else if (files.length === 1) {
      // sendPhoto or sendVideo: the file is the `photo` or `video` part itself.
      const file = files[0]!
      const video = file.kind === 'video'
      const facts: Part[] = video ? Object.entries(videoFacts(file)).map(([name, value]) => [name, String(value)]) : []
      const parts: Part[] = [['chat_id', credentials.chat_id], ...caption, ...replyPart, ...facts, [video ? 'video' : 'photo', file]]
      message = await call<Message>(ctx, credentials, video ? 'sendVideo' : 'sendPhoto', { parts })
    } else {
      // sendMediaGroup, an album: each file is a part the media list names by attach://; the caption goes on the first.
      const media = files.map((file, index) => ({
        type: file.kind === 'video' ? 'video' : 'photo',
        media: `attach://file${index}`,
        ...(index === 0 && request.content !== '' ? { caption: request.content } : {}),
        ...(file.kind === 'video' ? videoFacts(file) : {}),
      }))
      const parts: Part[] = [['chat_id', credentials.chat_id], ['media', JSON.stringify(media)], ...replyPart, ...files.map((file, index): Part => [`file${index}`, file])]
      const messages = await call<Message[]>(ctx, credentials, 'sendMediaGroup', { parts })
      message = messages[0]!
    }
    return { platform_post_id: `${message.chat.id}:${message.message_id}`, url: messageLink(message) }
  },
}
