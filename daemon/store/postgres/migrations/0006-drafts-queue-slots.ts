import type { Migration } from '../../migrations.js'

/**
 * Drafts and queue slots, as SQLite's 0010: a post may be a `draft`, and a draft may have no
 * time yet (scheduled_at NULL, which only a draft, or a cancelled one, may be); a draft with no time lists at its
 * created_at (`posts_user_order`). Queue slots are an account's weekly times, a day (1 = Monday
 * … 7 = Sunday) and a minute of the day, wall-clock in the user's zone; deleted with the account.
 */
export const draftsQueueSlots: Migration = {
  version: 6,
  name: 'drafts (nullable scheduled_at, status draft), queue slots',
  sql: `
    ALTER TABLE posts DROP CONSTRAINT posts_status_check;
    ALTER TABLE posts ADD CONSTRAINT posts_status_check
      CHECK (status IN ('draft', 'scheduled', 'publishing', 'published', 'partially_published', 'failed', 'cancelled'));
    ALTER TABLE posts ALTER COLUMN scheduled_at DROP NOT NULL;
    ALTER TABLE posts ADD CONSTRAINT posts_time_check CHECK (scheduled_at IS NOT NULL OR status IN ('draft', 'cancelled'));
    CREATE INDEX posts_user_order ON posts(user_id, (coalesce(scheduled_at, created_at)), id);

    CREATE TABLE queue_slots (
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      day INTEGER NOT NULL CHECK (day BETWEEN 1 AND 7),
      minute INTEGER NOT NULL CHECK (minute BETWEEN 0 AND 1439),
      PRIMARY KEY (account_id, day, minute)
    );
  `,
}
