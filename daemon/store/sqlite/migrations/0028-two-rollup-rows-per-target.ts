import type { Migration } from './index.js'
import { triggerOf } from './trigger-text.js'
import { THREE_ROWS } from './0024-fewer-rollup-writes.js'
import { rollupsKeyedByIntegers } from './0026-rollups-keyed-by-integers.js'

/**
 * Two rollup rows per target, not three: its account's on its platform and all accounts' on its
 * platform. All accounts' figures on all platforms are the sum of all accounts' rows on each
 * platform, which a report of all platforms reads instead (as a report of one account on all
 * platforms has read its rows on each since migration 24): a seek per platform the workspace has
 * figures on, where it was one. Each fold of the journal upserts two rows for each of its rows
 * rather than three, and the rows of all accounts on all platforms, and their scopes, go.
 *
 * (docs/benchmarks.md, "What analytics bookkeeping costs".)
 */

/** The rollup rows a journal row counts in, as SQL over `s.k` (bit 1: all accounts). */
export const TWO_ROWS = '(SELECT 0 AS k UNION ALL SELECT 1) s'

const FOLD = triggerOf(rollupsKeyedByIntegers.sql, 'analytics_pending_fold', 28).replaceAll(THREE_ROWS, TWO_ROWS)
if (FOLD.includes(THREE_ROWS) || FOLD.split(TWO_ROWS).length !== 4) throw new Error('Migration 28 could not rewrite the fold of migration 26.')

export const twoRollupRowsPerTarget: Migration = {
  version: 28,
  name: 'two rollup rows per target: no rollups of all accounts on all platforms',
  sql: `
    DELETE FROM analytics_scopes WHERE account_scope = '*' AND platform = '*';
    DROP TRIGGER analytics_pending_fold;
    ${FOLD}
  `,
}
