/**
 * The rows both SQL stores keep (the same columns on SQLite and PostgreSQL) and how each
 * becomes a domain value: one mapping, whichever database read it.
 */
import type { Connection } from '../../src/api/accounts.js'
import type { WebhookDeliveryAttempt } from '../../src/api/webhooks.js'
import type { MediaRef, Overrides, PartKind, PostMedia, PostStatus, Repeat, Target, TargetStatus } from '../../src/api/posts.js'
import { MEDIA_EXTENSIONS, type Media, type MediaType } from '../../src/api/media.js'
import { partsOf, versionFor } from '../../src/post-parts.js'
import type { SeriesRule } from '../../src/recurrence.js'
import type { ApiKey } from '../../src/api/api-keys.js'
import type { Plan, Scope } from '../../src/api/common.js'
import type { User } from '../../src/api/users.js'
import type { Member, Role } from '../../src/api/workspaces.js'
import type { EventType } from '../../src/events.js'
import { slotKey, slotOfKey, type Slot } from '../../src/queue-slots.js'
import { toIso, toIsoOrNull } from '../../src/time.js'
import { limitsFor } from '../plans.js'
import type { Metrics, PlatformName } from '../platforms/types.js'
import type { Actor, CommentRecord, ReviewLinkRecord, FeedAttachment, NewFeedItem, UploadRecord, StoredPart, AttemptRecord, ClaimedTarget, OAuthGrant, StoredOAuthApp, WebhookChanges, FeedItem, IdempotencyClaim, Membership, PostRecord, Principal, StoredConnection, StoredEvent, TargetRef, WebhookRecord, WorkspaceRecord } from './port.js'

export interface UserRow {
  id: string
  name: string
  email: string | null
  plan: Plan
  custom_per_minute: number | null
  custom_per_hour: number | null
  custom_per_day: number | null
  timezone: string
  is_owner: number
  created_at: number
}

/** A user row as the API shows it. */
export function userFromRow(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    plan: row.plan,
    limits: limitsFor(row.plan, {
      per_minute: row.custom_per_minute ?? undefined,
      per_hour: row.custom_per_hour ?? undefined,
      per_day: row.custom_per_day ?? undefined,
    }),
    timezone: row.timezone,
    created_at: toIso(row.created_at),
  }
}

export interface KeyRow {
  id: string
  user_id: string
  name: string
  prefix: string
  hash: string
  scopes: string
  created_at: number
  expires_at: number | null
  revoked_at: number | null
  last_used_at: number | null
}

/** A key as the API shows it (never its hash). */
export function keyFromRow(row: KeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes.split(' ').filter(Boolean) as Scope[],
    prefix: row.prefix,
    created_at: toIso(row.created_at),
    expires_at: toIsoOrNull(row.expires_at),
    last_used_at: toIsoOrNull(row.last_used_at),
    revoked_at: toIsoOrNull(row.revoked_at),
  }
}

/** An api_keys row joined to its owner's columns, named u_…. */
export type HashRow = KeyRow & { [K in keyof UserRow as `u_${K}`]: UserRow[K] }

/** The authenticated key, its scopes and its owner, from one joined row; and the owner's memberships. */
export function principalOf(row: HashRow, memberships: readonly MembershipRow[]): Principal {
  const key = keyFromRow(row)
  const user = userFromRow({
    id: row.u_id,
    name: row.u_name,
    email: row.u_email,
    plan: row.u_plan,
    custom_per_minute: row.u_custom_per_minute,
    custom_per_hour: row.u_custom_per_hour,
    custom_per_day: row.u_custom_per_day,
    timezone: row.u_timezone,
    is_owner: row.u_is_owner,
    created_at: row.u_created_at,
  })
  return { key, scopes: new Set(key.scopes), user, lastUsedAt: row.last_used_at, memberships: new Map(memberships.map((m) => [m.workspace_id, membershipOf(m)])) }
}

/** A workspace as both stores keep it, with its zone resolved (`zone`: a personal one's is its user's). */
export interface WorkspaceRow {
  id: string
  name: string
  personal_of: string | null
  approval_required: number | boolean
  zone: string
  created_at: number
}

export function workspaceRecordOf(row: WorkspaceRow): WorkspaceRecord {
  return {
    id: row.id,
    name: row.name,
    personalOf: row.personal_of,
    approvalRequired: Boolean(row.approval_required),
    timezone: row.zone,
    createdAt: Number(row.created_at),
  }
}

/** A workspace as its events carry it: as any member sees it, but for a role. */
export function workspaceEventOf(record: WorkspaceRecord) {
  return {
    id: record.id,
    name: record.name,
    approval_required: record.approvalRequired,
    personal: record.personalOf !== null,
    timezone: record.timezone,
    created_at: toIso(record.createdAt),
  }
}

/** What a principal needs of each workspace its user belongs to. */
export interface MembershipRow {
  workspace_id: string
  role: Role
  personal_of: string | null
  approval_required: number | boolean
}

export function membershipOf(row: MembershipRow): Membership {
  return { workspaceId: row.workspace_id, role: row.role, personal: row.personal_of !== null, approvalRequired: Boolean(row.approval_required) }
}

/** A member as both stores read it: the membership row joined to the user's name and email. */
export interface MemberRow {
  user_id: string
  name: string
  email: string | null
  role: Role
  created_at: number
}

export function memberOf(row: MemberRow): Member {
  return { user_id: row.user_id, name: row.name, email: row.email, role: row.role, created_at: toIso(Number(row.created_at)) }
}

export interface AccountRow {
  id: string
  workspace_id: string
  /** Who created it. */
  user_id: string
  name: string
  created_at: number
}

export interface ConnectionRow {
  account_id: string
  platform: PlatformName
  handle: string
  display_name: string
  status: 'active' | 'reauth_required'
  credentials: Buffer
  settings: string
  connected_at: number
}

export function connectionFromRow(row: ConnectionRow): Connection {
  return { platform: row.platform, handle: row.handle, display_name: row.display_name, status: row.status, connected_at: toIso(row.connected_at) }
}

/** A connection as the daemon uses it: sealed credentials and all. */
export function storedConnection(row: ConnectionRow, workspaceId: string): StoredConnection {
  return {
    accountId: row.account_id,
    workspaceId,
    platform: row.platform,
    handle: row.handle,
    status: row.status,
    sealedCredentials: row.credentials,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    connectedAt: row.connected_at,
  }
}

export interface FeedRow {
  account_id: string
  post_id: string
  content: string
  media_urls: string
  published_at: number
}

/** A feed item's media as its column keeps them: URLs as given, uploaded media as objects after them. */
export const feedMediaColumn = (item: Pick<NewFeedItem, 'mediaUrls' | 'attachments'>) => JSON.stringify([...item.mediaUrls, ...(item.attachments ?? [])])

export function feedItemFromRow(row: FeedRow): FeedItem {
  const media = JSON.parse(row.media_urls) as (string | FeedAttachment)[]
  return {
    postId: row.post_id,
    content: row.content,
    mediaUrls: media.filter((m): m is string => typeof m === 'string'),
    attachments: media.filter((m): m is FeedAttachment => typeof m !== 'string'),
    publishedAt: row.published_at,
  }
}

export interface EventRow {
  id: string
  workspace_id: string
  type: EventType
  data: string
  actor: string | null
  created_at: number
}

export function eventFromRow(r: EventRow): StoredEvent {
  return { id: r.id, workspaceId: r.workspace_id, type: r.type, data: JSON.parse(r.data), actor: actorOf(r.actor), createdAt: Number(r.created_at) }
}

/** An actor as both stores keep it: JSON, or NULL for smm itself. */
export function actorJson(actor: Actor): string | null {
  if (actor === null) return null
  return JSON.stringify('userId' in actor ? { user_id: actor.userId, key_id: actor.keyId } : { review_link_id: actor.reviewLinkId, name: actor.name })
}

export function actorOf(json: string | null): Actor {
  if (json === null) return null
  const a = JSON.parse(json) as { user_id?: string; key_id?: string | null; review_link_id?: string; name?: string | null }
  return a.user_id !== undefined ? { userId: a.user_id, keyId: a.key_id ?? null } : { reviewLinkId: a.review_link_id!, name: a.name ?? null }
}

/** A comment as both stores read it, its author's name (a user's, as it is now) joined. */
export interface CommentRow {
  id: string
  post_id: string
  author: string | null
  author_name: string | null
  body: string
  decision: 'approved' | 'rejected' | null
  created_at: number
}

export function commentFromRow(row: CommentRow): CommentRecord {
  const author = actorOf(row.author)
  return {
    id: row.id,
    postId: row.post_id,
    author,
    authorName: row.author_name ?? (author !== null && 'reviewLinkId' in author ? author.name : null),
    body: row.body,
    decision: row.decision,
    createdAt: Number(row.created_at),
  }
}

/** A review link as both stores read it, its post's workspace joined. */
export interface ReviewLinkRow {
  id: string
  post_id: string
  workspace_id: string
  created_by: string | null
  created_at: number
  expires_at: number
  revoked_at: number | null
}

export function reviewLinkFromRow(row: ReviewLinkRow): ReviewLinkRecord {
  return {
    id: row.id,
    postId: row.post_id,
    workspaceId: row.workspace_id,
    createdBy: actorOf(row.created_by),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  }
}

export interface IdempotencyRow {
  method: string
  path: string
  body_hash: string
  state: 'running' | 'done'
  status: number | null
  response: Buffer | null
  created_at: number
  expires_at: number
}

/** How long a stored response is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000
// A request still marked running after this long was cut off (a crash, a lost connection
// mid-write); a retry may take its place rather than wait for an answer that never comes.
const ABANDONED_AFTER_MS = 60_000

/**
 * What an earlier request with the same key left, if it still counts: a mismatch, one still in
 * flight, or an answer to replay. Undefined: the key is free (never used, expired, or held by a
 * request that was cut off) and this request may claim it.
 */
export function earlierClaim(row: IdempotencyRow | undefined, method: string, path: string, bodyHash: string, now: number): IdempotencyClaim | undefined {
  const live = row && row.expires_at > now && !(row.state === 'running' && now - row.created_at > ABANDONED_AFTER_MS)
  if (!live) return undefined
  if (row.method !== method || row.path !== path || row.body_hash !== bodyHash) return { kind: 'mismatch' }
  if (row.state === 'running') return { kind: 'in_flight' }
  return { kind: 'replay', response: { status: row.status!, sealed: row.response! } }
}

export interface PostRow {
  id: string
  workspace_id: string
  /** Its author. */
  user_id: string
  account_id: string
  content: string
  media_urls: string
  platforms: string
  /** Null only for a draft with no time yet. */
  scheduled_at: number | null
  status: PostStatus
  version: number
  created_at: number
  updated_at: number
  published_at: number | null
  cancelled_at: number | null
  series_id: string | null
  occurrence: number | null
  /** JSON of a RepeatRule. */
  repeat_rule: string | null
  /** JSON: the thread's parts, each `{content, media_urls}`. */
  thread: string
  first_comment: string | null
  /** JSON: per-platform versions. */
  overrides: string
  /** JSON: the uploaded media the post names, `[{id, alt_text}]`. */
  media: string
}

/** A series' rule as a post row keeps it (JSON in `repeat_rule`), times in ms. */
export interface RepeatRule {
  interval: string
  count: number | null
  until: number | null
  timezone: string
  starts_at: number
}

/**
 * A new series' rule, counted from its first occurrence's time. A series always has one: a
 * draft or a queued post cannot start a series (the API refuses `repeat` with either).
 */
export function newRepeatRule(repeat: Omit<RepeatRule, 'starts_at'>, first: PostRow): RepeatRule {
  if (first.scheduled_at === null) throw new Error(`Post ${first.id} has no time to start a series from`)
  return { ...repeat, starts_at: first.scheduled_at }
}

/** The recurrence module's view of a stored rule. */
export function seriesRuleOf(rule: RepeatRule): SeriesRule {
  return { interval: rule.interval, count: rule.count, until: rule.until, timezone: rule.timezone, startsAt: rule.starts_at }
}

/**
 * The posts columns an occurrence of a series copies, from the series' template (the first
 * occurrence as created): what the post says and where it goes. A column that belongs to
 * what a post says (its per-platform versions, a thread, a first comment) joins this list,
 * one line, and every occurrence carries it. Everything else (id, time, status, results) is
 * the occurrence's own.
 */
export const SERIES_TEMPLATE_COLUMNS = [
  'workspace_id',
  'user_id',
  'account_id',
  'content',
  'media_urls',
  'media',
  'platforms',
  'thread',
  'first_comment',
  'overrides',
  'series_id',
  'repeat_rule',
] as const satisfies readonly (keyof PostRow)[]

/** A series' template: those columns of its first occurrence's row, as JSON. */
export function seriesTemplateOf(row: PostRow): string {
  return JSON.stringify(Object.fromEntries(SERIES_TEMPLATE_COLUMNS.map((column) => [column, row[column]])))
}

/**
 * The row of a series' next occurrence: its template's columns, and its own id, time and state.
 * A column added to the list after a series began is absent from its template, and left out
 * here, so the database's default fills it.
 */
export function occurrenceRow(
  template: string,
  id: string,
  occurrence: number,
  scheduledAt: number,
  now: number,
  status: Extract<PostStatus, 'scheduled' | 'pending_approval'> = 'scheduled',
): Record<string, unknown> & Pick<PostRow, 'id' | 'platforms' | 'user_id'> {
  const copied = JSON.parse(template) as Record<string, unknown>
  const own: Partial<PostRow> = {
    id,
    occurrence,
    scheduled_at: scheduledAt,
    status,
    version: 1,
    created_at: now,
    updated_at: now,
  }
  return { ...Object.fromEntries(SERIES_TEMPLATE_COLUMNS.filter((c) => c in copied).map((c) => [c, copied[c]])), ...own } as Record<string, unknown> & Pick<PostRow, 'id' | 'platforms' | 'user_id'>
}

/** What an occurrence row names of uploaded media, from its template's columns (absent in a template from before media: none). */
export function templateMedia(row: Record<string, unknown>): { media: MediaRef[]; thread: { media?: MediaRef[] }[]; overrides: Overrides } {
  const parse = <T>(column: string, none: T): T => (typeof row[column] === 'string' ? (JSON.parse(row[column] as string) as T) : none)
  return { media: parse('media', []), thread: parse('thread', []), overrides: parse('overrides', {}) }
}

export interface TargetRow {
  post_id: string
  platform: PlatformName
  status: TargetStatus
  attempts: number
  attempts_before_retry: number
  uncertain_since: number | null
  next_attempt_at: number | null
  lease_expires_at: number | null
  platform_post_id: string | null
  url: string | null
  published_at: number | null
  error_code: string | null
  error_detail: string | null
  error_part: number | null
}

/** Rows grouped by a key, each group in the rows' order. */
export function groupBy<R, K>(rows: Iterable<R>, key: (row: R) => K): Map<K, R[]> {
  const groups = new Map<K, R[]>()
  for (const row of rows) {
    const group = groups.get(key(row))
    if (group) group.push(row)
    else groups.set(key(row), [row])
  }
  return groups
}

/** How a post ends once no target is still in play (pending or publishing); undefined before. */
export function finalStatusOf(targets: readonly Pick<TargetRow, 'status' | 'published_at'>[]): { status: Extract<PostStatus, 'published' | 'partially_published' | 'failed'>; published_at: number | null } | undefined {
  if (targets.some((t) => t.status === 'pending' || t.status === 'publishing')) return undefined
  const published = targets.filter((t) => t.status === 'published')
  return {
    status: published.length === targets.length ? 'published' : published.length === 0 ? 'failed' : 'partially_published',
    published_at: published.length ? Math.max(...published.map((t) => t.published_at!)) : null,
  }
}

/**
 * Whether a post can have rows in post_target_parts, so that reads of every other post skip the
 * table. Only a post with a thread, a first comment or per-platform versions publishes more than
 * one part (a post of one part records its result on its target alone); and a post edited since
 * it was attempted may have had them before the edit, which takes a retry first (the only way a
 * post is editable again), so a retried target says so.
 */
export function hasPartRows(post: Pick<PostRow, 'thread' | 'first_comment' | 'overrides'>, targets: readonly Pick<TargetRow, 'attempts_before_retry'>[]): boolean {
  return post.thread !== '[]' || post.first_comment !== null || post.overrides !== '{}' || targets.some((t) => t.attempts_before_retry > 0)
}

/** One row of post_target_parts: a part that is out. */
export interface PartRow {
  post_id: string
  platform: PlatformName
  idx: number
  kind: PartKind
  platform_post_id: string | null
  url: string | null
  ref: string | null
  published_at: number
}

export function storedPartOf(row: PartRow): StoredPart {
  return { index: Number(row.idx), kind: row.kind, platformPostId: row.platform_post_id, url: row.url, ref: row.ref, publishedAt: Number(row.published_at) }
}

/** A part as the columns keep it, for an insert. */
export function partColumns(postId: string, platform: PlatformName, part: StoredPart): PartRow {
  return { post_id: postId, platform, idx: part.index, kind: part.kind, platform_post_id: part.platformPostId, url: part.url, ref: part.ref, published_at: part.publishedAt }
}

function targetFromRow(row: TargetRow, parts: PartRow[]): Target {
  return {
    platform: row.platform,
    status: row.status,
    attempts: row.attempts,
    platform_post_id: row.platform_post_id,
    url: row.url,
    published_at: toIsoOrNull(row.published_at),
    error: row.error_code === null ? null : { code: row.error_code, detail: row.error_detail ?? '', ...(row.error_part === null || row.error_part === undefined ? {} : { part: row.error_part }) },
    parts: partsOfTarget(row, parts),
  }
}

/**
 * A target's parts out, in order. A post of one part keeps no part rows (its settlement says
 * all there is): published, it is its own part 0.
 */
function partsOfTarget(row: TargetRow, parts: PartRow[]): Target['parts'] {
  const own = parts.filter((p) => p.platform === row.platform).sort((a, b) => a.idx - b.idx)
  if (own.length === 0 && row.status === 'published' && row.published_at !== null) {
    return [{ index: 0, kind: 'post', platform_post_id: row.platform_post_id, url: row.url, published_at: toIso(Number(row.published_at)) }]
  }
  return own.map((p) => ({ index: Number(p.idx), kind: p.kind, platform_post_id: p.platform_post_id, url: p.url, published_at: toIso(Number(p.published_at)) }))
}

/**
 * Whether a post names uploaded media anywhere (itself, its thread, its per-platform versions),
 * so that reads of every other post skip the media table. JSON text is enough to tell: a key
 * `"media"` holding an object can only be structure, never inside a string, where a quote is
 * always escaped.
 */
export function namesMedia(post: Pick<PostRow, 'media' | 'thread' | 'overrides'>): boolean {
  return post.media !== '[]' || post.thread.includes('"media":[{') || post.overrides.includes('"media":[{')
}

/** Uploaded media as a post shows them, in the post's order: a media gone since is left out. */
function postMediaOf(refs: MediaRef[] | undefined, media: ReadonlyMap<string, Media>): PostMedia[] {
  const shown: PostMedia[] = []
  for (const ref of refs ?? []) {
    const m = media.get(ref.id)
    if (m) shown.push({ id: m.id, url: m.url, content_type: m.content_type, width: m.width, height: m.height, alt_text: ref.alt_text ?? m.alt_text })
  }
  return shown
}

/** A post and its targets as the API shows them, targets in the order of the post's platforms. */
export function postRecordOf(row: PostRow, targetRows: TargetRow[], partRows: PartRow[] = [], mediaRows: readonly Media[] = []): PostRecord {
  const platforms = JSON.parse(row.platforms) as PlatformName[]
  const targets = [...targetRows].sort((a, b) => platforms.indexOf(a.platform) - platforms.indexOf(b.platform))
  const media = new Map(mediaRows.map((m) => [m.id, m]))
  return {
    version: row.version,
    workspaceId: row.workspace_id,
    post: {
      id: row.id,
      workspace_id: row.workspace_id,
      account_id: row.account_id,
      content: row.content,
      media_urls: JSON.parse(row.media_urls) as string[],
      media: postMediaOf(JSON.parse(row.media ?? '[]') as MediaRef[], media),
      platforms,
      thread: (JSON.parse(row.thread ?? '[]') as { content: string; media_urls: string[]; media?: MediaRef[] }[]).map((part) => ({
        content: part.content,
        media_urls: part.media_urls,
        ...(part.media?.length ? { media: postMediaOf(part.media, media) } : {}),
      })),
      first_comment: row.first_comment ?? null,
      overrides: JSON.parse(row.overrides ?? '{}') as Overrides,
      scheduled_at: toIsoOrNull(row.scheduled_at),
      status: row.status,
      targets: targets.map((t) => targetFromRow(t, partRows)),
      created_at: toIso(row.created_at),
      updated_at: toIso(row.updated_at),
      published_at: toIsoOrNull(row.published_at),
      cancelled_at: toIsoOrNull(row.cancelled_at),
      series_id: row.series_id ?? null,
      occurrence: row.occurrence ?? null,
      repeat: row.repeat_rule ? repeatOf(JSON.parse(row.repeat_rule) as RepeatRule) : null,
    },
  }
}

function repeatOf(rule: RepeatRule): Repeat {
  return { interval: rule.interval, count: rule.count, until: toIsoOrNull(rule.until), timezone: rule.timezone, starts_at: toIso(rule.starts_at) }
}

export interface AttemptRow {
  id: string
  webhook_id: string
  event_id: string
  event_type: EventType
  attempt: number
  succeeded: number
  status_code: number | null
  duration_ms: number
  response_body: string | null
  error: string | null
  next_attempt_at: number | null
  created_at: number
}

export function attemptFromRow(row: AttemptRow): WebhookDeliveryAttempt {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event_id: row.event_id,
    event_type: row.event_type,
    attempt: row.attempt,
    succeeded: row.succeeded === 1,
    status_code: row.status_code,
    duration_ms: row.duration_ms,
    response_body: row.response_body,
    error: row.error,
    next_attempt_at: toIsoOrNull(row.next_attempt_at),
    created_at: toIso(row.created_at),
  }
}

/** The attempt recorded for a delivery whose lease ran out with no outcome: its node died or hung mid-request. */
export const INTERRUPTED = 'interrupted: the daemon stopped before this attempt got an answer'

/**
 * Why a failed attempt disables its endpoint, if it does: the attempt says so (410 Gone), or the
 * endpoint has failed without a success for as long as is allowed.
 */
export function disableReasonFor(r: AttemptRecord, failingSince: number, now: number): string | undefined {
  if (r.disableReason) return r.disableReason
  if (now - failingSince < r.disableAfterFailingMs) return undefined
  const days = Math.round(r.disableAfterFailingMs / 86_400_000)
  return `every delivery failed for ${days} days (since ${toIso(failingSince)}); the last error: ${r.error ?? `HTTP ${r.statusCode}`}`
}

export interface WebhookRow {
  id: string
  workspace_id: string
  user_id: string
  url: string
  events: string
  description: string | null
  enabled: number
  disabled_reason: string | null
  disabled_at: number | null
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: number | null
  failing_since: number | null
  created_at: number
  updated_at: number
}

/** An endpoint as the port shows it: never its secrets, sealed or not. */
export function webhookFromRow(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookRecord['events'],
    description: row.description,
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** The columns an edit of an endpoint writes. */
export type WebhookEdit = Pick<WebhookRow, 'url' | 'events' | 'description' | 'enabled' | 'disabled_reason' | 'disabled_at' | 'failing_since'>

/**
 * An endpoint's row after `changes`: what is not named stays. Enabling starts afresh (the
 * reason and the failure streak belong to the disabled period); disabling by request says so.
 */
export function webhookEdit(row: WebhookRow, changes: WebhookChanges, now: number): WebhookEdit {
  const wasEnabled = row.enabled === 1
  const enabled = changes.enabled ?? wasEnabled
  return {
    url: changes.url ?? row.url,
    events: changes.events ? JSON.stringify(changes.events) : row.events,
    description: changes.description !== undefined ? changes.description : row.description,
    enabled: enabled ? 1 : 0,
    disabled_reason: enabled ? null : wasEnabled ? 'disabled by request' : row.disabled_reason,
    disabled_at: enabled ? null : wasEnabled ? now : row.disabled_at,
    failing_since: enabled && !wasEnabled ? null : row.failing_since,
  }
}

/** The counts a snapshot keeps, in column order. */
export const COUNTS = ['impressions', 'likes', 'reposts', 'replies', 'quotes', 'clicks'] as const

/**
 * Engagements of one reading: likes, reposts, replies, quotes and clicks, over the counts the
 * platform reported; null if it reported none of them (unknown is not zero).
 */
export function engagementsOf(m: Metrics): number | null {
  const reported = [m.likes, m.reposts, m.replies, m.quotes, m.clicks].filter((n): n is number => n !== null)
  return reported.length ? reported.reduce((a, b) => a + b, 0) : null
}


/** What claiming a target reads: the target's counts as the claim left them, and its post's text. */
export interface ClaimRow {
  /** The fencing token this claim took. */
  claim: number
  attempts: number
  attempts_before_retry: number
  next_attempt_at: number
  uncertain_since: number | null
  user_id: string
  content: string
  media_urls: string
  media: string
  thread: string
  first_comment: string | null
  overrides: string
}

/** What a claimed target publishes: its platform's version of the post, and the parts already out. */
export function claimedTargetOf(ref: TargetRef, row: ClaimRow, published: StoredPart[] = []): ClaimedTarget {
  const version = versionFor(
    {
      content: row.content,
      media_urls: JSON.parse(row.media_urls) as string[],
      media: JSON.parse(row.media ?? '[]') as MediaRef[],
      thread: JSON.parse(row.thread ?? '[]') as { content: string; media_urls: string[]; media?: MediaRef[] }[],
      first_comment: row.first_comment ?? null,
      overrides: JSON.parse(row.overrides ?? '{}') as Overrides,
    },
    ref.platform,
  )
  // Every field written out, not `...ref` and then the rest: on Node 20 an object literal that
  // spreads and then adds a dozen properties costs about 25 µs (each addition a fresh map), a
  // tenth of what a post cost in a burst; this costs 1.
  return {
    postId: ref.postId,
    platform: ref.platform,
    accountId: ref.accountId,
    dueAt: row.next_attempt_at,
    claim: row.claim,
    userId: row.user_id,
    attempts: row.attempts,
    attemptsSinceRetry: row.attempts - row.attempts_before_retry,
    uncertainSince: row.uncertain_since ?? undefined,
    content: version.content,
    mediaUrls: version.mediaUrls,
    media: version.media,
    parts: partsOf(version),
    published: [...published].sort((a, b) => a.index - b.index),
  }
}

/** The operator's OAuth apps and the grants being approved, as both stores keep them. */
export interface OAuthAppRow {
  platform: PlatformName
  client_id: string
  client_secret: Buffer
  updated_at: number
}

export interface OAuthGrantRow {
  state_hash: string
  user_id: string
  account_id: string
  platform: PlatformName
  secrets: Buffer
  created_at: number
  expires_at: number
}

export const oauthAppOf = (row: OAuthAppRow): StoredOAuthApp => ({ platform: row.platform, clientId: row.client_id, sealedSecret: row.client_secret, updatedAt: row.updated_at })

export const oauthGrantOf = (row: OAuthGrantRow): OAuthGrant => ({
  stateHash: row.state_hash,
  userId: row.user_id,
  accountId: row.account_id,
  platform: row.platform,
  sealedSecrets: row.secrets,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
})

/** A queue slot as kept: ISO weekday (1 = Monday) and minute of the day. */
export interface SlotRow {
  day: number
  minute: number
}

export function slotFromRow(row: SlotRow): Slot {
  return slotOfKey((row.day - 1) * 1440 + row.minute)
}

export function slotRowOf(slot: Slot): SlotRow {
  const key = slotKey(slot)
  return { day: Math.floor(key / 1440) + 1, minute: key % 1440 }
}


export interface MediaRow {
  id: string
  user_id: string
  status: 'uploading' | 'ready' | 'deleting'
  content_type: MediaType
  bytes: number
  sha256: string | null
  width: number | null
  height: number | null
  duration_ms: number | null
  alt_text: string | null
  token: string
  url: string
  created_at: number
  updated_at: number
  release_at: number | null
  lease_expires_at: number | null
  claimed_by: string | null
}

/** The path of a media's public URL: its token and the extension of its type. */
export const mediaPath = (token: string, type: MediaType) => `/media/${token}.${MEDIA_EXTENSIONS[type]}`

/** A media row as the API shows it. */
export function mediaOf(row: MediaRow): Media {
  return {
    id: row.id,
    content_type: row.content_type,
    bytes: Number(row.bytes),
    sha256: row.sha256 ?? '',
    width: row.width,
    height: row.height,
    duration_ms: row.duration_ms,
    alt_text: row.alt_text,
    url: row.url,
    created_at: toIso(Number(row.created_at)),
  }
}

/** How long an upload nobody uses is kept, and how long an unfinished one may take. */
export const MEDIA_GRACE_MS = 24 * 3_600_000

export interface UploadRow {
  id: string
  user_id: string
  media_id: string
  length: number
  upload_offset: number
  parts: number
  content_type: MediaType
  alt_text: string | null
  created_at: number
  expires_at: number
  lease_expires_at: number | null
  claimed_by: string | null
}

export function uploadOf(row: UploadRow): UploadRecord {
  return {
    id: row.id,
    userId: row.user_id,
    mediaId: row.media_id,
    length: Number(row.length),
    offset: Number(row.upload_offset),
    parts: row.parts,
    contentType: row.content_type,
    altText: row.alt_text,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  }
}
