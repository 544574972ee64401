const ELLIPSIS = '…'
// A sentence ends at closing punctuation followed by whitespace. Intl's sentence segmenter
// also ends one at the "?" inside a URL's query, which would cut the link in half.
const SENTENCE_END = /(?<=[.!?…。！？]["'”’)]*)\s+/u
const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' })

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

/**
 * Cuts a text until `fits` accepts it: at a sentence end when that keeps at least half of what
 * a cut between words would, else between words with "…", else (one endless word) between
 * graphemes. Both cut only at whitespace, so a URL is never cut in half.
 */
export function shorten(text: string, fits: (candidate: string) => boolean): string {
  const whole = text.trim()
  if (fits(whole)) return whole

  const words = whole.split(/\s+/)
  const byWords = (n: number) => `${words.slice(0, n).join(' ').replace(/[\s,;:.!?—–-]+$/u, '')}${ELLIPSIS}`
  const wordCount = largest(words.length - 1, (n) => n === 0 || fits(byWords(n)))
  const wordCut = wordCount > 0 ? byWords(wordCount) : ''

  const parts = whole.split(SENTENCE_END)
  const ends = parts.map((_, i) => parts.slice(0, i + 1).join(' '))
  const sentenceCount = largest(ends.length - 1, (n) => n === 0 || fits(ends[n - 1]!))
  const sentenceCut = sentenceCount > 0 ? ends[sentenceCount - 1]! : ''
  if (sentenceCut && sentenceCut.length * 2 >= wordCut.length) return sentenceCut
  if (wordCut) return wordCut

  const glyphs = Array.from(graphemeSegmenter.segment(whole), (s) => s.segment)
  const count = largest(glyphs.length, (n) => n === 0 || fits(glyphs.slice(0, n).join('') + ELLIPSIS))
  return glyphs.slice(0, count).join('') + ELLIPSIS
}
