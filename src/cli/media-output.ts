import type { Media } from '../api/media.js'
import type { PostMedia } from '../api/posts.js'
import { printable } from '../display-width.js'
import { mediaShape } from '../media-shape.js'
import { formatSize } from '../numbers.js'
import { details, localTime, paint, table } from './output.js'

/** Alt text on one line, or a dim "(no alt text)". */
function altLine(alt: string | null, max = 60): string {
  if (!alt) return paint('dim', '(no alt text)')
  const flat = printable(alt.replace(/\s+/g, ' '))
  return `“${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}”`
}

/** Media as an aligned table: what `media list` prints. */
export function mediaTable(list: readonly Media[]): string {
  return table(list, [
    { header: 'ID', value: (m) => m.id },
    { header: 'UPLOADED', value: (m) => localTime(m.created_at) },
    { header: 'TYPE', value: (m) => mediaShape(m) },
    { header: 'SIZE', value: (m) => formatSize(m.bytes) },
    { header: 'ALT TEXT', value: (m) => altLine(m.alt_text, 40) },
  ])
}

/** One media in full: what `media show` and `media upload` print. */
export function mediaDetails(media: Media): string {
  return details([
    ['Media', media.id],
    ['Type', `${media.content_type} (${mediaShape(media)})`],
    ['Size', `${formatSize(media.bytes)} (${media.bytes} bytes)`],
    ['SHA-256', media.sha256],
    ['Alt text', media.alt_text === null ? '-' : printable(media.alt_text)],
    ['URL', media.url],
    ['Uploaded', localTime(media.created_at)],
  ])
}

/** A post's attachments, one line each: its links, then its uploaded media with the alt text they go out with. */
export function attachmentLines(urls: readonly string[], media: readonly PostMedia[] | undefined): string[] {
  return [...urls.map((url) => `${printable(url)}`), ...(media ?? []).map((m) => `${m.id} ${mediaShape(m)} ${altLine(m.alt_text)}`)]
}
