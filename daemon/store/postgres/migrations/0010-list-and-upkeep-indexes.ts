import type { Migration } from '../../migrations.js'

/**
 * SQLite's 0014, on PostgreSQL: the posts list by status and by account in list order, targets
 * by platform, the claims a node's idempotent requests left running (which its start clears),
 * finished webhook deliveries by age (the hourly purge), and series by account (deleting an
 * account).
 */
export const listAndUpkeepIndexes: Migration = {
  version: 10,
  name: 'indexes for the posts list by status and account, and for start-up and hourly upkeep',
  sql: `
    CREATE INDEX posts_user_status_order ON posts(user_id, status, (coalesce(scheduled_at, created_at)), id);
    CREATE INDEX posts_account_order ON posts(user_id, account_id, status, (coalesce(scheduled_at, created_at)), id);
    CREATE INDEX post_targets_platform ON post_targets(platform, post_id);
    CREATE INDEX idempotency_keys_running ON idempotency_keys(claimed_by) WHERE state = 'running';
    CREATE INDEX webhook_deliveries_finished ON webhook_deliveries(updated_at) WHERE status <> 'pending';
    CREATE INDEX post_series_account ON post_series(account_id);
  `,
}
