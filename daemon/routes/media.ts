import { randomBytes } from 'node:crypto'
import { routes } from '../../src/contract.js'
import type { MediaType } from '../../src/api/media.js'
import { ApiError, invalidField, notFound } from '../../src/errors.js'
import { newId } from '../../src/ids.js'
import { formatSize } from '../../src/numbers.js'
import { toPage } from '../../src/pagination.js'
import type { AppDeps, Ctx } from '../context.js'
import { whileStreaming } from '../heap.js'
import { ingest, isMediaType, unsupportedType, type UploadCap } from '../media/ingest.js'
import { mediaKey, MediaNotFoundError } from '../media/port.js'
import { limitFor } from '../media/settings.js'
import type { NewMedia, Principal } from '../store/index.js'
import { mediaPath } from '../store/rows.js'
import { bind, type ApiRouter } from './bind.js'
import { serveMedia } from './media-file.js'

/** The media type a request's Content-Type names, or 415. */
export function declaredType(ctx: Ctx): MediaType {
  const header = ctx.get('Content-Type')
  const type = header.split(';')[0]!.trim().toLowerCase()
  if (!isMediaType(type)) throw unsupportedType(header)
  return type
}

export const tooLarge = (type: MediaType, limit: number) =>
  new ApiError(413, 'media_too_large', `The file is larger than this daemon takes for ${type.startsWith('video/') ? 'a video' : 'an image'}: at most ${formatSize(limit)} (${limit} bytes).`, {
    extensions: { limit_bytes: limit },
  })

export const quotaExceeded = (bytes: number, used: number, quota: number) =>
  new ApiError(
    413,
    'media_quota_exceeded',
    `The file (${formatSize(bytes)}) does not fit in your plan's media storage: ${formatSize(used)} of ${formatSize(quota)} are used. Delete media you no longer need (smm media delete), or ask the operator for a larger plan.`,
    { extensions: { quota_bytes: quota, used_bytes: used, bytes } },
  )

/**
 * Reserves room for an upload of `declared` bytes (undefined: not said): the media row that
 * counts against the plan's quota, and the cap the upload may not pass. `create` makes the
 * reservation (a plain one, or with a tus upload).
 */
export async function reserveUpload(
  deps: AppDeps,
  principal: Principal,
  type: MediaType,
  declared: number | undefined,
  altText: string | null,
  create: (media: NewMedia, quota: number | null) => ReturnType<AppDeps['store']['media']['reserve']>,
): Promise<{ media: NewMedia; cap: UploadCap }> {
  const limit = limitFor(deps.media.limits, type)
  if (declared !== undefined && declared > limit) throw tooLarge(type, limit)
  if (declared === 0) throw new ApiError(422, 'media_empty', 'The body is empty: send the bytes of the file.')
  const quota = deps.media.quotas[principal.user.plan]
  // An upload of unknown length may take what is left of the quota, up to the limit.
  const room = quota === null ? limit : Math.max(0, quota - (await deps.store.media.usage(principal.user.id)))
  const bytes = declared ?? Math.max(1, Math.min(limit, room))
  const now = deps.clock.now()
  // 24 random bytes: a URL nobody can guess (192 bits), safe in a path as base64url.
  const token = randomBytes(24).toString('base64url')
  const media: NewMedia = { id: newId('med', now), token, url: `${deps.publicUrl()}${mediaPath(token, type)}`, contentType: type, bytes, altText }
  const reserved = await create(media, quota)
  if (reserved.kind === 'quota_exceeded') throw quotaExceeded(declared ?? bytes, reserved.used, quota!)
  const cap: UploadCap = {
    bytes,
    error: () => (declared === undefined && bytes < limit ? quotaExceeded(bytes + 1, quota! - room, quota!) : tooLarge(type, limit)),
  }
  return { media, cap }
}

/** The request's Content-Length, when it gives one. */
export function contentLength(ctx: Ctx): number | undefined {
  const header = ctx.get('Content-Length')
  return header === '' ? undefined : Number(header)
}

export function mediaRoutes(router: ApiRouter, deps: AppDeps): void {
  const { store, clock } = deps

  bind(router, routes.uploadMedia, async (ctx, { principal, query }) => {
    const type = declaredType(ctx)
    const { media, cap } = await reserveUpload(deps, principal, type, contentLength(ctx), query.alt_text ?? null, (m, quota) => store.media.reserve(principal.user.id, m, quota, clock.now()))
    try {
      const facts = await whileStreaming(() => ingest(ctx.req, type, cap, deps.media.store, mediaKey(media.id)))
      const made = await store.media.complete(media.id, facts, clock.now())
      if (!made) throw new Error(`media ${media.id} was removed while it was being uploaded`)
      ctx.status = 201
      ctx.set('Location', `/v1/media/${made.id}`)
      ctx.body = made
    } catch (error) {
      await store.media.discard(media.id)
      // The rest of a refused body is not worth reading: the connection goes once the answer is out.
      if (!ctx.req.complete) ctx.set('Connection', 'close')
      throw error
    }
  })

  bind(router, routes.listMedia, async (ctx, { query, principal }) => {
    const after = query.cursor === undefined ? '' : query.cursor[0]
    if (typeof after !== 'string') throw invalidField('#/cursor', 'is not a cursor from a previous page of this list')
    const rows = await store.media.listPage(principal.user.id, after, query.limit + 1)
    ctx.body = toPage(rows, query.limit, (m) => [m.id])
  })

  bind(router, routes.getMedia, async (ctx, { params, principal }) => {
    const media = await store.media.get(principal.user.id, params.id)
    if (!media) throw notFound('media', params.id)
    ctx.body = media
  })

  bind(router, routes.updateMedia, async (ctx, { params, body, principal }) => {
    const media = await store.media.setAltText(principal.user.id, params.id, body.alt_text, clock.now())
    if (!media) throw notFound('media', params.id)
    ctx.body = media
  })

  bind(router, routes.deleteMedia, async (ctx, { params, principal }) => {
    const result = await store.media.delete(principal.user.id, params.id, clock.now())
    if (result.kind === 'not_found') throw notFound('media', params.id)
    if (result.kind === 'in_use') {
      const posts = result.postIds
      throw new ApiError(409, 'media_in_use', `Media ${params.id} is used by ${posts.length === 1 ? 'a post' : `${posts.length} posts`} not yet published: ${posts.slice(0, 10).join(', ')}${posts.length > 10 ? ', …' : ''}. Remove it from them (or cancel them) first.`, {
        extensions: { post_ids: posts },
      })
    }
    ctx.status = 204
  })

  bind(router, routes.getMediaFile, async (ctx, { params }) => {
    try {
      await serveMedia(ctx, deps, params.file)
    } catch (error) {
      // Deleted between the lookup and the read: as gone as any deleted media.
      if (error instanceof MediaNotFoundError) throw notFound('media file')
      throw error
    }
  })
}

