import { foundation } from './0001-foundation.js'
import { outbox } from './0002-outbox.js'
import { webhooks } from './0004-webhooks.js'
import { posts } from './0003-posts.js'
import { metrics } from './0005-metrics.js'
import { analyticsRollups } from './0006-analytics-rollups.js'
import { retryHistory } from './0007-retry-history.js'
import { uncertainSince } from './0008-uncertain-since.js'
import type { Migration } from '../../migrations.js'

export type { Migration }

/** SQLite's schema, step by step. A landed step is never edited: a change is a new numbered file here. */
export const migrations: Migration[] = [foundation, outbox, posts, webhooks, metrics, analyticsRollups, retryHistory, uncertainSince]
