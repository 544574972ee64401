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
 * Fixed windows aligned to the clock (the minute, the UTC hour and day), counted per key. A
 * request is counted only if every window admits it.
 *
 * Counting happens in memory and is written to SQLite by `flush()` (every second, and when the
 * store closes), so the hot path costs no write: a restart keeps every count, and a crash
 * (SIGKILL, power loss) forgets at most the last second's. One daemon owns a database, so
 * nothing else writes these rows meanwhile.
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
  const rows = new Map<string, Row>()
  const dirty = new Set<string>()

  const flush = db.transaction(() => {
    for (const keyId of dirty) {
      const r = rows.get(keyId)!
      put.run(keyId, r.minute_start, r.minute_count, r.hour_start, r.hour_count, r.day_start, r.day_count)
    }
    dirty.clear()
  })

  return {
    async consume(keyId: string, limits: Limits, now: number): Promise<RateDecision> {
      let row = rows.get(keyId)
      if (!row) {
        row = get.get(keyId) ?? { minute_start: 0, minute_count: 0, hour_start: 0, hour_count: 0, day_start: 0, day_count: 0 }
        rows.set(keyId, row)
      }
      const counts = WINDOWS.map((w) => {
        const start = Math.floor(now / w.ms) * w.ms
        const count = row[`${w.name}_start`] === start ? row[`${w.name}_count`] : 0
        return { ...w, start, count, max: limits[w.limit] }
      })
      const violated = counts.filter((c) => c.count >= c.max).map((c) => c.name)
      const admitted = violated.length === 0
      if (admitted) {
        for (const c of counts) {
          row[`${c.name}_start`] = c.start
          row[`${c.name}_count`] = c.count + 1
          c.count += 1
        }
        dirty.add(keyId)
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
    },
    /** Writes the counts changed since the last flush, in one transaction. */
    async flush(): Promise<void> {
      if (dirty.size > 0) flush.immediate()
    },
    /** The synchronous flush, for closing the store. */
    flushSync(): void {
      if (dirty.size > 0) flush.immediate()
    },
  }
}
