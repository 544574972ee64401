import { randomUUID } from 'node:crypto'
import { SCOPES } from '../../../src/api/common.js'
import { SYSTEM, type Store } from '../port.js'
import { accountsStore } from './accounts.js'
import { analyticsStore } from './analytics.js'
import { apiKeysStore, createApiKey } from './api-keys.js'
import { connectPostgres, describeDatabase, reportingLoss, StoreGate, type ConnectOptions } from './connect.js'
import { eventsStore } from './events.js'
import { feedStore } from './feed.js'
import { idempotencyStore } from './idempotency.js'
import { metricsStore } from './metrics.js'
import { mediaStore } from './media.js'
import { migrate } from './migrate.js'
import { oauthStore } from './oauth.js'
import { postsStore } from './posts.js'
import { queuesStore } from './queues.js'
import { publishingStore } from './publishing.js'
import { rateLimitsStore } from './rate-limits.js'
import { usersStore, createUser } from './users.js'
import { webhookDeliveriesStore } from './webhook-deliveries.js'
import { webhooksStore } from './webhooks.js'
import { workspacesStore } from './workspaces.js'
import { commentsStore } from './comments.js'
import { reviewLinksStore } from './review-links.js'

export { DatabaseUnreachableError, describeDatabase } from './connect.js'

/** How long a webhook delivery's or a token refresh's claim holds. */
const CLAIM_LEASE_MS = 30_000

// Any constant: the lock under which only one of several nodes starting together creates the owner.
const BOOTSTRAP_LOCK = 0x736d6d01

/**
 * The store on a PostgreSQL database, shared by every daemon pointed at it: connected (a wrong
 * or unreachable URL fails within seconds, naming the host, never the password) and migrated.
 * Work this node claims carries `nodeId`.
 */
export async function openPostgresStore(url: string, options: ConnectOptions & { nodeId?: string } = {}): Promise<Store & { nodeId: string }> {
  // Webhook deliveries and token refreshes hold their claims 30 s: the session limits keep within the shorter.
  const sql = await connectPostgres(url, { ...options, leaseMs: Math.min(options.leaseMs ?? CLAIM_LEASE_MS, CLAIM_LEASE_MS) })
  try {
    await migrate(sql, describeDatabase(url))
  } catch (error) {
    await sql.end({ timeout: 1 })
    throw error
  }
  // A node keeps its id across restarts (the daemon keeps it in its data dir), so that at start
  // it can take back at once what its previous run left claimed.
  const nodeId = options.nodeId ?? `node-${randomUUID()}`
  const gate = new StoreGate(sql)
  const guarded = <T extends object>(family: T) => reportingLoss(family, gate)
  const { ping } = guarded({ ping: async () => void (await sql`SELECT 1`) })
  return {
    nodeId,
    users: guarded(usersStore(sql)),
    workspaces: guarded(workspacesStore(sql)),
    apiKeys: guarded(apiKeysStore(sql)),
    rateLimits: guarded(rateLimitsStore(sql)),
    idempotency: guarded(idempotencyStore(sql, nodeId)),
    events: guarded(eventsStore(sql)),
    webhooks: guarded(webhooksStore(sql)),
    webhookDeliveries: guarded(webhookDeliveriesStore(sql, nodeId)),
    accounts: guarded(accountsStore(sql)),
    posts: guarded(postsStore(sql)),
    comments: guarded(commentsStore(sql)),
    reviewLinks: guarded(reviewLinksStore(sql)),
    queues: guarded(queuesStore(sql)),
    publishing: guarded(publishingStore(sql, nodeId)),
    feed: guarded(feedStore(sql)),
    metrics: guarded(metricsStore(sql)),
    analytics: guarded(analyticsStore(sql)),
    oauth: guarded(oauthStore(sql)),
    media: guarded(mediaStore(sql)),
    async bootstrapOwner(owner, now) {
      return sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`
        const [any] = await tx`SELECT 1 FROM users LIMIT 1`
        if (any) return undefined
        const user = await createUser(tx, { ...owner, isOwner: true }, now)
        const key = await createApiKey(tx, user.id, { name: 'owner (first start)', scopes: SCOPES }, now, SYSTEM)
        return { user, key }
      })
    },
    async acceptsSecretKey(fingerprint) {
      await sql`INSERT INTO cluster_settings (name, value) VALUES ('secret_key_fingerprint', ${fingerprint}) ON CONFLICT DO NOTHING`
      const [row] = await sql<{ value: string }[]>`SELECT value FROM cluster_settings WHERE name = 'secret_key_fingerprint'`
      return row!.value === fingerprint
    },
    async backup() {
      throw new Error('A PostgreSQL database is backed up with PostgreSQL\'s own tools: pg_dump (or a base backup and WAL archiving).')
    },
    ping,
    async close() {
      gate.close()
      await sql.end({ timeout: 5 })
    },
  }
}
