import type { Migration } from '../../migrations.js'

/**
 * Every node keeps the keys it has authenticated for a moment; any change to a key or a user
 * (a revocation, a plan, a time zone), through any node or `smm admin`, tells them all to forget.
 */
export const authNotifications: Migration = {
  version: 3,
  name: 'notify every node of key and user changes',
  sql: `
    CREATE FUNCTION smm_notify_auth() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('smm_auth', '');
      RETURN NULL;
    END $$;
    CREATE TRIGGER api_keys_changed AFTER UPDATE OR DELETE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION smm_notify_auth();
    CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users FOR EACH STATEMENT EXECUTE FUNCTION smm_notify_auth();
  `,
}
