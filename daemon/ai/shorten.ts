import { graphemes } from '../../src/text-length.js'

const ELLIPSIS = '…'
// A sentence ends at closing punctuation followed by whitespace. Intl's sentence segmenter
// also ends one at the "?" inside a URL's query, which would cut the link in half.
const SENTENCE_END = /(?<=[.!?…。！？]["'”’)]*)\s+/gu
const SPACE = /\s+/gu

/** The largest n in [0, max] for which ok(n) holds, assuming ok is true up to a point then false. */
function largest(max: number, ok: (n: number) => boolean): number {
  let low = 0
  let high = max
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    if (ok(mid)) low = mid
    else high = mid - 1
  }
  return low
}

/** Where each whitespace run that matches `pattern` starts: the text's cut points, in order. */
function cutPoints(text: string, pattern: RegExp): number[] {
  return Array.from(text.matchAll(pattern), (m) => m.index)
}

/**
 * Cuts a text until `fits` accepts it: at a sentence end when that keeps at least half of what
 * a cut between words would, else between words with "…", else (one endless word) between
 * graphemes. Both cut only at whitespace, so a URL is never cut in half, and what is kept
 * keeps its own line breaks.
 */
export function shorten(text: string, fits: (candidate: string) => boolean): string {
  const whole = text.trim()
  if (fits(whole)) return whole

  const byWord = (end: number) => `${whole.slice(0, end).replace(/[\s,;:.!?—–-]+$/u, '')}${ELLIPSIS}`
  const words = cutPoints(whole, SPACE)
  const wordCount = largest(words.length, (n) => n === 0 || fits(byWord(words[n - 1]!)))
  const wordCut = wordCount > 0 ? byWord(words[wordCount - 1]!) : ''

  const sentences = cutPoints(whole, SENTENCE_END)
  const sentenceCount = largest(sentences.length, (n) => n === 0 || fits(whole.slice(0, sentences[n - 1]!)))
  const sentenceCut = sentenceCount > 0 ? whole.slice(0, sentences[sentenceCount - 1]!) : ''
  if (sentenceCut && sentenceCut.length * 2 >= wordCut.length) return sentenceCut
  if (wordCut) return wordCut

  const glyphs = Array.from(graphemes(whole), (s) => s.segment)
  const count = largest(glyphs.length, (n) => n === 0 || fits(glyphs.slice(0, n).join('') + ELLIPSIS))
  return glyphs.slice(0, count).join('') + ELLIPSIS
}

// A run of hashtags that ends a post ("… today.\n\n#Coffee #Leith"), and what comes before it.
const TRAILING_TAGS = /^([\s\S]*?)(\s+)((?:#[\p{L}\p{M}\p{N}_]+\s*)+)$/u

/**
 * Like `shorten`, but a run of hashtags at the end is kept whole when it can be: the text before
 * it is cut instead. Cutting the whole text would drop the tags or leave half of one ("#Coff…"),
 * which is worse than a shorter sentence. When even the tags alone do not fit, the whole text is
 * cut as `shorten` does.
 */
export function shortenKeepingTags(text: string, fits: (candidate: string) => boolean): string {
  const whole = text.trim()
  if (fits(whole)) return whole
  const match = TRAILING_TAGS.exec(whole)
  const body = match?.[1]?.trim()
  if (!match || !body) return shorten(whole, fits)
  const separator = match[2]!.includes('\n') ? '\n\n' : ' '
  const tags = match[3]!.trim()
  const withTags = (b: string) => `${b}${separator}${tags}`
  if (!fits(withTags(ELLIPSIS))) return shorten(whole, fits)
  return withTags(shorten(body, (b) => fits(withTags(b))))
}
