import type { Migration } from '../../migrations.js'

/** The scopes every key could hold before this step: a key with all of them held every scope. */
const EARLIER_SCOPES = ['profile:read', 'profile:write', 'accounts:read', 'accounts:write', 'posts:read', 'posts:write', 'analytics:read', 'ai:generate', 'webhooks:read', 'webhooks:write', 'keys:write']

const personal = (userId: string) => `'wsp_' || substr(${userId}, 5)`

/**
 * SQLite's 0020 on PostgreSQL: workspaces and their members; a personal workspace for every user
 * that takes over their accounts, posts, series, webhooks and events; every index of the post
 * lists keyed by workspace where it was by user; events per
 * workspace (`user_id` gone, as on SQLite); keys that held every scope gain the new ones.
 *
 * Membership is part of what a node caches with a key (daemon/store/postgres/api-keys.ts): a
 * change to a workspace or its members notifies every node, as a change to a key or a user does,
 * so a member removed on one node is refused on the others at once.
 */
export const workspaces: Migration = {
  version: 13,
  name: 'workspaces and members; accounts, posts, series, webhooks and events per workspace',
  sql: `
    CREATE TABLE workspaces (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      personal_of TEXT UNIQUE REFERENCES users(id) ON DELETE CASCADE,
      approval_required INTEGER NOT NULL DEFAULT 0,
      timezone TEXT NOT NULL DEFAULT 'UTC',
      created_at BIGINT NOT NULL
    );
    CREATE TABLE workspace_members (
      workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
      created_at BIGINT NOT NULL,
      PRIMARY KEY (workspace_id, user_id)
    );
    CREATE INDEX workspace_members_user ON workspace_members(user_id, workspace_id);
    CREATE TRIGGER workspaces_changed AFTER UPDATE OR DELETE ON workspaces FOR EACH STATEMENT EXECUTE FUNCTION smm_notify_auth();
    CREATE TRIGGER workspace_members_changed AFTER INSERT OR UPDATE OR DELETE ON workspace_members FOR EACH STATEMENT EXECUTE FUNCTION smm_notify_auth();

    INSERT INTO workspaces (id, name, personal_of, timezone, created_at) SELECT ${personal('id')}, 'Personal', id, timezone, created_at FROM users;
    INSERT INTO workspace_members (workspace_id, user_id, role, created_at) SELECT ${personal('id')}, id, 'owner', created_at FROM users;

    UPDATE api_keys SET scopes = scopes || ' workspaces:read workspaces:write posts:approve'
     WHERE string_to_array(scopes, ' ') @> ARRAY[${EARLIER_SCOPES.map((s) => `'${s}'`).join(', ')}];

    ALTER TABLE accounts ADD COLUMN workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE;
    UPDATE accounts SET workspace_id = ${personal('user_id')};
    ALTER TABLE accounts ALTER COLUMN workspace_id SET NOT NULL;
    CREATE INDEX accounts_workspace ON accounts(workspace_id, id);

    ALTER TABLE webhooks ADD COLUMN workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE;
    UPDATE webhooks SET workspace_id = ${personal('user_id')};
    ALTER TABLE webhooks ALTER COLUMN workspace_id SET NOT NULL;
    CREATE INDEX webhooks_workspace ON webhooks(workspace_id, id);

    ALTER TABLE post_series ADD COLUMN workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE;
    UPDATE post_series SET workspace_id = ${personal('user_id')},
           template = (template::jsonb || jsonb_build_object('workspace_id', ${personal('user_id')}))::text;
    ALTER TABLE post_series ALTER COLUMN workspace_id SET NOT NULL;

    ALTER TABLE posts ADD COLUMN workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE;
    UPDATE posts SET workspace_id = ${personal('user_id')};
    ALTER TABLE posts ALTER COLUMN workspace_id SET NOT NULL;
    DROP INDEX posts_user_time;
    DROP INDEX posts_report;
    DROP INDEX posts_user_order;
    DROP INDEX posts_user_status_order;
    DROP INDEX posts_account_order;
    CREATE INDEX posts_workspace_time ON posts(workspace_id, scheduled_at, id);
    CREATE INDEX posts_report ON posts(workspace_id, scheduled_at, status, account_id, id);
    CREATE INDEX posts_workspace_order ON posts(workspace_id, (coalesce(scheduled_at, created_at)), id);
    CREATE INDEX posts_workspace_status_order ON posts(workspace_id, status, (coalesce(scheduled_at, created_at)), id);
    CREATE INDEX posts_account_order ON posts(workspace_id, account_id, status, (coalesce(scheduled_at, created_at)), id);

    ALTER TABLE events ADD COLUMN workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE;
    UPDATE events SET workspace_id = ${personal('user_id')};
    ALTER TABLE events ALTER COLUMN workspace_id SET NOT NULL;
    ALTER TABLE events DROP COLUMN user_id;
    CREATE INDEX events_workspace ON events(workspace_id, id);
  `,
}
