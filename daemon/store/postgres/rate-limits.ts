import type { Limits } from '../../../src/api/users.js'
import { Batcher } from '../../batcher.js'
import type { RateDecision, RateLimitsStore } from '../port.js'
import { decide, windowStarts } from '../rate-windows.js'
import type { Sql } from './connect.js'

interface Counts {
  minute_count: number
  hour_count: number
  day_count: number
}

/** One request's consume, waiting for its batch. */
interface Ask {
  keyId: string
  limits: Limits
  now: number
}

/**
 * Counted in the database, so that every node counts in the same row and the limits hold
 * exactly across nodes. The upsert's WHERE is evaluated on the row as locked by the update:
 * two nodes racing for the last slot cannot both have it.
 *
 * Under load, requests of one key arrive together: those that reach `consume` in the same turn
 * of the event loop are counted by one statement that admits all of them if the windows have
 * room for all (the usual case, far from a limit), which spares a round trip and the driver's
 * work per request. When they do not all fit, each is counted alone, in order, as before: near
 * a limit the decisions stay exact.
 */
export function rateLimitsStore(sql: Sql): RateLimitsStore {
  const one = async ({ keyId, limits, now }: Ask) => {
    const [m, h, d] = windowStarts(now)
    const counted = await countMany(keyId, limits, [m!, h!, d!], 1)
    if (counted) return decide(limits, now, [counted.minute_count - 1, counted.hour_count - 1, counted.day_count - 1])
    // Refused: what the windows hold now, for the headers and Retry-After.
    const [row] = await sql<Counts[]>`
      SELECT CASE WHEN minute_start = ${m!} THEN minute_count ELSE 0 END AS minute_count,
             CASE WHEN hour_start = ${h!} THEN hour_count ELSE 0 END AS hour_count,
             CASE WHEN day_start = ${d!} THEN day_count ELSE 0 END AS day_count
        FROM rate_limits WHERE key_id = ${keyId}`
    return decide(limits, now, [row?.minute_count ?? 0, row?.hour_count ?? 0, row?.day_count ?? 0])
  }

  /**
   * Counts `n` requests at once if every window has room for all of them; the counts after, or
   * undefined (nothing counted) if not. A window counts from its start; a row whose window is
   * older (or, from a node whose clock is behind, newer) than this one's starts again at 0.
   */
  const countMany = async (keyId: string, limits: Limits, [m, h, d]: number[], n: number): Promise<Counts | undefined> => {
    if (n > limits.per_minute || n > limits.per_hour || n > limits.per_day) return undefined
    const [counted] = await sql<Counts[]>`
      INSERT INTO rate_limits AS r (key_id, minute_start, minute_count, hour_start, hour_count, day_start, day_count)
      VALUES (${keyId}, ${m!}, ${n}, ${h!}, ${n}, ${d!}, ${n})
      ON CONFLICT (key_id) DO UPDATE SET
        minute_count = CASE WHEN r.minute_start = ${m!} THEN r.minute_count + ${n} ELSE ${n} END, minute_start = ${m!},
        hour_count = CASE WHEN r.hour_start = ${h!} THEN r.hour_count + ${n} ELSE ${n} END, hour_start = ${h!},
        day_count = CASE WHEN r.day_start = ${d!} THEN r.day_count + ${n} ELSE ${n} END, day_start = ${d!}
      WHERE (CASE WHEN r.minute_start = ${m!} THEN r.minute_count ELSE 0 END) + ${n} <= ${limits.per_minute}
        AND (CASE WHEN r.hour_start = ${h!} THEN r.hour_count ELSE 0 END) + ${n} <= ${limits.per_hour}
        AND (CASE WHEN r.day_start = ${d!} THEN r.day_count ELSE 0 END) + ${n} <= ${limits.per_day}
      RETURNING minute_count, hour_count, day_count`
    return counted
  }

  /** One key's requests of one batch, in the same windows and under the same limits. */
  const group = async (asks: Ask[]): Promise<RateDecision[]> => {
    const first = asks[0]!
    if (asks.length > 1) {
      const counted = await countMany(first.keyId, first.limits, windowStarts(first.now), asks.length)
      if (counted) {
        const n = asks.length
        return asks.map((ask, i) => decide(ask.limits, ask.now, [counted.minute_count - n + i, counted.hour_count - n + i, counted.day_count - n + i]))
      }
    }
    const decisions: RateDecision[] = []
    for (const ask of asks) {
      const refused = decisions.find((d) => !d.admitted)
      // A refusal counts nothing, so the windows stay as full for the rest of this key's
      // requests in the same windows: they are refused without asking again (a key far over its
      // limit costs no more statements than one within it).
      decisions.push(refused ? decide(ask.limits, ask.now, refused.windows.map((w) => w.limit - w.remaining)) : await one(ask))
    }
    return decisions
  }

  const batcher = new Batcher<Ask, RateDecision>(async (asks) => {
    const groups = new Map<string, number[]>()
    asks.forEach((ask, i) => {
      const { keyId, limits } = ask
      const at = `${keyId} ${windowStarts(ask.now).join(' ')} ${limits.per_minute} ${limits.per_hour} ${limits.per_day}`
      groups.set(at, [...(groups.get(at) ?? []), i])
    })
    const results = new Array<PromiseSettledResult<RateDecision>>(asks.length)
    await Promise.all(
      [...groups.values()].map(async (indexes) => {
        try {
          const decisions = await group(indexes.map((i) => asks[i]!))
          indexes.forEach((i, j) => (results[i] = { status: 'fulfilled', value: decisions[j]! }))
        } catch (error) {
          for (const i of indexes) results[i] = { status: 'rejected', reason: error }
        }
      }),
    )
    return results
  })

  return {
    consume: (keyId, limits, now) => batcher.add({ keyId, limits, now }),
    /** Nothing waits in memory: every count is written when it is made. */
    async flush() {},
  }
}
