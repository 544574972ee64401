import type { OutboundRequest, OutboundResponse } from '../egress.js'
import { mediaToSend, unsupportedMediaTypes } from './media.js'
import { awaitProcessing, bytesOf, multipartBody, uploadRequest, type Part, type Sendable } from './upload.js'
import { tokenRequest } from './oauth2.js'
import { excerpt, jsonOrUndefined, platformRequest } from './platform-http.js'
import { X_URL_LENGTH } from '../../src/text-length.js'
import { checkLimits, hasMedia, keepsAltText, measureDraft } from './limits.js'
import { PlatformError, type Connection, type Metrics, type OAuthApp, type OAuthPlatform, type OAuthTokens, type PlatformContext, type PlatformLimits } from './types.js'

// X API v2 (docs.x.com): what smm enforces before a post goes out, and why.
/** Weighted characters per post (twitter-text config v3: `weightedLength` in src/text-length.ts). */
export const X_MAX_LENGTH = 280
/** Photos per post: X takes up to 4 photos, or one GIF, or one video. */
export const X_MAX_IMAGES = 4
/** Image types the one-request upload (`POST /2/media/upload`, `tweet_image`) takes that media hosts serve. */
export const X_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const
/** X's limit for an image sent in one request. */
export const X_MAX_IMAGE_BYTES = 5 * 1024 * 1024
/** X's limits for a GIF and a video, sent by the chunked upload. */
const X_MAX_GIF_BYTES = 15 * 1024 * 1024
const X_MAX_VIDEO_BYTES = 512 * 1024 * 1024
/** Bytes per APPEND: X takes segments of at most 5 MB. */
const SEGMENT_BYTES = 4 * 1024 * 1024
/** Waits for X's processing of a video or GIF where it names none (it usually does, check_after_secs): about ten minutes. */
const PROCESSING_WAITS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000, ...Array<number>(9).fill(60_000)]
/** Ids per `GET /2/tweets` lookup. */
const LOOKUP_BATCH = 100

const LABEL = 'X'
const SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'] as const

// Extensions `check` can refuse without downloading, and why: the ones X would refuse or smm does
// not fetch (a video is uploaded to smm first, not downloaded whole). Others are judged by content type at publish.
const VIDEO_BY_UPLOAD = 'smm sends X a video uploaded to smm (POST /v1/media, then "media": [{"id": …}]), not one from a media URL'
const REFUSED_EXTENSIONS: Record<string, string> = {
  mp4: VIDEO_BY_UPLOAD,
  mov: VIDEO_BY_UPLOAD,
  webm: 'X does not take WebM video; use an MP4',
  m4v: VIDEO_BY_UPLOAD,
  svg: 'X does not take SVG images; use a JPEG, PNG or WebP',
  avif: 'X does not take AVIF images; use a JPEG, PNG or WebP',
  pdf: 'X takes images, not documents',
}

/** What a connection to X keeps: the tokens and the X user they speak for. */
interface XCredentials extends OAuthTokens {
  user_id: string
}

/** An RFC 7807 problem as X sends it, or the older `errors[]` list; sometimes both. */
interface XErrorBody {
  title?: string
  detail?: string
  type?: string
  status?: number
  errors?: { message?: string; detail?: string; title?: string; code?: number }[]
}

interface PublicMetrics {
  like_count?: number
  retweet_count?: number
  /** The name X's OpenAPI document uses for `retweet_count`; read too, in case the API follows it. */
  repost_count?: number
  reply_count?: number
  quote_count?: number
  impression_count?: number
}

/** The sentence X gave, from whichever error shape it used. */
function reasonOf(response: OutboundResponse): string {
  const body = jsonOrUndefined<XErrorBody>(response)
  const listed = body?.errors?.map((e) => e.detail ?? e.message ?? e.title).filter(Boolean) ?? []
  return body?.detail ?? (listed.length ? listed.join('; ') : undefined) ?? body?.title ?? excerpt(response)
}

/** How long X asked us to wait: `x-rate-limit-reset` is the epoch second the window reopens. */
function resetWaitMs(response: OutboundResponse, now: number): number | undefined {
  const reset = Number(response.headers['x-rate-limit-reset'])
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now)
  const retryAfter = Number(response.headers['retry-after'])
  return Number.isFinite(retryAfter) ? Math.max(0, retryAfter * 1000) : undefined
}

/**
 * What an X answer other than success means. 401 is the token (the connection needs a
 * reconnect after the refresh the caller tried). X answers 403 for a post it will not take
 * (duplicate text, a suspended or restricted account, an app without the access level): the
 * same post would be refused again, so it is permanent, not a reconnect.
 */
function xError(response: OutboundResponse, ctx: PlatformContext): PlatformError {
  const { status } = response
  const reason = reasonOf(response)
  const detail = `${LABEL} answered ${status}: ${reason}`
  if (status === 401) return new PlatformError('auth', 'credentials_rejected', detail)
  if (status === 429) return new PlatformError('transient', 'rate_limited', detail, resetWaitMs(response, ctx.clock.now()))
  if (status === 408 || status >= 500) return new PlatformError('transient', 'platform_unavailable', detail, resetWaitMs(response, ctx.clock.now()))
  if (status === 403 && /duplicate content/i.test(reason)) return new PlatformError('permanent', 'duplicate_content', `${detail} (X refuses a post identical to a recent one)`)
  return new PlatformError('permanent', 'platform_rejected', detail)
}

const apiOf = (ctx: PlatformContext) => ctx.app?.apiUrl ?? x.oauth.endpoints.apiUrl

function call(ctx: PlatformContext, token: string, path: string, init: { method?: string; body?: string } = {}) {
  return platformRequest(ctx, LABEL, `${apiOf(ctx)}${path}`, {
    ...init,
    headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
  })
}

function credentialsOf(connection: Connection): XCredentials {
  const { access_token, user_id } = connection.credentials
  if (typeof access_token !== 'string' || typeof user_id !== 'string') {
    throw new PlatformError('auth', 'credentials_rejected', `${LABEL}: the stored connection has no access token; connect the account again`)
  }
  return connection.credentials as XCredentials
}

/** Who the token speaks for: `GET /2/users/me` answers the user's id, @username and name. */
async function whoAmI(ctx: PlatformContext, token: string): Promise<{ id: string; username: string; name: string }> {
  const response = await call(ctx, token, '/2/users/me')
  const user = response.status === 200 ? jsonOrUndefined<{ data?: { id: string; username: string; name: string } }>(response)?.data : undefined
  if (!user) throw xError(response, ctx)
  return user
}

/** Keeps what smm needs from a token answer (not `token_type`), with the user it speaks for. */
function stored(tokens: OAuthTokens, userId: string): XCredentials {
  return {
    access_token: tokens.access_token,
    ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
    ...(tokens.expires_at !== undefined ? { expires_at: tokens.expires_at } : {}),
    ...(typeof tokens.scope === 'string' ? { scope: tokens.scope } : {}),
    user_id: userId,
  }
}

/**
 * One image in one request: `POST /2/media/upload` with the bytes base64-encoded in JSON and
 * the `tweet_image` category (at most 5 MB, so read whole); the answer's `data.id` is what a post attaches.
 */
async function uploadImage(ctx: PlatformContext, token: string, file: Sendable): Promise<string> {
  const response = await upload(ctx, token, file.bytes, {
    body: JSON.stringify({ media: (await bytesOf(file)).toString('base64'), media_category: 'tweet_image' }),
    headers: { 'content-type': 'application/json' },
  })
  const data = mediaAnswer(response)
  if (!data?.id) throw xError(response, ctx)
  if (data.processing_info?.state === 'failed') throw new PlatformError('permanent', 'media_rejected', `media ${file.filename}: X could not process the image`)
  return data.id
}

interface MediaAnswer {
  id?: string
  processing_info?: { state?: string; check_after_secs?: number; error?: { message?: string } }
}

const mediaAnswer = (response: OutboundResponse) => (response.status === 200 || response.status === 201 ? jsonOrUndefined<{ data?: MediaAnswer }>(response)?.data : undefined)

/** A request to X's media endpoint: an upload, never the post itself, timed by its size. */
function upload(ctx: PlatformContext, token: string, bytes: number, request: { method?: string; body: OutboundRequest['body']; headers: Record<string, string> }, query = '') {
  return uploadRequest(ctx, LABEL, `${apiOf(ctx)}/2/media/upload${query}`, { method: 'POST', ...request, bytes, headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...request.headers } })
}

/** One command of the chunked upload: a multipart/form-data POST of its fields (and, for APPEND, the bytes). */
async function command(ctx: PlatformContext, token: string, parts: Part[]): Promise<OutboundResponse> {
  const { body, headers, bytes } = multipartBody(parts)
  const response = await upload(ctx, token, bytes, { body, headers })
  if (response.status < 200 || response.status > 299) throw xError(response, ctx)
  return response
}

/**
 * A video or GIF by the chunked upload: INIT (its type, size and category), APPEND each segment
 * of at most 4 MB read from the store as it goes, FINALIZE, then STATUS while X processes it,
 * after the `check_after_secs` X names. A processing failure is permanent, with X's reason.
 */
async function uploadChunked(ctx: PlatformContext, token: string, file: Sendable): Promise<string> {
  const category = file.kind === 'video' ? 'tweet_video' : 'tweet_gif'
  const init = await command(ctx, token, [['command', 'INIT'], ['media_type', file.content_type], ['total_bytes', String(file.bytes)], ['media_category', category]])
  const id = mediaAnswer(init)?.id
  if (!id) throw xError(init, ctx)
  for (let index = 0, start = 0; start < file.bytes; index++, start += SEGMENT_BYTES) {
    const end = Math.min(start + SEGMENT_BYTES, file.bytes) - 1
    const segment: Sendable = { ...file, content_type: 'application/octet-stream', bytes: end - start + 1, open: () => file.open({ start, end }) }
    await command(ctx, token, [['command', 'APPEND'], ['media_id', id], ['segment_index', String(index)], ['media', segment]])
  }
  const finalized = mediaAnswer(await command(ctx, token, [['command', 'FINALIZE'], ['media_id', id]]))
  const processed = (info: MediaAnswer['processing_info']) => {
    if (info?.state === 'failed') throw new PlatformError('permanent', 'media_rejected', `media ${file.filename}: X could not process it${info.error?.message ? `: ${info.error.message}` : ''}`)
    return info === undefined || info.state === 'succeeded'
  }
  if (processed(finalized?.processing_info)) return id
  // The first look is FINALIZE's answer; STATUS answers the next ones.
  let first: MediaAnswer['processing_info'] | undefined = finalized?.processing_info
  return awaitProcessing<string>(ctx, `X's processing of ${file.filename}`, PROCESSING_WAITS_MS, async () => {
    if (first) {
      const wait = first.check_after_secs
      first = undefined
      return { done: false, ...(wait !== undefined ? { afterMs: wait * 1000 } : {}) }
    }
    const status = await call(ctx, token, `/2/media/upload?${new URLSearchParams({ command: 'STATUS', media_id: id })}`)
    const info = mediaAnswer(status)?.processing_info
    if (status.status !== 200) throw xError(status, ctx)
    if (processed(info)) return { done: true, value: id }
    return { done: false, ...(info?.check_after_secs !== undefined ? { afterMs: info.check_after_secs * 1000 } : {}) }
  })
}

/** Alt text for an image or GIF (X keeps none for a video): `POST /2/media/metadata`. */
async function describe(ctx: PlatformContext, token: string, id: string, text: string): Promise<void> {
  const response = await call(ctx, token, '/2/media/metadata', { method: 'POST', body: JSON.stringify({ id, metadata: { alt_text: { text } } }) })
  if (response.status !== 200 && response.status !== 201) throw xError(response, ctx)
}

/** What X allows in one post: 280 weighted (a link 23, CJK and emoji 2), up to 4 images. */
const LIMITS: PlatformLimits = {
  text: { max: X_MAX_LENGTH, count: 'x_weighted', url_length: X_URL_LENGTH },
  media: {
    max: X_MAX_IMAGES,
    types: [...X_IMAGE_TYPES, 'image/gif'],
    // X's media upload (docs.x.com, "Media types & size restrictions"): up to 4 images of 5 MB, or
    // one GIF of 15 MB (by the chunked upload), or one video of 512 MB, 0.5 s to 140 s, 32×32 to
    // 1920×1200, aspect ratio 1:3 to 3:1; alt text up to 1,000 characters, by the metadata call,
    // which takes it for images and GIFs, not videos. A GIF with other media is refused by `check`.
    image: { types: [...X_IMAGE_TYPES, 'image/gif'], max: X_MAX_IMAGES, max_bytes: X_MAX_IMAGE_BYTES, max_bytes_by_type: { 'image/gif': X_MAX_GIF_BYTES } },
    video: {
      types: ['video/mp4', 'video/quicktime'],
      max: 1,
      max_bytes: 512 * 1024 * 1024,
      min_duration_ms: 500,
      max_duration_ms: 140_000,
      min_width: 32,
      min_height: 32,
      max_width: 1920,
      max_height: 1200,
      min_aspect_ratio: 1 / 3,
      max_aspect_ratio: 3,
      alt_text: false,
    },
    mixed: false,
    alt_text_max: 1_000,
  },
}

function metricsOf(counts: PublicMetrics | undefined): Metrics {
  const count = (n: number | undefined) => (typeof n === 'number' ? n : null)
  return {
    impressions: count(counts?.impression_count),
    likes: count(counts?.like_count),
    reposts: count(counts?.retweet_count ?? counts?.repost_count),
    replies: count(counts?.reply_count),
    quotes: count(counts?.quote_count),
    clicks: null,
  }
}

export const x: OAuthPlatform = {
  name: 'x',
  label: 'X',
  auth: 'oauth2',
  // X has no idempotency key for POST /2/tweets: a re-send posts again (or is refused as a
  // duplicate), so a publish whose outcome is unknown is never sent twice.
  idempotencyWindowMs: 0,
  // A thread is a chain of posts, each reply.in_reply_to_tweet_id the one before.
  thread: 'replies',
  firstComment: 'reply',

  oauth: {
    endpoints: { authorizeUrl: 'https://x.com/i/oauth2/authorize', tokenUrl: 'https://api.x.com/2/oauth2/token', apiUrl: 'https://api.x.com' },
    // Posting needs tweet.write with tweet.read and users.read; images need media.write;
    // offline.access is what makes X issue a refresh token (its access tokens last 2 hours).
    scopes: SCOPES,
    scopeSeparator: ' ',
    pkce: true,

    async exchange({ code, codeVerifier }, ctx) {
      const tokens = await tokenRequest(ctx, LABEL, tokenParams(ctx.app, { grant_type: 'authorization_code', code, redirect_uri: ctx.app.redirectUri, ...(codeVerifier ? { code_verifier: codeVerifier } : {}) }), 'basic')
      const user = await whoAmI(ctx, tokens.access_token)
      return { handle: `@${user.username}`, display_name: user.name || user.username, settings: { user_id: user.id }, credentials: stored(tokens, user.id) }
    },

    // X rotates refresh tokens: each refresh answers a new one and the old one stops working,
    // so the answer must be stored before the next refresh.
    async refresh(tokens, ctx) {
      if (!tokens.refresh_token) throw new PlatformError('auth', 'grant_refused', `${LABEL}: the connection has no refresh token; connect the account again`)
      const fresh = await tokenRequest(ctx, LABEL, tokenParams(ctx.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }), 'basic')
      return stored({ refresh_token: tokens.refresh_token, ...fresh }, String(tokens.user_id ?? ''))
    },
  },

  limits: LIMITS,
  uploadsMedia: true,
  measure: (draft) => measureDraft(LIMITS, draft),

  check(draft) {
    const errors = checkLimits(LIMITS, draft, { label: LABEL })
    if (draft.content.trim() === '' && !hasMedia(draft)) {
      errors.push({ pointer: '#/content', code: 'required', detail: 'must not be empty on X unless the post has images' })
    }
    errors.push(...unsupportedMediaTypes(draft.media_urls, (extension) => REFUSED_EXTENSIONS[extension]))
    const media = draft.media ?? []
    const gif = media.findIndex((m) => m.content_type === 'image/gif')
    if (gif >= 0 && draft.media_urls.length + media.length > 1) {
      errors.push({ pointer: `#/media/${gif}`, code: 'media_mixed', detail: 'is a GIF, and the post has other media; X takes up to 4 images, or one GIF, or one video: move the GIF to a thread part' })
    }
    return errors
  },

  async publish(connection, request, ctx) {
    const { access_token: token } = credentialsOf(connection)
    const mediaIds: string[] = []
    // A media URL's image (or GIF) is downloaded; uploaded media, videos too, stream from the store.
    const files = await mediaToSend(ctx, request, { label: LABEL, types: [...X_IMAGE_TYPES, 'image/gif'], maxBytes: { image: X_MAX_GIF_BYTES, video: X_MAX_VIDEO_BYTES } })
    for (const file of files) {
      const single = file.kind === 'image' && file.content_type !== 'image/gif'
      if (single && file.bytes > X_MAX_IMAGE_BYTES) throw new PlatformError('permanent', 'media_too_large', `media ${file.url}: ${file.bytes} bytes; X takes images up to ${X_MAX_IMAGE_BYTES}`)
      const id = single ? await uploadImage(ctx, token, file) : await uploadChunked(ctx, token, file)
      if (file.alt_text && keepsAltText(LIMITS, file.kind)) await describe(ctx, token, id, file.alt_text)
      mediaIds.push(id)
    }
    const response = await call(ctx, token, '/2/tweets', {
      method: 'POST',
      body: JSON.stringify({
        text: request.content,
        ...(mediaIds.length ? { media: { media_ids: mediaIds } } : {}),
        ...(request.followUp?.parent.platform_post_id ? { reply: { in_reply_to_tweet_id: request.followUp.parent.platform_post_id } } : {}),
      }),
    })
    const created = response.status === 201 || response.status === 200 ? jsonOrUndefined<{ data?: { id?: string } }>(response)?.data : undefined
    if (!created?.id) throw xError(response, ctx)
    return { platform_post_id: created.id, url: postUrl(connection.handle, created.id) }
  },

  async metrics(connection, ids, ctx) {
    const { access_token: token } = credentialsOf(connection)
    const counts = new Map<string, Metrics>()
    for (let start = 0; start < ids.length; start += LOOKUP_BATCH) {
      const query = new URLSearchParams({ ids: ids.slice(start, start + LOOKUP_BATCH).join(','), 'tweet.fields': 'public_metrics' })
      const response = await call(ctx, token, `/2/tweets?${query}`)
      if (response.status !== 200) throw xError(response, ctx)
      // A deleted post comes back in `errors` (resource-not-found), not in `data`: it has no counts any more.
      const body = jsonOrUndefined<{ data?: { id: string; public_metrics?: PublicMetrics }[] }>(response)
      for (const post of body?.data ?? []) counts.set(post.id, metricsOf(post.public_metrics))
    }
    return counts
  },
}

/**
 * A token request's form. The client authenticates with HTTP Basic (a confidential client);
 * `client_id` is sent too, as X's own examples do.
 */
function tokenParams(app: OAuthApp, params: Record<string, string>): Record<string, string> {
  return { ...params, client_id: app.clientId }
}

/** A post's public address: x.com/<username>/status/<id>. */
function postUrl(handle: string, id: string): string {
  const username = handle.replace(/^@/, '')
  return `https://x.com/${encodeURIComponent(username || 'i')}/status/${id}`
}
