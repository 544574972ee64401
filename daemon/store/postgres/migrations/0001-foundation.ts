import type { Migration } from '../../migrations.js'

/** Users, keys, rate-limit windows, idempotency, the event outbox, accounts, connections, feed items. */
export const foundation: Migration = {
  version: 1,
  name: 'users, keys, rate limits, idempotency, outbox, accounts, connections, feed items',
  sql: `
    CREATE TABLE users (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      email TEXT UNIQUE,
      plan TEXT NOT NULL DEFAULT 'standard' CHECK (plan IN ('standard', 'business', 'enterprise')),
      custom_per_minute INTEGER,
      custom_per_hour INTEGER,
      custom_per_day INTEGER,
      timezone TEXT NOT NULL DEFAULT 'UTC',
      is_owner INTEGER NOT NULL DEFAULT 0,
      created_at BIGINT NOT NULL
    );
    CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      prefix TEXT NOT NULL,
      hash TEXT NOT NULL UNIQUE,
      scopes TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      expires_at BIGINT,
      revoked_at BIGINT,
      last_used_at BIGINT
    );
    CREATE INDEX api_keys_user ON api_keys(user_id, id);
    -- One row per key: the start and count of its current minute, hour and day window, counted
    -- by every node in the same row, so the limits hold across nodes exactly.
    CREATE TABLE rate_limits (
      key_id TEXT PRIMARY KEY REFERENCES api_keys(id) ON DELETE CASCADE,
      minute_start BIGINT NOT NULL,
      minute_count INTEGER NOT NULL,
      hour_start BIGINT NOT NULL,
      hour_count INTEGER NOT NULL,
      day_start BIGINT NOT NULL,
      day_count INTEGER NOT NULL
    );
    CREATE TABLE idempotency_keys (
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      key TEXT NOT NULL,
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      body_hash TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('running', 'done')),
      -- The node running the request, while it runs.
      claimed_by TEXT,
      status INTEGER,
      -- The stored response, sealed with the secret box shared by every node.
      response BYTEA,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      PRIMARY KEY (user_id, key)
    );
    CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
    -- The outbox: each event is written in the transaction of the change it reports.
    CREATE TABLE events (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      dispatched_at BIGINT
    );
    CREATE INDEX events_user ON events(user_id, id);
    CREATE INDEX events_undispatched ON events(id) WHERE dispatched_at IS NULL;
    CREATE TABLE accounts (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      created_at BIGINT NOT NULL
    );
    CREATE INDEX accounts_user ON accounts(user_id, id);
    CREATE TABLE connections (
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      platform TEXT NOT NULL,
      handle TEXT NOT NULL,
      display_name TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'reauth_required')),
      -- Sealed JSON (AES-256-GCM), bound to (account, platform).
      credentials BYTEA NOT NULL,
      settings TEXT NOT NULL,
      connected_at BIGINT NOT NULL,
      PRIMARY KEY (account_id, platform)
    );
    CREATE INDEX connections_platform ON connections(platform, account_id);
    -- What the feed platform has published. Keyed by post, so a re-sent publish is a no-op.
    CREATE TABLE feed_items (
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      post_id TEXT NOT NULL,
      content TEXT NOT NULL,
      media_urls TEXT NOT NULL,
      published_at BIGINT NOT NULL,
      PRIMARY KEY (account_id, post_id)
    );
    CREATE INDEX feed_items_recent ON feed_items(account_id, published_at, post_id);
    -- What every node must agree on, recorded by the first: the fingerprint of the secret key
    -- that seals credentials, so a node started with another key refuses instead of failing later.
    CREATE TABLE cluster_settings (
      name TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );
  `,
}
