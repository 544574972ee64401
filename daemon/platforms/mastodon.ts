import * as v from 'valibot'
import type { FieldError } from '../../src/errors.js'
import type { OutboundResponse } from '../egress.js'
import { graphemeLength } from '../../src/text-length.js'
import { checkLimits, hasMedia, measureDraft } from './limits.js'
import { baseUrl, HttpsUrl, Secret } from './credential-schemas.js'
import { COMMON_IMAGE_TYPES, mediaToSend } from './media.js'
import { awaitProcessing, multipartBody, uploadRequest, type Part, type Sendable } from './upload.js'
import { partKey } from './record-key.js'
import { excerpt, jsonOrUndefined, platformRequest, statusError } from './platform-http.js'
import { PlatformError, type Connection, type Draft, type Metrics, type CredentialPlatform, type PlatformContext, type PlatformLimits, type TextMeasure, type Verified } from './types.js'

const Credentials = v.strictObject({
  instance_url: HttpsUrl('the Mastodon instance, e.g. https://mastodon.social'),
  access_token: Secret('an access token from Preferences → Development, with read and write scopes'),
})

/** What verify learns about the instance; check and publish follow it. */
interface InstanceLimits {
  domain: string
  max_characters: number
  max_media_attachments: number
  characters_reserved_per_url: number
  supported_mime_types: string[]
  image_size_limit: number
  video_size_limit: number
  image_matrix_limit: number
  video_matrix_limit: number
  description_limit: number
}

const DEFAULTS: Omit<InstanceLimits, 'domain'> = {
  max_characters: 500,
  max_media_attachments: 4,
  characters_reserved_per_url: 23,
  supported_mime_types: [...COMMON_IMAGE_TYPES, 'video/mp4', 'video/quicktime', 'video/webm'],
  image_size_limit: 16 * 1024 * 1024,
  video_size_limit: 99 * 1024 * 1024,
  // Mastodon's own: 7680×4320 pixels for images, 3840×2160 for videos, 1,500 characters of description.
  image_matrix_limit: 33_177_600,
  video_matrix_limit: 8_294_400,
  description_limit: 1_500,
}

const LABEL = 'Mastodon'
// Media uploads answer 202 while the instance transcodes; statuses refuse unprocessed media.
// Images are done in a moment, a video in seconds to minutes: about ten minutes in all.
const PROCESSING_WAITS_MS = [500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000, ...Array<number>(9).fill(60_000)]

/** An instance's limits (what verify read, else Mastodon's defaults) in the shape every platform declares. */
function platformLimits(limits: Omit<InstanceLimits, 'domain'>): PlatformLimits {
  return {
    text: { max: limits.max_characters, count: 'mastodon', url_length: limits.characters_reserved_per_url },
    media: {
      max: limits.max_media_attachments,
      types: limits.supported_mime_types,
      // The instance's configuration.media_attachments; a status holds images or one video.
      image: { types: limits.supported_mime_types.filter((t) => t.startsWith('image/')), max_bytes: limits.image_size_limit, max_pixels: limits.image_matrix_limit },
      video: { types: limits.supported_mime_types.filter((t) => t.startsWith('video/')), max: 1, max_bytes: limits.video_size_limit, max_pixels: limits.video_matrix_limit },
      mixed: false,
      alt_text_max: limits.description_limit,
    },
  }
}

interface Account {
  id: string
  username: string
  acct: string
  display_name: string
}

interface Status {
  id: string
  url: string | null
  uri: string
  favourites_count: number
  reblogs_count: number
  replies_count: number
  quotes_count?: number
}

function limitsOf(settings: Record<string, unknown>): Omit<InstanceLimits, 'domain'> {
  const pick = <K extends keyof typeof DEFAULTS>(key: K) => (settings[key] ?? DEFAULTS[key]) as (typeof DEFAULTS)[K]
  return {
    max_characters: pick('max_characters'),
    max_media_attachments: pick('max_media_attachments'),
    characters_reserved_per_url: pick('characters_reserved_per_url'),
    supported_mime_types: pick('supported_mime_types'),
    image_size_limit: pick('image_size_limit'),
    video_size_limit: pick('video_size_limit'),
    image_matrix_limit: pick('image_matrix_limit'),
    video_matrix_limit: pick('video_matrix_limit'),
    description_limit: pick('description_limit'),
  }
}

/** Mastodon's error body is `{"error": "…"}`; that sentence is what the user needs to read. */
function failure(response: OutboundResponse, ctx: PlatformContext): PlatformError {
  const reason = jsonOrUndefined<{ error?: string }>(response)?.error ?? excerpt(response)
  return statusError(LABEL, response, reason, ctx.clock.now())
}

type Credentials = v.InferOutput<typeof Credentials>

const authorized = (credentials: Credentials) => ({ accept: 'application/json', authorization: `Bearer ${credentials.access_token}` })

function call(ctx: PlatformContext, credentials: Credentials, path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  return platformRequest(ctx, LABEL, `${baseUrl(credentials.instance_url)}${path}`, { ...init, headers: { ...authorized(credentials), ...init.headers } })
}

async function readInstance(ctx: PlatformContext, credentials: Credentials): Promise<InstanceLimits> {
  const fallbackDomain = new URL(credentials.instance_url).hostname
  const v2 = await call(ctx, credentials, '/api/v2/instance')
  if (v2.status === 200) {
    const body = v2.json<any>()
    const config = body.configuration ?? {}
    return {
      ...DEFAULTS,
      domain: body.domain ?? fallbackDomain,
      max_characters: config.statuses?.max_characters ?? DEFAULTS.max_characters,
      max_media_attachments: config.statuses?.max_media_attachments ?? DEFAULTS.max_media_attachments,
      characters_reserved_per_url: config.statuses?.characters_reserved_per_url ?? DEFAULTS.characters_reserved_per_url,
      supported_mime_types: config.media_attachments?.supported_mime_types ?? DEFAULTS.supported_mime_types,
      image_size_limit: config.media_attachments?.image_size_limit ?? DEFAULTS.image_size_limit,
      video_size_limit: config.media_attachments?.video_size_limit ?? DEFAULTS.video_size_limit,
      image_matrix_limit: config.media_attachments?.image_matrix_limit ?? DEFAULTS.image_matrix_limit,
      video_matrix_limit: config.media_attachments?.video_matrix_limit ?? DEFAULTS.video_matrix_limit,
      description_limit: config.media_attachments?.description_limit ?? DEFAULTS.description_limit,
    }
  }
  if (v2.status !== 404) throw failure(v2, ctx)
  // Before Mastodon 4.0 (and on some compatible servers) only v1 exists; Pleroma-likes say max_toot_chars.
  const v1 = await call(ctx, credentials, '/api/v1/instance')
  if (v1.status !== 200) throw failure(v1, ctx)
  const body = v1.json<any>()
  const config = body.configuration ?? {}
  return {
    ...DEFAULTS,
    domain: body.uri ?? fallbackDomain,
    max_characters: config.statuses?.max_characters ?? body.max_toot_chars ?? DEFAULTS.max_characters,
    max_media_attachments: config.statuses?.max_media_attachments ?? DEFAULTS.max_media_attachments,
    characters_reserved_per_url: config.statuses?.characters_reserved_per_url ?? DEFAULTS.characters_reserved_per_url,
    supported_mime_types: config.media_attachments?.supported_mime_types ?? DEFAULTS.supported_mime_types,
    image_size_limit: config.media_attachments?.image_size_limit ?? DEFAULTS.image_size_limit,
    video_size_limit: config.media_attachments?.video_size_limit ?? DEFAULTS.video_size_limit,
    image_matrix_limit: config.media_attachments?.image_matrix_limit ?? DEFAULTS.image_matrix_limit,
    video_matrix_limit: config.media_attachments?.video_matrix_limit ?? DEFAULTS.video_matrix_limit,
    description_limit: config.media_attachments?.description_limit ?? DEFAULTS.description_limit,
  }
}

/**
 * One media item to the instance: `POST /api/v2/media`, multipart with the `file` and its
 * `description` (alt text). 200 means processed at once; 202 means the instance is still at it,
 * and `GET /api/v1/media/:id` answers 206 until it is done and 200 then: a status refuses media
 * still processing. Answers the media's id for the status's `media_ids`.
 */
async function uploadMedia(ctx: PlatformContext, credentials: Credentials, item: Sendable): Promise<string> {
  const parts: Part[] = [['file', item], ...(item.alt_text ? [['description', item.alt_text] as const] : [])]
  const { body, headers, bytes } = multipartBody(parts)
  const uploaded = await uploadRequest(ctx, LABEL, `${baseUrl(credentials.instance_url)}/api/v2/media`, { method: 'POST', body, bytes, headers: { ...authorized(credentials), ...headers } })
  if (uploaded.status !== 200 && uploaded.status !== 202) throw failure(uploaded, ctx)
  const { id } = uploaded.json<{ id: string }>()
  if (uploaded.status === 200) return id
  return awaitProcessing<string>(ctx, `${LABEL}'s processing of ${item.filename}`, PROCESSING_WAITS_MS, async () => {
    const state = await call(ctx, credentials, `/api/v1/media/${encodeURIComponent(id)}`)
    if (state.status === 200) return { done: true, value: id }
    if (state.status !== 206) throw failure(state, ctx)
    return { done: false }
  })
}

function measure(draft: Draft, settings: Record<string, unknown>): TextMeasure {
  return measureDraft(platformLimits(limitsOf(settings)), draft)
}

export const mastodon: CredentialPlatform = {
  name: 'mastodon',
  label: 'Mastodon',
  auth: 'credentials',
  credentials: Credentials,
  // The instance remembers an Idempotency-Key for an hour (Mastodon keeps it in Redis with a
  // one-hour expiry): a re-send within it returns the status already created, after it posts again.
  idempotencyWindowMs: 3_600_000,
  // A thread is a chain of statuses, each in_reply_to_id the one before.
  thread: 'replies',
  firstComment: 'reply',

  // Mastodon's own defaults; each connection keeps its instance's, read by verify.
  limits: platformLimits(DEFAULTS),
  uploadsMedia: true,
  measure,

  check(draft, settings) {
    const errors: FieldError[] = checkLimits(platformLimits(limitsOf(settings)), draft, { label: LABEL, who: 'this Mastodon instance' })
    if (graphemeLength(draft.content.trim()) === 0 && !hasMedia(draft)) {
      errors.push({ pointer: '#/content', code: 'required', detail: 'must not be empty on Mastodon unless the post has media' })
    }
    return errors
  },

  async verify(raw, ctx): Promise<Verified> {
    const credentials = v.parse(Credentials, raw)
    const response = await call(ctx, credentials, '/api/v1/accounts/verify_credentials')
    if (response.status !== 200) throw failure(response, ctx)
    const account = response.json<Account>()
    const instance = await readInstance(ctx, credentials)
    const acct = account.acct.includes('@') ? account.acct : `${account.acct}@${instance.domain}`
    return { handle: `@${acct}`, display_name: account.display_name || account.username, settings: { ...instance, account_id: account.id } }
  },

  async publish(connection, request, ctx) {
    const credentials = v.parse(Credentials, connection.credentials)
    const limits = limitsOf(connection.settings)
    const items = await mediaToSend(ctx, request, { label: 'this Mastodon instance', types: limits.supported_mime_types, maxBytes: { image: limits.image_size_limit, video: limits.video_size_limit } })
    const mediaIds: string[] = []
    for (const item of items) mediaIds.push(await uploadMedia(ctx, credentials, item))
    const response = await call(ctx, credentials, '/api/v1/statuses', {
      method: 'POST',
      body: JSON.stringify({
        status: request.content,
        media_ids: mediaIds,
        // A follow-up is a reply to the status it follows: Mastodon shows the chain as a thread.
        ...(request.followUp?.parent.platform_post_id ? { in_reply_to_id: request.followUp.parent.platform_post_id } : {}),
      }),
      // One key per part: a re-sent part is recognised, and parts are never taken for each other.
      headers: { 'content-type': 'application/json', 'idempotency-key': `smm-${partKey(request.postId, request.followUp?.index ?? 0)}` },
    })
    if (response.status !== 200) throw failure(response, ctx)
    const status = response.json<Status>()
    return { platform_post_id: status.id, url: status.url ?? status.uri }
  },

  async metrics(connection: Connection, ids: string[], ctx: PlatformContext) {
    const credentials = v.parse(Credentials, connection.credentials)
    const counts = new Map<string, Metrics>()
    for (const id of ids) {
      const response = await call(ctx, credentials, `/api/v1/statuses/${encodeURIComponent(id)}`)
      // A deleted status has no counts any more; the others still do.
      if (response.status === 404) continue
      if (response.status !== 200) throw failure(response, ctx)
      const status = response.json<Status>()
      counts.set(id, {
        impressions: null,
        likes: status.favourites_count,
        reposts: status.reblogs_count,
        replies: status.replies_count,
        quotes: typeof status.quotes_count === 'number' ? status.quotes_count : null,
        clicks: null,
      })
    }
    return counts
  },
}
