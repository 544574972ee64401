import type { Migration } from './index.js'
import { triggerOf } from './trigger-text.js'
import { ROLLUP_COLUMNS } from './0006-analytics-rollups.js'
import { draftsQueueSlots, EXPECTED_DELAYS as DELAYS_0010, EXPECTED_HOURS as HOURS_0010, EXPECTED_TOP as TOP_0010 } from './0010-drafts-queue-slots.js'
import { rollupsSummedPerSettlementBatch } from './0016-rollups-summed-per-settlement-batch.js'

/**
 * Workspaces: accounts, posts, series, webhooks and events belong to a workspace, and users
 * belong to workspaces as members with a role. Every user gets a personal workspace (its id
 * the user's own ULID under `wsp_`, its zone the user's) that takes over everything they had,
 * so nothing changes for a user who never creates another.
 *
 * - `personal_of` names the user a personal workspace belongs to (one each); a shared
 *   workspace has none and keeps its own `timezone`.
 * - Accounts, posts, series and webhooks get `workspace_id` by ADD COLUMN (SQLite adds a
 *   REFERENCES column only as nullable; every write names it). Their `user_id` stays: who
 *   created them (a post's author). Every index of the post lists is keyed by workspace where it
 *   was by user.
 * - `events` is rebuilt with `workspace_id` in place of `user_id`: an event goes to its
 *   workspace's webhooks, whoever caused it.
 * - The analytics rollups are per workspace: their tables are made again keyed by
 *   `workspace_id`, and filled again from the raw rows. Their triggers are the ones in force
 *   (0010's, and 0016's on targets), word for word but for two things: the key, and posts that
 *   wait for approval or were rejected (states to come) count nowhere, as drafts do.
 * - A key that held every scope keeps holding every scope: it gains the new ones.
 */

/** The statuses whose posts count nowhere in analytics (not yet, or never, to be published). */
export const UNCOUNTED_STATUSES = "('cancelled', 'draft', 'pending_approval', 'rejected')"

const rekeyed = (sql: string) => sql.replaceAll('user_id', 'workspace_id').replaceAll("('cancelled', 'draft')", UNCOUNTED_STATUSES)

const TRIGGERS = [
  ['analytics_target_insert', draftsQueueSlots.sql],
  ['analytics_target_update', rollupsSummedPerSettlementBatch.sql],
  ['analytics_target_delete', draftsQueueSlots.sql],
  ['analytics_metrics_delete', draftsQueueSlots.sql],
  ['analytics_post_moved', draftsQueueSlots.sql],
  ['analytics_post_delete', draftsQueueSlots.sql],
] as const

/** The rollup rows, computed from the raw rows: the backfill, and what the store checks the rollups against. */
export const EXPECTED_HOURS = rekeyed(HOURS_0010)
export const EXPECTED_DELAYS = rekeyed(DELAYS_0010)
export const EXPECTED_TOP = rekeyed(TOP_0010)

/** The scopes every key could hold before this step: a key with all of them held every scope. */
const EARLIER_SCOPES = ['profile:read', 'profile:write', 'accounts:read', 'accounts:write', 'posts:read', 'posts:write', 'analytics:read', 'ai:generate', 'webhooks:read', 'webhooks:write', 'keys:write']

const personal = (userId: string) => `'wsp_' || substr(${userId}, 5)`

export const workspaces: Migration = {
  version: 20,
  name: 'workspaces and members; accounts, posts, series, webhooks, events and analytics per workspace',
  rebuildsTables: true,
  sql: `
    ${TRIGGERS.map(([name]) => `DROP TRIGGER ${name};`).join('\n    ')}

    CREATE TABLE workspaces (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      -- The user whose personal workspace this is; NULL for a shared workspace.
      personal_of TEXT UNIQUE REFERENCES users(id) ON DELETE CASCADE,
      approval_required INTEGER NOT NULL DEFAULT 0,
      -- A shared workspace's zone; a personal one follows its user's.
      timezone TEXT NOT NULL DEFAULT 'UTC',
      created_at INTEGER NOT NULL
    );
    CREATE TABLE workspace_members (
      workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
      created_at INTEGER NOT NULL,
      PRIMARY KEY (workspace_id, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX workspace_members_user ON workspace_members(user_id, workspace_id);

    INSERT INTO workspaces (id, name, personal_of, timezone, created_at) SELECT ${personal('id')}, 'Personal', id, timezone, created_at FROM users;
    INSERT INTO workspace_members (workspace_id, user_id, role, created_at) SELECT ${personal('id')}, id, 'owner', created_at FROM users;

    UPDATE api_keys SET scopes = scopes || ' workspaces:read workspaces:write posts:approve'
     WHERE (SELECT count(*) FROM json_each('${JSON.stringify(EARLIER_SCOPES)}') j WHERE instr(' ' || api_keys.scopes || ' ', ' ' || j.value || ' ') > 0) = ${EARLIER_SCOPES.length};

    ALTER TABLE accounts ADD COLUMN workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE;
    UPDATE accounts SET workspace_id = ${personal('user_id')};
    CREATE INDEX accounts_workspace ON accounts(workspace_id, id);

    ALTER TABLE webhooks ADD COLUMN workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE;
    UPDATE webhooks SET workspace_id = ${personal('user_id')};
    CREATE INDEX webhooks_workspace ON webhooks(workspace_id, id);

    -- A series' next occurrence copies its template's columns: the workspace joins them.
    ALTER TABLE post_series ADD COLUMN workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE;
    UPDATE post_series SET workspace_id = ${personal('user_id')}, template = json_set(template, '$.workspace_id', ${personal('user_id')});

    ALTER TABLE posts ADD COLUMN workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE;
    UPDATE posts SET workspace_id = ${personal('user_id')};
    DROP INDEX posts_user_time;
    DROP INDEX posts_report;
    DROP INDEX posts_user_order;
    DROP INDEX posts_user_status_order;
    DROP INDEX posts_account_order;
    CREATE INDEX posts_workspace_time ON posts(workspace_id, scheduled_at, id);
    CREATE INDEX posts_report ON posts(workspace_id, scheduled_at, status, account_id, id);
    CREATE INDEX posts_workspace_order ON posts(workspace_id, coalesce(scheduled_at, created_at), id);
    CREATE INDEX posts_workspace_status_order ON posts(workspace_id, status, coalesce(scheduled_at, created_at), id);
    CREATE INDEX posts_account_order ON posts(workspace_id, account_id, status, coalesce(scheduled_at, created_at), id);

    CREATE TABLE events_rebuilt (
      id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      dispatched_at INTEGER
    );
    INSERT INTO events_rebuilt (id, workspace_id, type, data, created_at, dispatched_at)
      SELECT id, ${personal('user_id')}, type, data, created_at, dispatched_at FROM events;
    DROP TABLE events;
    ALTER TABLE events_rebuilt RENAME TO events;
    CREATE INDEX events_workspace ON events(workspace_id, id);

    DROP TABLE analytics_hours;
    DROP TABLE publish_delays;
    DROP TABLE top_targets;
    CREATE TABLE analytics_hours (
      workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      -- The account these figures are of, or '*' for all the workspace's accounts; the platform,
      -- or '*' for all: a series reads one row per hour, a platform's total one run of rows.
      account_scope TEXT NOT NULL,
      platform TEXT NOT NULL,
      hour INTEGER NOT NULL,
      ${ROLLUP_COLUMNS.map((c) => `${c} INTEGER NOT NULL DEFAULT 0`).join(',\n      ')},
      PRIMARY KEY (workspace_id, account_scope, platform, hour)
    ) WITHOUT ROWID;
    CREATE TABLE publish_delays (
      workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      scheduled_at INTEGER NOT NULL,
      post_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      account_id TEXT NOT NULL,
      delay INTEGER NOT NULL,
      PRIMARY KEY (workspace_id, scheduled_at, post_id, platform)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX publish_delays_target ON publish_delays(post_id, platform);
    CREATE INDEX publish_delays_account ON publish_delays(workspace_id, account_id, scheduled_at, platform, delay);
    CREATE TABLE top_targets (
      workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      engagements INTEGER NOT NULL,
      post_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      scheduled_at INTEGER NOT NULL,
      account_id TEXT NOT NULL,
      PRIMARY KEY (post_id, platform)
    ) WITHOUT ROWID;
    CREATE INDEX top_targets_rank ON top_targets(workspace_id, engagements DESC, post_id, platform, scheduled_at, account_id);
    CREATE INDEX top_targets_time ON top_targets(workspace_id, scheduled_at, engagements, account_id);

    ${TRIGGERS.map(([name, sql]) => rekeyed(triggerOf(sql, name, 20))).join('\n\n    ')}

    INSERT INTO analytics_hours (workspace_id, account_scope, platform, hour, ${ROLLUP_COLUMNS.join(', ')}) ${EXPECTED_HOURS};
    INSERT INTO publish_delays (workspace_id, scheduled_at, post_id, platform, account_id, delay) ${EXPECTED_DELAYS};
    INSERT INTO top_targets (workspace_id, engagements, post_id, platform, scheduled_at, account_id) ${EXPECTED_TOP};
  `,
}
