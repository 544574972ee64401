// How platforms count text: each has its own idea of a "character". Shared by the daemon (which
// validates posts with these) and its clients (the calendar's form counts as you type), so that
// what a client shows is what the daemon enforces. No Node-only APIs: this runs anywhere.

import type { PlatformLimits, TextLimits } from './api/platforms.js'

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
const utf8 = new TextEncoder()

/** User-perceived characters: "👍🏽" and "é" written as e + accent each count once. */
export function graphemeLength(text: string): number {
  // Every grapheme is at least one UTF-16 unit and ASCII graphemes are exactly one (CR LF aside),
  // so pure-ASCII text needs no segmentation.
  if (/^[\x00-\x7f]*$/.test(text)) return text.length - (text.match(/\r\n/g)?.length ?? 0)
  let n = 0
  for (const _ of graphemes.segment(text)) n++
  return n
}

/** Unicode code points: "👍🏽" is two (the thumb and its skin tone). */
export function codePointLength(text: string): number {
  let n = 0
  for (const _ of text) n++
  return n
}

/** Bytes in UTF-8, the unit of Bluesky's hard limit and of facet offsets. */
export function utf8Length(text: string): number {
  return utf8.encode(text).length
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

/** The length of `text` counted the way `rules.count` says. */
export function textLength(text: string, rules: Pick<TextLimits, 'count' | 'url_length'>): number {
  switch (rules.count) {
    case 'graphemes':
      return graphemeLength(text)
    case 'code_points':
      return codePointLength(text)
    case 'utf16':
      return text.length
    case 'mastodon':
      return mastodonLength(text, rules.url_length ?? MASTODON_URL_LENGTH)
  }
}

/** The text a platform is sent and counts: where media go as links (Slack), they follow it, one a line. */
export function countedText(content: string, mediaUrls: readonly string[], rules: Pick<TextLimits, 'media_links'>): string {
  if (!rules.media_links || mediaUrls.length === 0) return content
  return [content, ...mediaUrls].filter((part) => part !== '').join('\n')
}

/** A post's text counted the platform's way, and the most it allows for this post (a caption under media may be shorter). */
export function measureText(limits: PlatformLimits, content: string, mediaUrls: readonly string[] = []): { length: number; limit: number } {
  const { text } = limits
  const limit = mediaUrls.length > 0 && text.caption_max != null ? text.caption_max : text.max
  return { length: textLength(countedText(content, mediaUrls, text), text), limit }
}
