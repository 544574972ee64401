import type { Account, Connection } from '../../../src/api/accounts.js'
import { newId } from '../../../src/ids.js'
import { toIso } from '../../../src/time.js'
import type { PlatformName } from '../../platforms/types.js'
import type { Db } from './db.js'
import type { eventsStore } from './events.js'
import { SYSTEM, type Actor, type StoredConnection, type NewConnection, type WorkspaceScope } from '../port.js'
import { connectionFromRow, storedConnection, type AccountRow, type ConnectionRow } from '../rows.js'




export function accountsStore(db: Db, events: ReturnType<typeof eventsStore>) {
  const insert = db.prepare<[string, string, string, string, number], void>('INSERT INTO accounts (id, workspace_id, user_id, name, created_at) VALUES (?, ?, ?, ?, ?)')
  const byId = db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE id = ?')
  // In the scope's workspaces, by id: one workspace is a range of the index; several, each
  // looked up in it (the JSON array of the scope is one statement for any number).
  const page = db.prepare<[string, string, number], AccountRow>(
    'SELECT a.* FROM json_each(?) s CROSS JOIN accounts a ON a.workspace_id = s.value WHERE a.id > ? ORDER BY a.id LIMIT ?',
  )
  const pageOnPlatform = db.prepare<[string, string, string, number], AccountRow>(
    `SELECT a.* FROM json_each(?) s CROSS JOIN accounts a ON a.workspace_id = s.value JOIN connections c ON c.account_id = a.id AND c.platform = ?
      WHERE a.id > ? ORDER BY a.id LIMIT ?`,
  )
  const connectionsOf = db.prepare<[string], ConnectionRow>('SELECT * FROM connections WHERE account_id = ? ORDER BY platform')
  const connection = db.prepare<[string, string], ConnectionRow & { workspace_id: string }>(
    'SELECT c.*, a.workspace_id FROM connections c JOIN accounts a ON a.id = c.account_id WHERE c.account_id = ? AND c.platform = ?',
  )
  const upsert = db.prepare<[string, string, string, string, Buffer, string, number], void>(
    `INSERT INTO connections (account_id, platform, handle, display_name, status, credentials, settings, connected_at)
     VALUES (?, ?, ?, ?, 'active', ?, ?, ?)
     ON CONFLICT (account_id, platform) DO UPDATE SET
       handle = excluded.handle, display_name = excluded.display_name, status = 'active',
       credentials = excluded.credentials, settings = excluded.settings, connected_at = excluded.connected_at`,
  )
  const replaceCredentials = db.prepare<[Buffer, string, string, number], void>(
    'UPDATE connections SET credentials = ? WHERE account_id = ? AND platform = ? AND connected_at = ?',
  )
  const remove = db.prepare<[string, string], void>('DELETE FROM connections WHERE account_id = ? AND platform = ?')
  const setName = db.prepare<[string, string], void>('UPDATE accounts SET name = ? WHERE id = ?')
  const markReauth = db.prepare<[string, string], void>(
    "UPDATE connections SET status = 'reauth_required' WHERE account_id = ? AND platform = ? AND status = 'active'",
  )

  function accountFromRow(row: AccountRow): Account {
    return { id: row.id, workspace_id: row.workspace_id, name: row.name, connections: connectionsOf.all(row.id).map(connectionFromRow), created_at: toIso(row.created_at) }
  }

  function owned(scope: WorkspaceScope, id: string): AccountRow | undefined {
    const row = byId.get(id)
    return row && scope.includes(row.workspace_id) ? row : undefined
  }

  const connect = db.transaction((scope: WorkspaceScope, accountId: string, input: NewConnection, now: number, by: Actor) => {
    const row = owned(scope, accountId)
    if (!row) return undefined
    upsert.run(accountId, input.platform, input.handle, input.displayName, input.sealedCredentials, JSON.stringify(input.settings), now)
    const account = accountFromRow(row)
    events.appendSync(row.workspace_id, 'account.connected', { ...account, platform: input.platform }, now, by)
    return account.connections.find((c) => c.platform === input.platform)!
  })

  const disconnect = db.transaction((scope: WorkspaceScope, accountId: string, platform: PlatformName, now: number, by: Actor) => {
    const row = owned(scope, accountId)
    if (!row || !connection.get(accountId, platform)) return false
    remove.run(accountId, platform)
    events.appendSync(row.workspace_id, 'account.disconnected', { ...accountFromRow(row), platform }, now, by)
    return true
  })

  const rename = db.transaction((scope: WorkspaceScope, accountId: string, name: string, now: number, by: Actor) => {
    const row = owned(scope, accountId)
    if (!row) return undefined
    setName.run(name, accountId)
    const account = accountFromRow(byId.get(accountId)!)
    events.appendSync(row.workspace_id, 'account.updated', account, now, by)
    return account
  })

  return {
    /** The synchronous core of `get`, for units of work that span tables. */
    getSync(scope: WorkspaceScope, id: string): Account | undefined {
      const row = owned(scope, id)
      return row && accountFromRow(row)
    },

    /** Renames an account and records `account.updated`, together; undefined if it is not in the scope. */
    async rename(scope: WorkspaceScope, accountId: string, name: string, now: number, by: Actor): Promise<Account | undefined> {
      return rename.immediate(scope, accountId, name, now, by)
    },

    async create(workspaceId: string, userId: string, name: string, now: number): Promise<Account> {
      const id = newId('acc', now)
      insert.run(id, workspaceId, userId, name, now)
      return accountFromRow(byId.get(id)!)
    },

    /** The account, or undefined if there is none in the scope. */
    async get(scope: WorkspaceScope, id: string): Promise<Account | undefined> {
      const row = owned(scope, id)
      return row && accountFromRow(row)
    },

    /** The account with this id whoever owns it: the public feeds have no user. */
    async getPublic(id: string): Promise<Account | undefined> {
      const row = byId.get(id)
      return row && accountFromRow(row)
    },

    async listPage(scope: WorkspaceScope, platform: PlatformName | undefined, after: string, limit: number): Promise<Account[]> {
      const rows = platform ? pageOnPlatform.all(JSON.stringify(scope), platform, after, limit) : page.all(JSON.stringify(scope), after, limit)
      return rows.map(accountFromRow)
    },

    /** Connects (or reconnects) a platform and records `account.connected`, together. */
    async connect(scope: WorkspaceScope, accountId: string, input: NewConnection, now: number, by: Actor): Promise<Connection | undefined> {
      return connect.immediate(scope, accountId, input, now, by)
    },

    /** Removes a connection and records `account.disconnected`; false if there was none. */
    async disconnect(scope: WorkspaceScope, accountId: string, platform: PlatformName, now: number, by: Actor): Promise<boolean> {
      return disconnect.immediate(scope, accountId, platform, now, by)
    },

    /** Every connection of one account, for checking a post against its targets. */
    async connections(accountId: string): Promise<StoredConnection[]> {
      return connectionsOf.all(accountId).map((row) => storedConnection(row, byId.get(accountId)!.workspace_id))
    },

    async connection(accountId: string, platform: PlatformName): Promise<StoredConnection | undefined> {
      const row = connection.get(accountId, platform)
      return row && storedConnection(row, row.workspace_id)
    },

    /**
     * Stores credentials a platform refreshed while publishing (a new session), unless the
     * user reconnected since `connectedAt`: their new credentials win. Call inside the
     * transaction that records the publish.
     */
    replaceCredentialsSync(accountId: string, platform: PlatformName, sealed: Buffer, connectedAt: number): void {
      replaceCredentials.run(sealed, accountId, platform, connectedAt)
    },

    /**
     * The platform refused the credentials: the connection needs the user. Call inside the
     * transaction that records the failure; `account.reauth_required` is emitted once, on the
     * change from active.
     */
    markReauthRequiredSync(accountId: string, platform: PlatformName, now: number): void {
      if (markReauth.run(accountId, platform).changes === 0) return
      const row = byId.get(accountId)!
      events.appendSync(row.workspace_id, 'account.reauth_required', { ...accountFromRow(row), platform }, now, SYSTEM)
    },
  }
}

