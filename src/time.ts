/** Where time comes from. The daemon uses the system clock; tests inject one they can move. */
export interface Clock {
  now(): number
  /**
   * Waits this long. A test clock moves itself instead of waiting, so code that polls a platform
   * (a media container still processing) runs its whole bounded schedule in no real time.
   */
  sleep?(ms: number): Promise<void>
}

export const systemClock: Clock = { now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) }

/** Waits on the given clock: the system clock's timer, or a test clock's own notion of waiting. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return clock.sleep ? clock.sleep(ms) : new Promise((resolve) => setTimeout(resolve, ms))
}

/** A clock for tests and benchmarks: starts where it is told and moves only when told. */
export class ManualClock implements Clock {
  constructor(private ms: number = Date.UTC(2026, 10, 21, 12, 0, 0)) {}
  now(): number {
    return this.ms
  }
  set(ms: number): void {
    this.ms = ms
  }
  advance(ms: number): void {
    this.ms += ms
  }
  /** Waiting on a manual clock moves it: the wait is over at once, and the time it took shows. */
  sleep(ms: number): Promise<void> {
    this.ms += ms
    return Promise.resolve()
  }
}

// RFC 3339 date-time: a zone (Z or ±hh:mm) is required; fractional seconds optional.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/

/** Whether a string is an RFC 3339 date-time with a zone. */
export function isRfc3339(value: string): boolean {
  const m = RFC3339.exec(value)
  if (!m) return false
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[]
  if (mo! < 1 || mo! > 12 || d! < 1 || h! > 23 || mi! > 59 || s! > 60) return false
  const daysInMonth = new Date(Date.UTC(y!, mo!, 0)).getUTCDate()
  return d! <= daysInMonth && !Number.isNaN(Date.parse(value.replace(' ', 'T')))
}

/** Parses an RFC 3339 date-time with a zone to epoch milliseconds; undefined if it is not one. */
export function parseRfc3339(value: string): number | undefined {
  return isRfc3339(value) ? Date.parse(value.replace(' ', 'T')) : undefined
}

// The last times formatted: a post's record carries several, and a burst's posts the same ones
// (their scheduled time, the batch's time of publishing), each about 0.4 µs to format anew.
const formatted = new Map<number, string>()

/** Epoch milliseconds as the API writes every timestamp: RFC 3339, UTC, `Z`. */
export function toIso(ms: number): string {
  let iso = formatted.get(ms)
  if (iso === undefined) {
    iso = new Date(ms).toISOString()
    if (formatted.size >= 1_024) formatted.clear()
    formatted.set(ms, iso)
  }
  return iso
}

export function toIsoOrNull(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : toIso(ms)
}
