import type { Migration } from '../../migrations.js'
import { foundation } from './0001-foundation.js'
import { postsWebhooksMetrics } from './0002-posts-webhooks-metrics.js'
import { authNotifications } from './0003-auth-notifications.js'
import { uncertainSince } from './0004-uncertain-since.js'

/**
 * PostgreSQL's schema, step by step: the same tables and columns as SQLite's (so both stores
 * share their row mappings), times as BIGINT milliseconds. A landed step is never edited.
 */
export const migrations: Migration[] = [foundation, postsWebhooksMetrics, authNotifications, uncertainSince]
