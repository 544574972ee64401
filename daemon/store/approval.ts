import type { PostStatus } from '../../src/api/posts.js'
import type { EventType } from '../../src/events.js'

/**
 * How approval moves a post between states, for both stores: the one place that says which
 * state a write leaves a post in and which event says so.
 */

/** The states a post may still be edited or cancelled in: it has not gone out. */
export const UPCOMING = ['scheduled', 'draft', 'pending_approval', 'rejected'] as const satisfies readonly PostStatus[]

/** The same, as SQL. */
export const UPCOMING_SQL = `(${UPCOMING.map((s) => `'${s}'`).join(', ')})`

/** What a new post (or a draft being scheduled) starts as, and the event that says so. */
export function startOf(draft: boolean, awaitsApproval: boolean): { status: PostStatus; event: EventType } {
  if (draft) return { status: 'draft', event: 'post.drafted' }
  return awaitsApproval ? { status: 'pending_approval', event: 'post.approval_requested' } : { status: 'scheduled', event: 'post.scheduled' }
}

/**
 * The state an edit leaves a post in: a draft stays one; a rejected post goes back to waiting
 * for approval, whoever edits it; one waiting stays waiting; a scheduled post waits if the edit
 * needs approval. With the events it takes: `post.updated`, and `post.approval_requested` when
 * it starts waiting.
 */
export function afterEdit(current: PostStatus, awaitsApproval: boolean): { status: PostStatus; events: EventType[] } {
  const status: PostStatus =
    current === 'draft' ? 'draft' : current === 'rejected' || current === 'pending_approval' || awaitsApproval ? 'pending_approval' : 'scheduled'
  return { status, events: status === 'pending_approval' && current !== 'pending_approval' ? ['post.updated', 'post.approval_requested'] : ['post.updated'] }
}
