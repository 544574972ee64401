import type { Migration } from './index.js'
import { ROLLUP_COLUMNS } from './0006-analytics-rollups.js'
import { triggerOf } from './trigger-text.js'
import { twoRollupRowsPerTarget } from './0028-two-rollup-rows-per-target.js'

/**
 * A target's counts (scheduled, published, failed) rolled up apart from its metrics: each in its
 * own table keyed by (scope, hour), where one table held all twenty columns. A post created or
 * settled moves its targets' counts only, and a fold of the journal upserted its 8,192 count
 * changes into rows of twenty columns spread over the whole table (about 33 bytes a row, 100 to a
 * page): each upsert read and wrote a whole row, and each fold read and dirtied most of the
 * table's pages, several times what SQLite's 2 MB page cache holds. Rows of three counts are a
 * fraction of that size, so a fold of counts touches a fraction of the pages; and a metrics row
 * exists only where a target has reported metrics.
 *
 * The journal (migration 23) and its fold stay as migration 28 left them, but for where each part
 * writes: the counts to analytics_counts, the metrics to analytics_metrics. A report sums the rows
 * of both over its hours (daemon/store/sqlite/analytics.ts). Rows all of whose figures are zero
 * (their targets all moved away) count nothing and are not carried over.
 *
 * (docs/benchmarks.md, "What analytics bookkeeping costs".)
 */

export const COUNT_COLUMNS = ROLLUP_COLUMNS.slice(0, 3)
export const METRIC_COLUMNS = ROLLUP_COLUMNS.slice(3)
if (COUNT_COLUMNS.join() !== 'scheduled,published,failed') throw new Error('Migration 31 expects the counts first among the rollup columns.')

const tableOf = (name: string, columns: readonly string[]) => `
    CREATE TABLE ${name} (
      scope INTEGER NOT NULL REFERENCES analytics_scopes(id) ON DELETE CASCADE,
      hour INTEGER NOT NULL,
      ${columns.map((c) => `${c} INTEGER NOT NULL DEFAULT 0`).join(',\n      ')},
      PRIMARY KEY (scope, hour)
    ) WITHOUT ROWID;
    INSERT INTO ${name} (scope, hour, ${columns.join(', ')})
    SELECT scope, hour, ${columns.join(', ')} FROM analytics_rollups WHERE ${columns.map((c) => `${c} <> 0`).join(' OR ')} ORDER BY 1, 2;`

const FOLD = triggerOf(twoRollupRowsPerTarget.sql, 'analytics_pending_fold', 31)
  .replace(`INSERT INTO analytics_rollups (scope, hour, ${COUNT_COLUMNS.join(', ')})`, `INSERT INTO analytics_counts (scope, hour, ${COUNT_COLUMNS.join(', ')})`)
  .replace(`INSERT INTO analytics_rollups (scope, hour, ${METRIC_COLUMNS.join(', ')})`, `INSERT INTO analytics_metrics (scope, hour, ${METRIC_COLUMNS.join(', ')})`)
if (FOLD.includes('analytics_rollups') || !FOLD.includes('analytics_counts') || !FOLD.includes('analytics_metrics')) throw new Error('Migration 31 could not rewrite the fold of migration 28.')

export const countsApartFromMetrics: Migration = {
  version: 31,
  name: "a target's counts rolled up in a narrow table of their own, apart from its metrics",
  sql: `
    ${tableOf('analytics_counts', COUNT_COLUMNS)}
    ${tableOf('analytics_metrics', METRIC_COLUMNS)}
    DROP TABLE analytics_rollups;
    DROP TRIGGER analytics_pending_fold;
    ${FOLD}
  `,
}
