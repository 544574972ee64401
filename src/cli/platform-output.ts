import type { PlatformInfo, TextCount } from '../api/platforms.js'
import { formatNumber } from '../numbers.js'
import { table } from './output.js'

// What each way of counting means to someone writing a post.
const UNITS: Record<TextCount, string> = {
  graphemes: 'characters',
  code_points: 'code points',
  utf16: 'UTF-16 units',
  mastodon: 'characters',
  x_weighted: 'characters',
  threads: 'characters',
}

/** How a platform is connected: the credentials `accounts connect` takes, or the browser. */
export function connectsWith(platform: PlatformInfo): string {
  if (platform.auth === 'oauth2') return 'browser sign-in (OAuth)'
  return platform.credentials.length > 0 ? platform.credentials.join(', ') : 'nothing'
}

/** "500 characters, links count 23", "4,096 UTF-16 units (1,024 under media)". */
export function textLimit({ limits: { text } }: PlatformInfo): string {
  const parts = [`${formatNumber(text.max)} ${UNITS[text.count]}`]
  if (text.max_bytes !== null) parts.push(`${formatNumber(text.max_bytes)} bytes`)
  if (text.url_length !== null) parts.push(`links count ${text.url_length}`)
  if (text.media_links) parts.push('media links included')
  // Counts that are not one per character, in a few words.
  if (text.count === 'x_weighted') parts.push('CJK and emoji 2')
  if (text.count === 'threads') parts.push('an emoji its UTF-8 bytes')
  const caption = text.caption_max !== null ? ` (${formatNumber(text.caption_max)} under media)` : ''
  return parts.join(', ') + caption
}

/** How uploaded media reach it, where not by its upload API: its own fetch of their URL, links, or not at all. */
const SENT: Record<string, string> = { url: ', fetched by URL', link: ', as links' }

/** "4 images", "10", "any number", whether a post must have one, and how uploaded media go ("as links"). */
export function mediaLimit({ limits: { media }, uploads_media }: PlatformInfo): string {
  const images = media.types !== null && media.types.length > 0 && media.types.every((type) => type.startsWith('image/'))
  const count = media.max === null ? 'any number' : `up to ${formatNumber(media.max)}${images ? ' images' : ''}`
  const sent = uploads_media ? (SENT[media.send ?? 'upload'] ?? '') : ', no uploads'
  return (media.required ? `${count}, at least 1` : count) + sent
}

/** "replies, comment": how thread parts go out, then how a first comment does ("none" where it is refused). */
export function partsOf({ thread, first_comment }: PlatformInfo): string {
  return `${thread}, ${first_comment ?? 'none'}`
}

/** Platforms as an aligned table: what `platforms` prints. */
export function platformTable(platforms: readonly PlatformInfo[]): string {
  return table(platforms, [
    { header: 'PLATFORM', value: (p) => p.name },
    { header: 'NAME', value: (p) => p.label },
    { header: 'CONNECTS WITH', value: connectsWith },
    { header: 'TEXT', value: textLimit },
    { header: 'MEDIA', value: mediaLimit },
    { header: 'THREAD, FIRST COMMENT', value: partsOf },
  ])
}
