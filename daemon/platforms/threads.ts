import type { FieldError } from '../../src/errors.js'
import { fetchMedia, unsupportedMediaTypes } from './media.js'
import { awaitContainer, exchangeCode, graphCall, insightCounts, tokenGrant, type ContainerState } from './meta-graph.js'
import { findUrls, formatCount, graphemeLength } from './text.js'
import { PlatformError, type Connection, type Draft, type Metrics, type OAuthPlatform, type OAuthTokens, type PlatformContext, type TextMeasure } from './types.js'

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

/** What a Threads connection keeps: the long-lived token (it refreshes itself) and whose it is. */
interface ThreadsTokens extends OAuthTokens {
  user_id: string
}

const emoji = /\p{Extended_Pictographic}/u
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/** Length as Threads counts it: characters, except that an emoji counts as its UTF-8 bytes. */
export function threadsLength(text: string): number {
  if (/^[\x00-\x7f]*$/.test(text)) return graphemeLength(text)
  let n = 0
  for (const { segment } of graphemes.segment(text)) n += emoji.test(segment) ? Buffer.byteLength(segment, 'utf8') : 1
  return n
}

/** Distinct links as Threads counts them toward its limit of five. */
function uniqueLinks(text: string): number {
  return new Set(findUrls(text).map((u) => u.url)).size
}

function measure(draft: Draft): TextMeasure {
  return { length: threadsLength(draft.content), limit: THREADS_MAX_CHARACTERS }
}

function apiOf(ctx: PlatformContext): string {
  return ctx.app?.apiUrl ?? ENDPOINTS.apiUrl
}

function tokensOf(connection: Connection): ThreadsTokens {
  const { access_token, user_id } = connection.credentials as Partial<ThreadsTokens>
  if (typeof access_token !== 'string' || typeof user_id !== 'string') {
    throw new PlatformError('auth', 'credentials_missing', 'Threads: the connection has no token or user id; connect the account again')
  }
  return connection.credentials as ThreadsTokens
}

/** A Threads API call on the connection's behalf (the token as Meta documents it: a parameter). */
function call<T>(ctx: PlatformContext, tokens: ThreadsTokens, method: 'GET' | 'POST', path: string, params: Record<string, string> = {}) {
  return graphCall<T>(ctx, LABEL, method, `${apiOf(ctx)}/${VERSION}${path}`, { ...params, access_token: tokens.access_token })
}

/** The container for a post: TEXT, one IMAGE, or a CAROUSEL of image items. */
async function createContainer(ctx: PlatformContext, tokens: ThreadsTokens, text: string, imageUrls: string[]): Promise<string> {
  const path = `/${encodeURIComponent(tokens.user_id)}/threads`
  const withText: Record<string, string> = text ? { text } : {}
  if (imageUrls.length === 0) return (await call<{ id: string }>(ctx, tokens, 'POST', path, { media_type: 'TEXT', text })).id
  if (imageUrls.length === 1) return (await call<{ id: string }>(ctx, tokens, 'POST', path, { media_type: 'IMAGE', image_url: imageUrls[0]!, ...withText })).id
  const children: string[] = []
  for (const image_url of imageUrls) {
    children.push((await call<{ id: string }>(ctx, tokens, 'POST', path, { media_type: 'IMAGE', image_url, is_carousel_item: 'true' })).id)
  }
  return (await call<{ id: string }>(ctx, tokens, 'POST', path, { media_type: 'CAROUSEL', children: children.join(','), ...withText })).id
}

function containerState(ctx: PlatformContext, tokens: ThreadsTokens, id: string) {
  return async (): Promise<ContainerState> => {
    const body = await call<{ status: string; error_message?: string }>(ctx, tokens, 'GET', `/${encodeURIComponent(id)}`, { fields: 'status,error_message' })
    return { status: body.status, message: body.error_message }
  }
}

/** The public URL of a published post; null if Meta will not say (the post is out either way). */
async function permalink(ctx: PlatformContext, tokens: ThreadsTokens, id: string): Promise<string | null> {
  try {
    return (await call<{ permalink?: string }>(ctx, tokens, 'GET', `/${encodeURIComponent(id)}`, { fields: 'permalink' })).permalink ?? null
  } catch (error) {
    // Throwing here would have the scheduler publish again: the post exists, only its link is missing.
    ctx.log.warn({ err: error, id }, 'Threads: published, but the permalink could not be read')
    return null
  }
}

export const threads: OAuthPlatform = {
  name: 'threads',
  label: 'Threads',
  auth: 'oauth2',
  // A container is published once; publishing again makes a second post, and Meta has no key.
  idempotencyWindowMs: 0,

  oauth: {
    endpoints: ENDPOINTS,
    scopes: ['threads_basic', 'threads_content_publish', 'threads_manage_insights'],
    scopeSeparator: ',',
    // Threads' authorization window documents no code_challenge.
    pkce: false,

    async exchange(grant, ctx) {
      const short = await exchangeCode(ctx, LABEL, grant.code)
      const long = await tokenGrant(ctx, LABEL, `${ctx.app.apiUrl}/access_token`, { grant_type: 'th_exchange_token', client_secret: ctx.app.clientSecret, access_token: short.access_token })
      const tokens: ThreadsTokens = { ...long, user_id: short.user_id }
      const me = await call<{ id: string; username: string; name?: string }>(ctx, tokens, 'GET', '/me', { fields: 'id,username,name' })
      return { handle: `@${me.username}`, display_name: me.name || me.username, settings: {}, credentials: { ...tokens, user_id: me.id } }
    },

    // The long-lived token is its own refresh token: exchanged for one valid 60 more days.
    async refresh(tokens, ctx) {
      const renewed = await tokenGrant(ctx, LABEL, `${ctx.app.apiUrl}/refresh_access_token`, { grant_type: 'th_refresh_token', access_token: tokens.access_token })
      return { ...tokens, ...renewed }
    },
  },

  measure,

  check(draft) {
    const errors: FieldError[] = []
    const { length } = measure(draft)
    if (length > THREADS_MAX_CHARACTERS) {
      errors.push({ pointer: '#/content', code: 'too_long', detail: `is ${formatCount(length)} characters as Threads counts them (an emoji counts its UTF-8 bytes); Threads allows ${THREADS_MAX_CHARACTERS}` })
    }
    if (draft.content.trim() === '' && draft.media_urls.length === 0) {
      errors.push({ pointer: '#/content', code: 'required', detail: 'must not be empty on Threads unless the post has images' })
    }
    const links = uniqueLinks(draft.content)
    if (links > THREADS_MAX_LINKS) {
      errors.push({ pointer: '#/content', code: 'too_many_links', detail: `has ${links} different links; Threads refuses posts with more than ${THREADS_MAX_LINKS}` })
    }
    if (draft.media_urls.length > THREADS_MAX_CAROUSEL_ITEMS) {
      errors.push({ pointer: '#/media_urls', code: 'too_many_media', detail: `has ${draft.media_urls.length} items; a Threads carousel takes at most ${THREADS_MAX_CAROUSEL_ITEMS}` })
    }
    errors.push(...unsupportedMediaTypes(draft.media_urls, (extension) => ((THREADS_IMAGE_EXTENSIONS as readonly string[]).includes(extension) ? undefined : 'Threads takes JPEG and PNG images'), 'list'))
    return errors
  },

  async publish(connection, request, ctx) {
    const tokens = tokensOf(connection)
    // Meta fetches the images itself; fetching them first names a bad URL plainly, before any container exists.
    for (const [index, url] of request.mediaUrls.entries()) {
      await fetchMedia(ctx, url, index, { label: LABEL, types: THREADS_IMAGE_TYPES, maxBytes: THREADS_MAX_IMAGE_BYTES })
    }
    const container = await createContainer(ctx, tokens, request.content, request.mediaUrls)
    await awaitContainer(ctx, LABEL, container, containerState(ctx, tokens, container))
    const { id } = await call<{ id: string }>(ctx, tokens, 'POST', `/${encodeURIComponent(tokens.user_id)}/threads_publish`, { creation_id: container })
    return { platform_post_id: id, url: await permalink(ctx, tokens, id) }
  },

  async metrics(connection, ids, ctx) {
    const tokens = tokensOf(connection)
    const counts = new Map<string, Metrics>()
    for (const id of ids) {
      let body
      try {
        body = await call<{ data?: [] }>(ctx, tokens, 'GET', `/${encodeURIComponent(id)}/insights`, { metric: 'likes,replies,reposts,quotes,views' })
      } catch (error) {
        // A deleted post has no counts any more; the others still do. Auth and throttling stop the round.
        if (error instanceof PlatformError && error.kind === 'permanent') continue
        throw error
      }
      const found = insightCounts(body)
      counts.set(id, {
        impressions: found.get('views') ?? null,
        likes: found.get('likes') ?? null,
        reposts: found.get('reposts') ?? null,
        replies: found.get('replies') ?? null,
        quotes: found.get('quotes') ?? null,
        clicks: null,
      })
    }
    return counts
  },
}
