import { MEDIA_CACHE_CONTROL, MEDIA_EXTENSIONS } from '../../src/api/media.js'
import { ApiError, notFound } from '../../src/errors.js'
import type { AppDeps, Ctx } from '../context.js'
import { mediaKey, type ByteRange } from '../media/port.js'

/** `<token>.<ext>`: the token is 24 random bytes in base64url. */
const FILE = /^([A-Za-z0-9_-]{32})\.([a-z0-9]{2,4})$/

/**
 * The one range of a `Range: bytes=…` header that can be served (RFC 9110 §14.1.2): undefined
 * for none, or one this answer ignores (several ranges, another unit: the whole file goes);
 * 'unsatisfiable' for a range wholly past the end.
 */
function rangeOf(header: string, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match || (match[1] === '' && match[2] === '')) return undefined
  const [, first, last] = match
  if (first === '') {
    // A suffix: the last n bytes.
    const n = Number(last)
    if (n === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - n), end: size - 1 }
  }
  const start = Number(first)
  if (start >= size) return 'unsatisfiable'
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  return end < start ? undefined : { start, end }
}

/**
 * Serves a media object by its capability URL, to platforms that fetch media and to feed
 * readers: no key, its own type (never sniffed), inline, cached by its hash, in ranges.
 */
export async function serveMedia(ctx: Ctx, deps: AppDeps, file: string): Promise<void> {
  const [, token, extension] = FILE.exec(file) ?? []
  const media = token ? await deps.store.media.byToken(token) : undefined
  if (!media || MEDIA_EXTENSIONS[media.content_type] !== extension) throw notFound('media file')
  const etag = `"${media.sha256}"`
  ctx.set('Content-Type', media.content_type)
  ctx.set('X-Content-Type-Options', 'nosniff')
  ctx.set('Content-Disposition', 'inline')
  ctx.set('ETag', etag)
  ctx.set('Cache-Control', MEDIA_CACHE_CONTROL)
  ctx.set('Accept-Ranges', 'bytes')
  // No script may run in a media response opened directly (an SVG would be refused anyway).
  ctx.set('Content-Security-Policy', "default-src 'none'; sandbox")
  if (ctx.get('If-None-Match').split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    ctx.status = 304
    return
  }
  const size = media.bytes
  const ifRange = ctx.get('If-Range')
  const range = ctx.get('Range') && (!ifRange || ifRange === etag) ? rangeOf(ctx.get('Range'), size) : undefined
  if (range === 'unsatisfiable') {
    throw new ApiError(416, 'range_not_satisfiable', `The range asked for is beyond the file's ${size} bytes.`, { headers: { 'Content-Range': `bytes */${size}` } })
  }
  if (range) {
    ctx.status = 206
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
  } else ctx.status = 200
  ctx.length = range ? range.end - range.start + 1 : size
  if (ctx.method === 'HEAD') return
  ctx.body = await deps.media.store.get(mediaKey(media.id), range)
}
