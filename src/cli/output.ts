/** Human output: aligned tables, local times, colour only where a person is looking. */

import { displayWidth, printable } from '../display-width.js'

const CODES = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39] } as const
export type Style = keyof typeof CODES

/**
 * Colour only on a terminal, and never when NO_COLOR is set (no-color.org); FORCE_COLOR
 * forces it for a terminal that is not detected as one.
 */
export function colorEnabled(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true
  return Boolean(stream.isTTY) && env.TERM !== 'dumb'
}

export function paint(style: Style | undefined, text: string, enabled = colorEnabled()): string {
  if (!style || !enabled || text === '') return text
  const [open, close] = CODES[style]
  return `\u001b[${open}m${text}\u001b[${close}m`
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g
// Columns on the terminal, by grapheme: emoji and CJK names keep the table aligned.
const width = (text: string) => displayWidth(text.replace(ANSI, ''))

/** One column of a table: its header, and how a row shows in it. */
export interface Column<T> {
  header: string
  value: (row: T) => string
  style?: (row: T) => Style | undefined
}

/** Rows as an aligned table with a header line; two spaces between columns, no trailing blanks. */
export function table<T>(rows: readonly T[], columns: readonly Column<T>[], enabled = colorEnabled()): string {
  const cells = rows.map((row) => columns.map((c) => printable(c.value(row))))
  const widths = columns.map((c, i) => Math.max(width(c.header), ...cells.map((r) => width(r[i]!))))
  const line = (values: string[], styles: (Style | undefined)[]) =>
    values
      .map((v, i) => paint(styles[i], i === values.length - 1 ? v : v + ' '.repeat(widths[i]! - width(v)), enabled))
      .join('  ')
      .trimEnd()
  const header = line(
    columns.map((c) => c.header),
    columns.map(() => 'bold'),
  )
  return [header, ...cells.map((r, n) => line(r, columns.map((c) => c.style?.(rows[n]!))))].join('\n')
}

/** One line of `details`: its label, its value, and the value's style. */
export type Detail = [label: string, value: string, style?: Style]

/** Label/value pairs, the labels aligned: for one object. */
export function details(pairs: readonly Detail[], enabled = colorEnabled()): string {
  const w = Math.max(...pairs.map(([label]) => width(label)))
  return pairs.map(([label, value, style]) => `${paint('dim', `${label}:`.padEnd(w + 1), enabled)} ${paint(style, printable(value), enabled)}`).join('\n')
}

// The zone human output shows times in. A command learns it (the user's profile zone, or --tz)
// before it prints; until then, and for commands that talk to no daemon, it is the system's.
let displayZone: string | undefined

/** Sets the zone every `localTime` of this process shows times in. */
export function setDisplayZone(timeZone: string): void {
  displayZone = timeZone
}

/** An API timestamp in the user's time zone, to the minute, with the zone's short name: `2026-11-21 13:00 CET`. */
export function localTime(iso: string | null | undefined, empty = '-', timeZone: string | undefined = displayZone): string {
  if (!iso) return empty
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  )
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.timeZoneName}`
}

/** What to say when a retried create was answered from the idempotency store, which keeps no secret. */
export function shownOnceGone(what: string): string {
  return `Its ${what} was in the first response to this request only and is not kept, so this retry cannot show it. If you did not store it, revoke this one and create another.`
}
