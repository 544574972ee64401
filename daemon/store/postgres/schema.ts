import { migrations as firstSteps } from './migrations/index.js'
import { oauth } from './migrations/0005-oauth.js'
import { draftsQueueSlots } from './migrations/0006-drafts-queue-slots.js'
import { threadParts } from './migrations/0007-thread-parts.js'
import { postSeries } from './migrations/0008-post-series.js'
import { listAndUpkeepIndexes } from './migrations/0010-list-and-upkeep-indexes.js'
import { claimFencingToken } from './migrations/0011-claim-fencing-token.js'
import { media } from './migrations/0012-media.js'
import { workspaces } from './migrations/0013-workspaces.js'
import { approval } from './migrations/0014-approval.js'
import { reviewLinks } from './migrations/0015-review-links.js'
import type { Migration } from '../migrations.js'

/**
 * PostgreSQL's whole schema, step by step: the steps migrations/index.ts lists, then each
 * one added since, appended here. Every file in migrations/ (its index too) is history once
 * landed: a change is a new numbered file there and one more entry at the end of this list.
 */
export const migrations: Migration[] = [...firstSteps, oauth, draftsQueueSlots, threadParts, postSeries, listAndUpkeepIndexes, claimFencingToken, media, workspaces, approval, reviewLinks]
