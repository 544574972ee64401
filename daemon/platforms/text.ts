/** How platforms count text: each has its own idea of a "character". */

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/** User-perceived characters: "👍🏽" and "é" written as e + accent each count once. */
export function graphemeLength(text: string): number {
  // Every grapheme is at least one UTF-16 unit and ASCII graphemes are exactly one (CR LF aside),
  // so pure-ASCII text needs no segmentation.
  if (/^[\x00-\x7f]*$/.test(text)) return text.length - (text.match(/\r\n/g)?.length ?? 0)
  let n = 0
  for (const _ of graphemes.segment(text)) n++
  return n
}

/** Bytes in UTF-8, the unit of Bluesky's hard limit and of facet offsets. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

/** http(s) URLs in text, as Mastodon and most platforms recognise them; trailing punctuation is not part of one. */
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?'")\]}]/giu

/** The URLs found in text, in order, with their offsets in UTF-16 units. */
export function findUrls(text: string): { url: string; start: number; end: number }[] {
  return [...text.matchAll(URL_PATTERN)].map((m) => ({ url: m[0], start: m.index!, end: m.index! + m[0].length }))
}

/** Mastodon counts every URL as 23 characters by default (an instance's `characters_reserved_per_url`). */
export const MASTODON_URL_LENGTH = 23

// A remote mention counts only its local part: "@alice@example.social" counts as "@alice".
// As in Mastodon's MENTION_RE, an "@" right after a word character, "/" or "=" is no mention.
const REMOTE_MENTION = /(^|[^\w/=])@(\w+)@[\w.-]+\w/gu

/**
 * Length as Mastodon's StatusLengthValidator counts it: graphemes, every URL as the instance's
 * reserved length, a remote mention by its username only.
 */
export function mastodonLength(text: string, charactersPerUrl = MASTODON_URL_LENGTH): number {
  let counted = ''
  let last = 0
  let urls = 0
  for (const { start, end } of findUrls(text)) {
    counted += text.slice(last, start)
    last = end
    urls++
  }
  counted += text.slice(last)
  counted = counted.replace(REMOTE_MENTION, '$1@$2')
  return graphemeLength(counted) + urls * charactersPerUrl
}

/** "10000" as "10,000", for messages people read: the one number format of the CLI and the API's messages. */
export { formatNumber as formatCount } from '../../src/numbers.js'
