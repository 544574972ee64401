import { POST_STATUSES, type PostStatus } from '../../../src/api/posts.js'
import { newId } from '../../../src/ids.js'
import type { Db } from './db.js'
import type { accountsStore } from './accounts.js'
import type { eventsStore } from './events.js'
import type { queuesStore } from './queues.js'
import { mediaIdsOf } from '../../../src/post-parts.js'
import type { MediaRef, Overrides } from '../../../src/api/posts.js'
import { DryRunRollback, dryRunResult, MediaUnavailableError, type AccountDeletion, type Actor, type Decision, type PostRecord, type NewPost, type PostChanges, type PostFilters, type Change, type ScheduleAt, type UserActor, type WorkspaceScope } from '../port.js'
import { actorJson } from '../rows.js'
import { afterEdit, startOf, UPCOMING, UPCOMING_SQL } from '../approval.js'
import type { PostRow } from '../rows.js'
import { mediaReferences } from './media.js'
import { postReader } from './post-reader.js'
import { INSERT_TARGETS, seriesSteps } from './series.js'

/**
 * The time posts list by: scheduled_at, or created_at for a draft with none yet. The same
 * expression as the index posts_workspace_order, so the planner uses it.
 */
const SORT_TIME = 'coalesce(p.scheduled_at, p.created_at)'

/** Below this many targets on a platform (all users'), a list filtered by it starts from them: sorting so few costs less than testing posts. */
const FEW_TARGETS = 2_000

export function postsStore(db: Db, events: ReturnType<typeof eventsStore>, accounts: ReturnType<typeof accountsStore>, queues: ReturnType<typeof queuesStore>) {
  const reader = postReader(db)
  const series = seriesSteps(db, events)
  // Prepared on first use: a database from before media (a migration's own test) has no such tables.
  let references: ReturnType<typeof mediaReferences> | undefined
  const media = () => (references ??= mediaReferences(db))
  const insert = db.prepare<[string, string, string, string, string, string, string, number | null, PostStatus, number, number, string, string | null, string, string], void>(
    `INSERT INTO posts (id, workspace_id, user_id, account_id, content, media_urls, platforms, scheduled_at, status, version, created_at, updated_at, thread, first_comment, overrides, media)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)`,
  )
  const insertTargets = db.prepare<[string, string], void>(INSERT_TARGETS)
  const deleteTargets = db.prepare<[string], void>('DELETE FROM post_targets WHERE post_id = ?')
  // The compare-and-swap on status and version is what makes an edit racing the scheduler's
  // claim (or another edit) lose cleanly instead of overwriting.
  const update = db.prepare<[string, string, string, number | null, PostStatus, number, string, string | null, string, string, string, number], void>(
    `UPDATE posts SET content = ?, media_urls = ?, platforms = ?, scheduled_at = ?, status = ?, updated_at = ?, thread = ?, first_comment = ?, overrides = ?, media = ?, version = version + 1
      WHERE id = ? AND status IN ${UPCOMING_SQL} AND version = ?`,
  )
  /** Names the post's media in post_media, or throws (rolling the unit of work back) when one is gone. */
  const linkMedia = (postId: string, post: { media?: MediaRef[]; thread: { media?: MediaRef[] }[]; overrides: Overrides }, now: number) => {
    const missing = media().setSync(postId, mediaIdsOf(post), now)
    if (missing.length) throw new MediaUnavailableError(missing)
  }
  const cancel = db.prepare<[number, number, string], void>(
    `UPDATE posts SET status = 'cancelled', cancelled_at = ?, updated_at = ?, version = version + 1 WHERE id = ? AND status IN ${UPCOMING_SQL}`,
  )
  const scheduleDraft = db.prepare<[PostStatus, number, number, string, number], void>(
    "UPDATE posts SET status = ?, scheduled_at = ?, updated_at = ?, version = version + 1 WHERE id = ? AND status = 'draft' AND version = ?",
  )
  // Approved, a post is due at its time, or at once if that has passed (analytics then measure
  // its delay from the approval, and a post approved late is not failed as missed).
  const decide = db.prepare<{ status: PostStatus; now: number; id: string }, void>(
    `UPDATE posts SET status = @status, scheduled_at = CASE WHEN @status = 'scheduled' THEN max(scheduled_at, @now) ELSE scheduled_at END,
            updated_at = @now, version = version + 1
      WHERE id = @id AND status = 'pending_approval'`,
  )
  const insertComment = db.prepare<[string, string, string | null, string, string | null, number], void>(
    'INSERT INTO post_comments (id, post_id, author, body, decision, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  )
  // A retry leaves `scheduled_at` as the user set it (analytics measures delays from it): the
  // retry time goes on the targets, which the claim keeps as their due time.
  const requeue = db.prepare<[number, string], void>(
    `UPDATE posts SET status = 'scheduled', updated_at = ?, version = version + 1
      WHERE id = ? AND status IN ('failed', 'partially_published')`,
  )
  const requeueTargets = db.prepare<[number, string], void>(
    `UPDATE post_targets SET status = 'pending', attempts_before_retry = attempts, uncertain_since = NULL, next_attempt_at = ?, lease_expires_at = NULL,
            error_code = NULL, error_detail = NULL, error_part = NULL
      WHERE post_id = ? AND status IN ('failed', 'unconfirmed')`,
  )
  // A new time replaces a retry's: the post is due when the user now says.
  const forgetRetryTime = db.prepare<[string], void>("UPDATE post_targets SET next_attempt_at = NULL WHERE post_id = ? AND status = 'pending'")
  const listCache = new Map<string, ReturnType<Db['prepare']>>()
  const fewTargetsOn = db.prepare<[string], number>(`SELECT count(*) FROM (SELECT 1 FROM post_targets WHERE platform = ? LIMIT ${FEW_TARGETS})`).pluck()

  function owned(scope: WorkspaceScope, id: string): PostRecord | undefined {
    const row = reader.rowSync(id)
    return row && scope.includes(row.workspace_id) ? reader.recordFromRow(row) : undefined
  }

  const create = db.transaction((by: UserActor, input: NewPost, now: number, index = 0): PostRecord => {
    const start = startOf(input.draft === true, input.awaitsApproval === true)
    const id = newId('pst', now)
    // A queued post's slot is picked here, in the (immediate) transaction: the next queued
    // create waits for this one to commit, then sees the slot taken.
    const scheduledAt = input.queue ? queues.pickSync(input.accountId, now, index) : input.scheduledAt
    insert.run(
      id,
      input.workspaceId,
      by.userId,
      input.accountId,
      input.content,
      JSON.stringify(input.mediaUrls),
      JSON.stringify(input.platforms),
      scheduledAt,
      start.status,
      now,
      now,
      JSON.stringify(input.thread ?? []),
      input.firstComment ?? null,
      JSON.stringify(input.overrides ?? {}),
      JSON.stringify(input.media ?? []),
    )
    insertTargets.run(id, JSON.stringify(input.platforms))
    linkMedia(id, { media: input.media, thread: input.thread ?? [], overrides: input.overrides ?? {} }, now)
    if (input.repeat) series.startSync(id, input.repeat, now)
    const record = reader.recordSync(id)!
    events.appendSync(input.workspaceId, start.event, record.post, now, by)
    return record
  })

  // One transaction around the single creation's steps: a throw anywhere (a foreign key, a
  // constraint, no free slot) rolls back every post created before it; queued posts fill
  // consecutive free slots, each seeing the ones before it taken.
  const createMany = db.transaction((by: UserActor, inputs: NewPost[], now: number, dryRun: boolean): PostRecord[] => {
    const records = inputs.map((input, index) => create(by, input, now, index))
    if (dryRun) throw new DryRunRollback(records)
    return records
  })

  const change = db.transaction((scope: WorkspaceScope, id: string, changes: PostChanges, version: number, now: number, by: Actor): Change => {
    const current = owned(scope, id)
    if (!current) return { kind: 'not_found' }
    if (!(UPCOMING as readonly string[]).includes(current.post.status)) return { kind: 'wrong_state', record: current }
    if (current.version !== version) return { kind: 'version_mismatch', record: current }
    const p = current.post
    // What the post keeps as given (its thread and media as named, not as the API shows them).
    const row = reader.rowSync(id)!
    const platforms = changes.platforms ?? p.platforms
    const thread = changes.thread ? JSON.stringify(changes.thread) : row.thread
    const overrides = changes.overrides ? JSON.stringify(changes.overrides) : row.overrides
    const mediaRefs = changes.media ? JSON.stringify(changes.media) : row.media
    const after = afterEdit(p.status, changes.awaitsApproval === true)
    update.run(
      changes.content ?? p.content,
      JSON.stringify(changes.mediaUrls ?? p.media_urls),
      JSON.stringify(platforms),
      changes.scheduledAt ?? (p.scheduled_at === null ? null : Date.parse(p.scheduled_at)),
      after.status,
      now,
      thread,
      changes.firstComment !== undefined ? changes.firstComment : p.first_comment,
      overrides,
      mediaRefs,
      id,
      version,
    )
    linkMedia(id, { media: JSON.parse(mediaRefs) as MediaRef[], thread: JSON.parse(thread) as { media?: MediaRef[] }[], overrides: JSON.parse(overrides) as Overrides }, now)
    if (changes.scheduledAt !== undefined) forgetRetryTime.run(id)
    if (changes.platforms) {
      // Targets of a scheduled post hold no results yet, so they can simply be redrawn.
      deleteTargets.run(id)
      insertTargets.run(id, JSON.stringify(platforms))
    }
    const record = reader.recordSync(id)!
    for (const type of after.events) events.appendSync(record.workspaceId, type, record.post, now, by)
    return { kind: 'ok', record }
  })

  const scheduleTx = db.transaction((scope: WorkspaceScope, id: string, when: ScheduleAt, version: number, now: number, by: Actor): Change => {
    const current = owned(scope, id)
    if (!current) return { kind: 'not_found' }
    if (current.post.status !== 'draft') return { kind: 'wrong_state', record: current }
    if (current.version !== version) return { kind: 'version_mismatch', record: current }
    const at = 'at' in when ? when.at : queues.pickSync(current.post.account_id, now)
    const start = startOf(false, when.awaitsApproval === true)
    scheduleDraft.run(start.status, at, now, id, version)
    const record = reader.recordSync(id)!
    events.appendSync(record.workspaceId, start.event, record.post, now, by)
    return { kind: 'ok', record }
  })

  const cancelTx = db.transaction((scope: WorkspaceScope, id: string, now: number, stopSeries: boolean, by: Actor): Change => {
    const current = owned(scope, id)
    if (!current) return { kind: 'not_found' }
    if (current.post.status === 'cancelled') {
      if (stopSeries) series.stopSync(id, now, by)
      return { kind: 'ok', record: current }
    }
    if (cancel.run(now, now, id).changes === 0) return { kind: 'wrong_state', record: current }
    const record = reader.recordSync(id)!
    events.appendSync(record.workspaceId, 'post.cancelled', record.post, now, by)
    // An occurrence cancelled alone is skipped: the series goes on as if it had been published.
    if (stopSeries) series.stopSync(id, now, by)
    else series.advanceSync(id, now, by)
    return { kind: 'ok', record }
  })

  const decideTx = db.transaction((scope: WorkspaceScope, id: string, decision: Decision, now: number, by: Actor): Change => {
    const current = owned(scope, id)
    if (!current) return { kind: 'not_found' }
    if (current.post.status !== 'pending_approval') return { kind: 'wrong_state', record: current }
    if (decision.version !== undefined && current.version !== decision.version) return { kind: 'version_mismatch', record: current }
    decide.run({ status: decision.approve ? 'scheduled' : 'rejected', now, id })
    if (decision.comment !== undefined) insertComment.run(newId('cmt', now), id, actorJson(by), decision.comment, decision.approve ? 'approved' : 'rejected', now)
    const row = reader.rowSync(id)!
    if (decision.approve && row.series_id) series.approveSync(row.series_id)
    // An approved post is due at once if its time has passed: what was due for it is forgotten.
    if (decision.approve) forgetRetryTime.run(id)
    const record = reader.recordFromRow(row)
    events.appendSync(record.workspaceId, decision.approve ? 'post.approved' : 'post.rejected', { ...record.post, comment: decision.comment ?? null }, now, by)
    return { kind: 'ok', record }
  })

  // Drafts and posts waiting for approval are the user's work too: they are cancelled with the
  // scheduled posts, or make it refuse.
  const postsOfAccount = db.prepare<[string], { id: string; status: PostStatus }>(
    `SELECT id, status FROM posts WHERE account_id = ? AND (status IN ${UPCOMING_SQL} OR status = 'publishing')`,
  )
  const deleteAccountRow = db.prepare<[string], void>('DELETE FROM accounts WHERE id = ?')

  // Deleting an account is a unit of work over its posts: its scheduled posts are cancelled
  // (each with post.cancelled, so subscribers learn they will not go out) or make it refuse,
  // and a post being published makes it wait, so no publish outlives its account's row.
  const deleteAccountTx = db.transaction((scope: WorkspaceScope, accountId: string, cancelPosts: boolean, now: number, by: Actor): AccountDeletion => {
    const account = accounts.getSync(scope, accountId)
    if (!account) return { kind: 'not_found' }
    const open = postsOfAccount.all(accountId)
    if (open.some((p) => p.status === 'publishing')) return { kind: 'publishing' }
    if (open.length > 0 && !cancelPosts) return { kind: 'has_scheduled', count: open.length }
    for (const { id } of open) {
      cancel.run(now, now, id)
      events.appendSync(account.workspace_id, 'post.cancelled', reader.recordSync(id)!.post, now, by)
    }
    events.appendSync(account.workspace_id, 'account.deleted', account, now, by)
    const used = media().ofAccountSync(accountId)
    deleteAccountRow.run(accountId)
    // What only this account's posts used goes with them, at the cleanup's next run.
    media().releaseOrphansSync(used, now)
    return { kind: 'ok', cancelled: open.length }
  })

  const retryTx = db.transaction((scope: WorkspaceScope, id: string, now: number, by: Actor): Change => {
    const current = owned(scope, id)
    if (!current) return { kind: 'not_found' }
    if (requeue.run(now, id).changes === 0) return { kind: 'wrong_state', record: current }
    requeueTargets.run(now, id)
    const record = reader.recordSync(id)!
    events.appendSync(record.workspaceId, 'post.scheduled', record.post, now, by)
    return { kind: 'ok', record }
  })

  /** The WHERE clause and its arguments for a workspace's posts matching filters (the cursor included). */
  function whereOf(scope: WorkspaceScope, filters: PostFilters): { where: string; args: unknown[] } {
    const where = [scope.length === 1 ? 'p.workspace_id = ?' : 'p.workspace_id IN (SELECT value FROM json_each(?))']
    const args: unknown[] = [scope.length === 1 ? scope[0] : JSON.stringify(scope)]
    const add = (clause: string, ...values: unknown[]) => {
      where.push(clause)
      args.push(...values)
    }
    if (filters.statuses) add(`p.status IN (${filters.statuses.map(() => '?').join(', ')})`, ...filters.statuses)
    if (filters.accountId) add('p.account_id = ?', filters.accountId)
    if (filters.platform) add('EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = p.id AND t.platform = ?)', filters.platform)
    if (filters.seriesId) add('p.series_id = ?', filters.seriesId)
    if (filters.from !== undefined) add(`${SORT_TIME} >= ?`, filters.from)
    if (filters.to !== undefined) add(`${SORT_TIME} < ?`, filters.to)
    if (filters.after) {
      const asc = filters.order === 'asc'
      // The plain bound is implied by the row value; it is there because SQLite seeks an
      // expression index by a plain comparison only, not by a row value.
      add(`${SORT_TIME} ${asc ? '>=' : '<='} ?`, filters.after.scheduledAt)
      add(`(${SORT_TIME}, p.id) ${asc ? '>' : '<'} (?, ?)`, filters.after.scheduledAt, filters.after.id)
    }
    return { where: where.join(' AND '), args }
  }

  // One prepared statement per combination of filters, prepared on first use and kept.
  function cached<R>(sql: string): { all(...args: unknown[]): R[]; get(...args: unknown[]): R | undefined } {
    let statement = listCache.get(sql)
    if (!statement) listCache.set(sql, (statement = db.prepare(sql)))
    return statement as unknown as { all(...args: unknown[]): R[]; get(...args: unknown[]): R | undefined }
  }

  return {
    /** Creates a scheduled post (or a draft) and its pending targets, and records `post.scheduled` (or `post.drafted`), together. */
    async create(by: UserActor, input: NewPost, now: number): Promise<PostRecord> {
      return create.immediate(by, input, now)
    },

    /** Creates several posts as `create` does, in one transaction: all or none. */
    async createMany(by: UserActor, inputs: NewPost[], now: number, { dryRun = false } = {}): Promise<PostRecord[]> {
      return dryRunResult(() => createMany.immediate(by, inputs, now, dryRun))
    },

    /** The post; undefined if there is none in the scope. */
    async get(scope: WorkspaceScope, id: string): Promise<PostRecord | undefined> {
      return owned(scope, id)
    },

    /**
     * A page of the scope's posts in list order. Each workspace of the scope is a run of an index
     * in list order (posts_workspace_order), and with statuses, or an account (whose posts are
     * read status by status), each of its statuses is (posts_workspace_status_order,
     * posts_account_order): the page takes at most `limit` posts from each run and sorts only
     * those. Left to one query, SQLite walks every post of the workspace through
     * posts_workspace_order and fetches each row to test it (0.4 s at a million posts for an
     * account with few), and sorts every post of several workspaces. A series is a handful of
     * posts: read through its own index, then sorted; so are the posts of a platform that has
     * few targets in all. A platform with many is tested post by post along the list, where its
     * posts are found soon.
     */
    async list(scope: WorkspaceScope, filters: PostFilters, limit: number): Promise<PostRecord[]> {
      if (scope.length === 0) return []
      const dir = filters.order === 'asc' ? 'ASC' : 'DESC'
      const order = `ORDER BY ${SORT_TIME} ${dir}, p.id ${dir}`
      const statuses = filters.seriesId ? undefined : [...new Set(filters.statuses ?? (filters.accountId ? POST_STATUSES : []))]
      let rows: PostRow[]
      if (filters.platform && !filters.seriesId && fewTargetsOn.get(filters.platform)! < FEW_TARGETS) {
        // A platform with few targets at all: its targets lead, and only their posts are sorted.
        const { where, args } = whereOf(scope, { ...filters, platform: undefined })
        rows = cached<PostRow>(`SELECT p.* FROM post_targets t CROSS JOIN posts p ON p.id = t.post_id WHERE t.platform = ? AND ${where} ${order} LIMIT ?`).all(filters.platform, ...args, limit)
      } else if (!statuses || (statuses.length <= 1 && scope.length === 1)) {
        const { where, args } = whereOf(scope, filters)
        rows = cached<PostRow>(`SELECT p.* FROM posts p ${filters.seriesId ? 'INDEXED BY posts_series ' : ''}WHERE ${where} ${order} LIMIT ?`).all(...args, limit)
      } else {
        const each = statuses.length ? statuses.map((status) => ({ ...filters, statuses: [status] })) : [filters]
        const runs = scope.flatMap((workspaceId) => each.map((f) => whereOf([workspaceId], f)))
        const sql = runs.map(({ where }) => `SELECT * FROM (SELECT p.* FROM posts p WHERE ${where} ${order} LIMIT ?)`).join(' UNION ALL ')
        rows = cached<PostRow>(`SELECT * FROM (${sql}) p ${order} LIMIT ?`).all(...runs.flatMap(({ args }) => [...args, limit]), limit)
      }
      return rows.map(reader.recordFromRow)
    },

    /** How many posts in the scope match the filters (after the cursor, when there is one). */
    async count(scope: WorkspaceScope, filters: PostFilters): Promise<number> {
      if (scope.length === 0) return 0
      const { where, args } = whereOf(scope, filters)
      return cached<{ n: number }>(`SELECT count(*) AS n FROM posts p WHERE ${where}`).get(...args)!.n
    },

    /** Applies changes to a scheduled post or a draft if it is still at `version`; records `post.updated`. */
    async update(scope: WorkspaceScope, id: string, changes: PostChanges, version: number, now: number, by: Actor): Promise<Change> {
      return change.immediate(scope, id, changes, version, now, by)
    },

    /** Schedules a draft still at `version` (at a time, or at its account's next free slot); records `post.scheduled`. */
    async schedule(scope: WorkspaceScope, id: string, when: ScheduleAt, version: number, now: number, by: Actor): Promise<Change> {
      return scheduleTx.immediate(scope, id, when, version, now, by)
    },

    /** Deletes an account with its connections, posts and feed, and records `account.deleted`. */
    async deleteAccount(scope: WorkspaceScope, accountId: string, options: { cancelPosts: boolean }, now: number, by: Actor): Promise<AccountDeletion> {
      return deleteAccountTx.immediate(scope, accountId, options.cancelPosts, now, by)
    },

    /** Cancels a scheduled post or a draft (a cancelled one is answered as is); records `post.cancelled`; moves on or stops its series. */
    async cancel(scope: WorkspaceScope, id: string, now: number, by: Actor, options: { series?: boolean } = {}): Promise<Change> {
      return cancelTx.immediate(scope, id, now, options.series === true, by)
    },

    /**
     * Re-queues the failed and unconfirmed targets of a failed or partly published post, due
     * now; the post keeps its `scheduled_at` and each target its attempt count.
     */
    async retry(scope: WorkspaceScope, id: string, now: number, by: Actor): Promise<Change> {
      return retryTx.immediate(scope, id, now, by)
    },

    /** Approves or rejects a post waiting for approval, with the comment given; records `post.approved` or `post.rejected`. */
    async decide(scope: WorkspaceScope, id: string, decision: Decision, now: number, by: Actor): Promise<Change> {
      return decideTx.immediate(scope, id, decision, now, by)
    },
  }
}
