import type { Migration } from './index.js'

/**
 * Accounts and their platform connections, posts with one target row per platform, and the
 * items of the built-in `feed` platform. Credentials are stored sealed (AES-256-GCM).
 */
export const posts: Migration = {
  version: 3,
  name: 'accounts, connections, posts, targets, feed items',
  sql: `
    CREATE TABLE accounts (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX accounts_user ON accounts(user_id, id);

    CREATE TABLE connections (
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      platform TEXT NOT NULL,
      handle TEXT NOT NULL,
      display_name TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'reauth_required')),
      -- Sealed JSON: version byte, IV, ciphertext, GCM tag. Bound to (account, platform).
      credentials BLOB NOT NULL,
      settings TEXT NOT NULL,
      connected_at INTEGER NOT NULL,
      PRIMARY KEY (account_id, platform)
    );
    CREATE INDEX connections_platform ON connections(platform, account_id);

    CREATE TABLE posts (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      content TEXT NOT NULL,
      media_urls TEXT NOT NULL,
      platforms TEXT NOT NULL,
      scheduled_at INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('scheduled', 'publishing', 'published', 'partially_published', 'failed', 'cancelled')),
      -- Bumped on every change: the ETag, and the compare-and-swap of If-Match.
      version INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      published_at INTEGER,
      cancelled_at INTEGER
    );
    -- The claim and the wake-up time read only scheduled posts, by time.
    CREATE INDEX posts_due ON posts(scheduled_at) WHERE status = 'scheduled';
    CREATE INDEX posts_user_time ON posts(user_id, scheduled_at, id);
    CREATE INDEX posts_account_time ON posts(account_id, scheduled_at, id);

    CREATE TABLE post_targets (
      post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
      platform TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'publishing', 'published', 'failed', 'unconfirmed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      -- Set when the post is claimed, and by a transient failure to the time of the next try.
      next_attempt_at INTEGER,
      -- While publishing: past this time the attempt is presumed dead (a crash, a hang).
      lease_expires_at INTEGER,
      platform_post_id TEXT,
      url TEXT,
      published_at INTEGER,
      error_code TEXT,
      error_detail TEXT,
      PRIMARY KEY (post_id, platform)
    );
    CREATE INDEX post_targets_due ON post_targets(next_attempt_at) WHERE status = 'pending';
    CREATE INDEX post_targets_leased ON post_targets(lease_expires_at) WHERE status = 'publishing';

    -- What the feed platform has published. Keyed by post, so a re-sent publish is a no-op.
    CREATE TABLE feed_items (
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      post_id TEXT NOT NULL,
      content TEXT NOT NULL,
      media_urls TEXT NOT NULL,
      published_at INTEGER NOT NULL,
      PRIMARY KEY (account_id, post_id)
    );
    CREATE INDEX feed_items_recent ON feed_items(account_id, published_at, post_id);
  `,
}
