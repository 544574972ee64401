import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ownerOnlyFile } from '../files.js'
import type { NewKeySecret } from '../../src/api/api-keys.js'
import { SCOPES } from '../../src/api/common.js'
import type { User } from '../../src/api/users.js'
import { accountsStore } from './accounts.js'
import { apiKeysStore } from './api-keys.js'
import { openDatabase, type Db } from './db.js'
import { eventsStore } from './events.js'
import { feedStore } from './feed.js'
import { idempotencyStore } from './idempotency.js'
import { metricsStore } from './metrics.js'
import { analyticsStore } from './analytics.js'
import { postsStore } from './posts.js'
import { publishingStore } from './publishing.js'
import { rateLimitsStore } from './rate-limits.js'
import { usersStore, type NewUser } from './users.js'
import { webhookDeliveriesStore } from './webhook-deliveries.js'
import { webhooksStore } from './webhooks.js'

/** Everything that touches the database, one family of tables per member. */
export interface Store {
  db: Db
  users: ReturnType<typeof usersStore>
  apiKeys: ReturnType<typeof apiKeysStore>
  rateLimits: ReturnType<typeof rateLimitsStore>
  idempotency: ReturnType<typeof idempotencyStore>
  events: ReturnType<typeof eventsStore>
  webhooks: ReturnType<typeof webhooksStore>
  webhookDeliveries: ReturnType<typeof webhookDeliveriesStore>
  accounts: ReturnType<typeof accountsStore>
  posts: ReturnType<typeof postsStore>
  /** The scheduler's side of posts: claims, leases, outcomes. */
  publishing: ReturnType<typeof publishingStore>
  feed: ReturnType<typeof feedStore>
  /** Engagement snapshots and the collector's schedule. */
  metrics: ReturnType<typeof metricsStore>
  /** The aggregations behind GET /v1/analytics. */
  analytics: ReturnType<typeof analyticsStore>
  /**
   * On an empty database only: creates the owner user and one key with every scope, together.
   * Undefined if there are users already.
   */
  bootstrapOwner(owner: NewUser, now: number): Promise<{ user: User; key: NewKeySecret } | undefined>
  /** An online, consistent copy of the database to another file. */
  backup(file: string): Promise<void>
  close(): void
}

/**
 * Opens the database of a data dir that a daemon has already created, for `smm admin`:
 * a missing file is an error that says what to do, not a new empty database.
 */
export function openExistingStore(dataDir: string): Store {
  const file = join(dataDir, 'smm.db')
  if (!existsSync(file)) {
    throw new Error(`No smm database at ${file}. Start the daemon once with --data-dir ${dataDir}, or pass the --data-dir it uses.`)
  }
  return openStore(file)
}

export function openStore(file: string): Store {
  const db = openDatabase(file)
  const users = usersStore(db)
  const apiKeys = apiKeysStore(db)
  const rateLimits = rateLimitsStore(db)
  const events = eventsStore(db)
  const accounts = accountsStore(db, events)
  const anyUser = db.prepare('SELECT 1 FROM users LIMIT 1')
  const bootstrapOwner = db.transaction((owner: NewUser, now: number) => {
    if (anyUser.get()) return undefined
    const user = users.createSync({ ...owner, isOwner: true }, now)
    const key = apiKeys.createSync(user.id, { name: 'owner (first start)', scopes: SCOPES }, now)
    return { user, key }
  })
  return {
    db,
    users,
    apiKeys,
    async bootstrapOwner(owner, now) {
      return bootstrapOwner.immediate(owner, now)
    },
    rateLimits,
    idempotency: idempotencyStore(db),
    webhooks: webhooksStore(db),
    webhookDeliveries: webhookDeliveriesStore(db),
    events,
    accounts,
    posts: postsStore(db, events),
    publishing: publishingStore(db, events, accounts),
    feed: feedStore(db),
    metrics: metricsStore(db, accounts),
    analytics: analyticsStore(db),
    async backup(target: string) {
      ownerOnlyFile(target)
      await db.backup(target)
    },
    close() {
      if (!db.open) return
      rateLimits.flushSync()
      db.close()
    },
  }
}

export type { Principal } from './api-keys.js'
