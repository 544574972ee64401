import * as v from 'valibot'
import type { FieldError } from '../../src/errors.js'
import type { OutboundRequest, OutboundResponse } from '../egress.js'
import { HttpsUrl } from './credential-schemas.js'
import { COMMON_IMAGE_TYPES, mediaToSend } from './media.js'
import { multipartBody, transferTimeouts, type Part } from './upload.js'
import { excerpt, jsonOrUndefined, platformRequest, statusError } from './platform-http.js'
import { checkLimits, hasMedia, measureDraft } from './limits.js'
import { PlatformError, type CredentialPlatform, type PlatformContext, type PlatformLimits } from './types.js'

const Credentials = v.strictObject({
  webhook_url: HttpsUrl('a channel webhook URL from Server Settings → Integrations → Webhooks'),
  // Scheduled text pings nobody unless the connection allows it, and then only the users it names.
  allow_user_mentions: v.optional(v.boolean('must be true or false'), false),
})

const LABEL = 'Discord'
// A message's content is 2,000 characters, counted in code points; a message takes 10 files.
const LIMITS: PlatformLimits = {
  text: { max: 2000, count: 'code_points' },
  media: {
    max: 10,
    types: [...COMMON_IMAGE_TYPES, 'video/mp4', 'video/webm', 'video/quicktime'],
    // Execute Webhook: up to 10 files of 10 MiB on a server without boosts, each with a
    // `description` (alt text) of up to 1,024 characters; images and videos may go together.
    image: { types: [...COMMON_IMAGE_TYPES], max_bytes: 10 * 1024 * 1024 },
    video: { types: ['video/mp4', 'video/quicktime'], max_bytes: 10 * 1024 * 1024 },
    mixed: true,
    alt_text_max: 1_024,
  },
}
// Uploads above this are refused on servers without boosts.
const MAX_FILE_BYTES = 10 * 1024 * 1024
// JSON error codes that mean the webhook itself is gone or its token wrong.
const WEBHOOK_GONE = new Set([10015, 50027])

interface DiscordError {
  code?: number
  message?: string
  errors?: unknown
  retry_after?: number
}

/** The leaf messages of Discord's nested `errors` object (code 50035, "Invalid Form Body"). */
function fieldMessages(errors: unknown, path: string[] = []): string[] {
  if (!errors || typeof errors !== 'object') return []
  const found: string[] = []
  for (const [key, value] of Object.entries(errors)) {
    if (key === '_errors' && Array.isArray(value)) found.push(...value.map((e: { message?: string }) => `${path.join('.')}: ${e.message}`))
    else found.push(...fieldMessages(value, [...path, key]))
  }
  return found
}

function failure(response: OutboundResponse, ctx: PlatformContext): PlatformError {
  const body = jsonOrUndefined<DiscordError>(response)
  const reason = body?.message ? [body.message, ...fieldMessages(body.errors)].join('; ') : excerpt(response)
  if (body?.code !== undefined && WEBHOOK_GONE.has(body.code)) return new PlatformError('auth', 'credentials_rejected', `${LABEL} answered ${response.status}: ${reason}`)
  const error = statusError(LABEL, response, reason, ctx.clock.now())
  // The body's retry_after (seconds, fractional) is finer than the Retry-After header.
  if (response.status === 429 && typeof body?.retry_after === 'number') return new PlatformError('transient', 'rate_limited', error.message, Math.ceil(body.retry_after * 1000))
  return error
}

export const discord: CredentialPlatform = {
  name: 'discord',
  label: 'Discord',
  auth: 'credentials',
  credentials: Credentials,
  // Webhook executions take no idempotency key: a re-send would post twice.
  idempotencyWindowMs: 0,
  // A webhook posts messages to a channel, one after another; it cannot reply or comment.
  thread: 'consecutive',
  firstComment: null,

  limits: LIMITS,
  uploadsMedia: true,
  measure: (draft) => measureDraft(LIMITS, draft),

  check(draft) {
    const errors: FieldError[] = checkLimits(LIMITS, draft, { label: LABEL })
    if (draft.content.trim() === '' && !hasMedia(draft)) errors.push({ pointer: '#/content', code: 'required', detail: 'must not be empty on Discord unless the post has media' })
    return errors
  },

  async verify(raw, ctx) {
    const { webhook_url } = v.parse(Credentials, raw)
    // GET on a webhook URL with its token returns the webhook, no bot token needed.
    const response = await platformRequest(ctx, LABEL, webhook_url, { headers: { accept: 'application/json' } })
    if (response.status !== 200) throw failure(response, ctx)
    const hook = response.json<{ id: string; name: string | null; channel_id: string; guild_id?: string }>()
    const name = hook.name ?? 'Discord webhook'
    return { handle: name, display_name: name, settings: { webhook_id: hook.id, channel_id: hook.channel_id, guild_id: hook.guild_id ?? null } }
  },

  async publish(connection, request, ctx) {
    const { webhook_url, allow_user_mentions } = v.parse(Credentials, connection.credentials)
    const target = new URL(webhook_url)
    // Without wait=true Discord answers 204 and we would never learn the message id.
    target.searchParams.set('wait', 'true')
    // Without allowed_mentions Discord turns @everyone, @here, <@&role> and <@user> in the text
    // into notifications: an empty `parse` list makes them plain text.
    const payload: Record<string, unknown> = { content: request.content, allowed_mentions: { parse: allow_user_mentions ? ['users'] : [] } }
    const files = await mediaToSend(ctx, request, { label: LABEL, types: LIMITS.media.types!, maxBytes: MAX_FILE_BYTES })
    let sent: Pick<OutboundRequest, 'body' | 'headers' | 'timeoutMs' | 'idleTimeoutMs'> = { body: JSON.stringify(payload), headers: { 'content-type': 'application/json' } }
    if (files.length > 0) {
      // Execute Webhook with files: `files[n]` parts, and `payload_json` whose `attachments` name
      // each by its n, with its file name and its `description` (the alt text Discord shows).
      const attachments = files.map((file, id) => ({ id, filename: file.filename, ...(file.alt_text ? { description: file.alt_text } : {}) }))
      const parts: Part[] = [['payload_json', JSON.stringify({ ...payload, attachments })], ...files.map((file, id): Part => [`files[${id}]`, file])]
      const { body, headers, bytes } = multipartBody(parts)
      sent = { body, headers, ...transferTimeouts(bytes) }
    }
    const response = await platformRequest(ctx, LABEL, target.toString(), { method: 'POST', ...sent, headers: { ...sent.headers, accept: 'application/json' } })
    if (response.status !== 200) throw failure(response, ctx)
    const message = response.json<{ id: string; channel_id: string }>()
    const guild = connection.settings.guild_id
    return { platform_post_id: message.id, url: typeof guild === 'string' ? `https://discord.com/channels/${guild}/${message.channel_id}/${message.id}` : null }
  },
}
