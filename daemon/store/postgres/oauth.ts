import type { OAuthStore } from '../port.js'
import { oauthAppOf, oauthGrantOf, type OAuthAppRow, type OAuthGrantRow } from '../rows.js'
import type { Sql } from './connect.js'

export function oauthStore(sql: Sql): OAuthStore {
  return {
    async setApp(platform, clientId, sealedSecret, now) {
      await sql`
        INSERT INTO oauth_apps (platform, client_id, client_secret, updated_at) VALUES (${platform}, ${clientId}, ${sealedSecret}, ${now})
        ON CONFLICT (platform) DO UPDATE SET client_id = excluded.client_id, client_secret = excluded.client_secret, updated_at = excluded.updated_at`
    },
    async getApp(platform) {
      const [row] = await sql<OAuthAppRow[]>`SELECT * FROM oauth_apps WHERE platform = ${platform}`
      return row && oauthAppOf(row)
    },
    async listApps() {
      return (await sql<OAuthAppRow[]>`SELECT * FROM oauth_apps ORDER BY platform`).map(oauthAppOf)
    },
    async removeApp(platform) {
      return (await sql`DELETE FROM oauth_apps WHERE platform = ${platform} RETURNING 1`).length > 0
    },
    async createGrant(grant, now, keep) {
      await sql.begin(async (tx) => {
        await tx`DELETE FROM oauth_grants WHERE expires_at <= ${now}`
        await tx`
          INSERT INTO oauth_grants (state_hash, user_id, account_id, platform, secrets, created_at, expires_at)
          VALUES (${grant.stateHash}, ${grant.userId}, ${grant.accountId}, ${grant.platform}, ${grant.sealedSecrets}, ${grant.createdAt}, ${grant.expiresAt})`
        // Untaken grants of the account and platform beyond the newest `keep`, the one just made first.
        await tx`
          DELETE FROM oauth_grants WHERE account_id = ${grant.accountId} AND platform = ${grant.platform} AND state_hash NOT LIKE 'taken:%' AND state_hash NOT IN (
            SELECT state_hash FROM oauth_grants WHERE account_id = ${grant.accountId} AND platform = ${grant.platform} AND state_hash NOT LIKE 'taken:%'
             ORDER BY state_hash = ${grant.stateHash} DESC, created_at DESC LIMIT ${keep})`
      })
    },
    async takeGrant(stateHash) {
      // One statement: of two callbacks with one state, exactly one gets the row.
      // A taken grant keeps its row, under a key no state hashes to, until its exchange is done.
      const [row] = await sql<OAuthGrantRow[]>`UPDATE oauth_grants SET state_hash = 'taken:' || state_hash WHERE state_hash = ${stateHash} RETURNING *`
      return row && oauthGrantOf({ ...row, state_hash: stateHash })
    },
    async finishGrant(stateHash) {
      await sql`DELETE FROM oauth_grants WHERE state_hash = ${'taken:' + stateHash}`
    },
    async pendingGrants(accountIds, now) {
      if (accountIds.length === 0) return []
      const rows = await sql<OAuthGrantRow[]>`
        SELECT * FROM oauth_grants WHERE account_id = ANY(${accountIds as string[]}) AND expires_at > ${now} ORDER BY created_at`
      return rows.map((row) => ({ accountId: row.account_id, platform: row.platform, createdAt: row.created_at, expiresAt: row.expires_at }))
    },
    async claimRefresh(accountId, platform, holder, now, leaseMs) {
      // Taken when there is none, or the one there lapsed (its node died mid-refresh).
      const rows = await sql`
        INSERT INTO oauth_refresh_claims (account_id, platform, holder, expires_at) VALUES (${accountId}, ${platform}, ${holder}, ${now + leaseMs})
        ON CONFLICT (account_id, platform) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
        WHERE oauth_refresh_claims.expires_at <= ${now}
        RETURNING 1`
      return rows.length > 0
    },
    async saveRefreshed(accountId, platform, holder, sealedCredentials, connectedAt) {
      // The claim's row is deleted first (and locked: a take-over racing it waits, then finds no
      // row to take); the credentials are written only if this holder's claim was there to delete.
      const [row] = await sql<{ held: boolean; saved: boolean }[]>`
        WITH released AS (DELETE FROM oauth_refresh_claims WHERE account_id = ${accountId} AND platform = ${platform} AND holder = ${holder} RETURNING 1),
             saved AS (UPDATE connections SET credentials = ${sealedCredentials}
                        WHERE account_id = ${accountId} AND platform = ${platform} AND connected_at = ${connectedAt} AND EXISTS (SELECT 1 FROM released) RETURNING 1)
        SELECT EXISTS (SELECT 1 FROM released) AS held, EXISTS (SELECT 1 FROM saved) AS saved`
      return !row!.held ? 'claim_lost' : row!.saved ? 'saved' : 'reconnected'
    },
    async releaseRefresh(accountId, platform, holder) {
      await sql`DELETE FROM oauth_refresh_claims WHERE account_id = ${accountId} AND platform = ${platform} AND holder = ${holder}`
    },
  }
}
