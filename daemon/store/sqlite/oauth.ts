import type { OAuthGrant, OAuthStore } from '../port.js'
import { oauthAppOf, oauthGrantOf, type OAuthAppRow, type OAuthGrantRow } from '../rows.js'
import type { Db } from './db.js'

export function oauthStore(db: Db): OAuthStore {
  const upsertApp = db.prepare<[string, string, Buffer, number], void>(
    `INSERT INTO oauth_apps (platform, client_id, client_secret, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (platform) DO UPDATE SET client_id = excluded.client_id, client_secret = excluded.client_secret, updated_at = excluded.updated_at`,
  )
  const app = db.prepare<[string], OAuthAppRow>('SELECT * FROM oauth_apps WHERE platform = ?')
  const apps = db.prepare<[], OAuthAppRow>('SELECT * FROM oauth_apps ORDER BY platform')
  const deleteApp = db.prepare<[string], void>('DELETE FROM oauth_apps WHERE platform = ?')
  const purge = db.prepare<[number], void>('DELETE FROM oauth_grants WHERE expires_at <= ?')
  const insertGrant = db.prepare<[string, string, string, string, Buffer, number, number], void>(
    'INSERT INTO oauth_grants (state_hash, user_id, account_id, platform, secrets, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  )
  // Untaken grants of the account and platform beyond the newest `keep`, the one just made first.
  const trim = db.prepare<[string, string, string, string, string, number], void>(
    `DELETE FROM oauth_grants WHERE account_id = ? AND platform = ? AND state_hash NOT LIKE 'taken:%' AND state_hash NOT IN (
       SELECT state_hash FROM oauth_grants WHERE account_id = ? AND platform = ? AND state_hash NOT LIKE 'taken:%'
        ORDER BY state_hash = ? DESC, created_at DESC LIMIT ?)`,
  )
  const createGrant = db.transaction((grant: OAuthGrant, now: number, keep: number) => {
    purge.run(now)
    insertGrant.run(grant.stateHash, grant.userId, grant.accountId, grant.platform, grant.sealedSecrets, grant.createdAt, grant.expiresAt)
    trim.run(grant.accountId, grant.platform, grant.accountId, grant.platform, grant.stateHash, keep)
  })
  // A taken grant keeps its row, under a key no state hashes to, until its exchange is done.
  const take = db.prepare<[string], OAuthGrantRow>("UPDATE oauth_grants SET state_hash = 'taken:' || state_hash WHERE state_hash = ? RETURNING *")
  const finish = db.prepare<[string], void>("DELETE FROM oauth_grants WHERE state_hash = 'taken:' || ?")
  // A claim is taken when there is none, or the one there has lapsed (its node died mid-refresh).
  const claim = db.prepare<[string, string, string, number, number], void>(
    `INSERT INTO oauth_refresh_claims (account_id, platform, holder, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id, platform) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
     WHERE oauth_refresh_claims.expires_at <= ?`,
  )
  const release = db.prepare<[string, string, string], void>('DELETE FROM oauth_refresh_claims WHERE account_id = ? AND platform = ? AND holder = ?')
  const replace = db.prepare<[Buffer, string, string, number], void>('UPDATE connections SET credentials = ? WHERE account_id = ? AND platform = ? AND connected_at = ?')

  // Saved only while the holder's claim is there to give up (one writer at a time: nothing comes between).
  const saveRefreshed = db.transaction((accountId: string, platform: string, holder: string, sealed: Buffer, connectedAt: number) => {
    if (release.run(accountId, platform, holder).changes === 0) return 'claim_lost' as const
    return replace.run(sealed, accountId, platform, connectedAt).changes > 0 ? ('saved' as const) : ('reconnected' as const)
  })

  return {
    async setApp(platform, clientId, sealedSecret, now) {
      upsertApp.run(platform, clientId, sealedSecret, now)
    },
    async getApp(platform) {
      const row = app.get(platform)
      return row && oauthAppOf(row)
    },
    async listApps() {
      return apps.all().map(oauthAppOf)
    },
    async removeApp(platform) {
      return deleteApp.run(platform).changes > 0
    },
    async createGrant(grant, now, keep) {
      createGrant.immediate(grant, now, keep)
    },
    async takeGrant(stateHash) {
      const row = take.get(stateHash)
      return row && oauthGrantOf({ ...row, state_hash: stateHash })
    },
    async finishGrant(stateHash) {
      finish.run(stateHash)
    },
    async pendingGrants(accountIds, now) {
      if (accountIds.length === 0) return []
      const rows = db
        .prepare<unknown[], OAuthGrantRow>(`SELECT * FROM oauth_grants WHERE account_id IN (${accountIds.map(() => '?').join(', ')}) AND expires_at > ? ORDER BY created_at`)
        .all(...accountIds, now)
      return rows.map((row) => ({ accountId: row.account_id, platform: row.platform, createdAt: row.created_at, expiresAt: row.expires_at }))
    },
    async claimRefresh(accountId, platform, holder, now, leaseMs) {
      return claim.run(accountId, platform, holder, now + leaseMs, now).changes > 0
    },
    async saveRefreshed(accountId, platform, holder, sealedCredentials, connectedAt) {
      return saveRefreshed.immediate(accountId, platform, holder, sealedCredentials, connectedAt)
    },
    async releaseRefresh(accountId, platform, holder) {
      release.run(accountId, platform, holder)
    },
  }
}
