import type { Migration } from '../../migrations.js'

/**
 * SQLite's 0021 on PostgreSQL: the approval states of a post (`pending_approval`, `rejected`), a
 * series whose occurrences wait for approval until one is approved, comments on posts, and the
 * actor of every event (NULL for smm itself, as every event before this step).
 */
export const approval: Migration = {
  version: 14,
  name: 'approval states of posts, comments, and the actor of every event',
  sql: `
    ALTER TABLE posts DROP CONSTRAINT posts_status_check;
    ALTER TABLE posts ADD CONSTRAINT posts_status_check
      CHECK (status IN ('draft', 'pending_approval', 'rejected', 'scheduled', 'publishing', 'published', 'partially_published', 'failed', 'cancelled'));
    ALTER TABLE post_series ADD COLUMN awaiting_approval INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE post_comments (
      id TEXT PRIMARY KEY,
      post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
      author TEXT,
      body TEXT NOT NULL,
      decision TEXT CHECK (decision IN ('approved', 'rejected')),
      created_at BIGINT NOT NULL
    );
    CREATE INDEX post_comments_post ON post_comments(post_id, id);
    ALTER TABLE events ADD COLUMN actor TEXT;
  `,
}
