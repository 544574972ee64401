import { Readable } from 'node:stream'
import type { FieldError } from '../../src/errors.js'
import { formatSize } from '../../src/numbers.js'
import { EgressError } from '../egress.js'
import type { Sendable } from './upload.js'
import { MEDIA_EXTENSIONS } from '../../src/api/media.js'
import { PlatformError, type PlatformContext, type PublishRequest } from './types.js'

export interface MediaRules {
  /** The platform's name for details, e.g. "Bluesky". */
  label: string
  /** Accepted content types, e.g. `image/jpeg`. */
  types: readonly string[]
  /** Largest file the platform takes, in bytes: one figure, or one for each kind. */
  maxBytes: number | { image: number; video: number }
}

export const COMMON_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const

/** A file name's extension by type: smm's own, and WebM, which some platforms' URLs carry. */
const EXTENSIONS: Record<string, string> = { ...MEDIA_EXTENSIONS, 'video/webm': 'webm' }

// Magic numbers of the formats platforms accept: a server that labels an HTML error page
// `image/png` must not get it uploaded as a picture.
function contentMatches(type: string, bytes: Buffer): boolean {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1')
  switch (type) {
    case 'image/jpeg':
      return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff
    case 'image/png':
      return ascii(0, 8) === '\x89PNG\r\n\x1a\n'
    case 'image/gif':
      return ascii(0, 4) === 'GIF8'
    case 'image/webp':
      return ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP'
    case 'video/mp4':
    case 'video/quicktime':
      return ascii(4, 8) === 'ftyp'
    case 'video/webm':
      return bytes.readUInt32BE(0) === 0x1a45dfa3
    default:
      return true
  }
}

function mediaError(kind: PlatformError['kind'], code: string, url: string, why: string): PlatformError {
  return new PlatformError(kind, code, `media ${url}: ${why}`)
}

/**
 * Downloads one media URL through the egress policy (https, public addresses, bounded size
 * and time) and checks it is a file the platform takes. A failure is about this target only:
 * a 4xx, a wrong type or a file too large is permanent; a network failure or 5xx of the media
 * host is transient, since trying again later can succeed.
 */
export async function fetchMedia(ctx: PlatformContext, url: string, index: number, rules: MediaRules): Promise<Sendable> {
  const caps = typeof rules.maxBytes === 'number' ? { image: rules.maxBytes, video: rules.maxBytes } : rules.maxBytes
  const maxBytes = Math.max(caps.image, caps.video)
  let response
  try {
    response = await ctx.http(url, { maxResponseBytes: maxBytes, timeoutMs: 60_000, headers: { accept: rules.types.join(', ') } })
  } catch (error) {
    if (!(error instanceof EgressError)) throw error
    if (error.code === 'too_large') throw mediaError('permanent', 'media_too_large', url, `larger than ${rules.label}'s limit of ${formatSize(maxBytes)}`)
    throw mediaError(error.transient ? 'transient' : 'permanent', 'media_unavailable', url, error.message)
  }
  if (response.status >= 500) throw mediaError('transient', 'media_unavailable', url, `the media host answered ${response.status}`)
  if (response.status !== 200) throw mediaError('permanent', 'media_unavailable', url, `the media host answered ${response.status}, not 200`)
  const contentType = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  if (!rules.types.includes(contentType)) {
    throw mediaError('permanent', 'media_type_unsupported', url, `${contentType || 'no content type'} is not a type ${rules.label} takes (${rules.types.join(', ')})`)
  }
  if (!contentMatches(contentType, response.body)) {
    throw mediaError('permanent', 'media_type_unsupported', url, `is labelled ${contentType} but its content is not`)
  }
  const kind = contentType.startsWith('video/') ? 'video' : 'image'
  const body = response.body
  if (body.length > caps[kind]) throw mediaError('permanent', 'media_too_large', url, `${formatSize(body.length)}; ${rules.label} takes ${kind}s up to ${formatSize(caps[kind])}`)
  const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '')
  const extension = EXTENSIONS[contentType] ?? 'bin'
  const filename = /^[\w.-]{1,100}$/.test(last) && last.includes('.') ? last : `media-${index + 1}.${extension}`
  return {
    url,
    kind,
    content_type: contentType,
    bytes: body.length,
    filename,
    alt_text: null,
    width: null,
    height: null,
    duration_ms: null,
    open: async (range) => Readable.from([range ? body.subarray(range.start, range.end + 1) : body]),
  }
}

/**
 * What a post sends, in the order the platform shows it: its media URLs, each downloaded and
 * checked against `rules`, then its uploaded media, already checked at validation.
 */
export async function mediaToSend(ctx: PlatformContext, request: PublishRequest, rules: MediaRules): Promise<Sendable[]> {
  const items: Sendable[] = []
  for (const [index, url] of request.mediaUrls.entries()) items.push(await fetchMedia(ctx, url, index, rules))
  return [...items, ...(request.media ?? [])]
}

/** A media URL's file extension, lower case; undefined when its path has none or it is not a URL. */
export function extensionOf(url: string): string | undefined {
  try {
    return /\.([a-z0-9]{2,5})$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase()
  } catch {
    // Not a URL: the post schema reports that at its own pointer, not the platform's rules.
    return undefined
  }
}

/**
 * The media URLs whose extension names a type the platform does not take, judged before any
 * download: `refuse` answers why for an extension it refuses, nothing for one it takes or cannot
 * judge (a URL without an extension is judged at publish, by its content type). Each error
 * points at its item, or at the list with the URL in the detail where a platform points there.
 */
export function unsupportedMediaTypes(urls: readonly string[], refuse: (extension: string) => string | undefined, pointAt: 'item' | 'list' = 'item'): FieldError[] {
  const errors: FieldError[] = []
  urls.forEach((url, index) => {
    const extension = extensionOf(url)
    const why = extension === undefined ? undefined : refuse(extension)
    if (why === undefined) return
    const detail = `is a .${extension} file; ${why}`
    errors.push(pointAt === 'item' ? { pointer: `#/media_urls/${index}`, code: 'media_type_unsupported', detail } : { pointer: '#/media_urls', code: 'media_type_unsupported', detail: `${url} ${detail}` })
  })
  return errors
}
