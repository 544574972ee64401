import { checkLimits, hasMedia, measureDraft } from './limits.js'
import { unsupportedMediaTypes } from './media.js'
import { insightMetrics, publishThroughContainer, type ContainerApi } from './meta-containers.js'
import { graphCaller, longLivedLogin, refreshLongLived, userTokensOf, type GraphCaller, type MetaUserTokens } from './meta-graph.js'
import { findUrls } from '../../src/text-length.js'
import type { Connection, OAuthPlatform, OAuthTokens, PlatformContext, PlatformLimits } from './types.js'

// Threads' documented limits (developers.facebook.com/docs/threads): text posts, carousels, images.
export const THREADS_MAX_CHARACTERS = 500
export const THREADS_MAX_LINKS = 5
export const THREADS_MAX_CAROUSEL_ITEMS = 20
export const THREADS_IMAGE_TYPES = ['image/jpeg', 'image/png'] as const
export const THREADS_IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png'] as const
export const THREADS_MAX_IMAGE_BYTES = 8 * 1024 * 1024

const LABEL = 'Threads'
const VERSION = 'v1.0'

const ENDPOINTS = {
  authorizeUrl: 'https://threads.net/oauth/authorize',
  tokenUrl: 'https://graph.threads.net/oauth/access_token',
  apiUrl: 'https://graph.threads.net',
}

/** Distinct links as Threads counts them toward its limit of five. */
function uniqueLinks(text: string): number {
  return new Set(findUrls(text).map((u) => u.url)).size
}

/** 500 characters as Threads counts them, up to 20 images (a carousel). */
const LIMITS: PlatformLimits = {
  text: { max: THREADS_MAX_CHARACTERS, count: 'threads' },
  media: {
    max: THREADS_MAX_CAROUSEL_ITEMS,
    types: [...THREADS_IMAGE_TYPES],
    // Threads fetches media by URL: images JPEG or PNG up to 8 MB, 320 to 1440 pixels across, a
    // ratio up to 10:1; videos MP4 or MOV up to 1 GB and 5 minutes; a carousel mixes both, 2 to 20
    // items; alt text up to 1,000 characters.
    image: { types: [...THREADS_IMAGE_TYPES], max_bytes: THREADS_MAX_IMAGE_BYTES, min_width: 320, max_width: 1440, min_aspect_ratio: 0.1, max_aspect_ratio: 10 },
    video: { types: ['video/mp4', 'video/quicktime'], max_bytes: 1024 * 1024 * 1024, max_duration_ms: 300_000, max_width: 1920, min_aspect_ratio: 0.1, max_aspect_ratio: 10 },
    mixed: true,
    alt_text_max: 1_000,
    send: 'url',
  },
}

function tokensOf(connection: Connection): MetaUserTokens {
  return userTokensOf(connection, 'Threads: the connection has no token or user id; connect the account again')
}

/** Threads API calls with a token, on the configured origin and the version this module speaks. */
function caller(ctx: PlatformContext, tokens: OAuthTokens): GraphCaller {
  return graphCaller(ctx, LABEL, `${ctx.app?.apiUrl ?? ENDPOINTS.apiUrl}/${VERSION}`, tokens.access_token)
}

/** Threads' containers: TEXT, IMAGE or CAROUSEL on `threads`, the text as `text`, the state as `status`. */
const CONTAINERS: ContainerApi = {
  label: LABEL,
  images: { types: THREADS_IMAGE_TYPES, maxBytes: THREADS_MAX_IMAGE_BYTES },
  edges: { create: 'threads', publish: 'threads_publish' },
  textParam: 'text',
  imageParams: { media_type: 'IMAGE' },
  videoParams: { single: { media_type: 'VIDEO' }, item: { media_type: 'VIDEO' } },
  limits: LIMITS,
  stateFields: { status: 'status', message: 'error_message' },
  insights: { likes: 'likes', replies: 'replies', reposts: 'reposts', quotes: 'quotes', impressions: 'views' },
}

export const threads: OAuthPlatform = {
  name: 'threads',
  label: 'Threads',
  auth: 'oauth2',
  // A container is published once; publishing again makes a second post, and Meta has no key.
  idempotencyWindowMs: 0,
  // A thread is a chain of posts, each a reply (reply_to_id on its container) to the one before.
  thread: 'replies',
  firstComment: 'reply',

  oauth: {
    endpoints: ENDPOINTS,
    scopes: ['threads_basic', 'threads_content_publish', 'threads_manage_insights'],
    scopeSeparator: ',',
    // Threads' authorization window documents no code_challenge.
    pkce: false,

    async exchange(grant, ctx) {
      const tokens = await longLivedLogin(ctx, LABEL, 'th', grant.code)
      const me = await caller(ctx, tokens)<{ id: string; username: string; name?: string }>('GET', '/me', { fields: 'id,username,name' })
      return { handle: `@${me.username}`, display_name: me.name || me.username, settings: {}, credentials: { ...tokens, user_id: me.id } }
    },

    refresh: (tokens, ctx) => refreshLongLived(ctx, LABEL, 'th', tokens),
  },

  limits: LIMITS,
  uploadsMedia: true,
  measure: (draft) => measureDraft(LIMITS, draft),

  check(draft) {
    const errors = checkLimits(LIMITS, draft, { label: LABEL })
    if (draft.content.trim() === '' && !hasMedia(draft)) {
      errors.push({ pointer: '#/content', code: 'required', detail: 'must not be empty on Threads unless the post has images' })
    }
    const links = uniqueLinks(draft.content)
    if (links > THREADS_MAX_LINKS) {
      errors.push({ pointer: '#/content', code: 'too_many_links', detail: `has ${links} different links; Threads refuses posts with more than ${THREADS_MAX_LINKS}` })
    }
    errors.push(...unsupportedMediaTypes(draft.media_urls, (extension) => ((THREADS_IMAGE_EXTENSIONS as readonly string[]).includes(extension) ? undefined : 'Threads takes JPEG and PNG images'), 'list'))
    return errors
  },

  async publish(connection, request, ctx) {
    const tokens = tokensOf(connection)
    const parent = request.followUp?.parent.platform_post_id
    return publishThroughContainer(ctx, CONTAINERS, caller(ctx, tokens), tokens.user_id, request, parent ? { reply_to_id: parent } : {})
  },

  async metrics(connection, ids, ctx) {
    return insightMetrics(CONTAINERS, caller(ctx, tokensOf(connection)), ids)
  },
}
