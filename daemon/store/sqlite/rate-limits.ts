import type { Limits } from '../../../src/api/users.js'
import type { Db } from './db.js'
import type { RateDecision } from '../port.js'
import { decide, windowStart } from '../rate-windows.js'

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
  // Per key: the start and count of its minute, hour and day window, in WINDOWS order.
  const counters = new Map<string, { starts: number[]; counts: number[] }>()
  const dirty = new Set<string>()

  const flush = db.transaction(() => {
    for (const keyId of dirty) {
      const { starts, counts } = counters.get(keyId)!
      put.run(keyId, starts[0]!, counts[0]!, starts[1]!, counts[1]!, starts[2]!, counts[2]!)
    }
    dirty.clear()
  })

  function counterOf(keyId: string) {
    let counter = counters.get(keyId)
    if (!counter) {
      const row = get.get(keyId)
      counter = row
        ? { starts: [row.minute_start, row.hour_start, row.day_start], counts: [row.minute_count, row.hour_count, row.day_count] }
        : { starts: [0, 0, 0], counts: [0, 0, 0] }
      counters.set(keyId, counter)
    }
    return counter
  }

  return {
    async consume(keyId: string, limits: Limits, now: number): Promise<RateDecision> {
      const { starts, counts } = counterOf(keyId)
      for (let i = 0; i < starts.length; i++) {
        const start = windowStart(i, now)
        if (starts[i] !== start) {
          starts[i] = start
          counts[i] = 0
        }
      }
      const decision = decide(limits, now, counts)
      if (decision.admitted) {
        for (let i = 0; i < counts.length; i++) counts[i]! += 1
        dirty.add(keyId)
      }
      return decision
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
