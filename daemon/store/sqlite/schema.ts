import { migrations as firstSteps } from './migrations/index.js'
import { oauth } from './migrations/0009-oauth.js'
import { draftsQueueSlots } from './migrations/0010-drafts-queue-slots.js'
import { threadParts } from './migrations/0011-thread-parts.js'
import { postSeries } from './migrations/0012-post-series.js'
import { rollupsOnCountedChanges } from './migrations/0013-rollups-on-counted-changes.js'
import { listAndUpkeepIndexes } from './migrations/0014-list-and-upkeep-indexes.js'
import { snapshotRollupsPerBatch } from './migrations/0015-snapshot-rollups-per-batch.js'
import { rollupsSummedPerSettlementBatch } from './migrations/0016-rollups-summed-per-settlement-batch.js'
import { outboxQueue } from './migrations/0017-outbox-queue.js'
import { claimFencingToken } from './migrations/0018-claim-fencing-token.js'
import { media } from './migrations/0019-media.js'
import { workspaces } from './migrations/0020-workspaces.js'
import { approval } from './migrations/0021-approval.js'
import { reviewLinks } from './migrations/0022-review-links.js'
import { rollupJournal } from './migrations/0023-rollup-journal.js'
import { fewerRollupWrites } from './migrations/0024-fewer-rollup-writes.js'
import { journalFoldedByPart } from './migrations/0025-journal-folded-by-part.js'
import { rollupsKeyedByIntegers } from './migrations/0026-rollups-keyed-by-integers.js'
import { delaysKeyedByAccount } from './migrations/0027-delays-keyed-by-account.js'
import { twoRollupRowsPerTarget } from './migrations/0028-two-rollup-rows-per-target.js'
import { delaysJournaled } from './migrations/0029-delays-journaled.js'
import { rankingInOneTree } from './migrations/0030-ranking-in-one-tree.js'
import { countsApartFromMetrics } from './migrations/0031-counts-apart-from-metrics.js'
import type { Migration } from '../migrations.js'

/**
 * SQLite's whole schema, step by step: the steps migrations/index.ts lists, then each one
 * added since, appended here. Every file in migrations/ (its index too) is history once landed:
 * a change is a new numbered file there and one more entry at the end of this list.
 */
export const migrations: Migration[] = [...firstSteps, oauth, draftsQueueSlots, threadParts, postSeries, rollupsOnCountedChanges, listAndUpkeepIndexes, snapshotRollupsPerBatch, rollupsSummedPerSettlementBatch, outboxQueue, claimFencingToken, media, workspaces, approval, reviewLinks, rollupJournal, fewerRollupWrites, journalFoldedByPart, rollupsKeyedByIntegers, delaysKeyedByAccount, twoRollupRowsPerTarget, delaysJournaled, rankingInOneTree, countsApartFromMetrics]
