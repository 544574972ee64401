import { toPage, type CursorKey } from '../../src/pagination.js'
import { routes } from '../../src/contract.js'
import { ApiError, conflict, invalidField, notFound, validationFailed } from '../../src/errors.js'
import type { Post, PostListQuery, PostStatus } from '../../src/api/posts.js'
import { accessOf, type Access, type Action } from '../access.js'
import { UPCOMING } from '../store/approval.js'
import type { Ctx, AppDeps } from '../context.js'
import { MediaUnavailableError, QueueRefusedError, type Change, type PostFilters, type PostRecord } from '../store/index.js'
import { bind, type ApiRouter } from './bind.js'
import { parseNewPost, parseNewPosts, parsePostChanges, parseSchedule, queueRefusal } from './post-input.js'

const etag = (record: PostRecord) => `"v${record.version}"`

/** RFC 9110 If-Match: `*`, or a list of strong entity tags. */
function matches(header: string, record: PostRecord): boolean {
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim() === etag(record))
}

function preconditionFailed(record: PostRecord, sent: string): ApiError {
  return new ApiError(412, 'precondition_failed', `The post has changed since the ETag in If-Match (${sent}); it is now ${etag(record)}. GET it again and re-apply your change.`, {
    headers: { ETag: etag(record) },
  })
}

/** The posts an edit or a cancel may change: those not gone out. */
const NOT_OUT = 'a post that has not gone out (scheduled, a draft, waiting for approval or rejected)'

/** The post, if the user can see it (404 otherwise) and their role allows `action` on it (403 otherwise). */
export function postFor(deps: AppDeps, access: Access, id: string, action: Action): Promise<PostRecord> {
  return access.find(action, (scope) => deps.store.posts.get(scope, id), (r) => r.workspaceId, () => notFound('post', id))
}

export function notEditable(record: PostRecord, verb: string, only = 'a scheduled post or a draft'): ApiError {
  return new ApiError(409, 'post_not_editable', `Post ${record.post.id} is ${record.post.status}; only ${only} can be ${verb}.`, {
    extensions: { post_status: record.post.status },
  })
}

/**
 * A queued create or schedule that found no slot in the store's transaction, or a write whose
 * media were deleted since they were checked: the same 422 the checks give.
 */
async function refusingQueue<T>(pointerOf: (index: number) => string, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof QueueRefusedError) throw validationFailed([queueRefusal(error, pointerOf(error.index))])
    if (error instanceof MediaUnavailableError) {
      // Of several posts, which one named them is not known here: the list is pointed at.
      const pointer = pointerOf(0).startsWith('#/posts/') ? '#/posts' : '#/media'
      throw validationFailed([{ pointer, code: 'not_found', detail: `${error.mediaIds.join(', ')} no longer exist: they were deleted while the post was being saved` }])
    }
    throw error
  }
}

/** Where a post lists: its scheduled time, or its creation time for a draft with none. */
const sortTime = (post: Post) => Date.parse(post.scheduled_at ?? post.created_at)

/** Answers a post, with its ETag. */
export function respond(ctx: Ctx, record: PostRecord, status = 200): void {
  ctx.status = status
  ctx.set('ETag', etag(record))
  ctx.body = record.post
}

// Post cursors carry the sort key (scheduled_at, or created_at for a draft with no time) with
// the id, so a page resumes exactly where the last ended.
function afterOf(cursor: CursorKey | undefined): PostFilters['after'] {
  if (cursor === undefined) return undefined
  const [scheduledAt, id] = cursor
  if (cursor.length !== 2 || typeof scheduledAt !== 'number' || typeof id !== 'string' || !id.startsWith('pst_')) {
    throw invalidField('#/cursor', 'is not a cursor from a previous page of this list')
  }
  return { scheduledAt, id }
}

function filtersOf(query: PostListQuery): PostFilters {
  return {
    statuses: query.status === undefined ? undefined : (query.status.split(',') as PostStatus[]),
    accountId: query.account_id,
    platform: query.platform,
    seriesId: query.series_id,
    from: query.from === undefined ? undefined : Date.parse(query.from),
    to: query.to === undefined ? undefined : Date.parse(query.to),
    order: query.order,
    after: afterOf(query.cursor),
  }
}

export function postRoutes(router: ApiRouter, deps: AppDeps): void {
  const { store, clock, scheduler } = deps

  bind(router, routes.listPosts, async (ctx, { query, principal }) => {
    const filters = filtersOf(query)
    const scope = accessOf(principal).scope(query.workspace_id, 'read')
    const rows = await store.posts.list(scope, filters, query.limit + 1)
    const page = toPage(rows.map((r) => r.post), query.limit, (post) => [sortTime(post), post.id])
    ctx.body = query.count === 'true' ? { ...page, total: await store.posts.count(scope, filters) } : page
  })

  // The body is parsed in full by parseNewPost (schema and account and platform rules together).
  bind(router, { ...routes.createPost, body: undefined }, async (ctx, { principal }) => {
    const { post: input } = await parseNewPost(deps, accessOf(principal), ctx.request.body ?? {})
    const record = await refusingQueue(() => '#/queue', () => store.posts.create(accessOf(principal).actor, input, clock.now()))
    if (!input.draft) scheduler.wake()
    ctx.set('Location', `/v1/posts/${record.post.id}`)
    respond(ctx, record, 201)
  })

  // Create, rolled back: the same parse and the same store work (a queued post takes its slot),
  // then nothing kept: no row, no event, no scheduler wake.
  bind(router, { ...routes.validatePost, body: undefined }, async (ctx, { principal }) => {
    const { post, targets } = await parseNewPost(deps, accessOf(principal), ctx.request.body ?? {})
    const [record] = await refusingQueue(() => '#/queue', () => store.posts.createMany(accessOf(principal).actor, [post], clock.now(), { dryRun: true }))
    ctx.body = { valid: true, scheduled_at: record!.post.scheduled_at, targets }
  })

  // Every post is parsed by parseNewPost before any is created; the store creates all or none.
  // A dry run is the same request rolled back, so it refuses what the real one would (queued
  // posts beyond the free slots, say) and nothing else.
  bind(router, { ...routes.createPosts, body: undefined }, async (ctx, { principal }) => {
    const { posts, dryRun } = await parseNewPosts(deps, accessOf(principal), ctx.request.body ?? {})
    const records = await refusingQueue((index) => `#/posts/${index}/queue`, () => store.posts.createMany(accessOf(principal).actor, posts, clock.now(), { dryRun }))
    if (dryRun) {
      ctx.body = { valid: true, count: records.length }
      return
    }
    scheduler.wake()
    ctx.status = 201
    ctx.body = { data: records.map((r) => r.post) }
  })

  bind(router, routes.getPost, async (ctx, { params, principal }) => {
    const record = await store.posts.get(accessOf(principal).where('read'), params.id)
    if (!record) throw notFound('post', params.id)
    respond(ctx, record)
  })

  const allowed = (access: Access, id: string, action: Action) => postFor(deps, access, id, action)

  /**
   * A change computed from a read and written only if the post is still that version. If-Match
   * pins the version the client read (412 when it moved); without it, a change that lost a race
   * with another write is computed again on the post as it now is, three times at most.
   */
  async function changeAsRead(
    ctx: Ctx,
    access: Access,
    id: string,
    step: { verb: string; only?: string; editable: (post: Post) => boolean; write: (current: PostRecord) => Promise<Change> },
  ): Promise<void> {
    const ifMatch = ctx.get('If-Match')
    for (let round = 0; ; round++) {
      const current = await allowed(access, id, 'write_posts')
      if (ifMatch && !matches(ifMatch, current)) throw preconditionFailed(current, ifMatch)
      if (!step.editable(current.post)) throw notEditable(current, step.verb, step.only)
      const result = await step.write(current)
      if (result.kind === 'ok') {
        scheduler.wake()
        return respond(ctx, result.record)
      }
      if (result.kind === 'not_found') throw notFound('post', id)
      if (result.kind === 'wrong_state') throw notEditable(result.record, step.verb, step.only)
      if (ifMatch) throw preconditionFailed(result.record, ifMatch)
      if (round >= 2) throw conflict('edit_conflict', `Post ${id} kept changing while it was being ${step.verb}; GET it and try again.`)
    }
  }

  bind(router, { ...routes.updatePost, body: undefined }, async (ctx, { params, principal }) => {
    const access = accessOf(principal)
    await changeAsRead(ctx, access, params.id, {
      verb: 'changed',
      only: NOT_OUT,
      editable: (post) => (UPCOMING as readonly string[]).includes(post.status),
      write: async (current) => {
        const changes = await parsePostChanges(deps, access, current.post, ctx.request.body ?? {})
        return refusingQueue(() => '#/queue', () => store.posts.update([current.workspaceId], params.id, changes, current.version, clock.now(), access.actor))
      },
    })
  })

  bind(router, { ...routes.schedulePost, body: undefined }, async (ctx, { params, principal }) => {
    const access = accessOf(principal)
    await changeAsRead(ctx, access, params.id, {
      verb: 'scheduled',
      only: 'a draft',
      editable: (post) => post.status === 'draft',
      write: async (current) => {
        const when = await parseSchedule(deps, access, current.post, ctx.request.body ?? {})
        return refusingQueue(() => '#/queue', () => store.posts.schedule([current.workspaceId], params.id, when, current.version, clock.now(), access.actor))
      },
    })
  })

  bind(router, routes.cancelPost, async (ctx, { params, query, principal }) => {
    const series = query.series === 'true'
    // A post's workspace and series never change, so this read cannot be overtaken by the cancel below.
    const access = accessOf(principal)
    const current = await allowed(access, params.id, 'write_posts')
    if (series && current.post.series_id === null) throw invalidField('#/series', `${params.id} is not an occurrence of a series: cancel it without series=true`)
    const result = await store.posts.cancel([current.workspaceId], params.id, clock.now(), access.actor, { series })
    if (result.kind === 'not_found') throw notFound('post', params.id)
    if (result.kind !== 'ok') throw notEditable(result.record, 'cancelled', NOT_OUT)
    scheduler.wake()
    respond(ctx, result.record)
  })

  bind(router, routes.retryPost, async (ctx, { params, principal }) => {
    const access = accessOf(principal)
    const current = await allowed(access, params.id, 'write_posts')
    const result = await store.posts.retry([current.workspaceId], params.id, clock.now(), access.actor)
    if (result.kind === 'not_found') throw notFound('post', params.id)
    if (result.kind !== 'ok') {
      throw new ApiError(409, 'post_not_retryable', `Post ${params.id} is ${result.record.post.status}; only a failed or partially published post can be retried.`, {
        extensions: { post_status: result.record.post.status },
      })
    }
    scheduler.wake()
    respond(ctx, result.record)
  })
}
