import type { Migration } from '../../migrations.js'

/**
 * Threads, first comments and per-platform versions: the post keeps what the user asked for
 * (JSON), and each part that is out on a platform gets its own row, written as soon as it is
 * out, so a failure or a crash part-way never sends a part twice: a retry resumes after the
 * last row. `ref` is what a later part needs to reply to this one beyond its id (a Bluesky
 * record's CID). `error_part` says which part a failed target stopped at.
 */
export const threadParts: Migration = {
  version: 7,
  name: 'threads, first comments and per-platform versions',
  sql: `
    ALTER TABLE posts ADD COLUMN thread TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE posts ADD COLUMN first_comment TEXT;
    ALTER TABLE posts ADD COLUMN overrides TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE post_targets ADD COLUMN error_part INTEGER;
    CREATE TABLE post_target_parts (
      post_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      idx INTEGER NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('post', 'first_comment', 'thread')),
      platform_post_id TEXT,
      url TEXT,
      ref TEXT,
      published_at BIGINT NOT NULL,
      PRIMARY KEY (post_id, platform, idx),
      FOREIGN KEY (post_id, platform) REFERENCES post_targets(post_id, platform) ON DELETE CASCADE
    );
  `,
}
