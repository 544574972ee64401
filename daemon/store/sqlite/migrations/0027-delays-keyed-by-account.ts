import type { Migration } from './index.js'
import { triggerOf } from './trigger-text.js'
import { rollupJournal } from './0023-rollup-journal.js'

/**
 * The publish delays in one B-tree, keyed by workspace, account and time: a published target
 * writes one entry, where it wrote three (the table by time, its index by account and its index
 * by target), each at a random place when a year's outcomes come out of order, in trees far
 * bigger than the page cache.
 *
 * - A report filtered by account reads its run of the tree, as it read the index by account. A
 *   report of all accounts reads the run of each account the workspace has delays of, bucket by
 *   bucket: a seek per account and bucket, where the table by time took one per bucket.
 * - A target's delay is found by its post's workspace, account and time, which a delay row is
 *   only ever written with (the triggers and the batch of outcomes read them from the post; a
 *   post's move, analytics_post_moved, drops its delays under the old ones before writing them
 *   under the new). So the key names at most one row per target, as the unique index by target
 *   did, and a target's delay is one seek. The triggers that dropped a delay through that index
 *   (migration 23's, in force) are made again, word for word but for that lookup; the one that
 *   only writes delays is made again as it was, as the table is rebuilt under it.
 *
 * (docs/benchmarks.md, "What analytics bookkeeping costs".)
 */

const BY_TARGET = 'DELETE FROM publish_delays WHERE post_id = old.post_id AND platform = old.platform;'
const BY_POST = 'DELETE FROM publish_delays WHERE post_id = old.id;'
const COLUMNS = 'workspace_id, account_id, scheduled_at, post_id, platform, delay'

const TRIGGERS = ['analytics_target_insert', 'analytics_target_update', 'analytics_target_delete', 'analytics_post_moved', 'analytics_post_delete'].map((name) => {
  const trigger = triggerOf(rollupJournal.sql, name, 27)
  const keyed = trigger
    // The post is there: a target deleted with its post (a cascade) finds none, and its delay
    // went with the post's, in analytics_post_delete.
    .replaceAll(BY_TARGET, 'DELETE FROM publish_delays WHERE (workspace_id, account_id, scheduled_at, post_id, platform) IN (SELECT p.workspace_id, p.account_id, p.scheduled_at, p.id, old.platform FROM posts p WHERE p.id = old.post_id);')
    .replaceAll(BY_POST, 'DELETE FROM publish_delays WHERE workspace_id = old.workspace_id AND account_id = old.account_id AND scheduled_at = old.scheduled_at AND post_id = old.id;')
  if (keyed.includes(BY_TARGET) || keyed.includes(BY_POST) || (name !== 'analytics_target_insert' && keyed === trigger)) throw new Error(`Migration 27 could not rewrite ${name}.`)
  return [name, keyed] as const
})

export const delaysKeyedByAccount: Migration = {
  version: 27,
  name: 'publish delays in one tree keyed by workspace, account and time',
  sql: `
    ${TRIGGERS.map(([name]) => `DROP TRIGGER ${name};`).join('\n    ')}

    CREATE TABLE publish_delays_by_account (
      workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL,
      scheduled_at INTEGER NOT NULL,
      post_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      delay INTEGER NOT NULL,
      PRIMARY KEY (workspace_id, account_id, scheduled_at, post_id, platform)
    ) WITHOUT ROWID;
    INSERT INTO publish_delays_by_account (${COLUMNS}) SELECT ${COLUMNS} FROM publish_delays ORDER BY 1, 2, 3, 4, 5;
    DROP TABLE publish_delays;
    ALTER TABLE publish_delays_by_account RENAME TO publish_delays;

    ${TRIGGERS.map(([, sql]) => sql).join('\n\n    ')}
  `,
}
