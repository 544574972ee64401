import type { Migration } from './index.js'

/**
 * The events still to dispatch are listed in a table of their own, `outbox`, instead of being
 * marked in place (migration 4's `dispatched_at`). Marking rewrote every event's row, its post
 * as JSON included, once more: in a burst of 10,000 posts, 20,000 rows; after a bulk import of
 * 100,000 posts, the outbox catching up wrote over 100 MB of log, enough to make commits wait for
 * checkpoints. Dispatching now deletes a narrow row.
 *
 * The events store lists each event it appends (a trigger would do the same for twice the cost
 * of the event's own insert). Events written from now on keep `dispatched_at` empty: an event is
 * dispatched when it is no longer in `outbox` (what `smm admin copy` carries over to
 * PostgreSQL). No foreign key: an event deleted with its user leaves a row the dispatcher finds
 * no event for, and drops.
 */
export const outboxQueue: Migration = {
  version: 17,
  name: 'events still to dispatch listed in a table of their own',
  sql: `
    CREATE TABLE outbox (event_id TEXT PRIMARY KEY) WITHOUT ROWID;
    INSERT INTO outbox (event_id) SELECT id FROM events WHERE dispatched_at IS NULL;
    DROP INDEX events_undispatched;
  `,
}
