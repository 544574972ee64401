import type { Migration } from './index.js'

/** Users, their API keys, per-key rate-limit windows and stored idempotent responses. */
export const foundation: Migration = {
  version: 1,
  name: 'users, api keys, rate limits, idempotency',
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
        created_at INTEGER NOT NULL
      );

      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        scopes TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        revoked_at INTEGER,
        last_used_at INTEGER
      );
      CREATE INDEX api_keys_user ON api_keys(user_id, id);

      -- One row per key: the start and count of its current minute, hour and day window.
      CREATE TABLE rate_limits (
        key_id TEXT PRIMARY KEY REFERENCES api_keys(id) ON DELETE CASCADE,
        minute_start INTEGER NOT NULL,
        minute_count INTEGER NOT NULL,
        hour_start INTEGER NOT NULL,
        hour_count INTEGER NOT NULL,
        day_start INTEGER NOT NULL,
        day_count INTEGER NOT NULL
      );

      CREATE TABLE idempotency_keys (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        body_hash TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'done')),
        status INTEGER,
        -- The stored response (headers and body), sealed with the data dir's secret box: it
        -- may hold a secret shown once (a new API key, a webhook secret).
        response BLOB,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, key)
      );
      CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
    `,
}
