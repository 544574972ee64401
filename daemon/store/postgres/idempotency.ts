import type { IdempotencyStore } from '../port.js'
import { earlierClaim, IDEMPOTENCY_TTL_MS, type IdempotencyRow } from '../rows.js'
import type { Sql } from './connect.js'

/**
 * The same key sent to two nodes at once: the first insert wins, the other node finds its row
 * (locked until that insert commits) and answers 409 in flight, so one request runs.
 */
export function idempotencyStore(sql: Sql, nodeId: string): IdempotencyStore {
  return {
    async begin(userId, key, method, path, bodyHash, now) {
      return sql.begin(async (tx) => {
        const [fresh] = await tx`
          INSERT INTO idempotency_keys (user_id, key, method, path, body_hash, state, claimed_by, created_at, expires_at)
          VALUES (${userId}, ${key}, ${method}, ${path}, ${bodyHash}, 'running', ${nodeId}, ${now}, ${now + IDEMPOTENCY_TTL_MS})
          ON CONFLICT (user_id, key) DO NOTHING RETURNING 1 AS claimed`
        if (fresh) return { kind: 'claimed' as const }
        const [row] = await tx<IdempotencyRow[]>`SELECT * FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key} FOR UPDATE`
        const earlier = earlierClaim(row, method, path, bodyHash, now)
        if (earlier) return earlier
        await tx`
          UPDATE idempotency_keys SET method = ${method}, path = ${path}, body_hash = ${bodyHash}, state = 'running', claimed_by = ${nodeId},
                 status = NULL, response = NULL, created_at = ${now}, expires_at = ${now + IDEMPOTENCY_TTL_MS}
           WHERE user_id = ${userId} AND key = ${key}`
        return { kind: 'claimed' as const }
      })
    },
    async complete(userId, key, response) {
      await sql`UPDATE idempotency_keys SET state = 'done', status = ${response.status}, response = ${response.sealed}
                 WHERE user_id = ${userId} AND key = ${key}`
    },
    async release(userId, key) {
      await sql`DELETE FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key} AND state = 'running'`
    },
    async purgeExpired(now) {
      await sql`DELETE FROM idempotency_keys WHERE expires_at <= ${now}`
    },
    /**
     * At this node's start, its own claims still running are void (it was stopped mid-request);
     * other nodes' are theirs, and free again a minute after a node dies (earlierClaim).
     */
    async abandonRunning() {
      await sql`DELETE FROM idempotency_keys WHERE state = 'running' AND claimed_by = ${nodeId}`
    },
  }
}
