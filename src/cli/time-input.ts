import { parseRfc3339 } from '../time.js'

/** A time or duration a person typed that means nothing we can schedule at. */
export class TimeInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TimeInputError'
  }
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/

const EXAMPLES = 'RFC 3339 (2026-11-21T09:00:00Z), a local date-time (2026-11-21 09:00) or a phrase like "tomorrow 9am" or "in 2 hours"'

/** A date and wall-clock time with no zone, read in the local time zone (TZ). */
function parseLocal(input: string): number | undefined {
  const m = LOCAL.exec(input)
  if (!m) return undefined
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part))) as number[]
  const ms = Number((m[7] ?? '0').padEnd(3, '0'))
  const date = new Date(y!, mo! - 1, d!, h, mi, s, ms)
  const probe = new Date(Date.UTC(y!, mo! - 1, d!))
  if (probe.getUTCMonth() !== mo! - 1 || probe.getUTCDate() !== d! || h > 23 || mi > 59 || s > 59) {
    throw new TimeInputError(`"${input}" is not a valid date-time`)
  }
  // Date moves a time in a DST gap forward silently; the person meant a time that never happens.
  if (date.getHours() !== h || date.getMinutes() !== mi) {
    throw new TimeInputError(`"${input}" does not exist in your time zone (the clocks skip it for daylight saving time)`)
  }
  return date.getTime()
}

/**
 * Reads a time as a person types it, to epoch ms: RFC 3339 with a zone; a date or date-time
 * with no zone, in the local time zone; or an English phrase ("tomorrow 9am", "next friday
 * 14:30", "in 2 hours"), resolved forward from `now`. Throws a TimeInputError saying what works.
 */
export async function parseTimeInput(input: string, now: number = Date.now()): Promise<number> {
  const text = input.trim()
  if (!text) throw new TimeInputError(`a time is required: ${EXAMPLES}`)
  const exact = parseRfc3339(text)
  if (exact !== undefined) return exact
  const local = parseLocal(text)
  if (local !== undefined) return local
  // chrono would read "2h" as two o'clock: a bare duration is a likelier slip for --in.
  if (parseDuration(text) !== undefined) throw new TimeInputError(`"${input}" is a duration; use --in ${text}, or say "in ${text}"`)
  // Loaded only here: the English parser costs ~40 ms to import, which `smm --help` must not pay.
  const chrono = await import('chrono-node/en')
  const results = chrono.casual.parse(text, new Date(now), { forwardDate: true })
  const [first] = results
  // The whole input must be the phrase: "tomorrow 9am please" is a typo to report, not to half-read.
  if (results.length !== 1 || !first || first.index !== 0 || first.text.length !== text.length || first.end) {
    throw new TimeInputError(`"${input}" is not a time I understand: use ${EXAMPLES}`)
  }
  return first.start.date().getTime()
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
