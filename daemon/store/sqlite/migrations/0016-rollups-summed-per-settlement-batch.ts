import type { Migration } from './index.js'
import { rollupsOnCountedChanges } from './0013-rollups-on-counted-changes.js'

/**
 * The scheduler records outcomes in batches (daemon/store/sqlite/batch-rollups.ts): a batch now
 * sums what its targets change in the rollups itself, one upsert per rollup row it touches,
 * instead of the row trigger upserting four rollup rows for each target. In a burst the targets
 * of a batch share their hour and account, so forty targets cost four upserts, not 160.
 *
 * `analytics_deferred` lists, only inside such a batch's transaction, the targets it sums
 * itself, with their counted state from before the batch; the trigger skips exactly those.
 * Every other write (another target in the same transaction included) fires it as before. The
 * table is empty whenever no batch is being written: other connections never see its rows.
 *
 * The trigger's body is 0013's (0010's), word for word; only its WHEN has one more condition.
 */
const NAME = 'analytics_target_update'
const sql013 = rollupsOnCountedChanges.sql
const start = sql013.indexOf(`CREATE TRIGGER ${NAME} `)
const TRIGGER_0013 = sql013.slice(start, sql013.indexOf('END;', start) + 'END;'.length)
const BEGIN = ' BEGIN'
const whenEnd = TRIGGER_0013.indexOf(BEGIN)
if (start < 0 || whenEnd < 0 || !TRIGGER_0013.slice(0, whenEnd).includes('WHEN ')) throw new Error(`Migration 16 could not find ${NAME} in migration 13.`)
const DEFERRED = 'NOT EXISTS (SELECT 1 FROM analytics_deferred d WHERE d.post_id = new.post_id AND d.platform = new.platform)'
const whenStart = TRIGGER_0013.indexOf('WHEN ') + 'WHEN '.length
const TRIGGER = `${TRIGGER_0013.slice(0, whenStart)}(${TRIGGER_0013.slice(whenStart, whenEnd).trim()}) AND ${DEFERRED}${TRIGGER_0013.slice(whenEnd)}`

export const rollupsSummedPerSettlementBatch: Migration = {
  version: 16,
  name: 'rollups of a batch of outcomes summed per batch',
  sql: `
    CREATE TABLE analytics_deferred (
      post_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      status TEXT NOT NULL,
      published_at INTEGER,
      PRIMARY KEY (post_id, platform)
    ) WITHOUT ROWID;
    DROP TRIGGER ${NAME};
    ${TRIGGER}
  `,
}
