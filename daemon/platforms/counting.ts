// Length rules of the platforms this module's siblings publish to. Kept small and separate
// from the registry's own text helpers so the two can be unified in one place later.

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/** User-perceived characters: an emoji with modifiers or a flag is one. */
export function graphemeLength(text: string): number {
  let count = 0
  for (const _ of segmenter.segment(text)) count++
  return count
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

// A link as people type it: scheme, then anything up to whitespace; trailing punctuation that
// usually closes a sentence or a bracket is not part of it.
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"]+/gi
const TRAILING = /[.,;:!?'")\]}]+$/

/** Every http(s) link in a text, with its position in UTF-16 code units. */
export function findUrls(text: string): Array<{ url: string; start: number; end: number }> {
  const found: Array<{ url: string; start: number; end: number }> = []
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(TRAILING, '')
    found.push({ url, start: match.index, end: match.index + url.length })
  }
  return found
}

/**
 * Mastodon's count: graphemes, with every link counting a fixed length (the instance's
 * `characters_reserved_per_url`, 23 by default) and a remote mention counting only its
 * `@user` part, as the server's StatusLengthValidator does.
 */
export function mastodonLength(text: string, charactersPerUrl = 23): number {
  const placeholder = 'x'.repeat(charactersPerUrl)
  let countable = ''
  let last = 0
  for (const { start, end } of findUrls(text)) {
    countable += text.slice(last, start) + placeholder
    last = end
  }
  countable += text.slice(last)
  countable = countable.replace(/(^|[^\w@])@(\w+)@[\w.-]+\w/g, '$1@$2')
  return graphemeLength(countable)
}
