import { SCOPES } from '../../../src/api/common.js'
import { ownerOnlyFile } from '../../files.js'
import { SYSTEM, type NewUser, type Store } from '../port.js'
import { accountsStore } from './accounts.js'
import { analyticsStore } from './analytics.js'
import { apiKeysStore } from './api-keys.js'
import { BackgroundCheckpointer } from './checkpointer.js'
import { commitSignal } from './commits.js'
import { openDatabase, type Db } from './db.js'
import { eventsStore } from './events.js'
import { feedStore } from './feed.js'
import { idempotencyStore } from './idempotency.js'
import { mediaStore } from './media.js'
import { metricsStore } from './metrics.js'
import { metricsRollups } from './metrics-rollups.js'
import { oauthStore } from './oauth.js'
import { postsStore } from './posts.js'
import { queuesStore } from './queues.js'
import { publishingStore } from './publishing.js'
import { rateLimitsStore } from './rate-limits.js'
import { usersStore } from './users.js'
import { webhookDeliveriesStore } from './webhook-deliveries.js'
import { webhooksStore } from './webhooks.js'
import { workspacesStore } from './workspaces.js'
import { commentsStore } from './comments.js'
import { reviewLinksStore } from './review-links.js'

/** Checks that the store implements the port while keeping its own type, for its own tests. */
const implementsPort = <T extends Store>(store: T): T => store

export interface SqliteStoreOptions {
  /**
   * Runs WAL checkpoints on a thread of their own (the daemon's choice; a short-lived command
   * needs none), reporting a failed one here.
   */
  backgroundCheckpoints?: (error: Error) => void
}

/**
 * The store on one SQLite file (created and migrated if need be). The daemon sees it as a
 * `Store`; the SQLite store's own tests and benchmarks may also use its database handle.
 */
export function openSqliteStore(file: string, options: SqliteStoreOptions = {}) {
  const db = openDatabase(file)
  const checkpointer = options.backgroundCheckpoints && file !== ':memory:' ? BackgroundCheckpointer.start(db, file, options.backgroundCheckpoints) : undefined
  const users = usersStore(db)
  const commits = commitSignal(db)
  const events = eventsStore(db)
  const apiKeys = apiKeysStore(db, commits, events)
  const rateLimits = rateLimitsStore(db)
  const accounts = accountsStore(db, events)
  const queues = queuesStore(db)
  const anyUser = db.prepare('SELECT 1 FROM users LIMIT 1')
  const bootstrapOwner = db.transaction((owner: NewUser, now: number) => {
    if (anyUser.get()) return undefined
    const user = users.createSync({ ...owner, isOwner: true }, now)
    const key = apiKeys.createSync(user.id, { name: 'owner (first start)', scopes: SCOPES }, now, SYSTEM)
    return { user, key }
  })
  const store = implementsPort({
    users,
    workspaces: workspacesStore(db, events),
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
    posts: postsStore(db, events, accounts, queues),
    comments: commentsStore(db, events),
    reviewLinks: reviewLinksStore(db, events),
    queues,
    publishing: publishingStore(db, events, accounts),
    feed: feedStore(db),
    metrics: metricsStore(db, accounts, metricsRollups(db)),
    analytics: analyticsStore(db),
    oauth: oauthStore(db),
    media: mediaStore(db),
    /** The data dir holds its database and its key file together: one daemon, one key. */
    async acceptsSecretKey() {
      return true
    },
    async ping() {
      db.prepare('SELECT 1').get()
    },
    async backup(target: string) {
      ownerOnlyFile(target)
      await db.backup(target)
    },
    async close() {
      if (!db.open) return
      rateLimits.flushSync()
      await checkpointer?.stop()
      db.close()
      commits.close()
    },
  })
  return Object.assign(store, { db: db as Db, checkpointer })
}

export type SqliteStore = ReturnType<typeof openSqliteStore>
