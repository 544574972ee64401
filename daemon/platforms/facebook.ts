import { checkLimits, hasMedia, measureDraft } from './limits.js'
import { COMMON_IMAGE_TYPES, unsupportedMediaTypes } from './media.js'
import { appSecretProof, graphCall, graphUpload, tokenGrant } from './meta-graph.js'
import type { Part, Sendable } from './upload.js'
import { PlatformError, type Connection, type Metrics, type OAuthApp, type OAuthPlatform, type OAuthTokens, type PlatformContext, type PlatformLimits } from './types.js'

const LABEL = 'Facebook'
// One Graph API version for every call and the login dialog; Meta keeps each for about two years.
const GRAPH_VERSION = 'v26.0'
// A Page post's message takes up to 63,206 characters.
const MAX_CHARACTERS = 63_206
// Meta documents no cap on attached_media; this keeps a post to what its feed shows well and bounds
// the unpublished uploads one post makes.
const MAX_IMAGES = 10
// Photos by URL: Facebook fetches them itself and takes JPEG, PNG, GIF, BMP and TIFF.
const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'gif', 'bmp', 'tif', 'tiff'])
const KNOWN_OTHER_EXTENSIONS = new Set(['mp4', 'mov', 'webm', 'avi', 'pdf', 'svg', 'heic'])
// Graph error codes with a meaning of the Pages API's own: the token is dead; a permission is
// missing; a duplicate post; a photo Facebook could not take.
const TOKEN_INVALID = new Set([102, 190])
const DUPLICATE = 506
const MEDIA_REFUSED = new Set([324, 1366046])

/** A Page the person manages, as GET /me/accounts lists it. */
interface Page {
  id: string
  name: string
  access_token?: string
  tasks?: string[]
}

/** What the connection keeps: the Page's token (it does not expire) and which Page it is. */
interface PageTokens extends OAuthTokens {
  page_id: string
}

/** What the Pages API's own codes mean, before the Graph API's shared reading (throttling, 190, outages). */
function pageErrors({ code }: { code: number }, detail: string): PlatformError | undefined {
  if (TOKEN_INVALID.has(code)) return new PlatformError('auth', 'token_expired', `${detail}. The Page's token no longer works (password changed, app removed, or Page role lost): connect Facebook again.`)
  if (code === 10 || (code >= 200 && code <= 299)) {
    return new PlatformError('auth', 'permission_missing', `${detail}. Connect Facebook again and grant pages_manage_posts for this Page.`)
  }
  if (code === DUPLICATE) return new PlatformError('permanent', 'duplicate_content', `${detail}. Facebook refuses a post identical to a recent one.`)
  if (MEDIA_REFUSED.has(code)) return new PlatformError('permanent', 'media_rejected', detail)
  return undefined
}

function graphUrl(ctx: PlatformContext, path: string): string {
  if (!ctx.app) throw new PlatformError('permanent', 'platform_not_configured', `${LABEL}: the operator's Facebook app is not configured`)
  return `${ctx.app.apiUrl}/${GRAPH_VERSION}${path}`
}

/** A Graph call with a user or Page token, signed with appsecret_proof. */
function call<T>(ctx: PlatformContext, method: 'GET' | 'POST', path: string, accessToken: string, params: Record<string, string> = {}): Promise<T> {
  return graphCall<T>(ctx, LABEL, method, graphUrl(ctx, path), { ...params, access_token: accessToken, ...appSecretProof(ctx.app, accessToken) }, pageErrors)
}

/**
 * A Page call whose parameters carry a file (`source`): multipart/form-data, the file streamed
 * from the media store, the token and its proof as fields.
 */
function upload<T>(ctx: PlatformContext, path: string, accessToken: string, fields: Record<string, string>, file: Sendable): Promise<T> {
  const parts: Part[] = [...Object.entries({ ...fields, access_token: accessToken, ...appSecretProof(ctx.app, accessToken) }), ['source', file]]
  return graphUpload<T>(ctx, LABEL, graphUrl(ctx, path), parts, pageErrors)
}

/** Facebook Login's token GET (the code exchange, the long-lived exchange): the app's id and secret with the grant. */
async function tokenGet(ctx: PlatformContext & { app: OAuthApp }, params: Record<string, string>): Promise<string> {
  return (await tokenGrant(ctx, LABEL, ctx.app.tokenUrl, { client_id: ctx.app.clientId, client_secret: ctx.app.clientSecret, ...params })).access_token
}

/** The Pages this grant covers, following Graph's pages. */
async function managedPages(ctx: PlatformContext, userToken: string): Promise<Page[]> {
  const pages: Page[] = []
  let after: string | undefined
  do {
    const batch = await call<{ data: Page[]; paging?: { cursors?: { after?: string }; next?: string } }>(ctx, 'GET', '/me/accounts', userToken, {
      fields: 'id,name,access_token,tasks',
      limit: '100',
      ...(after ? { after } : {}),
    })
    pages.push(...batch.data)
    after = batch.paging?.next ? batch.paging.cursors?.after : undefined
  } while (after)
  return pages
}

/** The Page the person asked for, or the only one; several or none need the person to say. */
function choosePage(pages: Page[], pageId: string | undefined): Page {
  const listed = pages.map((p) => `${p.name} (${p.id})`).join(', ')
  if (pageId !== undefined) {
    const page = pages.find((p) => p.id === pageId)
    if (!page) {
      throw new PlatformError('permanent', 'page_not_granted', `${LABEL}: the grant does not cover Page ${pageId}; it covers ${listed || 'no Page'}. Connect again and select that Page in the dialog.`)
    }
    return page
  }
  if (pages.length === 1) return pages[0]!
  if (pages.length === 0) {
    throw new PlatformError('permanent', 'no_page_granted', `${LABEL}: the grant covers no Page. smm publishes to Facebook Pages you manage; connect again and select a Page in the dialog.`)
  }
  throw new PlatformError('permanent', 'page_choice_needed', `${LABEL}: the grant covers several Pages: ${listed}. Connect again with --page-id ID to say which one to publish to.`)
}

function pageOf(connection: Connection): PageTokens {
  const tokens = connection.credentials as Partial<PageTokens>
  if (typeof tokens.access_token !== 'string' || typeof tokens.page_id !== 'string') {
    throw new PlatformError('auth', 'credentials_incomplete', `${LABEL}: this connection has no Page token; connect Facebook again`)
  }
  return tokens as PageTokens
}

/** What a Page post takes from smm: the text Facebook allows, and (our own cap) 10 images. */
const LIMITS: PlatformLimits = {
  text: { max: MAX_CHARACTERS, count: 'utf16' },
  media: {
    max: MAX_IMAGES,
    types: ['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/tiff'],
    // Page photos: up to 10 MB (JPEG, PNG, GIF…), with alt text (`alt_text_custom`); Page videos:
    // one per post, MP4 or MOV, up to 1 GB by a single upload and 240 minutes, without alt text.
    image: { types: [...COMMON_IMAGE_TYPES], max: MAX_IMAGES, max_bytes: 10 * 1024 * 1024 },
    video: { types: ['video/mp4', 'video/quicktime'], max: 1, max_bytes: 1024 * 1024 * 1024, max_duration_ms: 240 * 60_000, alt_text: false },
    mixed: false,
    alt_text_max: 1_000,
  },
}

export const facebook: OAuthPlatform = {
  name: 'facebook',
  label: 'Facebook',
  auth: 'oauth2',
  // The Graph API takes no idempotency key: a re-send posts again (or meets "duplicate").
  idempotencyWindowMs: 0,
  // A Page posts to its feed, one post after another; a first comment is a comment on the post.
  thread: 'consecutive',
  firstComment: 'comment',

  oauth: {
    endpoints: {
      authorizeUrl: `https://www.facebook.com/${GRAPH_VERSION}/dialog/oauth`,
      tokenUrl: `https://graph.facebook.com/${GRAPH_VERSION}/oauth/access_token`,
      apiUrl: 'https://graph.facebook.com',
    },
    scopes: ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement'],
    scopeSeparator: ',',
    // Facebook Login's PKCE is part of its OIDC flow (in testing, and for an id_token); Graph
    // tokens come from the code exchange authenticated with the app secret.
    pkce: false,

    async exchange(grant, ctx) {
      const shortLived = await tokenGet(ctx, { redirect_uri: ctx.app.redirectUri, code: grant.code })
      // A short-lived user token gives Page tokens that die with it within hours; a long-lived
      // one gives Page tokens that do not expire, so nothing needs refreshing afterwards.
      const longLived = await tokenGet(ctx, { grant_type: 'fb_exchange_token', fb_exchange_token: shortLived })
      const page = choosePage(await managedPages(ctx, longLived), grant.options.page_id)
      if (!page.access_token) throw new PlatformError('permanent', 'page_token_missing', `${LABEL}: no Page token came for ${page.name} (${page.id}); was pages_show_list granted?`)
      if (page.tasks && !page.tasks.includes('CREATE_CONTENT')) {
        throw new PlatformError('permanent', 'page_role_insufficient', `${LABEL}: your role on ${page.name} (${page.id}) cannot create content (tasks: ${page.tasks.join(', ')}); ask a Page admin for a role that can.`)
      }
      return { handle: page.name, display_name: page.name, settings: { page_id: page.id }, credentials: { access_token: page.access_token, page_id: page.id } }
    },
  },

  limits: LIMITS,
  uploadsMedia: true,
  measure: (draft) => measureDraft(LIMITS, draft),

  check(draft) {
    const errors = checkLimits(LIMITS, draft, { label: LABEL })
    if (draft.content.trim() === '' && !hasMedia(draft)) errors.push({ pointer: '#/content', code: 'required', detail: 'must not be empty on Facebook unless the post has images' })
    errors.push(...unsupportedMediaTypes(draft.media_urls, (extension) => (KNOWN_OTHER_EXTENSIONS.has(extension) && !IMAGE_EXTENSIONS.has(extension) ? 'Facebook posts from smm take images (JPEG, PNG, GIF, BMP, TIFF)' : undefined)))
    return errors
  },

  async publish(connection, request, ctx) {
    const page = pageOf(connection)
    const token = page.access_token
    let postId: string
    if (request.followUp?.kind === 'first_comment') {
      // POST /{object-id}/comments: the comment's id is `<post>_<comment>`, and it is seen on the post.
      const comment = await call<{ id: string }>(ctx, 'POST', `/${request.followUp.root.platform_post_id}/comments`, token, { message: request.content })
      return { platform_post_id: comment.id, url: `https://www.facebook.com/${request.followUp.root.platform_post_id}?comment_id=${comment.id}` }
    }
    const uploaded = request.media ?? []
    // A photo Facebook fetches (a media URL) or one uploaded as `source`, with its alt text.
    const photoParams = (index: number): Record<string, string> => (index < request.mediaUrls.length ? { url: request.mediaUrls[index]! } : {})
    const sendPhoto = <T>(index: number, fields: Record<string, string>) => {
      const item = uploaded[index - request.mediaUrls.length]
      if (!item) return call<T>(ctx, 'POST', `/${page.page_id}/photos`, token, { ...photoParams(index), ...fields })
      return upload<T>(ctx, `/${page.page_id}/photos`, token, { ...fields, ...(item.alt_text ? { alt_text_custom: item.alt_text } : {}) }, item)
    }
    const count = request.mediaUrls.length + uploaded.length
    const video = uploaded.find((m) => m.kind === 'video')
    if (video) {
      // A video is a post of its own (validation keeps it alone): POST /{page-id}/videos with the file as `source`.
      postId = (await upload<{ id: string }>(ctx, `/${page.page_id}/videos`, token, request.content ? { description: request.content } : {}, video)).id
    } else if (count === 0) {
      postId = (await call<{ id: string }>(ctx, 'POST', `/${page.page_id}/feed`, token, { message: request.content })).id
    } else if (count === 1) {
      // One photo is its own post.
      const photo = await sendPhoto<{ id: string; post_id?: string }>(0, { caption: request.content })
      postId = photo.post_id ?? photo.id
    } else {
      // Several photos: each sent unpublished, then one feed post that attaches them all.
      const attached: Record<string, string> = {}
      for (let index = 0; index < count; index++) {
        const photo = await sendPhoto<{ id: string }>(index, { published: 'false' })
        attached[`attached_media[${index}]`] = JSON.stringify({ media_fbid: photo.id })
      }
      postId = (await call<{ id: string }>(ctx, 'POST', `/${page.page_id}/feed`, token, { message: request.content, ...attached })).id
    }
    return { platform_post_id: postId, url: `https://www.facebook.com/${postId}` }
  },

  async metrics(connection, ids, ctx) {
    const page = pageOf(connection)
    const counts = new Map<string, Metrics>()
    for (const id of ids) {
      let post: { reactions?: { summary?: { total_count?: number } }; comments?: { summary?: { total_count?: number } }; shares?: { count?: number } }
      try {
        post = await call(ctx, 'GET', `/${encodeURIComponent(id)}`, page.access_token, { fields: 'reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),shares' })
      } catch (error) {
        // A deleted post is "object does not exist" (code 100, subcode 33): no counts, the others still have theirs.
        if (error instanceof PlatformError && error.kind === 'permanent' && /subcode 33\b/.test(error.message)) continue
        throw error
      }
      counts.set(id, {
        impressions: null,
        likes: post.reactions?.summary?.total_count ?? null,
        // Facebook leaves `shares` out until a post is first shared.
        reposts: post.shares?.count ?? 0,
        replies: post.comments?.summary?.total_count ?? null,
        quotes: null,
        clicks: null,
      })
    }
    return counts
  },
}
