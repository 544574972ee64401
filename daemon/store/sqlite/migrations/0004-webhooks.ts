import type { Migration } from './index.js'

/**
 * Webhook endpoints, one delivery row per (event, endpoint) and one row per attempt.
 *
 * The outbox gets a `dispatched_at` mark rather than the delivery loop keeping an id cursor:
 * event ids are ULIDs of the writing process's clock, so a clock stepped back across a restart
 * could mint ids below a cursor and those events would be skipped. A mark cannot skip anything.
 */
export const webhooks: Migration = {
  version: 4,
  name: 'webhook endpoints, deliveries and attempts',
  sql: `
    CREATE TABLE webhooks (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      url TEXT NOT NULL,
      events TEXT NOT NULL,                 -- JSON array of event types, or ["*"]
      description TEXT,
      enabled INTEGER NOT NULL DEFAULT 1,
      disabled_reason TEXT,
      disabled_at INTEGER,
      secret TEXT NOT NULL,                 -- sealed (AES-256-GCM), never returned after creation
      previous_secret TEXT,                 -- sealed; also signs until previous_secret_expires_at
      previous_secret_expires_at INTEGER,
      failing_since INTEGER,                -- first failure since the last success
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX webhooks_user ON webhooks(user_id, id);

    ALTER TABLE events ADD COLUMN dispatched_at INTEGER;
    CREATE INDEX events_undispatched ON events(id) WHERE dispatched_at IS NULL;

    CREATE TABLE webhook_deliveries (
      webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
      event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
      status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL,
      lease_expires_at INTEGER,             -- set while an attempt is in flight
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (webhook_id, event_id)
    ) WITHOUT ROWID;
    -- Claiming looks at each enabled endpoint's oldest due deliveries, and counts live leases;
    -- the idle loop asks whether anything at all is due.
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries(webhook_id, next_attempt_at) WHERE status = 'pending';
    CREATE INDEX webhook_deliveries_next ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';
    CREATE INDEX webhook_deliveries_leased ON webhook_deliveries(lease_expires_at) WHERE lease_expires_at IS NOT NULL;
    CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_id);

    CREATE TABLE webhook_attempts (
      id TEXT PRIMARY KEY,
      webhook_id TEXT NOT NULL,
      event_id TEXT NOT NULL,
      attempt INTEGER NOT NULL,
      succeeded INTEGER NOT NULL,
      status_code INTEGER,
      duration_ms INTEGER NOT NULL,
      response_body TEXT,
      error TEXT,
      next_attempt_at INTEGER,
      created_at INTEGER NOT NULL,
      FOREIGN KEY (webhook_id, event_id) REFERENCES webhook_deliveries(webhook_id, event_id) ON DELETE CASCADE
    );
    CREATE INDEX webhook_attempts_webhook ON webhook_attempts(webhook_id, id);
    CREATE INDEX webhook_attempts_delivery ON webhook_attempts(webhook_id, event_id);
  `,
}
