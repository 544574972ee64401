import type { Migration } from './index.js'
import { analyticsRollups, EXPECTED_DELAYS as DELAYS_0006, EXPECTED_HOURS as HOURS_0006, EXPECTED_TOP as TOP_0006 } from './0006-analytics-rollups.js'

/**
 * Drafts and queue slots.
 *
 * A draft is a post with status `draft`, and may have no time yet: `posts.status` must accept
 * 'draft' and `posts.scheduled_at` NULL. SQLite changes a CHECK or a NOT NULL only by rebuilding
 * the table (create, copy, drop, rename), which this migration does with foreign keys off
 * (`rebuildsTables`): with them on, dropping `posts` would cascade-delete every target, and
 * their metrics with them. The runner checks the foreign keys before it commits.
 *
 * A draft counts nowhere in analytics: the rollup triggers of 0006 count every post that is not
 * cancelled, so they are dropped and created again counting neither cancelled posts nor drafts.
 * Their text is 0006's, with that one change of condition (0006 is history and never changes,
 * so neither does this); the triggers on `posts` go with the old table anyway. No draft exists
 * yet, so the rollups kept so far stay right as they are.
 *
 * A draft with no time lists at its created_at: `posts_user_order` is the index of that order.
 *
 * Queue slots: an account's weekly times, a day (1 = Monday … 7 = Sunday) and a minute of the
 * day, wall-clock in the user's time zone; deleted with their account.
 */

/** 0006's text with drafts counted as cancelled posts are: not at all. */
const withoutDrafts = (sql: string) =>
  sql
    .replace(/(\w+)\.status <> 'cancelled'/g, "$1.status NOT IN ('cancelled', 'draft')")
    .replace("(old.status = 'cancelled') <> (new.status = 'cancelled')", "(old.status IN ('cancelled', 'draft')) <> (new.status IN ('cancelled', 'draft'))")

const TRIGGERS_0006 = analyticsRollups.sql.slice(analyticsRollups.sql.indexOf('CREATE TRIGGER'), analyticsRollups.sql.indexOf('-- The data already there.'))
const TRIGGER_NAMES = [...TRIGGERS_0006.matchAll(/CREATE TRIGGER (\w+)/g)].map((m) => m[1]!)

/** The rollup rows, computed from the raw rows (drafts left out): what the store checks the rollups against. */
export const EXPECTED_HOURS = withoutDrafts(HOURS_0006)
export const EXPECTED_DELAYS = withoutDrafts(DELAYS_0006)
export const EXPECTED_TOP = withoutDrafts(TOP_0006)

const POST_COLUMNS = 'id, user_id, account_id, content, media_urls, platforms, scheduled_at, status, version, created_at, updated_at, published_at, cancelled_at'

export const draftsQueueSlots: Migration = {
  version: 10,
  name: 'drafts (nullable scheduled_at, status draft), queue slots',
  rebuildsTables: true,
  sql: `
    ${TRIGGER_NAMES.map((name) => `DROP TRIGGER ${name};`).join('\n    ')}

    CREATE TABLE posts_rebuilt (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      content TEXT NOT NULL,
      media_urls TEXT NOT NULL,
      platforms TEXT NOT NULL,
      -- NULL only for a draft with no time yet (and such a draft once cancelled).
      scheduled_at INTEGER CHECK (scheduled_at IS NOT NULL OR status IN ('draft', 'cancelled')),
      status TEXT NOT NULL CHECK (status IN ('draft', 'scheduled', 'publishing', 'published', 'partially_published', 'failed', 'cancelled')),
      -- Bumped on every change: the ETag, and the compare-and-swap of If-Match.
      version INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      published_at INTEGER,
      cancelled_at INTEGER
    );
    INSERT INTO posts_rebuilt (${POST_COLUMNS}) SELECT ${POST_COLUMNS} FROM posts;
    DROP TABLE posts;
    ALTER TABLE posts_rebuilt RENAME TO posts;

    CREATE INDEX posts_due ON posts(scheduled_at) WHERE status = 'scheduled';
    CREATE INDEX posts_user_time ON posts(user_id, scheduled_at, id);
    CREATE INDEX posts_account_time ON posts(account_id, scheduled_at, id);
    CREATE INDEX posts_report ON posts(user_id, scheduled_at, status, account_id, id);
    CREATE INDEX posts_user_order ON posts(user_id, coalesce(scheduled_at, created_at), id);

    ${withoutDrafts(TRIGGERS_0006).trim()}

    CREATE TABLE queue_slots (
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      day INTEGER NOT NULL CHECK (day BETWEEN 1 AND 7),
      minute INTEGER NOT NULL CHECK (minute BETWEEN 0 AND 1439),
      PRIMARY KEY (account_id, day, minute)
    ) WITHOUT ROWID;
  `,
}
