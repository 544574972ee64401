import { accountsStore } from './accounts.js'
import { apiKeysStore } from './api-keys.js'
import { connectPostgres, describeDatabase, type ConnectOptions } from './connect.js'
import { eventsStore } from './events.js'
import { feedStore } from './feed.js'
import { idempotencyStore } from './idempotency.js'
import { migrate } from './migrate.js'
import { rateLimitsStore } from './rate-limits.js'
import { usersStore } from './users.js'

export { DatabaseUnreachableError, describeDatabase } from './connect.js'

/**
 * The store on a PostgreSQL database, shared by every daemon pointed at it: connected (a wrong
 * or unreachable URL fails within seconds, naming the host, never the password) and migrated.
 * The families built so far; the rest of the port follows.
 */
export async function openPostgresStore(url: string, options: ConnectOptions = {}) {
  const sql = await connectPostgres(url, options)
  try {
    await migrate(sql, describeDatabase(url))
  } catch (error) {
    await sql.end({ timeout: 1 })
    throw error
  }
  return {
    users: usersStore(sql),
    apiKeys: apiKeysStore(sql),
    rateLimits: rateLimitsStore(sql),
    idempotency: idempotencyStore(sql),
    events: eventsStore(sql),
    accounts: accountsStore(sql),
    feed: feedStore(sql),
    async close() {
      await sql.end({ timeout: 5 })
    },
  }
}
