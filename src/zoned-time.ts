// Zone arithmetic for the whole of smm (daemon, CLI and calendar): one module, so an instant
// is on the same day and a typed wall time is the same instant wherever it is computed.
//
// Calendar arithmetic on civil dates ('YYYY-MM-DD') and their mapping to instants in an IANA
// zone. Navigation never touches a zone: a day is a day whatever its length. Only "which day is
// this instant on" and "which instant is this wall time" need the zone, and both go through
// Intl, so DST and historical offsets come from the platform's tz database, not from us.

/** A civil date, 'YYYY-MM-DD', in no particular zone. */
export type CivilDate = string

/** ISO weekday: 1 = Monday … 7 = Sunday (the numbering of Intl.Locale weekInfo). */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7

const DAY_MS = 86_400_000

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0')
}

/** The civil date of a year, a month (1–12) and a day, normalised (month 13 is next January). */
export function civilDate(year: number, month: number, day: number): CivilDate {
  const d = new Date(Date.UTC(year, month - 1, day))
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear undoes that for the odd test.
  if (year >= 0 && year < 100) d.setUTCFullYear(year, month - 1, day)
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
}

/** The parts of a civil date. */
export function partsOf(date: CivilDate): { year: number; month: number; day: number } {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number]
  return { year, month, day }
}

/** Whether a string is a real civil date (2026-02-30 is not). */
export function isCivilDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
  const { year, month, day } = partsOf(value)
  return civilDate(year, month, day) === value
}

export function addDays(date: CivilDate, days: number): CivilDate {
  const { year, month, day } = partsOf(date)
  return civilDate(year, month, day + days)
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/** The same day n months on, clamped to the month's length (31 January + 1 month is 28/29 February). */
export function addMonths(date: CivilDate, months: number): CivilDate {
  const { year, month, day } = partsOf(date)
  const first = partsOf(civilDate(year, month + months, 1))
  return civilDate(first.year, first.month, Math.min(day, daysInMonth(first.year, first.month)))
}

export function weekdayOf(date: CivilDate): Weekday {
  const { year, month, day } = partsOf(date)
  const js = new Date(Date.UTC(year, month - 1, day)).getUTCDay()
  return (js === 0 ? 7 : js) as Weekday
}

/** The first day of the week holding `date`, for weeks starting on `weekStart`. */
export function startOfWeek(date: CivilDate, weekStart: Weekday): CivilDate {
  return addDays(date, -((weekdayOf(date) - weekStart + 7) % 7))
}

export function firstOfMonth(date: CivilDate): CivilDate {
  const { year, month } = partsOf(date)
  return civilDate(year, month, 1)
}

/** Whole days from a to b (b − a). */
export function daysBetween(a: CivilDate, b: CivilDate): number {
  const pa = partsOf(a)
  const pb = partsOf(b)
  return Math.round((Date.UTC(pb.year, pb.month - 1, pb.day) - Date.UTC(pa.year, pa.month - 1, pa.day)) / DAY_MS)
}

/** The days of a month's grid: whole weeks from the week of the 1st to the week of the last day. */
export function monthGrid(date: CivilDate, weekStart: Weekday): CivilDate[][] {
  const { year, month } = partsOf(date)
  const first = startOfWeek(civilDate(year, month, 1), weekStart)
  const last = civilDate(year, month, daysInMonth(year, month))
  const weeks: CivilDate[][] = []
  for (let start = first; daysBetween(start, last) >= 0; start = addDays(start, 7)) {
    weeks.push(Array.from({ length: 7 }, (_, i) => addDays(start, i)))
  }
  return weeks
}

export function weekDays(date: CivilDate, weekStart: Weekday): CivilDate[] {
  const start = startOfWeek(date, weekStart)
  return Array.from({ length: 7 }, (_, i) => addDays(start, i))
}

// Formatters are costly to build and a render asks for hundreds of conversions.
const formatters = new Map<string, Intl.DateTimeFormat>()

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formatters.set(timeZone, f)
  }
  return f
}

/** Whether Intl knows this IANA zone name. */
export function isTimeZone(timeZone: string): boolean {
  return canonicalTimeZone(timeZone) !== undefined
}

/**
 * The tz database's spelling of a zone name ('europe/berlin' is 'Europe/Berlin'), or undefined
 * when it is not one. Fixed offsets ('+01:00') are refused: they ignore daylight saving time,
 * which is the whole point of naming a zone.
 */
export function canonicalTimeZone(timeZone: string): string | undefined {
  if (/^[+-]/.test(timeZone)) return undefined
  try {
    return partsFormatter(timeZone).resolvedOptions().timeZone
  } catch (error) {
    if (error instanceof RangeError) return undefined
    throw error
  }
}

/** The zone this machine runs in (TZ, else the system's), as Intl resolves it. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone
}

/** What to say when a zone name is not one. */
export const TIME_ZONE_HINT = 'is not an IANA time zone: use a name like Europe/Berlin, America/New_York or UTC'

/** The wall-clock reading of an instant in a zone. */
export function zonedParts(ms: number, timeZone: string): { date: CivilDate; hour: number; minute: number; second: number } {
  const fields: Record<string, number> = {}
  for (const part of partsFormatter(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value)
  }
  return {
    date: civilDate(fields.year!, fields.month!, fields.day!),
    hour: fields.hour!,
    minute: fields.minute!,
    second: fields.second!,
  }
}

/** The zone's offset from UTC at an instant, in ms (Berlin in summer: +7,200,000). */
export function offsetAt(ms: number, timeZone: string): number {
  const p = zonedParts(ms, timeZone)
  const { year, month, day } = partsOf(p.date)
  const wall = Date.UTC(year, month - 1, day, p.hour, p.minute, p.second)
  return wall - (ms - (((ms % 1000) + 1000) % 1000))
}

/**
 * The instant a wall-clock time in a zone names. Like Temporal's "compatible" disambiguation:
 * an hour that occurs twice (autumn) is its first occurrence, and a time skipped by a spring
 * jump moves forward by the jump (02:30 on Berlin's spring day is 03:30 CEST).
 */
export function zonedToInstant(date: CivilDate, hour: number, minute: number, timeZone: string): number {
  const { wall, before, candidates } = wallCandidates(date, hour, minute, timeZone)
  if (candidates.length > 0) return Math.min(...candidates)
  return wall - before
}

/**
 * The instant a recurring wall-clock time (a queue slot) names on a day: an hour that occurs
 * twice is its first occurrence, as in zonedToInstant; but a time a spring jump skips is the
 * first instant after the gap (02:30 on New York's spring day is 03:00 EDT), so slots inside
 * the gap do not leapfrog the slots after it.
 */
export function slotInstant(date: CivilDate, hour: number, minute: number, timeZone: string): number {
  const { wall, before, after, candidates } = wallCandidates(date, hour, minute, timeZone)
  if (candidates.length > 0) return Math.min(...candidates)
  // In the gap: the jump happens between wall - after (still the old offset) and wall - before
  // (already the new one); offsets change on whole seconds, so halve the range down to one.
  let lo = Math.floor((wall - after) / 1000)
  let hi = Math.ceil((wall - before) / 1000)
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2)
    if (offsetAt(mid * 1000, timeZone) === before) lo = mid
    else hi = mid
  }
  return hi * 1000
}

/** A wall time's reading as UTC, the zone's offsets a day either side, and the instants that show it. */
function wallCandidates(date: CivilDate, hour: number, minute: number, timeZone: string) {
  const { year, month, day } = partsOf(date)
  const wall = Date.UTC(year, month - 1, day, hour, minute)
  // Offsets a day either side bracket any transition near this wall time.
  const before = offsetAt(wall - DAY_MS, timeZone)
  const after = offsetAt(wall + DAY_MS, timeZone)
  const candidates = [wall - before, wall - after].filter((ms) => offsetAt(ms, timeZone) === wall - ms)
  return { wall, before, after, candidates }
}

/**
 * The instant `months` months and `days` days after `ms`, at the same wall-clock time in a zone:
 * a weekly 09:00 stays 09:00 across a DST change. The day of the month is clamped to the
 * month's length (31 January + 1 month is 28/29 February, + 2 months is 31 March: count the
 * months from one anchor, not step by step, to keep the day). A wall time the clocks skip moves
 * forward by the jump; one they repeat is its first occurrence (as zonedToInstant).
 */
export function addZoned(ms: number, timeZone: string, months: number, days: number): number {
  const p = zonedParts(ms, timeZone)
  const date = addDays(addMonths(p.date, months), days)
  // Offsets change on whole minutes, so seconds and milliseconds carry over as they are.
  const withinMinute = p.second * 1000 + (((ms % 1000) + 1000) % 1000)
  return zonedToInstant(date, p.hour, p.minute, timeZone) + withinMinute
}

/** The instant a civil day starts in a zone (not always 00:00: some zones jump at midnight). */
export function startOfDayInstant(date: CivilDate, timeZone: string): number {
  return zonedToInstant(date, 0, 0, timeZone)
}

/** 'HH:MM' of an instant in a zone. */
export function formatTime(ms: number, timeZone: string): string {
  const p = zonedParts(ms, timeZone)
  return `${pad(p.hour)}:${pad(p.minute)}`
}

/** The first day of the week a locale uses (Intl.Locale weekInfo), Monday where unknown. */
export function localeWeekStart(locale: string | undefined): Weekday {
  if (locale === undefined) return 1
  try {
    const info = readWeekInfo(new Intl.Locale(locale))
    const first = info?.firstDay
    return typeof first === 'number' && first >= 1 && first <= 7 ? (first as Weekday) : 1
  } catch (error) {
    // An unparsable locale (POSIX "C", say) has no week convention: ISO's Monday is the answer.
    if (error instanceof RangeError) return 1
    throw error
  }
}

/**
 * The user's locale for calendar conventions, as POSIX decides it (LC_ALL, then LC_TIME, then
 * LANG: 'de_DE.UTF-8' is de-DE), else what Intl resolved; undefined when nothing says ('C', 'und').
 * Node does not always read these variables itself, so they are read here.
 */
export function systemLocale(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const posix = [env.LC_ALL, env.LC_TIME, env.LANG].find((v) => v !== undefined && v !== '')
  const candidates = [posix?.replace(/[.@].*$/, '').replace(/_/g, '-'), Intl.DateTimeFormat().resolvedOptions().locale]
  for (const candidate of candidates) {
    if (!candidate || candidate === 'C' || candidate === 'POSIX' || candidate === 'und') continue
    try {
      return new Intl.Locale(candidate).toString()
    } catch (error) {
      if (!(error instanceof RangeError)) throw error
      // Not a BCP 47 tag: try the next source.
    }
  }
  return undefined
}

// weekInfo is a getter in V8 up to Node 22 and became getWeekInfo() later; neither is in lib.d.ts.
function readWeekInfo(locale: Intl.Locale): { firstDay?: number } | undefined {
  const l = locale as Intl.Locale & { getWeekInfo?: () => { firstDay?: number }; weekInfo?: { firstDay?: number } }
  return typeof l.getWeekInfo === 'function' ? l.getWeekInfo() : l.weekInfo
}

const WEEKDAY_NAMES: Record<string, Weekday> = {
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
  sunday: 7,
}

/** A weekday from its English name ('monday', 'Sun', …), or undefined. */
export function parseWeekday(name: string): Weekday | undefined {
  const n = name.trim().toLowerCase()
  if (n.length < 2) return undefined
  const match = Object.entries(WEEKDAY_NAMES).find(([full]) => full.startsWith(n))
  return match?.[1]
}
