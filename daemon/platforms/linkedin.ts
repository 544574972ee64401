import type { Readable } from 'node:stream'
import type { OutboundResponse } from '../egress.js'
import { checkLimits, hasMedia, measureDraft } from './limits.js'
import { mediaToSend, unsupportedMediaTypes } from './media.js'
import { awaitProcessing, uploadRequest, type Sendable } from './upload.js'
import { tokenRequest } from './oauth2.js'
import { excerpt, jsonOrUndefined, platformRequest, statusError } from './platform-http.js'
import { findUrls } from '../../src/text-length.js'
import { PlatformError, type Connection, type Metrics, type OAuthApp, type OAuthPlatform, type OAuthTokens, type PlatformContext, type PlatformLimits, type Published } from './types.js'

const LABEL = 'LinkedIn'
// The Posts API takes at most 3,000 characters of commentary.
const MAX_CHARACTERS = 3_000
// One image goes as `content.media`; a MultiImage post takes 2 to 20 (LinkedIn's MultiImage API).
const MAX_IMAGES = 20
// The Images API takes JPG, GIF and PNG; nothing else uploads as an image.
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const
const IMAGE_EXTENSIONS: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif' }
// LinkedIn documents a pixel cap (36,152,320) rather than a byte cap; this bounds what we download.
const MAX_IMAGE_BYTES = 20 * 1024 * 1024
// Every versioned (/rest) call names the monthly version it was written against; LinkedIn keeps
// each version for at least a year, so this moves forward on purpose, not by itself.
const API_VERSION = '202605'
// Access tokens live 60 days; only partners LinkedIn approves get refresh tokens (a year).
const SCOPES = ['openid', 'profile', 'w_member_social'] as const

/** What the connection keeps besides the tokens: the member it posts as. */
interface LinkedInTokens extends OAuthTokens {
  person_urn: string
}

/** OpenID Connect userinfo (GET /v2/userinfo), the fields the `profile` scope grants. */
interface UserInfo {
  sub: string
  name?: string
  given_name?: string
  family_name?: string
}

/** LinkedIn's error body: `{message, status, serviceErrorCode}`, and for validation `errorDetails`. */
interface LinkedInError {
  message?: string
  status?: number
  serviceErrorCode?: number
  code?: string
  errorDetails?: { inputErrors?: Array<{ code?: string; description?: string }> }
}

/** Engagement on a share or ugcPost (GET /rest/socialActions/{urn}). */
interface SocialActions {
  likesSummary?: { totalLikes?: number }
  commentsSummary?: { totalFirstLevelComments?: number; aggregatedTotalComments?: number }
}

const RESERVED = /(^|\s)#(?=[\p{L}\p{N}])|[\\|{}@[\]()<>#*_~]/gu

/**
 * Commentary is in LinkedIn's "little" text format, where `\ | { } @ [ ] ( ) < > # * _ ~` are
 * markup (mentions, hashtag templates…): unescaped, LinkedIn cuts the text at the first one it
 * cannot parse while still answering 201. Each is escaped with a backslash so the post reads as
 * written, except a `#` that starts a word, which stays a hashtag as people expect, and links,
 * which are left whole so LinkedIn still recognises them as links.
 */
export function littleEscape(text: string): string {
  const escape = (plain: string) => plain.replace(RESERVED, (match, lead: string | undefined) => (lead === undefined ? `\\${match}` : match))
  let out = ''
  let last = 0
  for (const { start, end } of findUrls(text)) {
    out += escape(text.slice(last, start)) + text.slice(start, end)
    last = end
  }
  return out + escape(text.slice(last))
}

function failure(response: OutboundResponse, ctx: PlatformContext): PlatformError {
  const body = jsonOrUndefined<LinkedInError>(response)
  const reason = body?.message ?? excerpt(response)
  const duplicate = body?.errorDetails?.inputErrors?.some((e) => e.code === 'DUPLICATE_POST') || /content is a duplicate/i.test(reason)
  if (duplicate && (response.status === 422 || response.status === 400)) {
    return new PlatformError('permanent', 'duplicate_content', `${LABEL} answered ${response.status}: ${reason}. LinkedIn refuses a post identical to a recent one.`)
  }
  if (response.status === 401) {
    return new PlatformError('auth', 'token_expired', `${LABEL} answered 401: ${reason}. The access token expired or was revoked; connect LinkedIn again.`)
  }
  return statusError(LABEL, response, reason, ctx.clock.now())
}

/**
 * A comment on a post, by the post's author: POST /rest/socialActions/{post URN}/comments with
 * `{actor, object, message: {text}}`; LinkedIn answers 201 with the comment's URN in
 * `x-restli-id` (and in the body as `$URN`). The comment is seen on the post's page.
 */
async function comment(ctx: PlatformContext, tokens: LinkedInTokens, postUrn: string, text: string): Promise<Published> {
  const response = await platformRequest(ctx, LABEL, `${apiUrl(ctx)}/rest/socialActions/${encodeURIComponent(postUrn)}/comments`, {
    method: 'POST',
    headers: { ...restHeaders(tokens), 'content-type': 'application/json' },
    body: JSON.stringify({ actor: tokens.person_urn, object: postUrn, message: { text } }),
  })
  if (response.status !== 201) throw failure(response, ctx)
  const urn = response.headers['x-restli-id'] ?? jsonOrUndefined<{ $URN?: string }>(response)?.$URN
  if (!urn) throw new PlatformError('transient', 'platform_unavailable', `${LABEL} answered 201 without the comment's id (x-restli-id)`, undefined, true)
  return { platform_post_id: urn, url: `https://www.linkedin.com/feed/update/${postUrn}` }
}

function apiUrl(ctx: PlatformContext): string {
  if (!ctx.app) throw new PlatformError('permanent', 'platform_not_configured', `${LABEL}: the operator's LinkedIn app is not configured`)
  return ctx.app.apiUrl
}

/** Headers of every versioned (/rest) call: the token, the version, Rest.li 2.0. */
function restHeaders(tokens: OAuthTokens): Record<string, string> {
  return {
    accept: 'application/json',
    authorization: `Bearer ${tokens.access_token}`,
    'linkedin-version': API_VERSION,
    'x-restli-protocol-version': '2.0.0',
  }
}

function tokensOf(connection: Connection): LinkedInTokens {
  const tokens = connection.credentials as Partial<LinkedInTokens>
  if (typeof tokens.access_token !== 'string' || typeof tokens.person_urn !== 'string') {
    throw new PlatformError('auth', 'credentials_incomplete', `${LABEL}: this connection has no token or member; connect LinkedIn again`)
  }
  return tokens as LinkedInTokens
}

async function userInfo(ctx: PlatformContext & { app: OAuthApp }, accessToken: string): Promise<UserInfo> {
  const response = await platformRequest(ctx, LABEL, `${ctx.app.apiUrl}/v2/userinfo`, { headers: { accept: 'application/json', authorization: `Bearer ${accessToken}` } })
  if (response.status !== 200) throw failure(response, ctx)
  const info = response.json<UserInfo>()
  if (!info.sub) throw new PlatformError('permanent', 'platform_rejected', `${LABEL}: userinfo named no member (no "sub"); was the openid scope granted?`)
  return info
}

/** The token response's extras made useful: a refresh token's lifetime as a time, no id_token kept. */
function keepTokens(raw: OAuthTokens & Record<string, unknown>, now: number): OAuthTokens {
  const { id_token: _idToken, refresh_token_expires_in, ...tokens } = raw
  const seconds = Number(refresh_token_expires_in)
  return Number.isFinite(seconds) && seconds > 0 ? { ...tokens, refresh_token_expires_at: now + seconds * 1000 } : tokens
}

/** A POST to a versioned (/rest) API with a JSON body; `ok` lists the statuses that mean done. */
async function rest(ctx: PlatformContext, tokens: LinkedInTokens, path: string, body: unknown, ok = [200]): Promise<OutboundResponse> {
  const response = await platformRequest(ctx, LABEL, `${apiUrl(ctx)}${path}`, { method: 'POST', headers: { ...restHeaders(tokens), 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (!ok.includes(response.status)) throw failure(response, ctx)
  return response
}

/** PUTs bytes (a whole image, or a video's part) to an upload URL LinkedIn gave; answers the response for its ETag. */
async function put(ctx: PlatformContext, tokens: LinkedInTokens, url: string, type: string, bytes: number, body: Promise<Readable>): Promise<OutboundResponse> {
  const response = await uploadRequest(ctx, LABEL, url, { method: 'PUT', bytes, headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': type, 'content-length': String(bytes) }, body: await body })
  if (response.status !== 201 && response.status !== 200) throw failure(response, ctx)
  return response
}

/** Images API: ask for an upload URL owned by the member, PUT the bytes there, keep the image URN. */
async function uploadImage(ctx: PlatformContext, tokens: LinkedInTokens, file: Sendable): Promise<string> {
  const init = await rest(ctx, tokens, '/rest/images?action=initializeUpload', { initializeUploadRequest: { owner: tokens.person_urn } })
  const { value } = init.json<{ value: { uploadUrl: string; image: string } }>()
  await put(ctx, tokens, value.uploadUrl, file.content_type, file.bytes, file.open())
  return value.image
}

// A video being processed is looked at after these waits: about ten minutes in all.
const VIDEO_WAITS_MS = [2_000, 4_000, 8_000, 15_000, 30_000, ...Array<number>(9).fill(60_000)]

/**
 * Videos API: initializeUpload with the size answers the video URN and an upload URL for each
 * byte range (4 MB parts); each part is PUT from the store as it is read, its ETag kept; then
 * finalizeUpload names the parts by their ETags, in order. The post may name the video once
 * LinkedIn says it is AVAILABLE.
 */
async function uploadVideo(ctx: PlatformContext, tokens: LinkedInTokens, file: Sendable): Promise<string> {
  const init = await rest(ctx, tokens, '/rest/videos?action=initializeUpload', {
    initializeUploadRequest: { owner: tokens.person_urn, fileSizeBytes: file.bytes, uploadCaptions: false, uploadThumbnail: false },
  })
  const { value } = init.json<{ value: { video: string; uploadToken?: string; uploadInstructions: { uploadUrl: string; firstByte: number; lastByte: number }[] } }>()
  const etags: string[] = []
  for (const part of value.uploadInstructions) {
    const answer = await put(ctx, tokens, part.uploadUrl, 'application/octet-stream', part.lastByte - part.firstByte + 1, file.open({ start: part.firstByte, end: part.lastByte }))
    const etag = answer.headers.etag
    if (!etag) throw new PlatformError('transient', 'platform_unavailable', `${LABEL} took a part of ${file.filename} without an ETag`)
    etags.push(etag)
  }
  await rest(ctx, tokens, '/rest/videos?action=finalizeUpload', { finalizeUploadRequest: { video: value.video, uploadToken: value.uploadToken ?? '', uploadedPartIds: etags } })
  return awaitProcessing<string>(ctx, `${LABEL}'s processing of ${file.filename}`, VIDEO_WAITS_MS, async () => {
    const state = await platformRequest(ctx, LABEL, `${apiUrl(ctx)}/rest/videos/${encodeURIComponent(value.video)}`, { headers: restHeaders(tokens) })
    if (state.status !== 200) throw failure(state, ctx)
    const status = state.json<{ status?: string }>().status
    if (status === 'AVAILABLE') return { done: true, value: value.video }
    if (status === 'PROCESSING_FAILED') throw new PlatformError('permanent', 'media_rejected', `media ${file.filename}: ${LABEL} could not process the video`)
    return { done: false }
  })
}

/** The post's `content`: one image or a video as `media`, several images as `multiImage`, each image with its alt text. */
function contentOf(media: { id: string; altText?: string }[]): Record<string, unknown> {
  if (media.length === 0) return {}
  if (media.length === 1) return { content: { media: media[0] } }
  return { content: { multiImage: { images: media } } }
}

// Counted in UTF-16 units as JavaScript and LinkedIn's composer count: never under LinkedIn's count.
const LIMITS: PlatformLimits = {
  text: { max: MAX_CHARACTERS, count: 'utf16' },
  media: {
    max: MAX_IMAGES,
    types: [...IMAGE_TYPES],
    // LinkedIn's Images API: JPG, PNG, GIF, up to 36,152,320 pixels; Videos API: MP4, 75 kB to
    // 500 MB, 3 s to 30 min; a post holds images or one video; alt text (`altText`) up to 4,086
    // characters on an image: a video's `content.media` has no place for it.
    image: { types: ['image/jpeg', 'image/png', 'image/gif'], max: MAX_IMAGES, max_bytes: MAX_IMAGE_BYTES, max_pixels: 36_152_320 },
    video: { types: ['video/mp4'], max: 1, max_bytes: 500 * 1024 * 1024, min_duration_ms: 3_000, max_duration_ms: 1_800_000, alt_text: false },
    mixed: false,
    alt_text_max: 4_086,
  },
}

// Extensions known not to be images; a URL without one, or with another, is judged at publish.
const KNOWN_OTHER_EXTENSIONS = new Set(['mp4', 'mov', 'webm', 'avi', 'pdf', 'webp', 'heic', 'tif', 'tiff', 'bmp', 'svg'])

export const linkedin: OAuthPlatform = {
  name: 'linkedin',
  label: 'LinkedIn',
  auth: 'oauth2',
  // The Posts API takes no idempotency key: a re-send posts again (or meets DUPLICATE_POST).
  idempotencyWindowMs: 0,
  // LinkedIn has no replies between posts: thread parts are posts of their own; a first comment
  // is a comment on the post (the Comments API, socialActions/{urn}/comments).
  thread: 'consecutive',
  firstComment: 'comment',

  oauth: {
    endpoints: {
      authorizeUrl: 'https://www.linkedin.com/oauth/v2/authorization',
      tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
      apiUrl: 'https://api.linkedin.com',
    },
    scopes: SCOPES,
    scopeSeparator: ' ',
    // LinkedIn offers PKCE only to native apps, enabled on request, with loopback redirects; a
    // web app authenticates at the token endpoint with its client secret instead.
    pkce: false,

    async exchange(grant, ctx) {
      const raw = await tokenRequest(ctx, LABEL, { grant_type: 'authorization_code', code: grant.code, redirect_uri: ctx.app.redirectUri }, 'body')
      const tokens = keepTokens(raw, ctx.clock.now())
      const me = await userInfo(ctx, tokens.access_token)
      const person_urn = `urn:li:person:${me.sub}`
      const name = me.name ?? ([me.given_name, me.family_name].filter(Boolean).join(' ') || person_urn)
      return { handle: name, display_name: name, settings: { person_urn }, credentials: { ...tokens, person_urn } }
    },

    async refresh(tokens, ctx) {
      if (typeof tokens.refresh_token !== 'string' || tokens.refresh_token === '') {
        throw new PlatformError(
          'auth',
          'refresh_unavailable',
          `${LABEL} gave this app no refresh token (LinkedIn grants them only to approved partners), and its access tokens last 60 days: connect LinkedIn again.`,
        )
      }
      const raw = await tokenRequest(ctx, LABEL, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, 'body')
      // The refresh answer carries tokens only; who they speak for stays as it was.
      return { ...tokens, ...keepTokens(raw, ctx.clock.now()) }
    },
  },

  limits: LIMITS,
  uploadsMedia: true,
  measure: (draft) => measureDraft(LIMITS, draft),

  check(draft) {
    const errors = checkLimits(LIMITS, draft, { label: LABEL })
    if (draft.content.trim() === '' && !hasMedia(draft)) errors.push({ pointer: '#/content', code: 'required', detail: 'must not be empty on LinkedIn unless the post has images' })
    errors.push(...unsupportedMediaTypes(draft.media_urls, (extension) => (KNOWN_OTHER_EXTENSIONS.has(extension) && !IMAGE_EXTENSIONS[extension] ? 'LinkedIn posts from smm take JPG, PNG or GIF images' : undefined)))
    return errors
  },

  async publish(connection, request, ctx) {
    const tokens = tokensOf(connection)
    if (request.followUp?.kind === 'first_comment') return comment(ctx, tokens, request.followUp.root.platform_post_id!, request.content)
    const media: { id: string; altText?: string }[] = []
    for (const file of await mediaToSend(ctx, request, { label: LABEL, types: IMAGE_TYPES, maxBytes: MAX_IMAGE_BYTES })) {
      if (file.kind === 'video') media.push({ id: await uploadVideo(ctx, tokens, file) })
      else media.push({ id: await uploadImage(ctx, tokens, file), ...(file.alt_text ? { altText: file.alt_text } : {}) })
    }
    const response = await platformRequest(ctx, LABEL, `${apiUrl(ctx)}/rest/posts`, {
      method: 'POST',
      headers: { ...restHeaders(tokens), 'content-type': 'application/json' },
      body: JSON.stringify({
        author: tokens.person_urn,
        commentary: littleEscape(request.content),
        visibility: 'PUBLIC',
        distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
        ...contentOf(media),
        lifecycleState: 'PUBLISHED',
        isReshareDisabledByAuthor: false,
      }),
    })
    if (response.status !== 201) throw failure(response, ctx)
    const urn = response.headers['x-restli-id']
    if (!urn) throw new PlatformError('transient', 'platform_unavailable', `${LABEL} answered 201 without the post's id (x-restli-id)`, undefined, true)
    return { platform_post_id: urn, url: `https://www.linkedin.com/feed/update/${urn}` }
  },

  async metrics(connection, ids, ctx) {
    const tokens = tokensOf(connection)
    const counts = new Map<string, Metrics>()
    for (const id of ids) {
      const response = await platformRequest(ctx, LABEL, `${apiUrl(ctx)}/rest/socialActions/${encodeURIComponent(id)}`, { headers: restHeaders(tokens) })
      // A deleted post has no counts any more; the others still do.
      if (response.status === 404) continue
      if (response.status === 403) {
        // Reading engagement needs r_member_social, which LinkedIn grants only to chosen partners:
        // refused here is the app's standing, not the member's token, so not a reason to reconnect.
        const reason = jsonOrUndefined<LinkedInError>(response)?.message ?? excerpt(response)
        throw new PlatformError('permanent', 'metrics_not_permitted', `${LABEL} answered 403: ${reason}. Reading likes and comments needs the r_member_social permission, which LinkedIn grants to approved apps only.`)
      }
      if (response.status !== 200) throw failure(response, ctx)
      const social = response.json<SocialActions>()
      counts.set(id, {
        // LinkedIn reports no impressions or reshare counts for a member's posts to this app.
        impressions: null,
        likes: social.likesSummary?.totalLikes ?? null,
        reposts: null,
        replies: social.commentsSummary?.aggregatedTotalComments ?? social.commentsSummary?.totalFirstLevelComments ?? null,
        quotes: null,
        clicks: null,
      })
    }
    return counts
  },
}
