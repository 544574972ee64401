import type { Migration } from './index.js'
import { workspaces } from './0020-workspaces.js'

/**
 * Approval before publishing, comments, and who did what.
 *
 * - `posts` is rebuilt (as 0010 did, foreign keys off) so that its status CHECK takes the
 *   approval states: `pending_approval` (an editor's post where the workspace requires
 *   approval: never claimed until an admin or owner approves it) and `rejected` (sent back with
 *   a comment, until an edit makes it pending again). Such a post has a time, as a scheduled
 *   one does. `workspace_id` is NOT NULL now. The rollup triggers, which read posts, are
 *   dropped first and made again after, as 0020 made them (it already counts neither state).
 * - A series remembers that its first occurrence waits for approval: until one of its
 *   occurrences is approved, the next ones wait too.
 * - `post_comments`: what members and reviewers said about a post; a decision's comment says
 *   which decision it came with.
 * - Every event records who caused it (`actor`, JSON: a user and their key, or a review link
 *   and the reviewer's name; NULL for smm itself, as every event before this step): a
 *   workspace's events are its audit log.
 */

const POST_COLUMNS =
  'id, workspace_id, user_id, account_id, content, media_urls, platforms, scheduled_at, status, version, created_at, updated_at, published_at, cancelled_at, thread, first_comment, overrides, series_id, occurrence, repeat_rule, media'

/** The rollup triggers that read posts, each as 0020 made it (the ones in force). */
const TRIGGERS = ['analytics_target_insert', 'analytics_target_update', 'analytics_target_delete', 'analytics_metrics_delete', 'analytics_post_moved', 'analytics_post_delete'].map((name) => {
  const start = workspaces.sql.indexOf(`CREATE TRIGGER ${name} `)
  if (start < 0) throw new Error(`Migration 21 could not find ${name} in migration 20.`)
  return [name, workspaces.sql.slice(start, workspaces.sql.indexOf('END;', start) + 'END;'.length)] as const
})

export const approval: Migration = {
  version: 21,
  name: 'approval states of posts, comments, and the actor of every event',
  rebuildsTables: true,
  sql: `
    ${TRIGGERS.map(([name]) => `DROP TRIGGER ${name};`).join('\n    ')}

    CREATE TABLE posts_rebuilt (
      id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      -- Who wrote it.
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      content TEXT NOT NULL,
      media_urls TEXT NOT NULL,
      platforms TEXT NOT NULL,
      -- NULL only for a draft with no time yet (and such a draft once cancelled).
      scheduled_at INTEGER CHECK (scheduled_at IS NOT NULL OR status IN ('draft', 'cancelled')),
      status TEXT NOT NULL CHECK (status IN ('draft', 'pending_approval', 'rejected', 'scheduled', 'publishing', 'published', 'partially_published', 'failed', 'cancelled')),
      -- Bumped on every change: the ETag, and the compare-and-swap of If-Match.
      version INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      published_at INTEGER,
      cancelled_at INTEGER,
      thread TEXT NOT NULL DEFAULT '[]',
      first_comment TEXT,
      overrides TEXT NOT NULL DEFAULT '{}',
      series_id TEXT REFERENCES post_series(id) ON DELETE CASCADE,
      occurrence INTEGER,
      repeat_rule TEXT,
      -- The media it names (0019), as given.
      media TEXT NOT NULL DEFAULT '[]'
    );
    INSERT INTO posts_rebuilt (${POST_COLUMNS}) SELECT ${POST_COLUMNS} FROM posts;
    DROP TABLE posts;
    ALTER TABLE posts_rebuilt RENAME TO posts;
    CREATE INDEX posts_due ON posts(scheduled_at) WHERE status = 'scheduled';
    CREATE INDEX posts_series ON posts(series_id, occurrence) WHERE series_id IS NOT NULL;
    CREATE INDEX posts_account_time ON posts(account_id, scheduled_at, id);
    CREATE INDEX posts_workspace_time ON posts(workspace_id, scheduled_at, id);
    CREATE INDEX posts_report ON posts(workspace_id, scheduled_at, status, account_id, id);
    CREATE INDEX posts_workspace_order ON posts(workspace_id, coalesce(scheduled_at, created_at), id);
    CREATE INDEX posts_workspace_status_order ON posts(workspace_id, status, coalesce(scheduled_at, created_at), id);
    CREATE INDEX posts_account_order ON posts(workspace_id, account_id, status, coalesce(scheduled_at, created_at), id);

    ${TRIGGERS.map(([, sql]) => sql).join('\n\n    ')}

    ALTER TABLE post_series ADD COLUMN awaiting_approval INTEGER NOT NULL DEFAULT 0;

    CREATE TABLE post_comments (
      id TEXT PRIMARY KEY,
      post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
      -- JSON, as events' actor: a user and their key, or a review link and the reviewer's name.
      author TEXT,
      body TEXT NOT NULL,
      decision TEXT CHECK (decision IN ('approved', 'rejected')),
      created_at INTEGER NOT NULL
    );
    CREATE INDEX post_comments_post ON post_comments(post_id, id);

    ALTER TABLE events ADD COLUMN actor TEXT;
  `,
}
