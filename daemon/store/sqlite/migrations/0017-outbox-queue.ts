import type { Migration } from './index.js'

/**
 * The events still to dispatch are listed in a table of their own, `outbox`, instead of being
 * marked in place (migration 4's `dispatched_at`). Marking rewrote every event's row, its post
 * as JSON included, once more: in a burst of 10,000 posts, 20,000 rows; after a bulk import of
 * 100,000 posts, the outbox catching up wrote over 100 MB of log, enough to make commits wait for
 * checkpoints. Dispatching now deletes a narrow row.
 *
 * A trigger lists each new event, so no way of adding one can forget it; an event written as
 * already dispatched (`dispatched_at` given, as a copy or a seed may) is not listed. Events
 * written from now on keep `dispatched_at` empty, and an event is dispatched when it is no longer
 * in `outbox` (what `smm admin copy` carries over to PostgreSQL).
 */
export const outboxQueue: Migration = {
  version: 17,
  name: 'events still to dispatch listed in a table of their own',
  sql: `
    CREATE TABLE outbox (
      event_id TEXT PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE
    ) WITHOUT ROWID;
    INSERT INTO outbox (event_id) SELECT id FROM events WHERE dispatched_at IS NULL;
    DROP INDEX events_undispatched;
    CREATE TRIGGER events_outbox AFTER INSERT ON events WHEN new.dispatched_at IS NULL BEGIN
      INSERT INTO outbox (event_id) VALUES (new.id);
    END;
  `,
}
