import type { Migration } from './index.js'

/**
 * Indexes so that what the daemon does per request, per hour or at start reads what it needs and
 * not every row the user or the table has (issue 15, point 5, measured at a million posts):
 *
 * - The posts list filtered by status, or by account (with or without statuses): each status's
 *   posts in list order (`coalesce(scheduled_at, created_at)`, then id), per user and per account
 *   of the user. A page then reads at most its length from each status's run; before, a filter
 *   matching few posts walked every post of the user through posts_user_order, fetching each row
 *   to test it: 0.4 s for an account with few posts, 0.8 s for a status none has.
 * - Targets by platform: a list filtered by a platform with few targets starts from them (0.8 s
 *   for a platform none of a million posts is on, before).
 * - The claims that idempotent requests left running, which every start clears: a scan of every
 *   stored response of the last day before.
 * - Finished webhook deliveries by when they were last touched, which the hourly purge deletes
 *   once 30 days old: a scan of every delivery before, holding the write lock while it ran.
 * - Series by account, which deleting an account deletes (its foreign key had no index).
 */
export const listAndUpkeepIndexes: Migration = {
  version: 14,
  name: 'indexes for the posts list by status and account, and for start-up and hourly upkeep',
  sql: `
    CREATE INDEX posts_user_status_order ON posts(user_id, status, coalesce(scheduled_at, created_at), id);
    CREATE INDEX posts_account_order ON posts(user_id, account_id, status, coalesce(scheduled_at, created_at), id);
    CREATE INDEX post_targets_platform ON post_targets(platform, post_id);
    CREATE INDEX idempotency_keys_running ON idempotency_keys(user_id, key) WHERE state = 'running';
    CREATE INDEX webhook_deliveries_finished ON webhook_deliveries(updated_at) WHERE status <> 'pending';
    CREATE INDEX post_series_account ON post_series(account_id);
  `,
}
