import * as v from 'valibot'
import { EVENT_TYPES } from '../events.js'
import { IdParams, listOf, PageQueryEntries, Timestamp, timestampInput } from './common.js'
import { Post } from './posts.js'
import { route } from './route.js'

/** Who did something: a user (with the key they used), someone through a review link, or smm itself. */
export const Actor = v.pipe(
  v.variant('type', [
    v.object({
      type: v.literal('user'),
      user_id: v.string(),
      name: v.pipe(v.string(), v.description('Their name as it is now')),
      key_id: v.pipe(v.nullable(v.string()), v.description('The API key they used (null where none was: a daemon’s own work on their behalf)')),
    }),
    v.object({
      type: v.literal('review_link'),
      review_link_id: v.string(),
      name: v.pipe(v.nullable(v.string()), v.description('The name the reviewer gave, if any')),
    }),
    v.object({ type: v.literal('system'), name: v.pipe(v.literal('smm'), v.description('The daemon itself: publishing, its outcomes, a series moving on')) }),
  ]),
  v.title('Actor'),
)
export type Actor = v.InferOutput<typeof Actor>

/** What a decision on a post was: what a comment records besides its text. */
export const DECISIONS = ['approved', 'rejected'] as const

export const Comment = v.pipe(
  v.object({
    id: v.string(),
    post_id: v.string(),
    author: Actor,
    body: v.string(),
    decision: v.pipe(v.nullable(v.picklist(DECISIONS)), v.description('Set on the comment that came with an approval or a rejection')),
    created_at: Timestamp,
  }),
  v.title('Comment'),
)
export type Comment = v.InferOutput<typeof Comment>

const Body = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(10_000, 'must be at most 10,000 characters'))

export const CommentCreate = v.strictObject({ body: Body })

export const PostApprove = v.strictObject({
  comment: v.optional(v.pipe(Body, v.description('Kept with the post as a comment of the approval'))),
})

export const PostReject = v.strictObject({
  comment: v.pipe(Body, v.description('What to change: kept with the post as a comment of the rejection')),
})

/** One entry of a workspace's audit log: who did what to which object, and when. */
export const AuditEntry = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.description('The event’s id (msg_…): a webhook delivery of it carries the same id')),
    kind: v.pipe(v.picklist(EVENT_TYPES), v.description('What was done: the event’s type')),
    actor: Actor,
    object: v.pipe(
      v.object({ type: v.picklist(['post', 'account', 'member', 'workspace', 'key', 'webhook']), id: v.string() }),
      v.description('What it was done to'),
    ),
    summary: v.pipe(v.string(), v.description('One line saying it, for people')),
    created_at: Timestamp,
  }),
  v.title('AuditEntry'),
)
export type AuditEntry = v.InferOutput<typeof AuditEntry>

/** One kind (an event type) or a family of them (`post.*`). */
const KIND = `(?:${EVENT_TYPES.map((type) => type.replaceAll('.', '\\.')).join('|')}|[a-z]+\\.\\*)`
const KINDS = new RegExp(`^${KIND}(?:,${KIND})*$`)

export const AuditQuery = v.strictObject({
  ...PageQueryEntries,
  kind: v.optional(
    v.pipe(
      v.string(),
      // A pattern of the event types, not a check of each: the document can state it.
      v.regex(KINDS, `must be one or more of ${EVENT_TYPES.join(', ')} (or a family like post.*), separated by commas`),
      v.description('Only these kinds, separated by commas; `post.*` is every post kind'),
    ),
  ),
  from: v.optional(timestampInput('At or after this time')),
  to: v.optional(timestampInput('Before this time')),
})
export type AuditQuery = v.InferOutput<typeof AuditQuery>

const notPending = '`post_not_pending`: the post is not waiting for approval (`post_status` says what it is)'
export const forbiddenBy = 'forbidden: your role in the post’s workspace does not allow this'

export const approvalRoutes = {
  approvePost: route({
    method: 'POST',
    path: '/v1/posts/{id}/approve',
    summary: 'Approve a post waiting for approval: it is scheduled (published at once if its time has passed); admin or owner',
    tag: 'posts',
    scope: 'posts:approve',
    params: IdParams,
    body: PostApprove,
    status: 200,
    response: Post,
    etag: true,
    problems: { 403: forbiddenBy, 409: notPending },
  }),
  rejectPost: route({
    method: 'POST',
    path: '/v1/posts/{id}/reject',
    summary: 'Ask for changes to a post waiting for approval, with a comment: it is rejected until edited; admin or owner',
    tag: 'posts',
    scope: 'posts:approve',
    params: IdParams,
    body: PostReject,
    status: 200,
    response: Post,
    etag: true,
    problems: { 403: forbiddenBy, 409: notPending },
  }),
  listComments: route({
    method: 'GET',
    path: '/v1/posts/{id}/comments',
    summary: 'List a post’s comments, oldest first: the team’s, a reviewer’s, and those of each approval and rejection',
    tag: 'posts',
    scope: 'posts:read',
    params: IdParams,
    query: v.strictObject({ ...PageQueryEntries }),
    status: 200,
    response: listOf(Comment),
  }),
  addComment: route({
    method: 'POST',
    path: '/v1/posts/{id}/comments',
    summary: 'Comment on a post (any member, viewers too)',
    tag: 'posts',
    scope: 'posts:write',
    params: IdParams,
    body: CommentCreate,
    status: 201,
    response: Comment,
    noLocation: true,
  }),
  getAuditLog: route({
    method: 'GET',
    path: '/v1/workspaces/{id}/audit-log',
    summary: 'What was done in a workspace, by whom, newest first (owner, admin)',
    tag: 'workspaces',
    scope: 'workspaces:read',
    params: IdParams,
    query: AuditQuery,
    status: 200,
    response: listOf(AuditEntry),
    problems: { 403: forbiddenBy },
  }),
}
