import type { Migration } from '../../migrations.js'

/**
 * Recurring posts. A series row is what its occurrences share and the lock on its progress: the
 * template every occurrence is created from (the first post's fields, so an edit to one
 * occurrence stays with it), the occurrence created last (only that one's end may create the
 * next: each is created once, whatever retries or nodes do) and when it ended. Each post knows
 * its series, its occurrence number and the rule, as the API shows them.
 */
export const postSeries: Migration = {
  version: 8,
  name: 'recurring post series',
  sql: `
    CREATE TABLE post_series (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      -- JSON: the posts columns each occurrence copies, as the first occurrence was created.
      template TEXT NOT NULL,
      last_occurrence INTEGER NOT NULL,
      ended_at BIGINT,
      created_at BIGINT NOT NULL
    );
    ALTER TABLE posts ADD COLUMN series_id TEXT REFERENCES post_series(id) ON DELETE CASCADE;
    ALTER TABLE posts ADD COLUMN occurrence INTEGER;
    -- JSON: {interval, count, until, timezone, starts_at}.
    ALTER TABLE posts ADD COLUMN repeat_rule TEXT;
    CREATE INDEX posts_series ON posts(series_id, occurrence) WHERE series_id IS NOT NULL;
  `,
}
