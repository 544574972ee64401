import type { Migration } from './index.js'
import { ROLLUP_COLUMNS } from './0006-analytics-rollups.js'
import { FOLD_AT } from './0023-rollup-journal.js'
import { THREE_ROWS } from './0024-fewer-rollup-writes.js'

/**
 * The rollups keyed by integers: each (workspace, account or '*', platform or '*') a rollup row
 * can be of is a scope, numbered once in analytics_scopes, and a rollup row is (scope, hour) and
 * its sums. A row keyed by its three ids and its platform spent about 75 of its 90 bytes on its
 * key: a year of one workspace's figures (about 115,000 rows) filled 2,800 pages, and a fold of
 * the journal, whose rows fall all over that year when figures come out of order, touched and
 * wrote back most of them each time. Keyed by integers the same rows fill about a third of that,
 * and each upsert compares two integers rather than three ids.
 *
 * The journal (migration 23) keeps its ids, as its writers (the triggers, the batches of outcomes
 * and of snapshots) have them: a fold first numbers the scopes its rows name that have no number
 * yet, then finds the three scopes of each (workspace, account, platform) it holds once, not for
 * each row, and adds each row's change to its three rollup rows in key order, in two parts as
 * migration 25 does (the counts, then the metrics). A scope goes with its workspace, and its
 * rollup rows with it.
 *
 * (docs/benchmarks.md, "What analytics bookkeeping costs".)
 */

const COUNTS = ROLLUP_COLUMNS.slice(0, 3)
const METRICS = ROLLUP_COLUMNS.slice(3)

/**
 * The three scopes of each (workspace, account, platform) the journal names: its own, all
 * accounts' on its platform and all accounts' on all platforms (migration 24). Grouped, so each
 * is looked up once per fold and the journal's rows join it through an automatic index.
 */
const SCOPES_OF_JOURNAL = `(
        SELECT d.workspace_id, d.account_id, d.platform,
               (SELECT c.id FROM analytics_scopes c WHERE c.workspace_id = d.workspace_id AND c.account_scope = d.account_id AND c.platform = d.platform) AS own,
               (SELECT c.id FROM analytics_scopes c WHERE c.workspace_id = d.workspace_id AND c.account_scope = '*' AND c.platform = d.platform) AS accounts,
               (SELECT c.id FROM analytics_scopes c WHERE c.workspace_id = d.workspace_id AND c.account_scope = '*' AND c.platform = '*') AS everything
          FROM analytics_pending d
         GROUP BY 1, 2, 3)`

/** Adds the journal rows that change `columns` to their three rollup rows each, in key order. */
const foldPart = (columns: readonly string[]) => `
      INSERT INTO analytics_rollups (scope, hour, ${columns.join(', ')})
      SELECT CASE s.k WHEN 0 THEN k.own WHEN 1 THEN k.accounts ELSE k.everything END, j.hour, ${columns.map((c) => `j.${c}`).join(', ')}
        FROM analytics_pending j
        CROSS JOIN ${SCOPES_OF_JOURNAL} k ON k.workspace_id = j.workspace_id AND k.account_id = j.account_id AND k.platform = j.platform
        CROSS JOIN ${THREE_ROWS}
       WHERE ${columns.map((c) => `j.${c} <> 0`).join(' OR ')}
       ORDER BY 1, 2
      ON CONFLICT (scope, hour) DO UPDATE SET ${columns.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')};`

export const rollupsKeyedByIntegers: Migration = {
  version: 26,
  name: 'rollup rows keyed by a numbered scope and the hour',
  sql: `
    CREATE TABLE analytics_scopes (
      id INTEGER PRIMARY KEY,
      workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      -- The account, or '*' for all the workspace's accounts; the platform, or '*' for all.
      account_scope TEXT NOT NULL,
      platform TEXT NOT NULL,
      UNIQUE (workspace_id, account_scope, platform)
    );

    CREATE TABLE analytics_rollups (
      scope INTEGER NOT NULL REFERENCES analytics_scopes(id) ON DELETE CASCADE,
      hour INTEGER NOT NULL,
      ${ROLLUP_COLUMNS.map((c) => `${c} INTEGER NOT NULL DEFAULT 0`).join(',\n      ')},
      PRIMARY KEY (scope, hour)
    ) WITHOUT ROWID;

    INSERT INTO analytics_scopes (workspace_id, account_scope, platform)
    SELECT DISTINCT workspace_id, account_scope, platform FROM analytics_hours ORDER BY 1, 2, 3;
    INSERT INTO analytics_rollups (scope, hour, ${ROLLUP_COLUMNS.join(', ')})
    SELECT c.id, h.hour, ${ROLLUP_COLUMNS.map((col) => `h.${col}`).join(', ')}
      FROM analytics_hours h JOIN analytics_scopes c ON c.workspace_id = h.workspace_id AND c.account_scope = h.account_scope AND c.platform = h.platform
     ORDER BY 1, 2;
    DROP TABLE analytics_hours;

    DROP TRIGGER analytics_pending_fold;
    CREATE TRIGGER analytics_pending_fold AFTER INSERT ON analytics_pending WHEN new.rowid >= ${FOLD_AT} BEGIN
      INSERT INTO analytics_scopes (workspace_id, account_scope, platform)
      SELECT d.workspace_id, CASE WHEN s.k & 1 THEN '*' ELSE d.account_id END, CASE WHEN s.k & 2 THEN '*' ELSE d.platform END
        FROM (SELECT DISTINCT workspace_id, account_id, platform FROM analytics_pending) d, ${THREE_ROWS}
       WHERE true
      ON CONFLICT DO NOTHING;
      ${foldPart(COUNTS)}
      ${foldPart(METRICS)}
      DELETE FROM analytics_pending;
    END;
  `,
}
