import type { Account } from '../../../src/api/accounts.js'
import { newId } from '../../../src/ids.js'
import { toIso } from '../../../src/time.js'
import type { PlatformName } from '../../platforms/types.js'
import { SYSTEM, type AccountsStore, type WorkspaceScope } from '../port.js'
import { connectionFromRow, storedConnection, type AccountRow, type ConnectionRow } from '../rows.js'
import type { Queryable, Sql } from './connect.js'
import { appendEvent } from './events.js'

/** Accounts with their connections, in two statements however many accounts. */
async function accountsOf(q: Queryable, rows: AccountRow[]): Promise<Account[]> {
  if (rows.length === 0) return []
  const connections = await q<ConnectionRow[]>`
    SELECT * FROM connections WHERE account_id = ANY(${rows.map((r) => r.id)}) ORDER BY account_id, platform`
  return rows.map((row) => ({
    id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    connections: connections.filter((c) => c.account_id === row.id).map(connectionFromRow),
    created_at: toIso(row.created_at),
  }))
}

/** Accounts by id, with their connections. */
export async function accountsByIds(q: Queryable, ids: string[]): Promise<Account[]> {
  return accountsOf(q, await q<AccountRow[]>`SELECT * FROM accounts WHERE id = ANY(${ids}) ORDER BY id`)
}

async function ownedAccount(q: Queryable, scope: WorkspaceScope, id: string, lock = false): Promise<AccountRow | undefined> {
  const [row] = lock
    ? await q<AccountRow[]>`SELECT * FROM accounts WHERE id = ${id} AND workspace_id = ANY(${scope}::text[]) FOR UPDATE`
    : await q<AccountRow[]>`SELECT * FROM accounts WHERE id = ${id} AND workspace_id = ANY(${scope}::text[])`
  return row
}

export function accountsStore(sql: Sql): AccountsStore {
  const one = async (rows: AccountRow[]) => (await accountsOf(sql, rows))[0]
  return {
    async create(workspaceId, userId, name, now) {
      return (await one(await sql<AccountRow[]>`
        INSERT INTO accounts (id, workspace_id, user_id, name, created_at) VALUES (${newId('acc', now)}, ${workspaceId}, ${userId}, ${name}, ${now}) RETURNING *`))!
    },
    async rename(scope, accountId, name, now, by) {
      return sql.begin(async (tx) => {
        const row = await ownedAccount(tx, scope, accountId, true)
        if (!row) return undefined
        const [renamed] = await tx<AccountRow[]>`UPDATE accounts SET name = ${name} WHERE id = ${accountId} RETURNING *`
        const [account] = await accountsOf(tx, [renamed!])
        await appendEvent(tx, row.workspace_id, 'account.updated', account, now, by)
        return account
      })
    },
    async get(scope, id) {
      const row = await ownedAccount(sql, scope, id)
      return one(row ? [row] : [])
    },
    async getPublic(id) {
      return one(await sql<AccountRow[]>`SELECT * FROM accounts WHERE id = ${id}`)
    },
    async listPage(scope, platform: PlatformName | undefined, after, limit) {
      const rows = platform
        ? await sql<AccountRow[]>`
            SELECT a.* FROM accounts a JOIN connections c ON c.account_id = a.id AND c.platform = ${platform}
             WHERE a.workspace_id = ANY(${scope}::text[]) AND a.id > ${after} ORDER BY a.id LIMIT ${limit}`
        : await sql<AccountRow[]>`SELECT * FROM accounts WHERE workspace_id = ANY(${scope}::text[]) AND id > ${after} ORDER BY id LIMIT ${limit}`
      return accountsOf(sql, rows)
    },
    async connect(scope, accountId, input, now, by) {
      return sql.begin(async (tx) => {
        const row = await ownedAccount(tx, scope, accountId, true)
        if (!row) return undefined
        await tx`
          INSERT INTO connections (account_id, platform, handle, display_name, status, credentials, settings, connected_at)
          VALUES (${accountId}, ${input.platform}, ${input.handle}, ${input.displayName}, 'active', ${input.sealedCredentials},
                  ${JSON.stringify(input.settings)}, ${now})
          ON CONFLICT (account_id, platform) DO UPDATE SET
            handle = excluded.handle, display_name = excluded.display_name, status = 'active',
            credentials = excluded.credentials, settings = excluded.settings, connected_at = excluded.connected_at`
        const [account] = await accountsOf(tx, [row])
        await appendEvent(tx, row.workspace_id, 'account.connected', { ...account, platform: input.platform }, now, by)
        return account!.connections.find((c) => c.platform === input.platform)!
      })
    },
    async disconnect(scope, accountId, platform, now, by) {
      return sql.begin(async (tx) => {
        const row = await ownedAccount(tx, scope, accountId, true)
        if (!row) return false
        const removed = await tx`DELETE FROM connections WHERE account_id = ${accountId} AND platform = ${platform} RETURNING 1`
        if (removed.length === 0) return false
        const [account] = await accountsOf(tx, [row])
        await appendEvent(tx, row.workspace_id, 'account.disconnected', { ...account, platform }, now, by)
        return true
      })
    },
    async connections(accountId) {
      const rows = await sql<(ConnectionRow & { workspace_id: string })[]>`
        SELECT c.*, a.workspace_id FROM connections c JOIN accounts a ON a.id = c.account_id WHERE c.account_id = ${accountId} ORDER BY c.platform`
      return rows.map((row) => storedConnection(row, row.workspace_id))
    },
    async connection(accountId, platform) {
      const [row] = await sql<(ConnectionRow & { workspace_id: string })[]>`
        SELECT c.*, a.workspace_id FROM connections c JOIN accounts a ON a.id = c.account_id
         WHERE c.account_id = ${accountId} AND c.platform = ${platform}`
      return row && storedConnection(row, row.workspace_id)
    },
  }
}

/**
 * Stores credentials a platform refreshed while publishing, unless the user reconnected since
 * `connectedAt` (their new credentials win). On `q`: the transaction that records the publish.
 */
export async function replaceCredentials(q: Queryable, accountId: string, platform: PlatformName, sealed: Buffer, connectedAt: number): Promise<void> {
  await q`UPDATE connections SET credentials = ${sealed} WHERE account_id = ${accountId} AND platform = ${platform} AND connected_at = ${connectedAt}`
}

/** The platform refused the credentials: `reauth_required`, and its event once, on the change from active. */
export async function markReauthRequired(q: Queryable, accountId: string, platform: PlatformName, now: number): Promise<void> {
  const changed = await q`
    UPDATE connections SET status = 'reauth_required' WHERE account_id = ${accountId} AND platform = ${platform} AND status = 'active' RETURNING 1`
  if (changed.length === 0) return
  const [row] = await q<AccountRow[]>`SELECT * FROM accounts WHERE id = ${accountId}`
  const [account] = await accountsOf(q, [row!])
  await appendEvent(q, row!.workspace_id, 'account.reauth_required', { ...account, platform }, now, SYSTEM)
}
