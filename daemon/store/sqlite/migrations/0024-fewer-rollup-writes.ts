import type { Migration } from './index.js'
import { rollupJournal } from './0023-rollup-journal.js'

/**
 * Less for every target to write in analytics' tables, each row written at a random place (by
 * its post's time) when a year's figures come out of order:
 *
 * - the ranking without its index by time: `top_posts` over a range of few targets reads them
 *   from the posts in range, and over more walks the ranking by engagements;
 * - three rollup rows per target, not four: its account's on its platform, and all accounts' on
 *   its platform and on all platforms. An account's figures on all platforms are the sum of its
 *   rows on each (a report filtered by account alone reads those), so its rows on all platforms
 *   go, about a third of the rollups, and each fold of the journal writes a quarter fewer rows.
 *
 * (docs/benchmarks.md, "What analytics bookkeeping costs".)
 */

/** The rollup rows a journal row counts in, as SQL over `s.k` (bit 1: all accounts, bit 2: all platforms). */
export const THREE_ROWS = '(SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 3) s'
const FOUR_ROWS = '(SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) s'

const start = rollupJournal.sql.indexOf('CREATE TRIGGER analytics_pending_fold ')
const FOLD = rollupJournal.sql.slice(start, rollupJournal.sql.indexOf('END;', start) + 'END;'.length).replace(FOUR_ROWS, THREE_ROWS)
if (start < 0 || !FOLD.includes(THREE_ROWS)) throw new Error('Migration 24 could not rewrite the fold of migration 23.')

export const fewerRollupWrites: Migration = {
  version: 24,
  name: 'the ranking without its index by time, no rollups of an account on all platforms',
  sql: `
    DROP INDEX top_targets_time;

    DELETE FROM analytics_hours WHERE account_scope <> '*' AND platform = '*';
    DROP TRIGGER analytics_pending_fold;
    ${FOLD}
  `,
}
