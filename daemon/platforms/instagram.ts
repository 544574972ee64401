import { checkLimits, measureDraft } from './limits.js'
import { unsupportedMediaTypes } from './media.js'
import { insightMetrics, publishThroughContainer, type ContainerApi } from './meta-containers.js'
import { graphCaller, longLivedLogin, refreshLongLived, userTokensOf, type GraphCaller, type MetaUserTokens } from './meta-graph.js'
import { PlatformError, type Connection, type OAuthPlatform, type OAuthTokens, type PlatformContext, type PlatformLimits } from './types.js'

// Instagram's documented limits for API publishing (Instagram Platform, content publishing and
// the IG User media reference): captions, hashtags and @ tags in them, carousels, JPEG only.
export const INSTAGRAM_MAX_CAPTION = 2_200
export const INSTAGRAM_MAX_HASHTAGS = 30
export const INSTAGRAM_MAX_MENTIONS = 20
export const INSTAGRAM_MAX_CAROUSEL_ITEMS = 10
export const INSTAGRAM_IMAGE_TYPES = ['image/jpeg'] as const
export const INSTAGRAM_IMAGE_EXTENSIONS = ['jpg', 'jpeg'] as const
export const INSTAGRAM_MAX_IMAGE_BYTES = 8 * 1024 * 1024

const LABEL = 'Instagram'
// Unversioned Graph calls go to the oldest supported version; pinning keeps the answers stable.
const VERSION = 'v23.0'

const ENDPOINTS = {
  authorizeUrl: 'https://www.instagram.com/oauth/authorize',
  tokenUrl: 'https://api.instagram.com/oauth/access_token',
  apiUrl: 'https://graph.instagram.com',
}

const HASHTAG = /(^|[^\p{L}\p{N}_&])#[\p{L}\p{N}_]+/gu
const MENTION = /(^|[^\p{L}\p{N}_.])@[\p{L}\p{N}_.]+/gu

/** A caption of 2,200 characters under 1 to 10 JPEG images: Instagram publishes no text-only post. */
const LIMITS: PlatformLimits = {
  text: { max: INSTAGRAM_MAX_CAPTION, count: 'graphemes' },
  media: {
    max: INSTAGRAM_MAX_CAROUSEL_ITEMS,
    required: true,
    types: [...INSTAGRAM_IMAGE_TYPES],
    // Instagram fetches media by URL: images JPEG only, up to 8 MB, 320 to 1440 pixels across,
    // 4:5 to 1.91:1; videos (reels) MP4 or MOV up to 300 MB, 3 s to 15 min; a carousel mixes both;
    // alt text (`alt_text`) on images only: the IG User Media reference takes it for image posts,
    // not reels or stories.
    image: { types: [...INSTAGRAM_IMAGE_TYPES], max_bytes: INSTAGRAM_MAX_IMAGE_BYTES, min_width: 320, max_width: 1440, min_aspect_ratio: 0.8, max_aspect_ratio: 1.91 },
    video: { types: ['video/mp4', 'video/quicktime'], max_bytes: 300 * 1024 * 1024, min_duration_ms: 3_000, max_duration_ms: 900_000, max_width: 1920, min_aspect_ratio: 0.01, max_aspect_ratio: 10, alt_text: false },
    mixed: true,
    alt_text_max: 1_000,
    send: 'url',
  },
}

function tokensOf(connection: Connection): MetaUserTokens {
  return userTokensOf(connection, 'Instagram: the connection has no token or account id; connect the account again')
}

/** Instagram API calls with a token, on the configured origin and the version this module speaks. */
function caller(ctx: PlatformContext, tokens: OAuthTokens): GraphCaller {
  return graphCaller(ctx, LABEL, `${ctx.app?.apiUrl ?? ENDPOINTS.apiUrl}/${VERSION}`, tokens.access_token)
}

/**
 * Instagram's containers: on `media`, the text as `caption`; `status_code` is the state and
 * `status` carries the reason when it is ERROR. Metrics: likes, comments and shares, and `views`
 * as impressions: Meta retired `impressions` for media (v22.0) in favour of `views`, the times the
 * post was displayed. Reach (distinct accounts) is not an impression count, so it is not used.
 */
const CONTAINERS: ContainerApi = {
  label: LABEL,
  images: { types: INSTAGRAM_IMAGE_TYPES, maxBytes: INSTAGRAM_MAX_IMAGE_BYTES },
  edges: { create: 'media', publish: 'media_publish' },
  textParam: 'caption',
  imageParams: {},
  // A video alone is a reel; in a carousel, a VIDEO item.
  videoParams: { single: { media_type: 'REELS' }, item: { media_type: 'VIDEO' } },
  limits: LIMITS,
  stateFields: { status: 'status_code', message: 'status' },
  insights: { likes: 'likes', replies: 'comments', reposts: 'shares', impressions: 'views' },
}

export const instagram: OAuthPlatform = {
  name: 'instagram',
  label: 'Instagram',
  auth: 'oauth2',
  // A container is published once; publishing again makes a second post, and Meta has no key.
  idempotencyWindowMs: 0,
  // Instagram has no replies between posts: thread parts are posts of their own; a first comment is a comment on the post.
  thread: 'consecutive',
  firstComment: 'comment',

  oauth: {
    endpoints: ENDPOINTS,
    // Business Login for Instagram's scopes: the profile, publishing, and insights for metrics.
    scopes: ['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_insights'],
    scopeSeparator: ',',
    // The business login's authorization window documents no code_challenge.
    pkce: false,

    async exchange(grant, ctx) {
      const tokens = await longLivedLogin(ctx, LABEL, 'ig', grant.code)
      const me = await caller(ctx, tokens)<{ user_id?: string; id?: string; username: string; name?: string; account_type?: string }>('GET', '/me', { fields: 'user_id,username,name,account_type' })
      // `user_id` is the professional account's id, the one publishing paths take.
      const userId = String(me.user_id ?? me.id ?? tokens.user_id)
      return {
        handle: `@${me.username}`,
        display_name: me.name || me.username,
        settings: me.account_type ? { account_type: me.account_type } : {},
        credentials: { ...tokens, user_id: userId },
      }
    },

    refresh: (tokens, ctx) => refreshLongLived(ctx, LABEL, 'ig', tokens),
  },

  limits: LIMITS,
  uploadsMedia: true,
  measure: (draft) => measureDraft(LIMITS, draft),

  check(draft) {
    const errors = checkLimits(LIMITS, draft, { label: LABEL })
    const hashtags = draft.content.match(HASHTAG)?.length ?? 0
    if (hashtags > INSTAGRAM_MAX_HASHTAGS) {
      errors.push({ pointer: '#/content', code: 'too_many_hashtags', detail: `has ${hashtags} hashtags; Instagram allows ${INSTAGRAM_MAX_HASHTAGS} in a caption` })
    }
    const mentions = draft.content.match(MENTION)?.length ?? 0
    if (mentions > INSTAGRAM_MAX_MENTIONS) {
      errors.push({ pointer: '#/content', code: 'too_many_mentions', detail: `has ${mentions} @mentions; Instagram allows ${INSTAGRAM_MAX_MENTIONS} in a caption` })
    }
    errors.push(...unsupportedMediaTypes(draft.media_urls, (extension) => ((INSTAGRAM_IMAGE_EXTENSIONS as readonly string[]).includes(extension) ? undefined : 'Instagram publishes JPEG images only'), 'list'))
    return errors
  },

  async publish(connection, request, ctx) {
    const tokens = tokensOf(connection)
    if (request.followUp?.kind === 'first_comment') {
      // POST /{ig-media-id}/comments?message=…: answers the comment's id; it has no link of its own.
      const root = request.followUp.root.platform_post_id!
      const comment = await caller(ctx, tokens)<{ id: string }>('POST', `/${encodeURIComponent(root)}/comments`, { message: request.content })
      return { platform_post_id: comment.id, url: null }
    }
    if (request.mediaUrls.length === 0 && (request.media ?? []).length === 0) throw new PlatformError('permanent', 'media_required', 'Instagram publishes no text-only posts: add at least one JPEG image')
    return publishThroughContainer(ctx, CONTAINERS, caller(ctx, tokens), tokens.user_id, request)
  },

  async metrics(connection, ids, ctx) {
    return insightMetrics(CONTAINERS, caller(ctx, tokensOf(connection)), ids)
  },
}
