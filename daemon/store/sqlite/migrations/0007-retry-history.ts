import type { Migration } from './index.js'

/**
 * A retry keeps the post's `scheduled_at` and the targets' attempt counts: the retry time lives
 * on the target (`next_attempt_at`), and `attempts_before_retry` is where the count stood, so
 * the limit on transient attempts applies afresh to each retry while `attempts` keeps counting.
 */
export const retryHistory: Migration = {
  version: 7,
  name: 'attempt counts kept across retries',
  sql: `
    ALTER TABLE post_targets ADD COLUMN attempts_before_retry INTEGER NOT NULL DEFAULT 0;
  `,
}
