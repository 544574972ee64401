// Recurring posts: a series' ISO 8601 interval and when each of its occurrences falls. Shared by
// the daemon (validation, and the store when it creates the next occurrence) and the CLI.
import { addZoned } from './zoned-time.js'

/**
 * An ISO 8601 duration split the way it is added: the calendar part (years and months as
 * months, weeks and days as days) in wall-clock time in a zone, then the time part exactly.
 */
export interface Interval {
  months: number
  days: number
  ms: number
}

/** The shortest interval a series may have. */
export const MIN_INTERVAL_MS = 3_600_000

/**
 * How late an occurrence may be when it is created and still be published (at once): the 5
 * minutes a new post's `scheduled_at` may lie in the past. A later one is skipped (the daemon
 * was down, or the occurrence before took long to publish): no backlog is published.
 */
export const LATE_OCCURRENCE_MS = 5 * 60_000

/** How far after its first occurrence a series' last may fall. */
export const MAX_SERIES_SPAN_MS = 366 * 86_400_000

/** The most occurrences a series can have: hourly, for the longest span. */
export const MAX_OCCURRENCES = MAX_SERIES_SPAN_MS / MIN_INTERVAL_MS + 1

/** An ISO 8601 duration of whole units, as `interval` takes it (the document states it as its pattern). */
export const DURATION = /^P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/

/** An ISO 8601 duration of whole units (P1W, PT6H, P1M, P1DT12H), or undefined; a zero duration is none. */
export function parseInterval(text: string): Interval | undefined {
  const m = DURATION.exec(text)
  if (!m) return undefined
  const [y = 0, mo = 0, w = 0, d = 0, h = 0, mi = 0, s = 0] = m.slice(1).map((part) => (part === undefined ? 0 : Number(part)))
  const interval = { months: y * 12 + mo, days: w * 7 + d, ms: ((h * 60 + mi) * 60 + s) * 1000 }
  if (!Object.values(interval).every(Number.isSafeInteger)) return undefined
  return interval.months + interval.days + interval.ms === 0 ? undefined : interval
}

/**
 * Whether an interval is longer than a series may span, whatever its start: a month is at least
 * 28 days, and days of wall-clock time lose at most one DST change's hour within a year. So it
 * never refuses one that some series could hold (P1Y, P12M, P52W, P366D), and what it lets
 * through is small enough for every occurrence's date to be computed.
 */
export function overAYear(interval: Interval): boolean {
  return interval.months > 12 || interval.months * 28 * 86_400_000 + interval.days * 86_400_000 + interval.ms - 3_600_000 > MAX_SERIES_SPAN_MS
}

/** Whether an interval is shorter than an hour (only a time-only duration can be). */
export function underAnHour(interval: Interval): boolean {
  return interval.months === 0 && interval.days === 0 && interval.ms < MIN_INTERVAL_MS
}

/** A series as its occurrences are computed from it: every time counts from `startsAt`, so no drift accumulates. */
export interface SeriesRule {
  /** The ISO 8601 duration between occurrences. */
  interval: string
  /** How many occurrences in all (the first included), or null. */
  count: number | null
  /** No occurrence after this instant (ms), or null. */
  until: number | null
  /** The IANA zone whose wall-clock time calendar intervals keep. */
  timezone: string
  /** The first occurrence's time (ms). */
  startsAt: number
}

/** When occurrence `n` (1-based) of a series falls: the calendar part in the zone's wall time, then the exact part. */
export function occurrenceAt(rule: SeriesRule, n: number): number {
  const interval = parseInterval(rule.interval)
  if (!interval) throw new Error(`A stored series has an interval that is not one: ${rule.interval}`)
  const steps = n - 1
  const calendar = interval.months || interval.days ? addZoned(rule.startsAt, rule.timezone, interval.months * steps, interval.days * steps) : rule.startsAt
  return calendar + interval.ms * steps
}

/** Why a series ends: its count reached, its `until` passed, or stopped by a cancel with `?series=true`. */
export type SeriesEnd = 'count' | 'until' | 'cancelled'

/**
 * What follows occurrence `n`: the next occurrence to create, or the end of the series. An
 * occurrence more than `graceMs` in the past at `now` (the daemon was down, a publish took long)
 * is skipped, not published late: a series resumes at its first occurrence still to come, and
 * the ones skipped count towards `count`.
 */
export function nextOccurrence(rule: SeriesRule, n: number, now: number, graceMs: number): { occurrence: number; at: number } | { end: Exclude<SeriesEnd, 'cancelled'> } {
  if (rule.count === null && rule.until === null) throw new Error('A stored series has neither count nor until')
  for (let k = n + 1; ; k++) {
    if (rule.count !== null && k > rule.count) return { end: 'count' }
    const at = occurrenceAt(rule, k)
    if (rule.until !== null && at > rule.until) return { end: 'until' }
    if (at >= now - graceMs) return { occurrence: k, at }
  }
}

/**
 * The last occurrence of a series, or `beyond` when one would fall more than a year after the
 * first (then its time is the first such occurrence's). Used to refuse series that never end.
 */
export function lastOccurrence(rule: SeriesRule): { occurrence: number; at: number; beyond: boolean } {
  const limit = rule.startsAt + MAX_SERIES_SPAN_MS
  if (rule.count !== null && rule.until === null) {
    const at = occurrenceAt(rule, rule.count)
    return { occurrence: rule.count, at, beyond: at > limit }
  }
  let last = { occurrence: 1, at: rule.startsAt }
  for (let k = 2; rule.count === null || k <= rule.count; k++) {
    const at = occurrenceAt(rule, k)
    if (rule.until !== null && at > rule.until) break
    if (at > limit) return { occurrence: k, at, beyond: true }
    last = { occurrence: k, at }
  }
  return { ...last, beyond: false }
}

const UNIT_NAMES: Record<string, [string, string]> = {
  Y: ['year', 'years'],
  M: ['month', 'months'],
  W: ['week', 'weeks'],
  D: ['day', 'days'],
  TH: ['hour', 'hours'],
  TM: ['minute', 'minutes'],
  TS: ['second', 'seconds'],
}

/** An interval as a person reads it: P1W is "every week", PT6H "every 6 hours", P1DT12H "every 1 day 12 hours". */
export function describeInterval(text: string): string {
  const m = DURATION.exec(text)
  if (!m) return text
  const keys = ['Y', 'M', 'W', 'D', 'TH', 'TM', 'TS']
  const parts = m
    .slice(1)
    .map((part, i) => (part === undefined || Number(part) === 0 ? undefined : ([Number(part), UNIT_NAMES[keys[i]!]!] as const)))
    .filter((p) => p !== undefined)
  if (parts.length === 1 && parts[0]![0] === 1) return `every ${parts[0]![1][0]}`
  return `every ${parts.map(([n, [one, many]]) => `${n} ${n === 1 ? one : many}`).join(' ')}`
}
