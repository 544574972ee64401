/**
 * The store port: everything the daemon, `smm admin` and the tests may ask of storage, as domain
 * types and async methods, one unit of work per call. No SQL, no row shapes and no database
 * handle cross this line: SQLite (`sqlite/`) and PostgreSQL (`postgres/`) live behind it.
 */
import type { Account, Connection } from '../../src/api/accounts.js'
import type { ApiKey, NewKeySecret } from '../../src/api/api-keys.js'
import type { Plan, Scope } from '../../src/api/common.js'
import type { MediaRef, Overrides, PartKind, Post, PostStatus, ThreadPart } from '../../src/api/posts.js'
import type { PartPlan } from '../../src/post-parts.js'
import type { Limits, User } from '../../src/api/users.js'
import type { Media, MediaType } from '../../src/api/media.js'
import type { Webhook, WebhookDeliveryAttempt } from '../../src/api/webhooks.js'
import type { Member, Role } from '../../src/api/workspaces.js'
import type { EventType } from '../../src/events.js'
import type { QueueRefusal, Slot } from '../../src/queue-slots.js'
import type { Metrics, PlatformName } from '../platforms/types.js'

/** A connection as the scheduler and validation need it: credentials still sealed. */
export interface StoredConnection {
  accountId: string
  workspaceId: string
  platform: PlatformName
  handle: string
  status: 'active' | 'reauth_required'
  sealedCredentials: Buffer
  settings: Record<string, unknown>
  /** When it was (re)connected: tells a later write whether the user reconnected meanwhile. */
  connectedAt: number
}

export interface NewConnection {
  platform: PlatformName
  handle: string
  displayName: string
  sealedCredentials: Buffer
  settings: Record<string, unknown>
}

/**
 * The workspaces a call may touch: what daemon/access.ts answers for what the caller is doing. A
 * row of any other workspace is as absent as a missing one.
 */
export type WorkspaceScope = readonly string[]

/**
 * Who makes a change, as its event (and so the audit log) records it: a user and the key they
 * used, someone through a review link, or (null) smm itself: publishing, a series moving on.
 */
export type Actor = UserActor | { reviewLinkId: string; name: string | null } | null

/** A user acting: through an API key, or (`keyId` null) through the operator's `smm admin`. */
export interface UserActor {
  userId: string
  keyId: string | null
}

/** smm itself. */
export const SYSTEM: Actor = null

/** A user's place in a workspace: their role, and what the access rules need to know of it. */
export interface Membership {
  workspaceId: string
  role: Role
  personal: boolean
  approvalRequired: boolean
}

/** Who a request is made by: the key (without its secret), its scopes and its owner. */
export interface Principal {
  key: ApiKey
  scopes: ReadonlySet<Scope>
  user: User
  /** The workspaces the user belongs to, read with the key: a change to them drops it from every node's cache. */
  memberships: ReadonlyMap<string, Membership>
  /** `key.last_used_at` in ms, to decide whether to record this use. */
  lastUsedAt: number | null
}

export interface NewApiKey {
  name: string
  scopes: readonly Scope[]
  expiresAt?: number | null
}

export type KeyRejection = 'unknown' | 'expired' | 'revoked'

/** An event as stored in the outbox; `id` is the `msg_…` id its deliveries carry. */
export interface StoredEvent {
  id: string
  workspaceId: string
  actor: Actor
  type: EventType
  data: unknown
  createdAt: number
}

/** An uploaded media of a feed item: an enclosure or attachment with its type, size and alt text. */
export interface FeedAttachment {
  url: string
  type: string
  bytes: number
  alt_text: string | null
}

/** One item of an account's feed, as the feed platform published it. */
export interface FeedItem {
  postId: string
  content: string
  mediaUrls: string[]
  /** Uploaded media, after the media URLs. */
  attachments: FeedAttachment[]
  publishedAt: number
}

/** A stored response, replayed to a retry with the same Idempotency-Key. */
export interface StoredResponse {
  status: number
  /** Headers and body, sealed by the caller: the store never sees them in clear. */
  sealed: Buffer
}

export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'mismatch' }
  | { kind: 'in_flight' }

/** A published target whose counts are due to be read. */
export interface DueTarget {
  postId: string
  platform: PlatformName
  accountId: string
  /** Null where the platform gave no id (nothing to ask about). */
  platformPostId: string | null
  publishedAt: number
  dueAt: number
  /** Reads in a row that failed. */
  failures: number
}

/** What one read of one target came to. */
export interface Collected {
  postId: string
  platform: PlatformName
  /** The counts read, kept as a snapshot; absent when nothing was read (an error, a skip). */
  metrics?: Metrics
  /** When to read again; null: never again. */
  nextAt: number | null
  failures: number
}

/** A snapshot as kept. */
export interface Snapshot extends Metrics {
  takenAt: number
}

/** One platform of one post, as the work queue addresses it. */
export interface TargetRef {
  postId: string
  platform: PlatformName
  accountId: string
  /** When this attempt fell due (the post's time, or the time a retry was set for). */
  dueAt: number
}

/**
 * A target as the holder of a claim on it names it in every write about its attempt. `claim` is
 * the fencing token that claim took: every claim of the target (an attempt, or the take-over of
 * one whose lease ran out) takes a new one, and a write naming an older one changes nothing. A
 * node that was stopped past its lease, and whose work was taken over meanwhile, cannot write
 * its stale outcome over the newer attempt's when it wakes.
 */
export interface HeldTarget {
  postId: string
  platform: PlatformName
  claim: number
}

/** A target this node took over (its previous holder's lease ran out), to resolve. */
export interface AbandonedTarget extends TargetRef, HeldTarget {}

/** A target the scheduler now owns (status `publishing`, under a lease). */
export interface ClaimedTarget extends TargetRef, HeldTarget {
  userId: string
  /** Attempts in all, this one included: the count the API shows. */
  attempts: number
  /** Attempts since the user last retried the post, this one included: what the attempt limit counts. */
  attemptsSinceRetry: number
  /** When a request of this chain whose outcome is unknown was first sent, if one was. */
  uncertainSince: number | undefined
  /** The post's version for this platform (its override applied): what part 0 publishes. */
  content: string
  mediaUrls: string[]
  media: MediaRef[]
  /** Every part this target publishes, in order (0 the post itself). */
  parts: PartPlan[]
  /** The parts already out (an earlier attempt's), in order: never sent again. */
  published: StoredPart[]
}

/** One part of a target that is out on its platform, as recorded the moment it was. */
export interface StoredPart {
  index: number
  kind: PartKind
  platformPostId: string | null
  url: string | null
  /** What a later part needs to reply to this one beyond its id (a Bluesky record's CID); null if nothing. */
  ref: string | null
  publishedAt: number
}

/** How an attempt ended. */
export type Outcome =
  | {
      kind: 'published'
      platformPostId: string | null
      url: string | null
      /** Credentials the platform refreshed, sealed, for the connection as it was at `connectedAt`. */
      refreshed?: { sealedCredentials: Buffer; connectedAt: number }
    }
  | { kind: 'failed'; code: string; detail: string; reauthRequired?: boolean; part?: number }
  | { kind: 'unconfirmed'; detail: string; part?: number }
  | { kind: 'retry'; at: number; code: string; detail: string; uncertainSince?: number; part?: number }

/** One attempt's outcome and when it came, named by its claim, for `settleAll`. */
export interface Settlement extends HeldTarget {
  outcome: Outcome
  at: number
}

export interface ClaimResult {
  claimed: number
  /** Posts too late to publish (beyond the catch-up window), failed with `missed_schedule`. */
  missed: number
  /** The targets the claim published itself (`InStorePlatforms`), if any: each published at the claim's `now`. */
  published?: { postId: string; platform: PlatformName; dueAt: number; attempts: number }[]
}

/**
 * The platforms whose publish is nothing but an item in this store's feed (`Platform.inStore`),
 * each with what publishing a post's item answers. `claimDue` may publish, in the claim's own
 * transaction, the due posts that go out on these platforms alone, in one part with no uploaded
 * media, where their connection is active: the feed item, the target published and the post's
 * final state and events, as an attempt and its settlement would write them. Any other post is
 * claimed for attempts.
 */
export type InStorePlatforms = ReadonlyMap<PlatformName, (accountId: string, postId: string) => { platformPostId: string | null; url: string | null }>

export type WindowName = 'minute' | 'hour' | 'day'

/** One window's state after a request was weighed against it. */
export interface WindowState {
  name: WindowName
  limit: number
  /** Seconds in the window. */
  seconds: number
  remaining: number
  /** Milliseconds until the window resets. */
  resetMs: number
}

export interface RateDecision {
  admitted: boolean
  windows: WindowState[]
  /** The windows that refused the request (empty when admitted). */
  violated: WindowName[]
}

export interface NewUser {
  name: string
  email?: string | null
  plan?: Plan
  timezone?: string
  isOwner?: boolean
}

/** One attempt to make: a delivery row claimed under a lease, with what sending it needs. */
export interface DeliveryJob {
  webhookId: string
  eventId: string
  /** 1 for the first try. */
  attempt: number
  url: string
  sealedSecret: string
  sealedPreviousSecret: string | null
  previousSecretExpiresAt: number | null
  eventType: EventType
  /** The event's data exactly as stored (JSON text), so every retry sends the same bytes. */
  eventData: string
  eventCreatedAt: number
}

export interface ClaimLimits {
  /** Attempts in flight at once, over all endpoints. */
  total: number
  /** Attempts in flight at once to one endpoint, so a slow one cannot take every slot. */
  perEndpoint: number
  /** How long a claim holds before another worker may take the delivery over. */
  leaseMs: number
}

export interface AttemptRecord {
  webhookId: string
  eventId: string
  attempt: number
  succeeded: boolean
  statusCode: number | null
  durationMs: number
  responseBody: string | null
  error: string | null
  /** When to try again; null when this attempt was the last (success, gone, or out of retries). */
  nextAttemptAt: number | null
  /** Disable the endpoint now, for this reason (410 Gone). */
  disableReason?: string
  /** Disable the endpoint when it has failed without a success for this long. */
  disableAfterFailingMs: number
}

export interface NewWebhook {
  url: string
  events: readonly string[]
  description: string | null
  /** The signing secret, already sealed by the caller. */
  sealedSecret: string
}

export interface WebhookChanges {
  url?: string
  events?: readonly string[]
  description?: string | null
  enabled?: boolean
}

/** What a report covers: a workspace's targets whose post is scheduled in [from, to), split into buckets. */
export interface ReportQuery {
  workspaceId: string
  from: number
  to: number
  /** Consecutive [start, end) ranges covering [from, to), in order: the series. */
  buckets: { start: number; end: number }[]
  accountId?: string
  platform?: PlatformName
  postId?: string
  /** How many top posts to return. */
  top: number
}

/** The sums one group of targets comes to, before rates are derived: each count null when no target reports it. */
export interface Aggregate extends Metrics {
  scheduled: number
  published: number
  failed: number
  medianDelayMs: number | null
  engagements: number | null
  /** Engagements and impressions of the targets that report both: the engagement rate's two sides. */
  ratedEngagements: number | null
  ratedImpressions: number | null
}

/** What a range with no targets adds up to. */
export const EMPTY_AGGREGATE: Aggregate = {
  scheduled: 0,
  published: 0,
  failed: 0,
  medianDelayMs: null,
  impressions: null,
  likes: null,
  reposts: null,
  replies: null,
  quotes: null,
  clicks: null,
  engagements: null,
  ratedEngagements: null,
  ratedImpressions: null,
}

export interface TopTarget {
  postId: string
  platform: PlatformName
  url: string | null
  engagements: number
}

export interface ReportRows {
  totals: Aggregate
  byPlatform: (Aggregate & { platform: PlatformName })[]
  /** One per bucket that has targets, by index into `buckets`. */
  byBucket: Map<number, Aggregate>
  top: TopTarget[]
}

/** A post as the API shows it, with what the store keeps beside it. */
export interface PostRecord {
  post: Post
  /** Bumped on every change: the ETag. */
  version: number
  workspaceId: string
}

/** How a new post repeats: it is the first occurrence of a series, which starts at its `scheduledAt`. */
export interface NewRepeat {
  /** An ISO 8601 duration (src/recurrence.ts). */
  interval: string
  count: number | null
  until: number | null
  /** The IANA zone whose wall-clock time calendar intervals keep. */
  timezone: string
}

export interface NewPost {
  /** The account's workspace, where the post belongs. */
  workspaceId: string
  accountId: string
  content: string
  mediaUrls: string[]
  /** Uploaded media, each the user's and ready (checked by the caller; the store makes sure they still are). */
  media?: MediaRef[]
  platforms: PlatformName[]
  /** When to publish; null for a draft with no time yet, or when `queue` picks the time. */
  scheduledAt: number | null
  /** Kept as a draft (status `draft`, event `post.drafted`): never claimed until scheduled. */
  draft?: boolean
  /** Waits for approval (status `pending_approval`, event `post.approval_requested`): never claimed until approved. */
  awaitsApproval?: boolean
  /** Takes the account's next free queue slot after `now`, chosen inside the create's transaction. */
  queue?: boolean
  repeat?: NewRepeat
  /** Follow-up parts, each normalised to content and media URLs (uploaded media where it has some); absent: none. */
  thread?: (Required<Omit<ThreadPart, 'media'>> & Pick<ThreadPart, 'media'>)[]
  /** absent or null: none. */
  firstComment?: string | null
  /** Per-platform versions; absent: none. */
  overrides?: Overrides
}

export type PostChanges = Partial<Pick<NewPost, 'content' | 'mediaUrls' | 'media' | 'platforms' | 'thread' | 'firstComment' | 'overrides' | 'awaitsApproval'>> & { scheduledAt?: number }

/** When a draft is to be published: at an instant, or at the account's next free queue slot; and whether it waits for approval first. */
export type ScheduleAt = ({ at: number } | { queue: true }) & { awaitsApproval?: boolean }

/** Thrown inside a dry run's transaction to roll it back, carrying what it made. */
export class DryRunRollback<T> extends Error {
  constructor(readonly result: T) {
    super('dry run: rolled back')
    this.name = 'DryRunRollback'
  }
}

/** What a transaction answered, or, when it was a dry run rolled back, what it had made. */
export async function dryRunResult<T>(transaction: () => T | Promise<T>): Promise<T> {
  try {
    return await transaction()
  } catch (error) {
    if (error instanceof DryRunRollback) return error.result as T
    throw error
  }
}

/**
 * A queued post found no slot (the account has none, or none is free within the horizon):
 * nothing of the unit of work was done. `index` is the post's place in a createMany.
 */
export class QueueRefusedError extends Error {
  constructor(
    readonly reason: QueueRefusal,
    readonly accountId: string,
    readonly index = 0,
  ) {
    super(reason === 'queue_empty' ? `Account ${accountId} has no queue slots.` : `Account ${accountId} has no free queue slot.`)
    this.name = 'QueueRefusedError'
  }
}

/**
 * Media a post names are no longer there (deleted, or removed by the cleanup, since they were
 * checked): nothing of the unit of work was done.
 */
export class MediaUnavailableError extends Error {
  constructor(readonly mediaIds: string[]) {
    super(`Media ${mediaIds.join(', ')} no longer exist.`)
    this.name = 'MediaUnavailableError'
  }
}

/**
 * An approval or a rejection, and what the person said with it (a rejection says what to change).
 * `version`, if given, is the version of the post the decision was made on: a post changed since
 * is not decided (the one who decides has not seen it as it is).
 */
export type Decision = ({ approve: true; comment?: string } | { approve: false; comment: string }) & { version?: number }

/** How deleting an account went: done (and how many scheduled posts it cancelled), or why not. */
export type AccountDeletion =
  | { kind: 'ok'; cancelled: number }
  | { kind: 'not_found' }
  | { kind: 'has_scheduled'; count: number }
  | { kind: 'publishing' }

export interface PostFilters {
  statuses?: PostStatus[]
  accountId?: string
  platform?: PlatformName
  /** Only the occurrences of this series. */
  seriesId?: string
  from?: number
  to?: number
  order: 'asc' | 'desc'
  /** Resume after this (sort time, id): the sort time is scheduled_at, or created_at for a draft with none. */
  after?: { scheduledAt: number; id: string }
}

export type Change =
  | { kind: 'ok'; record: PostRecord }
  | { kind: 'not_found' }
  /** The post is no longer in a state that allows this change. */
  | { kind: 'wrong_state'; record: PostRecord }
  /** The post changed since the version the caller read. */
  | { kind: 'version_mismatch'; record: PostRecord }

/** How a resend went: queued (with the event's id), or why not. */
export type Resend = { kind: 'ok'; eventId: string } | { kind: 'not_found' } | { kind: 'in_flight' }

/** An endpoint as kept, times in ms; never its secrets, sealed or not. */
export interface WebhookRecord {
  id: string
  workspaceId: string
  url: string
  events: Webhook['events']
  description: string | null
  enabled: boolean
  disabledReason: string | null
  disabledAt: number | null
  /** When the secret before the last rotation stops signing (null: there is none). */
  previousSecretExpiresAt: number | null
  createdAt: number
  updatedAt: number
}

export interface UsersStore {
  /** Creates a user with their personal workspace, together. */
  create(input: NewUser, now: number): Promise<User>
  get(id: string): Promise<User | undefined>
  /** The user created at first start. */
  owner(): Promise<User | undefined>
  list(): Promise<User[]>
  count(): Promise<number>
  /** Changes a user's name or IANA time zone (the one dates are shown and analytics bucketed in). */
  update(id: string, changes: { name?: string; timezone?: string }): Promise<User | undefined>
  /** Sets a user's plan; custom limits are kept only for enterprise. */
  setPlan(id: string, plan: Plan, custom?: Partial<Limits>): Promise<User | undefined>
}

/**
 * Whether a use of this key at `now` is to be recorded: a key's last use is kept to the minute,
 * exact enough to spot an unused key, which keeps a write off nearly every authenticated request.
 * The request path asks first and calls `touch` only then, rather than on every request.
 */
export const lastUseDue = (principal: Principal, now: number): boolean => principal.lastUsedAt === null || now - principal.lastUsedAt >= 60_000

export interface ApiKeysStore {
  /**
   * Creates a key and returns it with its secret, the only time the secret exists in clear;
   * records `key.created` in each workspace of the user's, whose members it acts among.
   */
  create(userId: string, input: NewApiKey, now: number, by: Actor): Promise<NewKeySecret>
  /** Finds the key with this hash and its owner, or says why it is not usable. */
  authenticate(hash: string, now: number): Promise<Principal | KeyRejection>
  /** Records a use of the key, at most once a minute (when `lastUseDue` says so; otherwise nothing). */
  touch(principal: Principal, now: number): Promise<void>
  /** A user's key (any user's with `null`, for the operator). */
  get(userId: string | null, id: string): Promise<ApiKey | undefined>
  listPage(userId: string, after: string, limit: number): Promise<ApiKey[]>
  /** Every key of every user, for the operator. */
  listAll(): Promise<(ApiKey & { user_id: string })[]>
  /** Revokes a key (a second revoke keeps the first time). Undefined if there is no such key. */
  revoke(userId: string | null, id: string, now: number): Promise<ApiKey | undefined>
}

export interface RateLimitsStore {
  /** Counts one request against every window of the key, unless a window refuses it. */
  consume(keyId: string, limits: Limits, now: number): Promise<RateDecision>
  /** Writes the counts changed since the last flush. */
  flush(): Promise<void>
}

export interface IdempotencyStore {
  /** Claims the key for this request, or says what an earlier request with it left. */
  begin(userId: string, key: string, method: string, path: string, bodyHash: string, now: number): Promise<IdempotencyClaim>
  complete(userId: string, key: string, response: StoredResponse): Promise<void>
  /** Gives the key up without a stored answer (the request never reached a handler's answer). */
  release(userId: string, key: string): Promise<void>
  purgeExpired(now: number): Promise<void>
  /** At start-up nothing is in flight: claims left running by a previous process are void. */
  abandonRunning(): Promise<void>
}

export interface EventsStore {
  /** Appends an event on its own (a change and its event are recorded together by the change's own method). */
  append(workspaceId: string, type: EventType, data: unknown, now: number, by: Actor): Promise<StoredEvent>
  /** Events in order after a given id (`''` for the first), for the delivery loop. */
  listAfter(afterId: string, limit: number): Promise<StoredEvent[]>
  /** A workspace's events, newest first, before a given id (`''` for the newest): its audit log. */
  audit(workspaceId: string, filters: AuditFilters, before: string, limit: number): Promise<AuditRecord[]>
}

export interface AuditFilters {
  /** Only these types; a type ending in `.*` is a family (`post.*`). */
  kinds?: readonly string[]
  from?: number
  to?: number
}

/** An event as the audit log shows it: with the name of the user who acted, as it is now. */
export interface AuditRecord extends StoredEvent {
  actorName: string | null
}

export interface WebhooksStore {
  /** An endpoint of the workspace, created by `userId`. */
  create(workspaceId: string, userId: string, input: NewWebhook, now: number): Promise<WebhookRecord>
  /** The endpoint, or undefined (one outside the scope is as absent as a missing one). */
  get(scope: WorkspaceScope, id: string): Promise<WebhookRecord | undefined>
  listPage(scope: WorkspaceScope, after: string, limit: number): Promise<WebhookRecord[]>
  update(scope: WorkspaceScope, id: string, changes: WebhookChanges, now: number): Promise<WebhookRecord | undefined>
  /** Makes a new sealed secret current; the one it replaces keeps signing until `overlapUntil`. */
  rotateSecret(scope: WorkspaceScope, id: string, sealedSecret: string, overlapUntil: number, now: number): Promise<WebhookRecord | undefined>
  /** Deletes the endpoint with its deliveries and attempts. False if there is no such endpoint. */
  delete(scope: WorkspaceScope, id: string): Promise<boolean>
}

export interface WebhookDeliveriesStore {
  /** Whether there is anything to dispatch or claim (a read: polling an idle outbox writes nothing). */
  hasWork(now: number): Promise<boolean>
  /**
   * What is waiting to go out at `now`, over every node: deliveries due and not yet made (those
   * being attempted included), plus outbox events not yet fanned out (one each, however many
   * endpoints they will reach). The `smm_webhook_backlog` gauge.
   */
  backlog(now: number): Promise<number>
  /** Fans the next batch of undelivered outbox events out to deliveries; how many events it took. */
  dispatch(now: number, limit?: number): Promise<number>
  /** Leases due deliveries within the concurrency limits, oldest first. */
  claim(now: number, limits: ClaimLimits): Promise<DeliveryJob[]>
  /**
   * Records one attempt and its consequences (retry, final state, endpoint disabled) together,
   * if its claim is still the delivery's (`attempt` is the claim's fencing token: every claim
   * counts one more). Not recorded, and nothing changes, when the lease ran out and another
   * worker claimed the delivery again, or the endpoint was deleted meanwhile.
   */
  record(attempt: AttemptRecord, now: number): Promise<{ recorded: boolean; disabledReason: string | null }>
  /** At start-up: expires leases left by a daemon that is gone, so those deliveries are retried now. */
  releaseLeases(now: number): Promise<number>
  /** Forgets finished deliveries (and their attempts) last touched before `before`. */
  purgeFinished(before: number): Promise<number>
  /**
   * Sends a delivery again now, named by its event's id (the webhook-id) or one of its attempts':
   * pending once more, same webhook-id and body, attempts counting on. Refused while one is in flight.
   */
  resend(webhookId: string, ref: string, now: number): Promise<Resend>
  /** An endpoint's attempts, newest first, after a cursor (`''` for the first page). */
  listAttempts(webhookId: string, before: string, limit: number): Promise<WebhookDeliveryAttempt[]>
}

export interface AccountsStore {
  /** An account of the workspace, created by `userId`. */
  create(workspaceId: string, userId: string, name: string, now: number): Promise<Account>
  /** Renames an account and records `account.updated`, together; undefined if it is not in the scope. */
  rename(scope: WorkspaceScope, accountId: string, name: string, now: number, by: Actor): Promise<Account | undefined>
  /** The account, or undefined if there is none in the scope. */
  get(scope: WorkspaceScope, id: string): Promise<Account | undefined>
  /** The account with this id whoever owns it: the public feeds have no user. */
  getPublic(id: string): Promise<Account | undefined>
  listPage(scope: WorkspaceScope, platform: PlatformName | undefined, after: string, limit: number): Promise<Account[]>
  /** Connects (or reconnects) a platform and records `account.connected`, together. */
  connect(scope: WorkspaceScope, accountId: string, input: NewConnection, now: number, by: Actor): Promise<Connection | undefined>
  /** Removes a connection and records `account.disconnected`; false if there was none. */
  disconnect(scope: WorkspaceScope, accountId: string, platform: PlatformName, now: number, by: Actor): Promise<boolean>
  /** Every connection of one account, for checking a post against its targets. */
  connections(accountId: string): Promise<StoredConnection[]>
  connection(accountId: string, platform: PlatformName): Promise<StoredConnection | undefined>
}

export interface PostsStore {
  /**
   * Creates a scheduled post (`post.scheduled`) or a draft (`post.drafted`) with its targets; a
   * queued post's slot is picked inside the transaction, so two never take one slot
   * (QueueRefusedError if there is none).
   */
  create(by: UserActor, input: NewPost, now: number): Promise<PostRecord>
  /**
   * Creates several posts, each with its `post.scheduled` event, in one transaction: all or
   * none. Answers the records in the order of `inputs`. With `dryRun`, the transaction does all
   * of it and is then rolled back: the same refusals (QueueRefusedError when queued posts run
   * out of slots), the records as they would be, and nothing kept.
   */
  createMany(by: UserActor, inputs: NewPost[], now: number, options?: { dryRun?: boolean }): Promise<PostRecord[]>
  get(scope: WorkspaceScope, id: string): Promise<PostRecord | undefined>
  list(scope: WorkspaceScope, filters: PostFilters, limit: number): Promise<PostRecord[]>
  /** How many posts in the scope match the filters (after the cursor, when there is one). */
  count(scope: WorkspaceScope, filters: PostFilters): Promise<number>
  /**
   * Deletes an account with its connections, posts and feed, and records `account.deleted`: its
   * scheduled posts are cancelled (each with `post.cancelled`) if `cancelPosts`, else it refuses;
   * a post being published makes it refuse, so no publish outlives its account.
   */
  deleteAccount(scope: WorkspaceScope, accountId: string, options: { cancelPosts: boolean }, now: number, by: Actor): Promise<AccountDeletion>
  /**
   * Changes a scheduled post, a draft, or one waiting for approval or rejected, if it is still at
   * `version`; records `post.updated`. An edit needing approval (`awaitsApproval`), or any edit of
   * a rejected post, leaves it waiting for approval (with `post.approval_requested` when it was not).
   */
  update(scope: WorkspaceScope, id: string, changes: PostChanges, version: number, now: number, by: Actor): Promise<Change>
  /**
   * Turns a draft into a scheduled post, if it is still at `version`, and records
   * `post.scheduled`; a queued time is picked inside the transaction (QueueRefusedError if none).
   */
  schedule(scope: WorkspaceScope, id: string, when: ScheduleAt, version: number, now: number, by: Actor): Promise<Change>
  /**
   * Cancels a scheduled post or a draft (a cancelled one is answered as is), with `post.cancelled`. An
   * occurrence of a series is then followed as if it had ended (the next occurrence, or
   * `post.series_ended`); with `series`, the series stops instead: its scheduled occurrences are
   * cancelled and `post.series_ended` recorded (also when this occurrence was cancelled before).
   */
  cancel(scope: WorkspaceScope, id: string, now: number, by: Actor, options?: { series?: boolean }): Promise<Change>
  retry(scope: WorkspaceScope, id: string, now: number, by: Actor): Promise<Change>
  /**
   * Decides on a post waiting for approval, if it still is: approved, it is scheduled (at once
   * if its time has passed: `scheduled_at` becomes `now`), and its series' next occurrences no
   * longer wait; rejected, it waits for an edit. A comment given is kept with the post, as the
   * decision's. Records `post.approved` or `post.rejected`. Waiting but no longer at the
   * decision's `version`: `version_mismatch`, nothing changed.
   */
  decide(scope: WorkspaceScope, id: string, decision: Decision, now: number, by: Actor): Promise<Change>
}

/** Accounts' weekly queue slots (wall-clock times in their workspace's zone). */
export interface QueuesStore {
  /** The account's slots, Monday first then by time; undefined if the account is not in the scope. */
  get(scope: WorkspaceScope, accountId: string): Promise<Slot[] | undefined>
  /** Replaces the account's slots; answers them sorted, or undefined if the account is not in the scope. */
  set(scope: WorkspaceScope, accountId: string, slots: readonly Slot[]): Promise<Slot[] | undefined>
  /** The times in (from, to] of the account's scheduled or publishing posts, and those waiting for approval: the slots they take. */
  taken(accountId: string, from: number, to: number): Promise<number[]>
}

/**
 * How `claimDue` and `reserveDue` share `limit`: the longest waiting, and a quarter from the
 * most recently due, so that what falls due during a burst does not wait for all of it. (The
 * SQLite store takes its quarter among those due after the longest waiting only, and fills the
 * batch with the longest waiting when fewer are: a burst due in one millisecond goes in order.)
 */
export function dueSplit(limit: number): { oldest: number; newest: number } {
  const newest = Math.floor(limit / 4)
  return { oldest: limit - newest, newest }
}

/**
 * How `settleAll` records a batch: in rounds, each post's outcomes in turn, one per round (as
 * indices into the batch), so each sees the ones before it as it would alone, while a round's
 * statements each take the whole round.
 */
export function settlementRounds(settlements: readonly Pick<Settlement, 'postId'>[]): number[][] {
  const rounds: number[][] = []
  const seen = new Map<string, number>()
  settlements.forEach((s, i) => {
    const round = seen.get(s.postId) ?? 0
    seen.set(s.postId, round + 1)
    ;(rounds[round] ??= []).push(i)
  })
  return rounds
}

/** How long a node holds an interrupted attempt it took over (`abandoned`) while it resolves it. */
export const RECOVERY_LEASE_MS = 60_000

/** The scheduler's side of posts: claims, leases, outcomes. */
export interface PublishingStore {
  /**
   * Claims up to `limit` due posts, as `dueSplit` shares them between the longest waiting and
   * the most recently due. Those beyond the catch-up window fail. Those on `inStore` platforms
   * only may be published at once (see `InStorePlatforms`; the PostgreSQL store leaves them to
   * attempts).
   */
  claimDue(now: number, limit: number, catchUpMs: number, inStore?: InStorePlatforms): Promise<ClaimResult>
  /**
   * Reserves up to `limit` due targets for this node, passing over those another live node
   * holds: the work this node will attempt. `dueSplit` shares `limit` between the longest
   * waiting and the most recently due, so that a post falling due while a burst goes out waits
   * for a slot, not for the whole burst (the middle of a backlog still moves on with the rest).
   * Returned in due order. A reservation is a lease on a target that is still pending: nothing
   * has been sent, so one that lapses (its node died) makes the target due again for any node,
   * never `unconfirmed`.
   */
  reserveDue(now: number, limit: number, leaseMs: number): Promise<TargetRef[]>
  /** Gives back this node's reservations it has not attempted (a node that stops). */
  releaseReservations(): Promise<void>
  /** Takes one target this node reserved (or nobody holds) for an attempt, under a lease; undefined if another node has it. */
  claimTarget(ref: TargetRef, now: number, leaseMs: number): Promise<ClaimedTarget | undefined>
  /** Several claims in one statement or transaction, each at its own time: what a burst's attempts take. */
  claimTargets(claims: readonly { ref: TargetRef; now: number }[], leaseMs: number): Promise<(ClaimedTarget | undefined)[]>
  /**
   * Records an attempt's outcome, its events and, once every target is settled, the post's
   * final state and event: all in one transaction. False, and nothing changes, if the target
   * was settled already or `target.claim` is no longer its claim (another took it over).
   * A post of a series that reaches its final state brings, in the same transaction, its
   * series' next occurrence (with `post.scheduled`) or its end (`post.series_ended`), once.
   */
  settle(target: HeldTarget, outcome: Outcome, now: number): Promise<boolean>
  /**
   * Several outcomes in one transaction, each as `settle` records it (at its own time): what a
   * burst's attempts write. Whether each was recorded, in order; one that fails fails them all.
   */
  settleAll(settlements: readonly Settlement[]): Promise<boolean[]>
  /**
   * Extends the leases of targets this node holds: reserved (no claim yet) or attempted under
   * the claim named, which must still be current. While it lives, no other node takes them over.
   */
  renewLeases(targets: readonly (Omit<HeldTarget, 'claim'> & { claim?: number })[], until: number): Promise<void>
  /**
   * Records one part of a target as out on its platform, in its own write, the moment it is:
   * what a retry resumes after. Answers false (and records nothing) if that part was recorded
   * already or the claim is no longer current. Clears the target's `uncertainSince`: the
   * request in doubt was this part's.
   */
  recordPart(target: HeldTarget, part: StoredPart): Promise<boolean>
  /** Puts an abandoned attempt back in the queue, for platforms where a re-send is safe; nothing if the claim is no longer current. */
  resend(target: HeldTarget, now: number): Promise<void>
  /**
   * Attempts whose lease ran out (or, with `all`, every attempt of this node: at start, none is
   * alive, and its reservations are given back), each taken over under a new claim first.
   */
  abandoned(now: number, all: boolean): Promise<AbandonedTarget[]>
  /**
   * What is due: whether posts wait to be claimed (at `now` or before), whether targets wait
   * for an attempt, and the earliest time after `now` when either comes due.
   */
  due(now: number): Promise<{ posts: boolean; targets: boolean; next: number | undefined }>
  /**
   * How many posts are due at `now` and not yet out, over every node: waiting to be claimed, or
   * with a target due for an attempt or being attempted (a target waiting for a later retry is
   * not due). The `smm_scheduler_due_posts` gauge.
   */
  dueCount(now: number): Promise<number>
}

/** An item for an account's feed, as `FeedStore.publish` takes it (the stores add them a batch at a time). */
export interface NewFeedItem {
  accountId: string
  postId: string
  content: string
  mediaUrls: string[]
  attachments?: FeedAttachment[]
  now: number
}

export interface FeedStore {
  /** Adds a post to an account's feed, once; a second call answers the item already there. */
  publish(accountId: string, postId: string, content: string, mediaUrls: string[], now: number, attachments?: FeedAttachment[]): Promise<FeedItem>
  /** The newest items first. */
  recent(accountId: string, limit: number): Promise<FeedItem[]>
}

/** Engagement snapshots and the collector's schedule. */
export interface MetricsStore {
  /**
   * Claims the targets due for a read at `now`, most overdue first: their next read moves
   * `leaseMs` ahead, so no other node reads them meanwhile, and if this node dies they fall due
   * again then. `record` sets the real next read.
   */
  claimDue(now: number, limit: number, leaseMs: number): Promise<DueTarget[]>
  /**
   * Records one batch of reads: each snapshot (and the target's latest counts), each target's
   * next read and, when the platform refused the credentials, the connection's
   * `reauth_required` (and its event): all in one transaction, at `takenAt`.
   */
  record(results: Collected[], takenAt: number, reauth?: { accountId: string; platform: PlatformName }): Promise<void>
  /** Every snapshot of a target, oldest first. */
  history(postId: string, platform: PlatformName): Promise<Snapshot[]>
}

/** The aggregations behind GET /v1/analytics. */
export interface AnalyticsStore {
  /**
   * How many rollup rows, publish delays and ranked targets differ from what the raw rows say
   * (all 0 when they agree): a full recount, for tests and for checking a database by hand.
   */
  drift(): Promise<{ hours: number; delays: number; top: number }>
  /** Sums over the targets in range: in all, per platform, per bucket; and the most engaging targets. */
  report(q: ReportQuery): Promise<ReportRows>
}

/**
 * The database cannot be reached right now (a lost connection, a server restarting). Nothing of
 * the unit of work was done; the same call may succeed a moment later.
 */
export class StoreUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`The database is unreachable: ${reason}`)
    this.name = 'StoreUnavailableError'
  }
}

/** An operator's app with an OAuth platform, as `smm admin platforms set` stored it. */
export interface StoredOAuthApp {
  platform: PlatformName
  clientId: string
  /** The client secret, sealed by the caller (bound to `oauth-app:<platform>`). */
  sealedSecret: Buffer
  updatedAt: number
}

/** A grant a person is approving in their browser: what the callback completes. */
export interface OAuthGrant {
  /** SHA-256 of the state (hex); the state itself is never stored. */
  stateHash: string
  userId: string
  accountId: string
  platform: PlatformName
  /** The PKCE verifier and the connect request's options, sealed by the caller. */
  sealedSecrets: Buffer
  createdAt: number
  expiresAt: number
}

/** OAuth platforms: the operator's apps, grants under way, and the refresh claim on a connection. */
export interface OAuthStore {
  /** Stores (or replaces) the operator's app for a platform. */
  setApp(platform: PlatformName, clientId: string, sealedSecret: Buffer, now: number): Promise<void>
  getApp(platform: PlatformName): Promise<StoredOAuthApp | undefined>
  listApps(): Promise<StoredOAuthApp[]>
  /** False if none was stored. */
  removeApp(platform: PlatformName): Promise<boolean>
  /**
   * Records a grant under way, forgets those expired before `now`, and keeps at most `keep` not
   * yet taken on the grant's account and platform: this one and the newest others.
   */
  createGrant(grant: OAuthGrant, now: number, keep: number): Promise<void>
  /**
   * Takes the grant with this state hash, expired or not: a state is used once, whatever came of
   * it. Undefined if there is none (never issued, or already used). A taken grant is still
   * listed by `pendingGrants` until `finishGrant`: while its code is exchanged, the connection
   * shows as pending, not as gone (which a waiting `smm accounts connect` reads as a refusal).
   */
  takeGrant(stateHash: string): Promise<OAuthGrant | undefined>
  /** Forgets a taken grant once the connection is stored or refused. */
  finishGrant(stateHash: string): Promise<void>
  /** The grants still under way at `now` on these accounts: their pending connections, newest last. */
  pendingGrants(accountIds: readonly string[], now: number): Promise<Pick<OAuthGrant, 'accountId' | 'platform' | 'createdAt' | 'expiresAt'>[]>
  /**
   * Claims the right to refresh a connection's tokens until `now + leaseMs`: false while another
   * holder's claim runs. Refreshing with a rotating refresh token twice would lose the grant.
   */
  claimRefresh(accountId: string, platform: PlatformName, holder: string, now: number, leaseMs: number): Promise<boolean>
  /**
   * Stores refreshed credentials and gives the claim up, together, in one statement: kept only
   * while `holder` still holds the claim (`claim_lost`: it lapsed and another holder took it
   * over, whose tokens stand) and the connection is still the one connected at `connectedAt`
   * (`reconnected`: the person's new connection keeps its own).
   */
  saveRefreshed(accountId: string, platform: PlatformName, holder: string, sealedCredentials: Buffer, connectedAt: number): Promise<'saved' | 'reconnected' | 'claim_lost'>
  /** Gives a claim up without new credentials (the refresh failed). */
  releaseRefresh(accountId: string, platform: PlatformName, holder: string): Promise<void>
}

/** A workspace as kept, its zone resolved (a personal workspace's is its user's). */
export interface WorkspaceRecord {
  id: string
  name: string
  /** The user whose personal workspace this is; null for a shared one. */
  personalOf: string | null
  approvalRequired: boolean
  timezone: string
  createdAt: number
}

export interface NewWorkspace {
  name: string
  approvalRequired: boolean
  timezone: string
}

export type WorkspaceChanges = Partial<NewWorkspace>

/** How a change to a workspace's members went: done, or why not (nothing was changed). */
export type MemberChange =
  | { kind: 'ok'; member: Member }
  /** No such workspace, or (for a role or a removal) no such member of it. */
  | { kind: 'not_found' }
  /** Adding: no user has that id or email. */
  | { kind: 'unknown_user' }
  | { kind: 'already_member'; member: Member }
  /** The change would leave the workspace without an owner. */
  | { kind: 'last_owner' }
  /** A personal workspace has its user as its one member. */
  | { kind: 'personal' }

export type WorkspaceDeletion = { kind: 'ok' } | { kind: 'not_found' } | { kind: 'personal' } | { kind: 'has_accounts'; count: number }

/** Workspaces and their members. Who may ask for what is daemon/access.ts's to say. */
export interface WorkspacesStore {
  /** Creates a shared workspace with `ownerId` as its owner, together. */
  create(ownerId: string, input: NewWorkspace, now: number): Promise<WorkspaceRecord>
  get(id: string): Promise<WorkspaceRecord | undefined>
  /** The workspaces a user belongs to, by id after `after`, each with their role. */
  listFor(userId: string, after: string, limit: number): Promise<(WorkspaceRecord & { role: Role })[]>
  /** A user's memberships, read afresh (where no request's principal carries them: an OAuth callback). */
  memberships(userId: string): Promise<Membership[]>
  /** Changes the workspace and records `workspace.updated`, together. */
  update(id: string, changes: WorkspaceChanges, now: number, by: Actor): Promise<WorkspaceRecord | undefined>
  /** Deletes a shared workspace without accounts, with its webhooks, events and members. */
  delete(id: string): Promise<WorkspaceDeletion>
  /** A workspace's members, by user id after `after`. */
  members(id: string, after: string, limit: number): Promise<Member[]>
  member(id: string, userId: string): Promise<Member | undefined>
  /** Adds a user, named by id or email, with a role; records `workspace.member_added`. */
  addMember(id: string, who: { userId: string } | { email: string }, role: Role, now: number, by: Actor): Promise<MemberChange>
  /** Changes a member's role, never the last owner's to another; records `workspace.member_updated`. */
  setRole(id: string, userId: string, role: Role, now: number, by: Actor): Promise<MemberChange>
  /** Removes a member, never the last owner; records `workspace.member_removed`. */
  removeMember(id: string, userId: string, now: number, by: Actor): Promise<MemberChange>
}

/** A comment on a post, as kept. */
export interface CommentRecord {
  id: string
  postId: string
  author: Actor
  /** The author's name: a user's as it is now, a reviewer's as they gave it. */
  authorName: string | null
  body: string
  decision: 'approved' | 'rejected' | null
  createdAt: number
}

/** Comments on posts: the team's, reviewers', and those that come with a decision. */
export interface CommentsStore {
  /** A post's comments, oldest first, after a comment id (`''` for the first); undefined if the post is not in the scope. */
  list(scope: WorkspaceScope, postId: string, after: string, limit: number): Promise<CommentRecord[] | undefined>
  /** Adds a comment and records `post.commented`, together; undefined if the post is not in the scope. */
  add(scope: WorkspaceScope, postId: string, body: string, now: number, by: Actor): Promise<CommentRecord | undefined>
}

/** A review link to a post, as kept: its token only as a hash. */
export interface ReviewLinkRecord {
  id: string
  postId: string
  /** The post's workspace. */
  workspaceId: string
  /** The member who made it. */
  createdBy: Actor
  createdAt: number
  expiresAt: number
  revokedAt: number | null
}

/** Review links: a URL that lets someone without an account approve a post or ask for changes. */
export interface ReviewLinksStore {
  /** Makes a link to a post in the scope, with `post.review_link_created`; undefined if the post is not there. */
  create(scope: WorkspaceScope, postId: string, link: { id: string; tokenHash: string; expiresAt: number }, now: number, by: Actor): Promise<ReviewLinkRecord | undefined>
  /** A post's links, oldest first (revoked and expired ones too); undefined if the post is not in the scope. */
  list(scope: WorkspaceScope, postId: string): Promise<ReviewLinkRecord[] | undefined>
  /**
   * Revokes a link to a post in the scope (once: a revoked one is answered as it is), with
   * `post.review_link_revoked`; undefined if there is no such link.
   */
  revoke(scope: WorkspaceScope, postId: string, linkId: string, now: number, by: Actor): Promise<ReviewLinkRecord | undefined>
  /** The link whose token has this SHA-256, whatever its state. */
  byTokenHash(tokenHash: string): Promise<ReviewLinkRecord | undefined>
}

/** A media object about to be uploaded: its row reserves its size against the user's quota. */
export interface NewMedia {
  id: string
  /** The secret part of its public URL. */
  token: string
  /** Its public URL (`<public-url>/media/<token>.<ext>`), kept as given. */
  url: string
  contentType: MediaType
  /** The size reserved: the declared length, or the most the upload may grow to. */
  bytes: number
  altText: string | null
}

/** What was learnt from an upload's bytes once they were all stored. */
export interface MediaFacts {
  contentType: MediaType
  bytes: number
  sha256: string
  width: number | null
  height: number | null
  durationMs: number | null
}

export type MediaReservation = { kind: 'reserved' } | { kind: 'quota_exceeded'; used: number }

export type MediaDeletion = { kind: 'ok' } | { kind: 'not_found' } | { kind: 'in_use'; postIds: string[] }

/** A tus upload: where it is, and the media row it makes (ready once `offset` reaches `length`). */
export interface UploadRecord {
  id: string
  userId: string
  mediaId: string
  length: number
  /** Bytes stored so far; `length` once the upload is whole and its media ready. */
  offset: number
  /** Pieces recorded so far (one per PATCH that stored bytes). */
  parts: number
  contentType: MediaType
  altText: string | null
  createdAt: number
  /** Past it, the upload is gone: unfinished, its bytes are removed; finished, its URL answers 404. */
  expiresAt: number
}

export interface NewUpload {
  id: string
  length: number
  expiresAt: number
}

/** Why a PATCH may not write to an upload now. */
export type UploadLock =
  | { kind: 'locked'; upload: UploadRecord; lease: number }
  | { kind: 'not_found' }
  | { kind: 'offset_mismatch'; offset: number }
  | { kind: 'busy' }

/** Media (or an abandoned upload) the cleanup has claimed: remove its bytes, then `removed`. */
export interface RemovableMedia {
  id: string
  /** The tus upload it came from, whose pieces go too; null for a direct upload. */
  uploadId: string | null
  parts: number
  /** The claim's lease: `removed` deletes the row only while the claim still holds (a fencing token). */
  lease: number
}

/**
 * Media objects and tus uploads: the rows; the bytes are the media store's. Every media the API
 * shows is `ready`; `uploading` rows reserve quota; `deleting` ones wait for the cleanup.
 */
export interface MediaObjectsStore {
  /** Reserves an upload's size against `quota` (null: none), as an `uploading` row; or says how much is used. */
  reserve(userId: string, media: NewMedia, quota: number | null, now: number): Promise<MediaReservation>
  /** Makes an upload ready with the facts of its bytes; undefined if its row is gone (cleaned up meanwhile). */
  complete(id: string, facts: MediaFacts, now: number): Promise<Media | undefined>
  /** Drops an upload that failed, its row and reservation (its bytes were never stored, or are removed by the caller). */
  discard(id: string): Promise<void>
  get(userId: string, id: string): Promise<Media | undefined>
  /** The user's ready media among `ids`, in no order. */
  getMany(userId: string, ids: readonly string[]): Promise<Media[]>
  /** Any user's ready media by the token of its public URL. */
  byToken(token: string): Promise<Media | undefined>
  /** Newest first, after the id `after` ('' for the first page). */
  listPage(userId: string, after: string, limit: number): Promise<Media[]>
  setAltText(userId: string, id: string, altText: string | null, now: number): Promise<Media | undefined>
  /** Deletes media no draft, scheduled or publishing post uses: gone from the API at once, its bytes removed by the cleanup. */
  delete(userId: string, id: string, now: number): Promise<MediaDeletion>
  /** Bytes the user's media take or have reserved. */
  usage(userId: string): Promise<number>
  /** Starts a tus upload: its media row (reserved against `quota`) and its upload row, together. */
  createUpload(userId: string, upload: NewUpload, media: NewMedia, quota: number | null, now: number): Promise<MediaReservation>
  /** The user's upload, finished or not, until it expires or is terminated. */
  getUpload(userId: string, id: string, now: number): Promise<UploadRecord | undefined>
  /**
   * Claims an unfinished upload for one PATCH at `offset`, under a lease, for `holder` (the
   * request); or says why not. Each claim's lease is also its fencing token, greater than any
   * earlier claim's on the upload, so of two pieces written at one offset the later claim's wins.
   */
  lockUpload(userId: string, id: string, offset: number, now: number, leaseMs: number, holder: string): Promise<UploadLock>
  /** Records a piece of `bytes` stored, and gives the claim up, while the claim holds; undefined when it no longer does. */
  advanceUpload(id: string, lease: number, bytes: number): Promise<UploadRecord | undefined>
  /** Lengthens a claim that still holds to `until`, which becomes its lease (and token); false if it no longer holds. */
  extendUpload(id: string, lease: number, until: number): Promise<boolean>
  /** Gives a PATCH's claim up without a piece. */
  unlockUpload(id: string, lease: number): Promise<void>
  /**
   * Ends an upload whose every byte arrived, while the claim holds: its offset reaches its length
   * and its media is ready, together. The upload stays, finished, until it expires.
   */
  finishUpload(id: string, lease: number, facts: MediaFacts, now: number): Promise<Media | undefined>
  /**
   * tus termination: the upload is gone at once, and any claim on it with it. An unfinished one's
   * media gives its reservation up and its pieces are removed by the cleanup; a finished one's
   * media stays (it is deleted as media). False if there was none.
   */
  terminateUpload(userId: string, id: string, now: number): Promise<boolean>
  /**
   * Claims up to `limit` media for removal, under a lease: unreferenced ones past `release_at`,
   * uploads unfinished 24 h after they began, deleted ones, and claims that lapsed.
   */
  claimRemovable(now: number, limit: number, leaseMs: number): Promise<RemovableMedia[]>
  /** Forgets a media whose bytes are gone, if the claim `lease` still holds. */
  removed(id: string, lease: number): Promise<boolean>
}

/** Everything that touches storage, one family of data per member. */
export interface Store {
  users: UsersStore
  workspaces: WorkspacesStore
  apiKeys: ApiKeysStore
  rateLimits: RateLimitsStore
  idempotency: IdempotencyStore
  events: EventsStore
  webhooks: WebhooksStore
  webhookDeliveries: WebhookDeliveriesStore
  accounts: AccountsStore
  posts: PostsStore
  comments: CommentsStore
  reviewLinks: ReviewLinksStore
  queues: QueuesStore
  publishing: PublishingStore
  feed: FeedStore
  metrics: MetricsStore
  analytics: AnalyticsStore
  oauth: OAuthStore
  media: MediaObjectsStore
  /**
   * On an empty database only: creates the owner user and one key with every scope, together.
   * Undefined if there are users already.
   */
  bootstrapOwner(owner: NewUser, now: number): Promise<{ user: User; key: NewKeySecret } | undefined>
  /**
   * Whether the secret key with this fingerprint is the one the store's sealed data was written
   * with (the first key to ask is recorded). Several daemons on one database must share one key.
   */
  acceptsSecretKey(fingerprint: string): Promise<boolean>
  /** One round trip to the database: resolves once it answers (StoreUnavailableError when it cannot be reached). */
  ping(): Promise<void>
  /** An online, consistent copy of the database to another file. */
  backup(file: string): Promise<void>
  close(): Promise<void>
}
