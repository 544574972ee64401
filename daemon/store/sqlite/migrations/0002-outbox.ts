import type { Migration } from './index.js'

/**
 * The outbox: every event (post.published, account.connected, …) is written here in the same
 * transaction as the change it reports, so no crash can lose one. Webhook delivery reads it.
 */
export const outbox: Migration = {
  version: 2,
  name: 'event outbox',
  sql: `
    CREATE TABLE events (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX events_user ON events(user_id, id);
  `,
}
