import type { Migration } from './index.js'

/**
 * The rollups of the latest counts are kept by the metrics store, summed per batch of snapshots
 * (daemon/store/sqlite/metrics-rollups.ts), no longer by a row trigger per snapshot: the two
 * triggers that did it are dropped. They upserted four rollup rows and rewrote the target's
 * ranking for every snapshot, one at a time: the analytics benchmark's million snapshots took
 * 85 s of CPU, where the same writes alone took 10. A batch now moves each rollup row once by
 * its summed change, and leaves a row alone when nothing it counts changed.
 *
 * Only the metrics store writes target_metrics (seeding and imports go through it too); the
 * trigger on its deletes stays, because deletes come from cascades (a target dropped from a
 * post). The figures kept are the same, so the rollups kept so far stay right as they are.
 */
export const snapshotRollupsPerBatch: Migration = {
  version: 15,
  name: 'rollups of the latest counts summed per batch of snapshots by the store, not per row by triggers',
  sql: `
    DROP TRIGGER analytics_metrics_insert;
    DROP TRIGGER analytics_metrics_update;
  `,
}
