import { newId } from '../../../src/ids.js'
import { mediaIdsOf } from '../../../src/post-parts.js'
import type { MediaRef, Overrides } from '../../../src/api/posts.js'
import { DryRunRollback, dryRunResult, MediaUnavailableError, type AccountDeletion, type Actor, type Change, type NewPost, type PostChanges, type PostFilters, type PostRecord, type PostsStore, type ScheduleAt, type UserActor, type WorkspaceScope } from '../port.js'
import { afterEdit, startOf, UPCOMING } from '../approval.js'
import { actorJson } from '../rows.js'
import { accountsByIds } from './accounts.js'
import type { PostRow } from '../rows.js'
import { releaseOrphans, setPostMedia } from './media.js'
import { recordOf, recordsOf } from './post-records.js'
import type { Queryable, Sql } from './connect.js'
import { appendEvent } from './events.js'
import { advanceSeries, approveSeries, startSeries, stopSeries } from './series.js'
import { pickSlot } from './queues.js'

/** The WHERE clause for the scope's posts matching filters, the cursor included: one for the list and the count. */
function whereOf(q: Queryable, scope: WorkspaceScope, filters: PostFilters) {
  const after = filters.after
  return q`${scope.length === 1 ? q`p.workspace_id = ${scope[0]!}` : q`p.workspace_id = ANY(${scope}::text[])`}
    ${filters.statuses ? q`AND p.status = ANY(${filters.statuses})` : q``}
    ${filters.accountId ? q`AND p.account_id = ${filters.accountId}` : q``}
    ${filters.platform ? q`AND EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = p.id AND t.platform = ${filters.platform})` : q``}
    ${filters.seriesId ? q`AND p.series_id = ${filters.seriesId}` : q``}
    ${filters.from !== undefined ? q`AND coalesce(p.scheduled_at, p.created_at) >= ${filters.from}` : q``}
    ${filters.to !== undefined ? q`AND coalesce(p.scheduled_at, p.created_at) < ${filters.to}` : q``}
    ${after ? (filters.order === 'asc' ? q`AND coalesce(p.scheduled_at, p.created_at) >= ${after.scheduledAt} AND (coalesce(p.scheduled_at, p.created_at), p.id) > (${after.scheduledAt}, ${after.id})` : q`AND coalesce(p.scheduled_at, p.created_at) <= ${after.scheduledAt} AND (coalesce(p.scheduled_at, p.created_at), p.id) < (${after.scheduledAt}, ${after.id})`) : q``}`
}

/** Names the post's media in post_media, or throws (rolling the transaction back) when one is gone. */
async function linkMedia(tx: Queryable, postId: string, post: { media?: MediaRef[]; thread: { media?: MediaRef[] }[]; overrides: Overrides }, now: number): Promise<void> {
  const missing = await setPostMedia(tx, postId, mediaIdsOf(post), now)
  if (missing.length) throw new MediaUnavailableError(missing)
}

/** The post in the scope, its row locked until the transaction ends: an edit and the scheduler's claim take turns. */
async function ownedForUpdate(q: Queryable, scope: WorkspaceScope, id: string): Promise<PostRecord | undefined> {
  return (await recordsOf(q, await q<PostRow[]>`SELECT * FROM posts WHERE id = ${id} AND workspace_id = ANY(${scope}::text[]) FOR UPDATE`))[0]
}

/**
 * Inserts a scheduled post (or a draft) with its pending targets and records `post.scheduled`
 * (or `post.drafted`), inside the caller's transaction; a queued post takes its slot here.
 */
async function insertPost(tx: Queryable, by: UserActor, input: NewPost, now: number, index = 0): Promise<PostRecord> {
  const id = newId('pst', now)
  const start = startOf(input.draft === true, input.awaitsApproval === true)
  const scheduledAt = input.queue ? await pickSlot(tx, input.accountId, now, index) : input.scheduledAt
  await tx`
    INSERT INTO posts (id, workspace_id, user_id, account_id, content, media_urls, platforms, scheduled_at, status, version, created_at, updated_at, thread, first_comment, overrides, media)
    VALUES (${id}, ${input.workspaceId}, ${by.userId}, ${input.accountId}, ${input.content}, ${JSON.stringify(input.mediaUrls)},
            ${JSON.stringify(input.platforms)}, ${scheduledAt}, ${start.status}, 1, ${now}, ${now},
            ${JSON.stringify(input.thread ?? [])}, ${input.firstComment ?? null}, ${JSON.stringify(input.overrides ?? {})}, ${JSON.stringify(input.media ?? [])})`
  await tx`INSERT INTO post_targets ${tx(input.platforms.map((platform) => ({ post_id: id, platform, status: 'pending' })))}`
  await linkMedia(tx, id, { media: input.media, thread: input.thread ?? [], overrides: input.overrides ?? {} }, now)
  if (input.repeat) await startSeries(tx, id, input.repeat, now)
  const record = (await recordOf(tx, id))!
  await appendEvent(tx, input.workspaceId, start.event, record.post, now, by)
  return record
}

export function postsStore(sql: Sql): PostsStore {
  return {
    async create(by: UserActor, input: NewPost, now: number) {
      return sql.begin((tx) => insertPost(tx, by, input, now))
    },

    async createMany(by, inputs, now, { dryRun = false } = {}) {
      // One transaction: a refusal of any insert (the account deleted meanwhile) rolls back all.
      return dryRunResult(() =>
        sql.begin(async (tx) => {
          const records: PostRecord[] = []
          for (const [index, input] of inputs.entries()) records.push(await insertPost(tx, by, input, now, index))
          if (dryRun) throw new DryRunRollback(records)
          return records
        }),
      )
    },

    async get(scope, id) {
      return (await recordsOf(sql, await sql<PostRow[]>`SELECT * FROM posts WHERE id = ${id} AND workspace_id = ANY(${scope}::text[])`))[0]
    },

    async list(scope: WorkspaceScope, filters: PostFilters, limit: number) {
      // A draft with no time lists at its created_at: the expression of the index posts_workspace_order.
      const order = filters.order === 'asc' ? sql`coalesce(p.scheduled_at, p.created_at) ASC, p.id ASC` : sql`coalesce(p.scheduled_at, p.created_at) DESC, p.id DESC`
      const rows = await sql<PostRow[]>`SELECT p.* FROM posts p WHERE ${whereOf(sql, scope, filters)} ORDER BY ${order} LIMIT ${limit}`
      return recordsOf(sql, rows)
    },

    async count(scope, filters) {
      const [row] = await sql<{ n: number }[]>`SELECT count(*)::bigint AS n FROM posts p WHERE ${whereOf(sql, scope, filters)}`
      return row!.n
    },

    async deleteAccount(scope, accountId, { cancelPosts }, now, by): Promise<AccountDeletion> {
      return sql.begin(async (tx): Promise<AccountDeletion> => {
        // The account's row locked first: a post created for it meanwhile waits, then finds it gone.
        const [account] = await tx<{ id: string; workspace_id: string }[]>`
          SELECT id, workspace_id FROM accounts WHERE id = ${accountId} AND workspace_id = ANY(${scope}::text[]) FOR UPDATE`
        if (!account) return { kind: 'not_found' }
        const open = await tx<{ id: string; status: string }[]>`
          SELECT id, status FROM posts WHERE account_id = ${accountId} AND (status = ANY(${[...UPCOMING]}::text[]) OR status = 'publishing') FOR UPDATE`
        if (open.some((p) => p.status === 'publishing')) return { kind: 'publishing' }
        if (open.length > 0 && !cancelPosts) return { kind: 'has_scheduled', count: open.length }
        for (const { id } of open) {
          await tx`UPDATE posts SET status = 'cancelled', cancelled_at = ${now}, updated_at = ${now}, version = version + 1 WHERE id = ${id}`
          await appendEvent(tx, account.workspace_id, 'post.cancelled', (await recordOf(tx, id))!.post, now, by)
        }
        const [gone] = await accountsByIds(tx, [accountId])
        await appendEvent(tx, account.workspace_id, 'account.deleted', gone, now, by)
        const used = await tx<{ media_id: string }[]>`SELECT DISTINCT pm.media_id FROM post_media pm JOIN posts p ON p.id = pm.post_id WHERE p.account_id = ${accountId}`
        await tx`DELETE FROM accounts WHERE id = ${accountId}`
        // What only this account's posts used goes with them, at the cleanup's next run.
        await releaseOrphans(tx, used.map((r) => r.media_id), now)
        return { kind: 'ok', cancelled: open.length }
      })
    },

    async update(scope: WorkspaceScope, id: string, changes: PostChanges, version: number, now: number, by: Actor): Promise<Change> {
      return sql.begin(async (tx): Promise<Change> => {
        const current = await ownedForUpdate(tx, scope, id)
        if (!current) return { kind: 'not_found' }
        if (!(UPCOMING as readonly string[]).includes(current.post.status)) return { kind: 'wrong_state', record: current }
        if (current.version !== version) return { kind: 'version_mismatch', record: current }
        const p = current.post
        // What the post keeps as given (its thread and media as named, not as the API shows them).
        const [row] = await tx<PostRow[]>`SELECT * FROM posts WHERE id = ${id}`
        const platforms = changes.platforms ?? p.platforms
        const scheduledAt = changes.scheduledAt ?? (p.scheduled_at === null ? null : Date.parse(p.scheduled_at))
        const thread = changes.thread ? JSON.stringify(changes.thread) : row!.thread
        const overrides = changes.overrides ? JSON.stringify(changes.overrides) : row!.overrides
        const media = changes.media ? JSON.stringify(changes.media) : row!.media
        const after = afterEdit(p.status, changes.awaitsApproval === true)
        await tx`
          UPDATE posts SET content = ${changes.content ?? p.content}, media_urls = ${JSON.stringify(changes.mediaUrls ?? p.media_urls)},
                 platforms = ${JSON.stringify(platforms)}, scheduled_at = ${scheduledAt}, status = ${after.status},
                 thread = ${thread},
                 first_comment = ${changes.firstComment !== undefined ? changes.firstComment : p.first_comment},
                 overrides = ${overrides}, media = ${media},
                 updated_at = ${now}, version = version + 1
           WHERE id = ${id}`
        await linkMedia(tx, id, { media: JSON.parse(media) as MediaRef[], thread: JSON.parse(thread) as { media?: MediaRef[] }[], overrides: JSON.parse(overrides) as Overrides }, now)
        // A new time replaces a retry's: the post is due when the user now says.
        if (changes.scheduledAt !== undefined) await tx`UPDATE post_targets SET next_attempt_at = NULL WHERE post_id = ${id} AND status = 'pending'`
        if (changes.platforms) {
          // Targets of a scheduled post hold no results yet, so they can simply be redrawn.
          await tx`DELETE FROM post_targets WHERE post_id = ${id}`
          await tx`INSERT INTO post_targets ${tx(platforms.map((platform) => ({ post_id: id, platform, status: 'pending' })))}`
        }
        const record = (await recordOf(tx, id))!
        for (const type of after.events) await appendEvent(tx, record.workspaceId, type, record.post, now, by)
        return { kind: 'ok', record }
      })
    },

    async schedule(scope: WorkspaceScope, id: string, when: ScheduleAt, version: number, now: number, by: Actor): Promise<Change> {
      return sql.begin(async (tx): Promise<Change> => {
        const current = await ownedForUpdate(tx, scope, id)
        if (!current) return { kind: 'not_found' }
        if (current.post.status !== 'draft') return { kind: 'wrong_state', record: current }
        if (current.version !== version) return { kind: 'version_mismatch', record: current }
        const at = 'at' in when ? when.at : await pickSlot(tx, current.post.account_id, now)
        const start = startOf(false, when.awaitsApproval === true)
        await tx`UPDATE posts SET status = ${start.status}, scheduled_at = ${at}, updated_at = ${now}, version = version + 1 WHERE id = ${id}`
        const record = (await recordOf(tx, id))!
        await appendEvent(tx, record.workspaceId, start.event, record.post, now, by)
        return { kind: 'ok', record }
      })
    },

    async cancel(scope, id, now, by, options = {}) {
      return sql.begin(async (tx): Promise<Change> => {
        const current = await ownedForUpdate(tx, scope, id)
        if (!current) return { kind: 'not_found' }
        const rowOf = async () => (await tx<PostRow[]>`SELECT * FROM posts WHERE id = ${id}`)[0]!
        if (current.post.status === 'cancelled') {
          if (options.series) await stopSeries(tx, await rowOf(), now, by)
          return { kind: 'ok', record: current }
        }
        if (!(UPCOMING as readonly string[]).includes(current.post.status)) return { kind: 'wrong_state', record: current }
        await tx`UPDATE posts SET status = 'cancelled', cancelled_at = ${now}, updated_at = ${now}, version = version + 1 WHERE id = ${id}`
        const record = (await recordOf(tx, id))!
        await appendEvent(tx, record.workspaceId, 'post.cancelled', record.post, now, by)
        // An occurrence cancelled alone is skipped: the series goes on as if it had been published.
        if (options.series) await stopSeries(tx, await rowOf(), now, by)
        else await advanceSeries(tx, await rowOf(), now, by)
        return { kind: 'ok', record }
      })
    },

    async decide(scope, id, decision, now, by) {
      return sql.begin(async (tx): Promise<Change> => {
        const current = await ownedForUpdate(tx, scope, id)
        if (!current) return { kind: 'not_found' }
        if (current.post.status !== 'pending_approval') return { kind: 'wrong_state', record: current }
        if (decision.version !== undefined && current.version !== decision.version) return { kind: 'version_mismatch', record: current }
        // As on SQLite: approved, a post whose time has passed is due at once.
        const [row] = decision.approve
          ? await tx<PostRow[]>`UPDATE posts SET status = 'scheduled', scheduled_at = greatest(scheduled_at, ${now}), updated_at = ${now}, version = version + 1 WHERE id = ${id} RETURNING *`
          : await tx<PostRow[]>`UPDATE posts SET status = 'rejected', updated_at = ${now}, version = version + 1 WHERE id = ${id} RETURNING *`
        if (decision.comment !== undefined) {
          await tx`
            INSERT INTO post_comments (id, post_id, author, body, decision, created_at)
            VALUES (${newId('cmt', now)}, ${id}, ${actorJson(by)}, ${decision.comment}, ${decision.approve ? 'approved' : 'rejected'}, ${now})`
        }
        if (decision.approve && row!.series_id) await approveSeries(tx, row!.series_id)
        if (decision.approve) await tx`UPDATE post_targets SET next_attempt_at = NULL WHERE post_id = ${id} AND status = 'pending'`
        const record = (await recordOf(tx, id))!
        await appendEvent(tx, record.workspaceId, decision.approve ? 'post.approved' : 'post.rejected', { ...record.post, comment: decision.comment ?? null }, now, by)
        return { kind: 'ok', record }
      })
    },

    async retry(scope, id, now, by) {
      return sql.begin(async (tx): Promise<Change> => {
        const current = await ownedForUpdate(tx, scope, id)
        if (!current) return { kind: 'not_found' }
        if (current.post.status !== 'failed' && current.post.status !== 'partially_published') return { kind: 'wrong_state', record: current }
        // As on SQLite: the post keeps its scheduled_at, the retry time goes on the targets.
        await tx`UPDATE posts SET status = 'scheduled', updated_at = ${now}, version = version + 1 WHERE id = ${id}`
        await tx`
          UPDATE post_targets SET status = 'pending', attempts_before_retry = attempts, uncertain_since = NULL, next_attempt_at = ${now},
                 lease_expires_at = NULL, claimed_by = NULL, error_code = NULL, error_detail = NULL, error_part = NULL
           WHERE post_id = ${id} AND status IN ('failed', 'unconfirmed')`
        const record = (await recordOf(tx, id))!
        await appendEvent(tx, record.workspaceId, 'post.scheduled', record.post, now, by)
        return { kind: 'ok', record }
      })
    },
  }
}
