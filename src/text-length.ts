// How platforms count text: each has its own idea of a "character". Shared by the daemon (which
// validates posts with these) and its clients (the calendar's form counts as you type), so that
// what a client shows is what the daemon enforces. No Node-only APIs: this runs anywhere.

import type { PlatformLimits, TextLimits } from './api/platforms.js'

// Made the first time a text that is not plain ASCII is segmented: building it maps ICU's break
// rules into the process (0.6 MB of resident memory that a daemon publishing ASCII posts keeps
// for nothing).
let segmenter: Intl.Segmenter | undefined

/** The user-perceived characters of a text, in order: the one segmenter every count and cut uses. */
export const graphemes = (text: string): Intl.Segments => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text)
const utf8 = new TextEncoder()

/** User-perceived characters: "👍🏽" and "é" written as e + accent each count once. */
export function graphemeLength(text: string): number {
  // Every grapheme is at least one UTF-16 unit and ASCII graphemes are exactly one (CR LF aside),
  // so pure-ASCII text needs no segmentation.
  if (/^[\x00-\x7f]*$/.test(text)) return text.length - (text.match(/\r\n/g)?.length ?? 0)
  let n = 0
  for (const _ of graphemes(text)) n++
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

// X's weighted length, as twitter-text's configuration v3 defines it (config/v3.json of
// twitter/twitter-text): in the light ranges below a code point weighs 1, any other weighs 2
// (CJK, most emoji), an emoji sequence weighs 2 however many code points it joins, and every URL
// weighs 23 (the t.co link X puts in its place). Written here rather than taken from the
// `twitter-text` package: that package pulls in core-js 2 and an emoji table frozen in 2019,
// and the client (TUI) needs this too, so it stays small, pure and without dependencies.

/** What every URL weighs on X, whatever its own length. */
export const X_URL_LENGTH = 23

// Code points that weigh 1: Latin, Greek, Cyrillic, Hebrew, Arabic, Indic scripts… up to
// U+10FF, and the general punctuation spaces, dashes, quotes and primes.
const LIGHT_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
]

const codePointWeight = (cp: number) => (LIGHT_RANGES.some(([start, end]) => cp >= start && cp <= end) ? 1 : 2)

// What twitter-text takes for an emoji: a pictograph (presented as one, unless it is a light
// text symbol such as © with no emoji selector), a flag, a keycap.
const PICTOGRAPH = /\p{Extended_Pictographic}/u
const FLAG_OR_KEYCAP = /\p{Regional_Indicator}|\u20e3/u
function isEmoji(grapheme: string): boolean {
  if (FLAG_OR_KEYCAP.test(grapheme)) return true
  if (!PICTOGRAPH.test(grapheme)) return false
  const [first] = grapheme
  return grapheme.length > 1 || codePointWeight(first!.codePointAt(0)!) === 2
}

// Country-code TLDs (IANA's two-letter delegations) and the generic TLDs people write most.
// twitter-text knows every TLD; a rare generic one missing here makes a bare domain count at its
// own length instead of 23, which `https://` in front of it always avoids.
const CC_TLDS = new Set(
  ('ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs bt bv bw by bz ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz ' +
    'de dj dk dm do dz ec ee eg er es et eu fi fj fk fm fo fr ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is it ' +
    'je jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz ' +
    'om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro rs ru rw sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st su sv sx sy sz tc td tf tg th tj tk tl tm tn to tr tt tv tw tz ' +
    'ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw').split(' '),
)
const GENERIC_TLDS = new Set(
  ('com net org edu gov mil int info biz name pro aero coop museum mobi asia tel travel jobs cat post xxx app dev page blog shop store online site website tech xyz club live news ' +
    'top vip art design cloud email link space world today social media network digital agency studio games fun life love guru wiki photo video music one global group company ' +
    'solutions services systems tools zone center city school academy education university ltd inc llc gmbh events works tv co ai io me ly gg fm').split(' '),
)
// A single label followed by a country-code TLD and nothing else ("notes.md") is no link to
// twitter-text, except under .co and .tv, which people use as generic ones.
const SPECIAL_CC_TLDS = new Set(['co', 'tv'])

// A domain written without a scheme: not inside a word, an email address, a mention or a tag.
const BARE_DOMAIN = /(?<![\p{L}\p{N}@＠$#＃_./-])((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+)([a-z]{2,})(?![\p{L}\p{N}@_-])((?:\/[^\s]*[^\s.,;:!?'")\]}])|\/)?/giu

/** Where X sees URLs in text: with a scheme as everywhere, and bare domains as twitter-text does. */
export function findXUrls(text: string): { start: number; end: number }[] {
  const withScheme = findUrls(text)
  // Blank out the URLs already found so a bare-domain match cannot start inside one.
  let rest = text
  for (const { start, end } of withScheme) rest = rest.slice(0, start) + ' '.repeat(end - start) + rest.slice(end)
  const bare: { start: number; end: number }[] = []
  for (const m of rest.matchAll(BARE_DOMAIN)) {
    const labels = m[1]!
    const tld = m[2]!.toLowerCase()
    const path = m[3]
    const singleLabel = labels.indexOf('.') === labels.length - 1
    const isLink = GENERIC_TLDS.has(tld) || (CC_TLDS.has(tld) && (path !== undefined || !singleLabel || SPECIAL_CC_TLDS.has(tld)))
    if (isLink) bare.push({ start: m.index!, end: m.index! + m[0].length })
  }
  return [...withScheme.map(({ start, end }) => ({ start, end })), ...bare].sort((a, b) => a.start - b.start)
}

/**
 * A text's length as X counts it against its 280 (twitter-text's `parseTweet`, config v3):
 * NFC-normalised, URLs at 23, emoji at 2, other code points at 1 or 2 by range.
 */
export function weightedLength(text: string): number {
  const normalized = text.normalize('NFC')
  let length = 0
  let last = 0
  for (const { start, end } of findXUrls(normalized)) {
    length += plainWeight(normalized.slice(last, start)) + X_URL_LENGTH
    last = end
  }
  return length + plainWeight(normalized.slice(last))
}

function plainWeight(text: string): number {
  let length = 0
  if (/^[\x00-\x7f]*$/.test(text)) return text.length
  for (const { segment } of graphemes(text)) {
    if (isEmoji(segment)) {
      length += 2
      continue
    }
    for (const char of segment) length += codePointWeight(char.codePointAt(0)!)
  }
  return length
}

const EMOJI = /\p{Extended_Pictographic}/u

/** Length as Threads counts it: characters (graphemes), except that an emoji counts as its UTF-8 bytes. */
export function threadsLength(text: string): number {
  if (/^[\x00-\x7f]*$/.test(text)) return graphemeLength(text)
  let n = 0
  for (const { segment } of graphemes(text)) n += EMOJI.test(segment) ? utf8Length(segment) : 1
  return n
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
    case 'x_weighted':
      return weightedLength(text)
    case 'threads':
      return threadsLength(text)
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
