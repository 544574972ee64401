import type { Limits } from '../../../src/api/users.js'
import type { RateLimitsStore } from '../port.js'
import { decide, windowStarts } from '../rate-windows.js'
import type { Sql } from './connect.js'

interface Counts {
  minute_count: number
  hour_count: number
  day_count: number
}

/**
 * Counted in the database, one statement per request, so that every node counts in the same
 * row and the limits hold exactly across nodes. The upsert's WHERE is evaluated on the row
 * as locked by the update: two nodes racing for the last slot cannot both have it.
 */
export function rateLimitsStore(sql: Sql): RateLimitsStore {
  return {
    async consume(keyId: string, limits: Limits, now: number) {
      const [m, h, d] = windowStarts(now)
      // A window counts from its start; a row whose window is older (or, from a node whose clock
      // is behind, newer) than this one's starts again at 0.
      const [counted] = await sql<Counts[]>`
        INSERT INTO rate_limits AS r (key_id, minute_start, minute_count, hour_start, hour_count, day_start, day_count)
        VALUES (${keyId}, ${m!}, 1, ${h!}, 1, ${d!}, 1)
        ON CONFLICT (key_id) DO UPDATE SET
          minute_count = CASE WHEN r.minute_start = ${m!} THEN r.minute_count + 1 ELSE 1 END, minute_start = ${m!},
          hour_count = CASE WHEN r.hour_start = ${h!} THEN r.hour_count + 1 ELSE 1 END, hour_start = ${h!},
          day_count = CASE WHEN r.day_start = ${d!} THEN r.day_count + 1 ELSE 1 END, day_start = ${d!}
        WHERE (CASE WHEN r.minute_start = ${m!} THEN r.minute_count ELSE 0 END) < ${limits.per_minute}
          AND (CASE WHEN r.hour_start = ${h!} THEN r.hour_count ELSE 0 END) < ${limits.per_hour}
          AND (CASE WHEN r.day_start = ${d!} THEN r.day_count ELSE 0 END) < ${limits.per_day}
        RETURNING minute_count, hour_count, day_count`
      if (counted) return decide(limits, now, [counted.minute_count - 1, counted.hour_count - 1, counted.day_count - 1])
      // Refused: what the windows hold now, for the headers and Retry-After.
      const [row] = await sql<Counts[]>`
        SELECT CASE WHEN minute_start = ${m!} THEN minute_count ELSE 0 END AS minute_count,
               CASE WHEN hour_start = ${h!} THEN hour_count ELSE 0 END AS hour_count,
               CASE WHEN day_start = ${d!} THEN day_count ELSE 0 END AS day_count
          FROM rate_limits WHERE key_id = ${keyId}`
      return decide(limits, now, [row?.minute_count ?? 0, row?.hour_count ?? 0, row?.day_count ?? 0])
    },
    /** Nothing waits in memory: every count is written when it is made. */
    async flush() {},
  }
}
