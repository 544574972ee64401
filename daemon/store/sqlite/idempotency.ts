import type { Db } from './db.js'
import type { StoredResponse, IdempotencyClaim } from '../port.js'
import { earlierClaim, IDEMPOTENCY_TTL_MS, type IdempotencyRow as Row } from '../rows.js'

export function idempotencyStore(db: Db) {
  const get = db.prepare<[string, string], Row>('SELECT * FROM idempotency_keys WHERE user_id = ? AND key = ?')
  const claim = db.prepare<[string, string, string, string, string, number, number], void>(
    `INSERT INTO idempotency_keys (user_id, key, method, path, body_hash, state, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, 'running', ?, ?)
     ON CONFLICT (user_id, key) DO UPDATE SET
       method = excluded.method, path = excluded.path, body_hash = excluded.body_hash,
       state = 'running', status = NULL, response = NULL,
       created_at = excluded.created_at, expires_at = excluded.expires_at`,
  )
  const complete = db.prepare<[number, Buffer, string, string], void>(
    "UPDATE idempotency_keys SET state = 'done', status = ?, response = ? WHERE user_id = ? AND key = ?",
  )
  const release = db.prepare<[string, string], void>("DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND state = 'running'")
  const purge = db.prepare<[number], void>('DELETE FROM idempotency_keys WHERE expires_at <= ?')
  const abandonAll = db.prepare<[], void>("DELETE FROM idempotency_keys WHERE state = 'running'")

  const begin = db.transaction(
    (userId: string, key: string, method: string, path: string, bodyHash: string, now: number): IdempotencyClaim => {
      const earlier = earlierClaim(get.get(userId, key), method, path, bodyHash, now)
      if (earlier) return earlier
      claim.run(userId, key, method, path, bodyHash, now, now + IDEMPOTENCY_TTL_MS)
      return { kind: 'claimed' }
    },
  )

  return {
    /** Claims the key for this request, or says what an earlier request with it left. */
    async begin(userId: string, key: string, method: string, path: string, bodyHash: string, now: number): Promise<IdempotencyClaim> {
      return begin.immediate(userId, key, method, path, bodyHash, now)
    },
    async complete(userId: string, key: string, response: StoredResponse): Promise<void> {
      complete.run(response.status, response.sealed, userId, key)
    },
    /** Gives the key up without a stored answer (the request never reached a handler's answer). */
    async release(userId: string, key: string): Promise<void> {
      release.run(userId, key)
    },
    async purgeExpired(now: number): Promise<void> {
      purge.run(now)
    },
    /** At start-up nothing is in flight: claims left running by a previous process are void. */
    async abandonRunning(): Promise<void> {
      abandonAll.run()
    },
  }
}
