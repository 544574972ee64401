import type { Migration } from './index.js'
import { ROLLUP_COLUMNS } from './0006-analytics-rollups.js'
import { approval } from './0021-approval.js'

/**
 * What a write changes in the analytics rollups goes first to a journal, one row per target
 * changed (its account, platform and hour), and the journal is folded into the rollups a few
 * thousand rows at a time: summed per rollup row, in key order, by one statement. Before, every
 * target's change was four upserts into the rollups at once (its account and all accounts, its
 * platform and all platforms), each a seek into a table too big for the page cache: creating
 * 100,000 posts spread over a year cost about 60 µs a target in those upserts, settling them about
 * 100 µs, where the folded journal costs a fraction (docs/benchmarks.md, "What analytics
 * bookkeeping costs").
 *
 * The journal is part of the rollups, in the same transaction as every write it records: a
 * report adds its rows to the rollups' (daemon/store/sqlite/analytics.ts), so the figures stay
 * exact whether a row is folded yet or not. It is a plain rowid table with no index, so a row
 * is an append; its rowids start again at 1 once it is folded (emptied), and the row that
 * reaches FOLD_AT folds it, whoever wrote it.
 *
 * The triggers in force (0021's) are made again, word for word but for where they write: one
 * journal row in place of the four upserts.
 */

/** The journal's size at which it is folded into the rollups. */
export const FOLD_AT = 4_096

const NAMES = ['analytics_target_insert', 'analytics_target_update', 'analytics_target_delete', 'analytics_metrics_delete', 'analytics_post_moved', 'analytics_post_delete']
const FOUR_ROWS = '(SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) s'

const TRIGGERS = NAMES.map((name) => {
  const start = approval.sql.indexOf(`CREATE TRIGGER ${name} `)
  if (start < 0) throw new Error(`Migration 23 could not find ${name} in migration 21.`)
  const trigger = approval.sql.slice(start, approval.sql.indexOf('END;', start) + 'END;'.length)
  const journaled = trigger
    .replaceAll('INSERT INTO analytics_hours (workspace_id, account_scope, platform, hour,', 'INSERT INTO analytics_pending (workspace_id, account_id, platform, hour,')
    .replace(/CASE WHEN s\.k & [12] THEN '\*' ELSE (\S+) END/g, '$1')
    .replaceAll(`, ${FOUR_ROWS}`, '')
    .replace(/\s*ON CONFLICT \(workspace_id, account_scope, platform, hour\) DO UPDATE SET [^;]*;/g, ';')
  if (/analytics_hours|s\.k|ON CONFLICT/.test(journaled)) throw new Error(`Migration 23 could not rewrite ${name}.`)
  return [name, journaled] as const
})

const ANY_CHANGE = ROLLUP_COLUMNS.map((c) => `sum(${c}) <> 0`).join(' OR ')

export const rollupJournal: Migration = {
  version: 23,
  name: 'rollup changes journaled per target and folded into the rollups in batches',
  sql: `
    CREATE TABLE analytics_pending (
      workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      hour INTEGER NOT NULL,
      ${ROLLUP_COLUMNS.map((c) => `${c} INTEGER NOT NULL DEFAULT 0`).join(',\n      ')}
    );

    -- The rows are summed into the four rollup rows each counts in, in key order, and the
    -- journal starts again; rollup rows the batch leaves as they were are not written.
    CREATE TRIGGER analytics_pending_fold AFTER INSERT ON analytics_pending WHEN new.rowid >= ${FOLD_AT} BEGIN
      INSERT INTO analytics_hours (workspace_id, account_scope, platform, hour, ${ROLLUP_COLUMNS.join(', ')})
      SELECT workspace_id, CASE WHEN s.k & 1 THEN '*' ELSE account_id END, CASE WHEN s.k & 2 THEN '*' ELSE platform END, hour,
             ${ROLLUP_COLUMNS.map((c) => `sum(${c})`).join(', ')}
        FROM analytics_pending, ${FOUR_ROWS}
       GROUP BY 1, 2, 3, 4
      HAVING ${ANY_CHANGE}
      ON CONFLICT (workspace_id, account_scope, platform, hour) DO UPDATE SET ${ROLLUP_COLUMNS.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')};
      DELETE FROM analytics_pending;
    END;

    ${TRIGGERS.map(([name]) => `DROP TRIGGER ${name};`).join('\n    ')}

    ${TRIGGERS.map(([, sql]) => sql).join('\n\n    ')}
  `,
}
