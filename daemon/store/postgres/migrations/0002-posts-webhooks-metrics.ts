import type { Migration } from '../../migrations.js'

/**
 * Posts and their targets, webhook endpoints, deliveries and attempts, metric snapshots. Work
 * that a node claims (a target being published, a delivery being sent) carries the claiming
 * node's id and a lease: another node takes it over only once the lease has run out.
 */
export const postsWebhooksMetrics: Migration = {
  version: 2,
  name: 'posts, targets, webhooks, deliveries, attempts, metrics',
  sql: `
    CREATE TABLE posts (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      content TEXT NOT NULL,
      media_urls TEXT NOT NULL,
      platforms TEXT NOT NULL,
      scheduled_at BIGINT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('scheduled', 'publishing', 'published', 'partially_published', 'failed', 'cancelled')),
      version INTEGER NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      published_at BIGINT,
      cancelled_at BIGINT
    );
    CREATE INDEX posts_due ON posts(scheduled_at) WHERE status = 'scheduled';
    CREATE INDEX posts_user_time ON posts(user_id, scheduled_at, id);
    CREATE INDEX posts_account_time ON posts(account_id, scheduled_at, id);
    CREATE TABLE post_targets (
      post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
      platform TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'publishing', 'published', 'failed', 'unconfirmed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      attempts_before_retry INTEGER NOT NULL DEFAULT 0,
      next_attempt_at BIGINT,
      lease_expires_at BIGINT,
      -- The node whose attempt holds the lease.
      claimed_by TEXT,
      platform_post_id TEXT,
      url TEXT,
      published_at BIGINT,
      error_code TEXT,
      error_detail TEXT,
      metrics_due_at BIGINT,
      metrics_failures INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (post_id, platform)
    );
    CREATE INDEX post_targets_due ON post_targets(next_attempt_at) WHERE status = 'pending';
    CREATE INDEX post_targets_leased ON post_targets(lease_expires_at) WHERE status = 'publishing';
    CREATE INDEX post_targets_metrics_due ON post_targets(metrics_due_at) WHERE metrics_due_at IS NOT NULL;
    CREATE TABLE webhooks (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      url TEXT NOT NULL,
      events TEXT NOT NULL,
      description TEXT,
      enabled INTEGER NOT NULL DEFAULT 1,
      disabled_reason TEXT,
      disabled_at BIGINT,
      secret TEXT NOT NULL,
      previous_secret TEXT,
      previous_secret_expires_at BIGINT,
      failing_since BIGINT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    );
    CREATE INDEX webhooks_user ON webhooks(user_id, id);
    CREATE TABLE webhook_deliveries (
      webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
      event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
      status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at BIGINT NOT NULL,
      lease_expires_at BIGINT,
      claimed_by TEXT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      PRIMARY KEY (webhook_id, event_id)
    );
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
      next_attempt_at BIGINT,
      created_at BIGINT NOT NULL,
      FOREIGN KEY (webhook_id, event_id) REFERENCES webhook_deliveries(webhook_id, event_id) ON DELETE CASCADE
    );
    CREATE INDEX webhook_attempts_webhook ON webhook_attempts(webhook_id, id);
    CREATE INDEX webhook_attempts_delivery ON webhook_attempts(webhook_id, event_id);
    CREATE TABLE metric_snapshots (
      post_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      taken_at BIGINT NOT NULL,
      impressions BIGINT, likes BIGINT, reposts BIGINT, replies BIGINT, quotes BIGINT, clicks BIGINT,
      PRIMARY KEY (post_id, platform, taken_at),
      FOREIGN KEY (post_id, platform) REFERENCES post_targets(post_id, platform) ON DELETE CASCADE
    );
    CREATE TABLE target_metrics (
      post_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      taken_at BIGINT NOT NULL,
      impressions BIGINT, likes BIGINT, reposts BIGINT, replies BIGINT, quotes BIGINT, clicks BIGINT,
      engagements BIGINT,
      PRIMARY KEY (post_id, platform),
      FOREIGN KEY (post_id, platform) REFERENCES post_targets(post_id, platform) ON DELETE CASCADE
    );
    CREATE INDEX posts_report ON posts(user_id, scheduled_at, status, account_id, id);
  `,
}
