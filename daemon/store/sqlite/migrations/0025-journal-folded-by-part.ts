import type { Migration } from './index.js'
import { ROLLUP_COLUMNS } from './0006-analytics-rollups.js'
import { FOLD_AT } from './0023-rollup-journal.js'
import { THREE_ROWS } from './0024-fewer-rollup-writes.js'

/**
 * The journal (migration 23) is folded in two parts, each writing only its own columns: a
 * target's counts (scheduled, published, failed) from the rows that move them, and its latest
 * metrics from the rows that move those. A post created or settled moves three counts and no
 * metric, a snapshot the metrics and no count; summing and writing all twenty columns for every
 * row made a fold's cost mostly that of columns that were zero.
 *
 * Each journal row's change is written to its three rollup rows in key order, as it is, rather
 * than summed per rollup row first: the rows of one fold seldom share a rollup row (a year of a
 * workspace's figures is about 200,000 of them), and summing the twenty columns of each cost more
 * than the upserts it saved. A rollup row changed by several rows of one fold is written once for
 * each; rows that change nothing in a part are not written in it.
 *
 * (docs/benchmarks.md, "What analytics bookkeeping costs".)
 */

const COUNTS = ROLLUP_COLUMNS.slice(0, 3)
const METRICS = ROLLUP_COLUMNS.slice(3)
if (COUNTS.join() !== 'scheduled,published,failed') throw new Error('Migration 25 expects the counts first among the rollup columns.')

/** Adds the journal rows that change `columns` to their rollup rows, in key order. */
const foldPart = (columns: readonly string[]) => `
      INSERT INTO analytics_hours (workspace_id, account_scope, platform, hour, ${columns.join(', ')})
      SELECT workspace_id, CASE WHEN s.k & 1 THEN '*' ELSE account_id END, CASE WHEN s.k & 2 THEN '*' ELSE platform END, hour, ${columns.join(', ')}
        FROM analytics_pending, ${THREE_ROWS}
       WHERE ${columns.map((c) => `${c} <> 0`).join(' OR ')}
       ORDER BY 1, 2, 3, 4
      ON CONFLICT (workspace_id, account_scope, platform, hour) DO UPDATE SET ${columns.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')};`

export const journalFoldedByPart: Migration = {
  version: 25,
  name: "the rollup journal folded in two parts, a target's counts and its metrics, each row as it is",
  sql: `
    DROP TRIGGER analytics_pending_fold;
    CREATE TRIGGER analytics_pending_fold AFTER INSERT ON analytics_pending WHEN new.rowid >= ${FOLD_AT} BEGIN
      ${foldPart(COUNTS)}
      ${foldPart(METRICS)}
      DELETE FROM analytics_pending;
    END;
  `,
}
