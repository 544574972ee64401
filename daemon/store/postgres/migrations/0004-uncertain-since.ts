import type { Migration } from '../../migrations.js'

/**
 * When a request whose outcome is unknown (a timeout, a connection cut) was first sent in a
 * target's chain of attempts: every later re-send, whatever ended the attempts between, must fall
 * inside the platform's idempotency window counted from then. Cleared when the user retries.
 */
export const uncertainSince: Migration = {
  version: 4,
  name: 'when an attempt of unknown outcome was first sent',
  sql: `
    ALTER TABLE post_targets ADD COLUMN uncertain_since BIGINT;
  `,
}
