import type { Limits } from '../../src/api/users.js'
import type { Db } from './db.js'

export type WindowName = 'minute' | 'hour' | 'day'

/** One window's state after a request was weighed against it. */
export interface WindowState {
  name: WindowName
  limit: number
  /** Seconds in the window. */
  seconds: number
  remaining: number
  /** Milliseconds until the window resets. */
  resetMs: number
}

export interface RateDecision {
  admitted: boolean
  windows: WindowState[]
  /** The windows that refused the request (empty when admitted). */
  violated: WindowName[]
}

const WINDOWS: { name: WindowName; ms: number; limit: keyof Limits }[] = [
  { name: 'minute', ms: 60_000, limit: 'per_minute' },
  { name: 'hour', ms: 3_600_000, limit: 'per_hour' },
  { name: 'day', ms: 86_400_000, limit: 'per_day' },
]

interface Row {
  minute_start: number
  minute_count: number
  hour_start: number
  hour_count: number
  day_start: number
  day_count: number
}

/**
 * Fixed windows aligned to the clock (the minute, the UTC hour and day), counted per key in
 * SQLite so a restart does not hand a key a fresh hour or day. A request is counted only if
 * every window admits it.
 */
export function rateLimitsStore(db: Db) {
  const get = db.prepare<[string], Row>('SELECT * FROM rate_limits WHERE key_id = ?')
  const put = db.prepare<[string, number, number, number, number, number, number], void>(
    `INSERT INTO rate_limits (key_id, minute_start, minute_count, hour_start, hour_count, day_start, day_count)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (key_id) DO UPDATE SET
       minute_start = excluded.minute_start, minute_count = excluded.minute_count,
       hour_start = excluded.hour_start, hour_count = excluded.hour_count,
       day_start = excluded.day_start, day_count = excluded.day_count`,
  )

  const consume = db.transaction((keyId: string, limits: Limits, now: number): RateDecision => {
    const row = get.get(keyId)
    const counts = WINDOWS.map((w) => {
      const start = Math.floor(now / w.ms) * w.ms
      const stored = row && row[`${w.name}_start`] === start ? row[`${w.name}_count`] : 0
      return { ...w, start, count: stored, max: limits[w.limit] }
    })
    const violated = counts.filter((c) => c.count >= c.max).map((c) => c.name)
    const admitted = violated.length === 0
    if (admitted) {
      for (const c of counts) c.count += 1
      const [m, h, d] = counts
      put.run(keyId, m!.start, m!.count, h!.start, h!.count, d!.start, d!.count)
    }
    return {
      admitted,
      violated,
      windows: counts.map((c) => ({
        name: c.name,
        limit: c.max,
        seconds: c.ms / 1000,
        remaining: Math.max(0, c.max - c.count),
        resetMs: c.start + c.ms - now,
      })),
    }
  })

  return {
    async consume(keyId: string, limits: Limits, now: number): Promise<RateDecision> {
      return consume.immediate(keyId, limits, now)
    },
  }
}
