import type { Migration } from './index.js'

/**
 * Engagement metrics: every snapshot a platform gave (history), the latest one per target (what
 * analytics reports, kept in the same transaction as the snapshot so a report never scans the
 * history), and the collector's schedule on the target row itself.
 */
export const metrics: Migration = {
  version: 5,
  name: 'metric snapshots, latest metrics per target, collection schedule',
  sql: `
    CREATE TABLE metric_snapshots (
      post_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      taken_at INTEGER NOT NULL,
      -- NULL: the platform does not report this count (never 0 for "unknown").
      impressions INTEGER,
      likes INTEGER,
      reposts INTEGER,
      replies INTEGER,
      quotes INTEGER,
      clicks INTEGER,
      PRIMARY KEY (post_id, platform, taken_at),
      FOREIGN KEY (post_id, platform) REFERENCES post_targets(post_id, platform) ON DELETE CASCADE
    ) WITHOUT ROWID;

    -- The newest snapshot of each target, with its engagements (the sum of the counts reported).
    CREATE TABLE target_metrics (
      post_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      taken_at INTEGER NOT NULL,
      impressions INTEGER,
      likes INTEGER,
      reposts INTEGER,
      replies INTEGER,
      quotes INTEGER,
      clicks INTEGER,
      engagements INTEGER,
      PRIMARY KEY (post_id, platform),
      FOREIGN KEY (post_id, platform) REFERENCES post_targets(post_id, platform) ON DELETE CASCADE
    ) WITHOUT ROWID;

    -- When the collector next reads this target's counts (NULL: never again), and how many
    -- reads in a row failed (the backoff).
    ALTER TABLE post_targets ADD COLUMN metrics_due_at INTEGER;
    ALTER TABLE post_targets ADD COLUMN metrics_failures INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX post_targets_metrics_due ON post_targets(metrics_due_at) WHERE metrics_due_at IS NOT NULL;

    -- Covering indexes for GET /v1/analytics: a report walks the user's posts by scheduled time
    -- and each post's targets without touching the (wide) rows themselves, about twice as fast.
    CREATE INDEX posts_report ON posts(user_id, scheduled_at, status, account_id, id);
    CREATE INDEX post_targets_report ON post_targets(post_id, platform, status, published_at);

    -- Targets published before this version: due at once; the collector drops those past 30 days.
    UPDATE post_targets SET metrics_due_at = published_at WHERE status = 'published' AND published_at IS NOT NULL;
  `,
}
