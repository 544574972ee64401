import type { Migration } from '../../migrations.js'

/**
 * OAuth 2.0 platforms: the operator's apps (the client secret sealed), the grants a person is
 * approving in their browser (the state kept only as its hash, the PKCE verifier sealed), and
 * the claim a node takes on a connection while it refreshes its tokens, so that two nodes never
 * spend one rotating refresh token twice.
 */
export const oauth: Migration = {
  version: 5,
  name: 'OAuth apps, pending grants and refresh claims',
  sql: `
    CREATE TABLE oauth_apps (
      platform TEXT PRIMARY KEY,
      client_id TEXT NOT NULL,
      -- Sealed JSON, bound to "oauth-app:<platform>".
      client_secret BYTEA NOT NULL,
      updated_at BIGINT NOT NULL
    );

    CREATE TABLE oauth_grants (
      -- SHA-256 of the state, hex: a copy of the database cannot complete a grant.
      state_hash TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      platform TEXT NOT NULL,
      -- Sealed JSON of the PKCE verifier and the connect request's options, bound to the state hash.
      secrets BYTEA NOT NULL,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL
    );
    CREATE INDEX oauth_grants_account ON oauth_grants(account_id, platform, expires_at);
    CREATE INDEX oauth_grants_expiry ON oauth_grants(expires_at);

    CREATE TABLE oauth_refresh_claims (
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      platform TEXT NOT NULL,
      holder TEXT NOT NULL,
      expires_at BIGINT NOT NULL,
      PRIMARY KEY (account_id, platform)
    );
  `,
}
