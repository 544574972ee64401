import { parseRfc3339 } from '../time.js'
import { civilDate, isCivilDate, offsetAt, startOfDayInstant, systemTimeZone, zonedParts, zonedToInstant, type CivilDate } from '../zoned-time.js'

/** A time or duration a person typed that means nothing we can schedule at. */
export class TimeInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TimeInputError'
  }
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/

const EXAMPLES = 'RFC 3339 (2026-11-21T09:00:00Z), a local date-time (2026-11-21 09:00) or a phrase like "tomorrow 9am" or "in 2 hours"'

/** How a typed time is read: in which zone, from when, and what a bare day means. */
export interface TimeReading {
  /** Where "now" is; phrases resolve forward from it. */
  now?: number
  /** The IANA zone that local date-times and phrases are wall times in (default: the system's). */
  timeZone?: string
  /** A day with no time of day ("today", "2026-12-01") is its start (for ranges); otherwise chrono's noon. */
  dayStart?: boolean
}

/** The instant of a wall time in a zone; a wall time the zone skips (a spring DST gap) is refused. */
function wallTime(input: string, date: CivilDate, h: number, mi: number, s: number, ms: number, timeZone: string): number {
  const instant = zonedToInstant(date, h, mi, timeZone) + s * 1000 + ms
  const back = zonedParts(instant, timeZone)
  if (back.date !== date || back.hour !== h || back.minute !== mi) {
    throw new TimeInputError(`"${input}" does not exist in ${timeZone} (the clocks skip it for daylight saving time)`)
  }
  return instant
}

/** A date and wall-clock time with no zone, read in `timeZone`. */
function parseLocal(input: string, timeZone: string): number | undefined {
  const m = LOCAL.exec(input)
  if (!m) return undefined
  const [h = 0, mi = 0, s = 0] = m.slice(4, 7).map((part) => (part === undefined ? undefined : Number(part))) as number[]
  const ms = Number((m[7] ?? '0').padEnd(3, '0'))
  const date = `${m[1]}-${m[2]}-${m[3]}`
  if (!isCivilDate(date) || h > 23 || mi > 59 || s > 59) throw new TimeInputError(`"${input}" is not a valid date-time`)
  return wallTime(input, date, h, mi, s, ms, timeZone)
}

/**
 * Reads a time as a person types it, to epoch ms: RFC 3339 with a zone; a date or date-time
 * with no zone, as a wall time in the reading's zone; or an English phrase ("tomorrow 9am",
 * "next friday 14:30", "in 2 hours"), resolved forward from `now`. Throws a TimeInputError
 * saying what works.
 */
export async function parseTimeInput(input: string, reading: TimeReading = {}): Promise<number> {
  const { now = Date.now(), timeZone = systemTimeZone(), dayStart = false } = reading
  const text = input.trim()
  if (!text) throw new TimeInputError(`a time is required: ${EXAMPLES}`)
  const exact = parseRfc3339(text)
  if (exact !== undefined) return exact
  const local = parseLocal(text, timeZone)
  if (local !== undefined) return local
  // chrono would read "2h" as two o'clock: a bare duration is a likelier slip for --in.
  if (parseDuration(text) !== undefined) throw new TimeInputError(`"${input}" is a duration; use --in ${text}, or say "in ${text}"`)
  // "in 90 minutes" is elapsed time, whatever the clocks do meanwhile.
  const ahead = /^in\s+(.+)$/i.exec(text)
  const elapsed = ahead ? parseDuration(ahead[1]!) : undefined
  if (elapsed !== undefined) return now + elapsed
  // Loaded only here: the English parser costs ~40 ms to import, which `smm --help` must not pay.
  const chrono = await import('chrono-node/en')
  // chrono knows offsets, not zones: it reads the phrase at the zone's offset now, and the wall
  // time it names is then placed in the zone itself, so "tomorrow 9am" across a DST change is 9:00.
  const reference = { instant: new Date(now), timezone: Math.round(offsetAt(now, timeZone) / 60_000) }
  const results = chrono.casual.parse(text, reference, { forwardDate: true })
  const [first] = results
  // The whole input must be the phrase: "tomorrow 9am please" is a typo to report, not to half-read.
  if (results.length !== 1 || !first || first.index !== 0 || first.text.length !== text.length || first.end) {
    throw new TimeInputError(`"${input}" is not a time I understand: use ${EXAMPLES}`)
  }
  const at = first.start
  const date = civilDate(at.get('year')!, at.get('month')!, at.get('day')!)
  if (dayStart && !at.isCertain('hour')) return startOfDayInstant(date, timeZone)
  return wallTime(input, date, at.get('hour')!, at.get('minute')!, at.get('second')!, 0, timeZone)
}

/** A wall-clock time of day, 24-hour. */
export interface TimeOfDay {
  hour: number
  minute: number
}

const HOUR_MINUTE = /^(\d{1,2}):(\d{2})$/

/**
 * A time of day as --at reads one in a phrase ("9am", "17:30", "5:30 pm", "noon"), with no
 * day: what a weekly queue slot holds. Whole minutes; throws a TimeInputError saying what works.
 */
export async function parseTimeOfDay(input: string): Promise<TimeOfDay> {
  const text = input.trim()
  const refuse = (why: string) => new TimeInputError(`"${input}" ${why}; use a time of day like 09:00, 17:30, 9am or 5:30pm`)
  // The usual 24-hour form, without loading the English parser.
  const clock = HOUR_MINUTE.exec(text)
  if (clock) {
    const [hour, minute] = [Number(clock[1]), Number(clock[2])]
    if (hour > 23 || minute > 59) throw refuse('is not a time of day')
    return { hour, minute }
  }
  const chrono = await import('chrono-node/en')
  const results = chrono.casual.parse(text, new Date(0), { forwardDate: false })
  const [first] = results
  if (results.length !== 1 || !first || first.index !== 0 || first.text.length !== text.length || first.end || !first.start.isCertain('hour')) {
    throw refuse('is not a time of day')
  }
  const at = first.start
  if (at.isCertain('day') || at.isCertain('weekday') || at.isCertain('month')) throw refuse('names a day, not only a time')
  if (at.get('second')) throw refuse('has seconds, and this takes whole minutes')
  return { hour: at.get('hour')!, minute: at.get('minute')! }
}

const UNITS: Record<string, number> = {
  w: 604_800_000,
  d: 86_400_000,
  h: 3_600_000,
  m: 60_000,
  s: 1_000,
}

const PART = /(\d+(?:\.\d+)?)\s*(weeks?|w|days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)(?![a-z])/gi

/** A duration like `2h`, `1h30m`, `90 minutes` or `1d 2h`, in ms; undefined if it is not one. */
export function parseDuration(input: string): number | undefined {
  const text = input.trim().toLowerCase()
  if (!text) return undefined
  let total = 0
  let consumed = ''
  for (const m of text.matchAll(PART)) {
    const unit = m[2]!.startsWith('mi') ? 'm' : m[2]![0]!
    total += Number(m[1]) * UNITS[unit]!
    consumed += m[0]
  }
  // Every character must belong to a part (spaces and commas between parts aside).
  if (consumed.replace(/\s/g, '') !== text.replace(/[\s,]/g, '') || total <= 0) return undefined
  return Math.round(total)
}

/** Reads a duration a person typed (`--in 2h`), in ms; throws a TimeInputError saying what works. */
export function parseDurationInput(input: string): number {
  const ms = parseDuration(input)
  if (ms === undefined) throw new TimeInputError(`"${input}" is not a duration: use a number and a unit, like 2h, 45m, 1h30m or 3d`)
  return ms
}

const EVERY_UNITS: Record<string, string> = {
  h: 'TH',
  hour: 'TH',
  hours: 'TH',
  min: 'TM',
  mins: 'TM',
  minute: 'TM',
  minutes: 'TM',
  d: 'D',
  day: 'D',
  days: 'D',
  w: 'W',
  week: 'W',
  weeks: 'W',
  mo: 'M',
  month: 'M',
  months: 'M',
  y: 'Y',
  year: 'Y',
  years: 'Y',
}

/**
 * How often a series repeats, as a person types it (`--every 1w`, `2d`, `12h`, `1mo`, `month`,
 * `2 weeks`), as the ISO 8601 duration the API takes (P1W, P2D, PT12H, P1M); an ISO duration is
 * taken as it is. `1m` is refused: a minute or a month? Throws a TimeInputError saying what works.
 */
export function parseIntervalInput(input: string): string {
  const text = input.trim()
  if (/^P/i.test(text)) return text.toUpperCase()
  const m = /^(\d+)?\s*([a-z]+)$/i.exec(text)
  const count = m?.[1] === undefined ? 1 : Number(m[1])
  const word = m?.[2]!.toLowerCase()
  if (word === 'm') throw new TimeInputError(`"${input}" could be minutes or months: write ${count}mo for months (the shortest interval is 1h)`)
  const unit = word === undefined ? undefined : EVERY_UNITS[word]
  if (!unit || count < 1) throw new TimeInputError(`"${input}" is not an interval: use a number and a unit, like 1h, 2d, 1w, 1mo or 1y (or an ISO 8601 duration such as P1W)`)
  return unit.startsWith('T') ? `PT${count}${unit[1]}` : `P${count}${unit}`
}
