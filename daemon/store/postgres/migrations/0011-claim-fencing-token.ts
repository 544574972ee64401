import type { Migration } from '../../migrations.js'

/**
 * SQLite's 0018, on PostgreSQL: a target's fencing token, bumped by every claim of it (an
 * attempt, or the take-over of one whose lease ran out) and named by every write its holder
 * then makes about it, in that write's WHERE: a node that wakes after its lease lapsed and its
 * target was taken over changes nothing.
 */
export const claimFencingToken: Migration = {
  version: 11,
  name: 'a fencing token on each target, bumped by every claim',
  sql: `
    ALTER TABLE post_targets ADD COLUMN claim INTEGER NOT NULL DEFAULT 0;
  `,
}
