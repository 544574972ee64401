import type { Migration } from './index.js'
import { triggerOf } from './trigger-text.js'
import { rollupJournal } from './0023-rollup-journal.js'
import { delaysJournaled } from './0029-delays-journaled.js'

/**
 * The ranking of targets by engagements in one B-tree, keyed by rank: (workspace, engagements
 * descending, post, platform), where it was a table keyed by target and a covering index by rank.
 * A target ranked for the first time wrote an entry in each, each at a random place when a
 * year's figures come out of order, in trees far bigger than the page cache; now it writes one.
 *
 * A target's entry is found by its key, which the writers of the ranking always have: its
 * workspace from its post, its engagements from its latest counts (target_metrics), which the
 * entry holds the same as long as its post counts (what the store's recount checks). So the
 * metrics store drops a target's entry by its counts before the batch replaces them, and the
 * triggers that dropped a target's or a post's entries by target (migrations 23 and 29's, in
 * force) are made again, word for word but for that lookup.
 *
 * (docs/benchmarks.md, "What analytics bookkeeping costs".)
 */

const KEY = '(workspace_id, engagements, post_id, platform)'

const REWRITES = [
  [
    'analytics_metrics_delete',
    rollupJournal.sql,
    'DELETE FROM top_targets WHERE post_id = old.post_id AND platform = old.platform;',
    `DELETE FROM top_targets WHERE ${KEY} IN (SELECT p.workspace_id, old.engagements, old.post_id, old.platform FROM posts p WHERE p.id = old.post_id);`,
  ],
  [
    'analytics_post_moved',
    delaysJournaled.sql,
    'DELETE FROM top_targets WHERE post_id = old.id;',
    `DELETE FROM top_targets WHERE ${KEY} IN (SELECT old.workspace_id, m.engagements, m.post_id, m.platform FROM target_metrics m WHERE m.post_id = old.id);`,
  ],
  [
    'analytics_post_delete',
    delaysJournaled.sql,
    'DELETE FROM top_targets WHERE post_id = old.id;',
    `DELETE FROM top_targets WHERE ${KEY} IN (SELECT old.workspace_id, m.engagements, m.post_id, m.platform FROM target_metrics m WHERE m.post_id = old.id);`,
  ],
] as const

const TRIGGERS = REWRITES.map(([name, sql, byTarget, byKey]) => {
  const trigger = triggerOf(sql, name, 30)
  if (trigger.split(byTarget).length !== 2) throw new Error(`Migration 30 could not rewrite ${name}.`)
  return [name, trigger.replace(byTarget, byKey)] as const
})

const COLUMNS = 'workspace_id, engagements, post_id, platform, scheduled_at, account_id'

export const rankingInOneTree: Migration = {
  version: 30,
  name: 'the ranking of targets in one tree keyed by rank',
  sql: `
    ${TRIGGERS.map(([name]) => `DROP TRIGGER ${name};`).join('\n    ')}

    CREATE TABLE top_targets_by_rank (
      workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      engagements INTEGER NOT NULL,
      post_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      scheduled_at INTEGER NOT NULL,
      account_id TEXT NOT NULL,
      PRIMARY KEY (workspace_id, engagements DESC, post_id, platform)
    ) WITHOUT ROWID;
    INSERT INTO top_targets_by_rank (${COLUMNS}) SELECT ${COLUMNS} FROM top_targets ORDER BY workspace_id, engagements DESC, post_id, platform;
    DROP TABLE top_targets;
    ALTER TABLE top_targets_by_rank RENAME TO top_targets;

    ${TRIGGERS.map(([, sql]) => sql).join('\n\n    ')}
  `,
}
