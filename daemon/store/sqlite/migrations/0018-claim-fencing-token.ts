import type { Migration } from './index.js'

/**
 * A target's fencing token: bumped by every claim of it (an attempt, or the take-over of one
 * whose lease ran out), and named by every write its holder then makes about it (the outcome, a
 * part out, a re-send, a renewal), in that write's WHERE. A holder whose lease lapsed while it
 * was stopped, and whose target was taken over meanwhile, then changes nothing when it wakes.
 */
export const claimFencingToken: Migration = {
  version: 18,
  name: 'a fencing token on each target, bumped by every claim',
  sql: `
    ALTER TABLE post_targets ADD COLUMN claim INTEGER NOT NULL DEFAULT 0;
  `,
}
