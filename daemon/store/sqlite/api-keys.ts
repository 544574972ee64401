import { timingSafeEqual } from 'node:crypto'
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../../../src/api-key.js'
import { newId } from '../../../src/ids.js'
import type { ApiKey, NewKeySecret } from '../../../src/api/api-keys.js'
import type { CommitSignal } from './commits.js'
import type { Db } from './db.js'
import { keyFromRow, principalOf, type HashRow, type KeyRow } from '../rows.js'
import { lastUseDue, type Actor, type Principal, type NewApiKey, type KeyRejection } from '../port.js'
import type { eventsStore } from './events.js'
import { membershipsOf } from './workspaces.js'

export function apiKeysStore(db: Db, commits: CommitSignal, events: ReturnType<typeof eventsStore>) {
  const insert = db.prepare<[string, string, string, string, string, string, number, number | null], void>(
    'INSERT INTO api_keys (id, user_id, name, prefix, hash, scopes, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  )
  const byId = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE id = ?')
  // One indexed lookup for the hot path: the key and its owner's columns under u_ names.
  const byHash = db.prepare<[string], HashRow>(
    `SELECT k.*, u.id AS u_id, u.name AS u_name, u.email AS u_email, u.plan AS u_plan,
            u.custom_per_minute AS u_custom_per_minute, u.custom_per_hour AS u_custom_per_hour,
            u.custom_per_day AS u_custom_per_day, u.timezone AS u_timezone, u.is_owner AS u_is_owner,
            u.created_at AS u_created_at
       FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.hash = ?`,
  )
  const page = db.prepare<[string, string, number], KeyRow>(
    'SELECT * FROM api_keys WHERE user_id = ? AND id > ? ORDER BY id LIMIT ?',
  )
  const all = db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY user_id, id')
  const memberships = membershipsOf(db)
  const revoke = db.prepare<[number, string], void>('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?')
  const touch = db.prepare<[number, string], void>('UPDATE api_keys SET last_used_at = ? WHERE id = ?')

  // A key acts in every workspace of its user's: each one's audit log records it.
  const createTx = db.transaction((userId: string, input: NewApiKey, now: number, by: Actor): NewKeySecret => {
    const secret = generateApiKey()
    const id = newId('key', now)
    insert.run(id, userId, input.name, apiKeyDisplayPrefix(secret), hashApiKey(secret), input.scopes.join(' '), now, input.expiresAt ?? null)
    const key = keyFromRow(byId.get(id)!)
    for (const { workspace_id } of memberships(userId)) events.appendSync(workspace_id, 'key.created', { ...key, user_id: userId }, now, by)
    return { ...key, secret }
  })
  const createSync = (userId: string, input: NewApiKey, now: number, by: Actor): NewKeySecret => createTx(userId, input, now, by)

  // Keys already authenticated (with their owner's memberships), by hash, so the hot path does
  // not re-read and re-map the same rows. A change to the rows a principal is made of drops them
  // all (a member removed loses access with the next request), however it was made:
  // - through this connection, at once: temporary triggers (this connection's alone, never in the
  //   file) on those tables mark the cache stale as the row changes;
  // - through another connection or process (`smm admin` revoking a key, changing a plan): any
  //   commit rewrites the wal-index header, read (a system call, 1–2 µs) at most once per turn
  //   of the event loop. The requests read from sockets in one turn arrived before it began, so
  //   each is still answered with what was committed before it arrived.
  const known = new Map<string, { principal: Principal; revokedAt: number | null; expiresAt: number | null }>()
  let written = false
  db.function('smm_principal_rows_written', () => {
    written = true
    return null
  })
  for (const table of ['api_keys', 'users', 'workspace_members', 'workspaces']) {
    for (const change of ['INSERT', 'UPDATE', 'DELETE']) {
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS smm_cache_${table}_${change.toLowerCase()} AFTER ${change} ON main.${table} BEGIN SELECT smm_principal_rows_written(); END`)
    }
  }
  let askedThisTurn = false
  const nextTurn = () => {
    askedThisTurn = false
  }
  function dropStale(): void {
    if (!askedThisTurn) {
      askedThisTurn = true
      setImmediate(nextTurn)
      if (commits.changed()) written = true
    }
    if (written) {
      written = false
      known.clear()
    }
  }

  return {
    /** The synchronous core of `create`, for units of work that span tables. */
    createSync,
    /** Creates a key and returns it with its secret, the only time the secret exists in clear. */
    async create(userId: string, input: NewApiKey, now: number, by: Actor): Promise<NewKeySecret> {
      return createTx.immediate(userId, input, now, by)
    },

    /** Finds the key with this hash and its owner, or says why it is not usable. */
    async authenticate(hash: string, now: number): Promise<Principal | KeyRejection> {
      dropStale()
      let entry = known.get(hash)
      if (!entry) {
        const row = byHash.get(hash)
        // The lookup is by the hash's index; comparing again in constant time keeps the final
        // decision from depending on how many leading characters matched.
        if (!row || !timingSafeEqual(Buffer.from(row.hash), Buffer.from(hash))) return 'unknown'
        entry = { principal: principalOf(row, memberships(row.user_id)), revokedAt: row.revoked_at, expiresAt: row.expires_at }
        if (known.size >= 10_000) known.clear()
        known.set(hash, entry)
      }
      if (entry.revokedAt !== null && entry.revokedAt <= now) return 'revoked'
      if (entry.expiresAt !== null && entry.expiresAt <= now) return 'expired'
      return entry.principal
    },

    /** Records a use of the key, at most once a minute. */
    async touch(principal: Principal, now: number): Promise<void> {
      if (!lastUseDue(principal, now)) return
      touch.run(now, principal.key.id)
    },

    async get(userId: string | null, id: string): Promise<ApiKey | undefined> {
      const row = byId.get(id)
      if (!row || (userId !== null && row.user_id !== userId)) return undefined
      return keyFromRow(row)
    },

    async listPage(userId: string, after: string, limit: number): Promise<ApiKey[]> {
      return page.all(userId, after, limit).map(keyFromRow)
    },

    /** Every key of every user, for the operator. */
    async listAll(): Promise<(ApiKey & { user_id: string })[]> {
      return all.all().map((row) => ({ ...keyFromRow(row), user_id: row.user_id }))
    },

    /** Revokes a key (a second revoke keeps the first time). Undefined if there is no such key. */
    async revoke(userId: string | null, id: string, now: number): Promise<ApiKey | undefined> {
      const row = byId.get(id)
      if (!row || (userId !== null && row.user_id !== userId)) return undefined
      revoke.run(now, id)
      return keyFromRow(byId.get(id)!)
    },
  }
}
