import { timingSafeEqual } from 'node:crypto'
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../../../src/api-key.js'
import type { NewKeySecret } from '../../../src/api/api-keys.js'
import { newId } from '../../../src/ids.js'
import { lastUseDue, type Actor, type ApiKeysStore, type NewApiKey } from '../port.js'
import { appendEvent } from './events.js'
import { keyFromRow, principalOf, type HashRow, type KeyRow } from '../rows.js'
import type { Queryable, Sql } from './connect.js'
import { membershipRows } from './workspaces.js'
import type { MembershipRow } from '../rows.js'

/**
 * Creates a key on `q` (a transaction) and returns it with its secret, the only time the secret
 * exists in clear; each workspace of the user's, where the key acts, records `key.created`.
 */
export async function createApiKey(q: Queryable, userId: string, input: NewApiKey, now: number, by: Actor): Promise<NewKeySecret> {
  const secret = generateApiKey()
  const [row] = await q<KeyRow[]>`
    INSERT INTO api_keys (id, user_id, name, prefix, hash, scopes, created_at, expires_at)
    VALUES (${newId('key', now)}, ${userId}, ${input.name}, ${apiKeyDisplayPrefix(secret)}, ${hashApiKey(secret)},
            ${input.scopes.join(' ')}, ${now}, ${input.expiresAt ?? null})
    RETURNING *`
  const key = keyFromRow(row!)
  for (const { workspace_id } of await membershipRows(q, userId)) await appendEvent(q, workspace_id, 'key.created', { ...key, user_id: userId }, now, by)
  return { ...key, secret }
}

/** How long (on the daemon's clock) an authenticated key is reused without asking the database, at most. */
const KNOWN_FOR_MS = 1_000

/**
 * Keys authenticated on this node are kept for up to a second, so the hot path does not read
 * the same rows on every request. Any change to a key, a user, a workspace or a membership,
 * through any node or `smm admin`, notifies every node (a trigger's pg_notify on 'smm_auth') and each forgets them at
 * once; the second's bound holds even while the notification connection is being re-made.
 */
export function apiKeysStore(sql: Sql): ApiKeysStore {
  const known = new Map<string, { row: HashRow; memberships?: MembershipRow[]; at: number }>()
  void sql.listen('smm_auth', () => known.clear(), () => known.clear()).catch(() => known.clear())
  const lookUp = async (hash: string) =>
    (
      await sql<HashRow[]>`
        SELECT k.*, u.id AS u_id, u.name AS u_name, u.email AS u_email, u.plan AS u_plan,
               u.custom_per_minute AS u_custom_per_minute, u.custom_per_hour AS u_custom_per_hour,
               u.custom_per_day AS u_custom_per_day, u.timezone AS u_timezone, u.is_owner AS u_is_owner,
               u.created_at AS u_created_at
          FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.hash = ${hash}`
    )[0]
  const own = async (userId: string | null, id: string) => {
    const [row] = await sql<KeyRow[]>`SELECT * FROM api_keys WHERE id = ${id}`
    return row && (userId === null || row.user_id === userId) ? row : undefined
  }
  return {
    create: (userId, input, now, by) => sql.begin((tx) => createApiKey(tx, userId, input, now, by)),
    async authenticate(hash, now) {
      const fresh = known.get(hash)
      let entry = fresh && now >= fresh.at && now - fresh.at < KNOWN_FOR_MS ? fresh : undefined
      const row = entry ? entry.row : await lookUp(hash)
      // As on SQLite: found by the hash's index, then compared again in constant time.
      if (!row || !timingSafeEqual(Buffer.from(row.hash), Buffer.from(hash))) return 'unknown'
      if (!entry) {
        if (known.size >= 10_000) known.clear()
        known.set(hash, (entry = { row, at: now }))
      }
      if (row.revoked_at !== null && row.revoked_at <= now) return 'revoked'
      if (row.expires_at !== null && row.expires_at <= now) return 'expired'
      // The owner's memberships are cached with the key, and forgotten with it on any change to a
      // workspace or its members (migration 13's triggers notify 'smm_auth').
      entry.memberships ??= await membershipRows(sql, row.user_id)
      return principalOf(row, entry.memberships)
    },
    async touch(principal, now) {
      if (!lastUseDue(principal, now)) return
      await sql`UPDATE api_keys SET last_used_at = ${now} WHERE id = ${principal.key.id}`
    },
    async get(userId, id) {
      const row = await own(userId, id)
      return row && keyFromRow(row)
    },
    async listPage(userId, after, limit) {
      return (await sql<KeyRow[]>`SELECT * FROM api_keys WHERE user_id = ${userId} AND id > ${after} ORDER BY id LIMIT ${limit}`).map(keyFromRow)
    },
    async listAll() {
      return (await sql<KeyRow[]>`SELECT * FROM api_keys ORDER BY user_id, id`).map((row) => ({ ...keyFromRow(row), user_id: row.user_id }))
    },
    async revoke(userId, id, now) {
      if (!(await own(userId, id))) return undefined
      const [row] = await sql<KeyRow[]>`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ${now}) WHERE id = ${id} RETURNING *`
      return keyFromRow(row!)
    },
  }
}
