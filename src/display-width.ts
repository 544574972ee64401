/**
 * How many terminal columns text takes, measured the way terminals (and Ink, through
 * string-width) draw it: by grapheme cluster, not by UTF-16 unit or code point. An emoji with a
 * skin tone or a ZWJ family is one cluster two columns wide, a combining accent takes none, a
 * CJK character takes two. Counting code units instead overflows a calendar cell and shifts
 * every column after it.
 */

import { graphemes } from './text-length.js'

// Text of which every code point is a cluster of its own, one column wide: printable ASCII, the
// Latin-1 and Latin Extended letters (all precomposed; not the soft hyphen, which takes none),
// dashes, quotes, bullets and the like, and ↵. Most posts are made only of these; measuring or
// cutting them needs no segmenting, whose break rules take ICU about 30 ms to load.
export const SINGLE_COLUMN = /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u024f\u2010-\u2027\u2030-\u203b\u21b5]*$/

// Clusters made only of these take no column: controls, combining marks, joiners and selectors.
const ZERO_WIDTH = /^[\p{Cc}\p{Cf}\p{Mn}\p{Me}\p{Default_Ignorable_Code_Point}]+$/u
// A fully qualified emoji (with modifiers, ZWJ sequences, flags, keycaps) is drawn two wide.
// (Built from a string: the `v` flag is newer than the TypeScript target; Node.js 20 has it.)
// Compiling it takes about 100 ms, a third of a CLI command's start: it is built the first time
// a cluster of other characters than SINGLE_COLUMN's is measured, which most tables never have.
let emoji: RegExp | undefined
const isEmoji = (cluster: string) => (emoji ??= new RegExp('^\\p{RGI_Emoji}$', 'v')).test(cluster)

// East Asian Wide (W) and Fullwidth (F) ranges of Unicode 15 (UAX #11), merged where adjacent.
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f], [0x231a, 0x231b], [0x2329, 0x232a], [0x23e9, 0x23ec], [0x23f0, 0x23f0], [0x23f3, 0x23f3],
  [0x25fd, 0x25fe], [0x2614, 0x2615], [0x2648, 0x2653], [0x267f, 0x267f], [0x2693, 0x2693], [0x26a1, 0x26a1],
  [0x26aa, 0x26ab], [0x26bd, 0x26be], [0x26c4, 0x26c5], [0x26ce, 0x26ce], [0x26d4, 0x26d4], [0x26ea, 0x26ea],
  [0x26f2, 0x26f3], [0x26f5, 0x26f5], [0x26fa, 0x26fa], [0x26fd, 0x26fd], [0x2705, 0x2705], [0x270a, 0x270b],
  [0x2728, 0x2728], [0x274c, 0x274c], [0x274e, 0x274e], [0x2753, 0x2755], [0x2757, 0x2757], [0x2795, 0x2797],
  [0x27b0, 0x27b0], [0x27bf, 0x27bf], [0x2b1b, 0x2b1c], [0x2b50, 0x2b50], [0x2b55, 0x2b55], [0x2e80, 0x303e],
  [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0xa4cf], [0xa960, 0xa97f], [0xac00, 0xd7a3], [0xf900, 0xfaff],
  [0xfe10, 0xfe19], [0xfe30, 0xfe6f], [0xff00, 0xff60], [0xffe0, 0xffe6], [0x16fe0, 0x16fe4], [0x17000, 0x18cff],
  [0x1aff0, 0x1b2ff], [0x1f004, 0x1f004], [0x1f0cf, 0x1f0cf], [0x1f18e, 0x1f18e], [0x1f191, 0x1f19a], [0x1f200, 0x1f251],
  [0x1f300, 0x1f320], [0x1f32d, 0x1f335], [0x1f337, 0x1f37c], [0x1f37e, 0x1f393], [0x1f3a0, 0x1f3ca], [0x1f3cf, 0x1f3d3],
  [0x1f3e0, 0x1f3f0], [0x1f3f4, 0x1f3f4], [0x1f3f8, 0x1f43e], [0x1f440, 0x1f440], [0x1f442, 0x1f4fc], [0x1f4ff, 0x1f53d],
  [0x1f54b, 0x1f54e], [0x1f550, 0x1f567], [0x1f57a, 0x1f57a], [0x1f595, 0x1f596], [0x1f5a4, 0x1f5a4], [0x1f5fb, 0x1f64f],
  [0x1f680, 0x1f6c5], [0x1f6cc, 0x1f6cc], [0x1f6d0, 0x1f6d2], [0x1f6d5, 0x1f6df], [0x1f6eb, 0x1f6ec], [0x1f6f4, 0x1f6fc],
  [0x1f7e0, 0x1f7eb], [0x1f7f0, 0x1f7f0], [0x1f90c, 0x1f93a], [0x1f93c, 0x1f945], [0x1f947, 0x1f9ff], [0x1fa70, 0x1faff],
  [0x20000, 0x2fffd], [0x30000, 0x3fffd],
]

function isWide(codePoint: number): boolean {
  let low = 0
  let high = WIDE.length - 1
  while (low <= high) {
    const mid = (low + high) >> 1
    const [start, end] = WIDE[mid]!
    if (codePoint < start) high = mid - 1
    else if (codePoint > end) low = mid + 1
    else return true
  }
  return false
}

/** The columns one grapheme cluster takes: 0, 1 or 2. */
export function graphemeWidth(cluster: string): number {
  if (cluster.length === 1 && SINGLE_COLUMN.test(cluster)) return 1
  if (ZERO_WIDTH.test(cluster)) return 0
  if (isEmoji(cluster)) return 2
  return isWide(cluster.codePointAt(0)!) ? 2 : 1
}

/** The columns a text takes in a terminal (no escape sequences in it). */
export function displayWidth(text: string): number {
  if (SINGLE_COLUMN.test(text)) return text.length
  let width = 0
  for (const { segment } of graphemes(text)) width += graphemeWidth(segment)
  return width
}

/**
 * The text cut to at most `width` columns, with "…" where it was cut (after the last word, not
 * after a space); never inside a cluster.
 */
export function clipToWidth(text: string, width: number): string {
  if (width <= 0) return ''
  if (displayWidth(text) <= width) return text
  let kept = ''
  if (SINGLE_COLUMN.test(text)) {
    kept = text.slice(0, width - 1)
  } else {
    let used = 0
    for (const { segment: cluster } of graphemes(text)) {
      const w = graphemeWidth(cluster)
      if (used + w > width - 1) break
      kept += cluster
      used += w
    }
  }
  return `${kept.trimEnd()}…`
}

/** The text padded with spaces on the right to `width` columns. */
export function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)))
}

// Every control character: C0 (NUL to US), DEL and C1 (U+0080 to U+009F).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g
// With line breaks (and tabs) kept, for text that is meant to span lines.
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g
/** C0 as its Unicode control picture (ESC as ␛, a line break as ␊), DEL as ␡, C1 as �. */
const picture = (c: string) => {
  const code = c.charCodeAt(0)
  return code < 0x20 ? String.fromCharCode(0x2400 + code) : code === 0x7f ? '\u2421' : '\ufffd'
}

/**
 * Text as it may reach a terminal whatever it holds: control characters shown as visible symbols,
 * never obeyed, so text from the API (a name, a post) cannot clear the screen, retitle the window
 * or forge lines of a table. `lines` keeps line breaks (LF, CRLF as LF) and tabs, for text meant
 * to span lines.
 */
export function printable(text: string, { lines = false } = {}): string {
  return lines ? text.replace(/\r\n/g, '\n').replace(CONTROL_BUT_LINES, picture) : text.replace(CONTROL, picture)
}
