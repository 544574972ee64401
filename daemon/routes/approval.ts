import type { Actor as ApiActor, Comment } from '../../src/api/approval.js'
import { routes } from '../../src/contract.js'
import { ApiError, conflict, notFound } from '../../src/errors.js'
import { afterId, toPage } from '../../src/pagination.js'
import { toIso } from '../../src/time.js'
import { accessOf } from '../access.js'
import type { AppDeps } from '../context.js'
import type { Actor, CommentRecord, Decision, PostRecord, WorkspaceScope } from '../store/index.js'
import { bind, type ApiRouter } from './bind.js'
import { postFor, respond } from './posts.js'

/** Who did something, as the API shows it: a user by their name as it is now, a reviewer by the name they gave. */
export function actorView(actor: Actor, name: string | null): ApiActor {
  if (actor === null) return { type: 'system', name: 'smm' }
  if ('userId' in actor) return { type: 'user', user_id: actor.userId, name: name ?? '(a removed user)', key_id: actor.keyId }
  return { type: 'review_link', review_link_id: actor.reviewLinkId, name: actor.name }
}

export function commentView(record: CommentRecord): Comment {
  return { id: record.id, post_id: record.postId, author: actorView(record.author, record.authorName), body: record.body, decision: record.decision, created_at: toIso(record.createdAt) }
}

/**
 * Approves or rejects a post waiting for approval, in the workspaces of `scope`, as `by`: the
 * one way a decision is made, whoever makes it (a member through the API, someone through a
 * review link). The caller has checked that `by` may decide. 404 if the post is not in the
 * scope; 409 `post_not_pending` naming its status if it is not (any more) waiting; 409
 * `post_changed` if the decision names a `version` the post is no longer at.
 */
export async function decidePost(deps: Pick<AppDeps, 'store' | 'clock' | 'scheduler'>, scope: WorkspaceScope, id: string, decision: Decision, by: Actor): Promise<PostRecord> {
  const result = await deps.store.posts.decide(scope, id, decision, deps.clock.now(), by)
  if (result.kind === 'not_found') throw notFound('post', id)
  if (result.kind === 'version_mismatch') {
    throw conflict('post_changed', `Post ${id} changed since version ${decision.version} was shown: it is at version ${result.record.version}, so nothing was decided. Look at it again.`)
  }
  if (result.kind !== 'ok') {
    const status = result.record.post.status
    throw new ApiError(409, 'post_not_pending', `Post ${id} is ${status}, not waiting for approval: only a post with status pending_approval can be approved or rejected.`, {
      extensions: { post_status: status },
    })
  }
  // Approved, it may be due at once.
  if (decision.approve) deps.scheduler.wake()
  return result.record
}

/** Comments on a post in the workspaces of `scope`, as `by` (with `post.commented`); 404 if the post is not in the scope. */
export async function commentOnPost(deps: Pick<AppDeps, 'store' | 'clock'>, scope: WorkspaceScope, id: string, body: string, by: Actor): Promise<CommentRecord> {
  const comment = await deps.store.comments.add(scope, id, body, deps.clock.now(), by)
  if (!comment) throw notFound('post', id)
  return comment
}

/** Approving and rejecting posts that wait for approval, and the comments members leave on posts. */
export function approvalRoutes(router: ApiRouter, deps: AppDeps): void {
  /** A member's decision: their role must allow approving (403), in the post's workspace. */
  async function decide(id: string, decision: Decision, principal: Parameters<typeof accessOf>[0]) {
    const access = accessOf(principal)
    const current = await postFor(deps, access, id, 'approve')
    return decidePost(deps, [current.workspaceId], id, decision, access.actor)
  }

  bind(router, routes.approvePost, async (ctx, { params, body, principal }) => {
    respond(ctx, await decide(params.id, { approve: true, ...(body.comment !== undefined ? { comment: body.comment } : {}) }, principal))
  })

  bind(router, routes.rejectPost, async (ctx, { params, body, principal }) => {
    respond(ctx, await decide(params.id, { approve: false, comment: body.comment }, principal))
  })

  bind(router, routes.listComments, async (ctx, { params, query, principal }) => {
    const comments = await deps.store.comments.list(accessOf(principal).where('read'), params.id, afterId(query.cursor), query.limit + 1)
    if (!comments) throw notFound('post', params.id)
    ctx.body = toPage(comments.map(commentView), query.limit)
  })

  bind(router, routes.addComment, async (ctx, { params, body, principal }) => {
    const access = accessOf(principal)
    const post = await postFor(deps, access, params.id, 'comment')
    ctx.status = 201
    ctx.body = commentView(await commentOnPost(deps, [post.workspaceId], params.id, body.body, access.actor))
  })
}
