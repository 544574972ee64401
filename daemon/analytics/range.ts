import { MAX_RANGE_DAYS, type Interval } from '../../src/api/analytics.js'
import type { FieldError } from '../../src/errors.js'
import { parseRfc3339 } from '../../src/time.js'
import {
  addDays,
  addMonths,
  firstOfMonth,
  isCivilDate,
  isTimeZone,
  startOfDayInstant,
  startOfWeek,
  zonedParts,
  zonedToInstant,
  type CivilDate,
} from '../../src/zoned-time.js'

/** The range and buckets of one report, as instants. */
export interface ResolvedRange {
  from: number
  to: number
  /** Each bucket's aligned start (for `series[].start`) and the part of [from, to) it counts. */
  buckets: { start: number; countFrom: number; countTo: number }[]
}

const DEFAULT_DAYS = 30

/** The user's zone, or UTC if the stored name is not one this Node knows. */
export function reportZone(timeZone: string): string {
  return isTimeZone(timeZone) ? timeZone : 'UTC'
}

function bound(value: string, end: boolean, timeZone: string): number {
  // A date names a whole day: as `from` its first instant, as `to` the first instant after it.
  if (isCivilDate(value)) return startOfDayInstant(end ? addDays(value, 1) : value, timeZone)
  return parseRfc3339(value)!
}

/** The civil date an instant falls on in the zone. */
function dayOf(ms: number, timeZone: string): CivilDate {
  return zonedParts(ms, timeZone).date
}

/** The instant `days` civil days after `ms`, at the same wall time (DST-proof). */
function daysLater(ms: number, days: number, timeZone: string): number {
  const p = zonedParts(ms, timeZone)
  return zonedToInstant(addDays(p.date, days), p.hour, p.minute, timeZone) + p.second * 1000 + (((ms % 1000) + 1000) % 1000)
}

function wallOf(date: CivilDate): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return Date.UTC(y, m - 1, d)
}

/**
 * When `next` starts, given that `day` started at `start`. Nearly always at the same offset
 * from UTC, which one look at the zone confirms; only across a DST change does it take the
 * full conversion (a 366-day report would otherwise spend ~15 ms in Intl alone).
 */
function nextDayStart(day: CivilDate, start: number, next: CivilDate, timeZone: string): number {
  const guess = wallOf(next) - (wallOf(day) - start)
  const p = zonedParts(guess, timeZone)
  if (p.date === next && p.hour === 0 && p.minute === 0 && p.second === 0) return guess
  return startOfDayInstant(next, timeZone)
}

/** The instants RFC 3339 can write (years 0001 to 9999), which every instant of a report must be. */
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z')
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z')
const OUTSIDE_YEARS = 'is outside the years 0001 to 9999 (in UTC, and in your timezone for its first day, week or month), which RFC 3339 cannot write'

function periodStart(date: CivilDate, interval: Interval): CivilDate {
  if (interval === 'week') return startOfWeek(date, 1)
  if (interval === 'month') return firstOfMonth(date)
  return date
}

function nextPeriod(date: CivilDate, interval: Interval): CivilDate {
  if (interval === 'week') return addDays(date, 7)
  if (interval === 'month') return addMonths(date, 1)
  return addDays(date, 1)
}

/**
 * Resolves `from`/`to` (validated strings: RFC 3339 or YYYY-MM-DD) in the user's zone, applies
 * the defaults (the 30 days ending with today) and the limits, and cuts the range into
 * day/week/month buckets that start at local midnight (weeks on Monday, months on the 1st), so
 * a bucket is 23 or 25 hours long on a DST day. Returns every field error, or the range.
 */
export function resolveRange(
  query: { from?: string; to?: string; interval: Interval },
  timeZone: string,
  now: number,
): ResolvedRange | FieldError[] {
  const to = query.to !== undefined ? bound(query.to, true, timeZone) : startOfDayInstant(addDays(dayOf(now, timeZone), 1), timeZone)
  // The default start: the first instant of the 30th local day counting back from the range's last.
  const from = query.from !== undefined ? bound(query.from, false, timeZone) : startOfDayInstant(addDays(dayOf(to - 1, timeZone), 1 - DEFAULT_DAYS), timeZone)
  // A range error belongs to the field the caller gave: `to` when both were given.
  const pointer = query.to !== undefined || query.from === undefined ? '#/to' : '#/from'
  if (from >= to) {
    const detail = pointer === '#/to' ? 'must be after from' : 'must be before to (default: the end of today in your timezone)'
    return [{ pointer, code: 'invalid_range', detail: `${detail}: the range is [from, to), so it must not be empty` }]
  }
  if (to > daysLater(from, MAX_RANGE_DAYS, timeZone)) {
    return [{ pointer, code: 'range_too_long', detail: `makes the range longer than ${MAX_RANGE_DAYS} days; ask for at most ${MAX_RANGE_DAYS} days at a time` }]
  }
  const buckets: ResolvedRange['buckets'] = []
  let day = periodStart(dayOf(from, timeZone), query.interval)
  let start = startOfDayInstant(day, timeZone)
  if (!(start >= FIRST_INSTANT)) return [{ pointer: query.from !== undefined ? '#/from' : '#/to', code: 'out_of_range', detail: OUTSIDE_YEARS }]
  if (to > LAST_INSTANT) return [{ pointer: '#/to', code: 'out_of_range', detail: OUTSIDE_YEARS }]
  while (start < to) {
    const nextDay = nextPeriod(day, query.interval)
    const next = nextDayStart(day, start, nextDay, timeZone)
    buckets.push({ start, countFrom: Math.max(start, from), countTo: Math.min(next, to) })
    day = nextDay
    start = next
  }
  return { from, to, buckets }
}
