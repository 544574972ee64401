// What the calendar needs from the API, as one small interface, so the TUI can be built and
// tested on its own and wired to the typed client (SmmClient) in one place. The shapes are the
// contract's own (src/api), imported as types only: nothing of valibot loads with the calendar.

import type { Account, Connection } from '../api/accounts.js'
import type { PlatformInfo } from '../api/platforms.js'
import type { Post, PostCreate, PostSchedule, PostStatus, PostUpdate, Target, TargetStatus } from '../api/posts.js'
import type { Queue } from '../api/queue.js'

export type { Account, Connection, Post, PostStatus, TargetStatus }

/** One platform's delivery of a post. */
export type PostTarget = Target

/** A platform the daemon publishes to and its limits, as GET /v1/platforms lists it: what the form counts against. */
export type { PlatformInfo }

/** The body of POST /v1/posts as the calendar sends it. */
export type PostCreateInput = PostCreate

/** The body of PUT /v1/posts/{id}: any subset of the editable fields. */
export type PostUpdateInput = Omit<PostUpdate, 'account_id'>

/** The body of POST /v1/posts/{id}/schedule: a time, or `queue: true` for the next free slot. */
export type PostScheduleInput = PostSchedule

/** An account's weekly queue slots, the zone they are wall-clock times in, and its next free times. */
export type { Queue }

/** A half-open range of instants, RFC 3339 UTC: posts with from <= scheduled_at < to. */
export interface TimeRange {
  from: string
  to: string
}

/**
 * The calendar's view of the API. Every method throws `ApiError` (src/errors.ts) for a problem
 * the daemon reported; anything else thrown (the daemon unreachable, say) is shown as is.
 */
export interface CalendarSource {
  /** Every post scheduled in the range, whatever its status (the wiring pages through the list). */
  listPosts(range: TimeRange): Promise<Post[]>
  listAccounts(): Promise<Account[]>
  /** The daemon's platforms with their limits, in its order. */
  listPlatforms(): Promise<PlatformInfo[]>
  createPost(input: PostCreateInput): Promise<Post>
  updatePost(id: string, input: PostUpdateInput): Promise<Post>
  /** Turns a draft into a scheduled post (POST /v1/posts/{id}/schedule). */
  schedulePost(id: string, input: PostScheduleInput): Promise<Post>
  /** The account's queue slots (GET /v1/accounts/{id}/queue): where its free slots fall. */
  getQueue(accountId: string): Promise<Queue>
  /** Cancels a scheduled post (DELETE /v1/posts/{id}). */
  cancelPost(id: string): Promise<Post>
  /** Approves a post waiting for approval (POST /v1/posts/{id}/approve): admins and owners. */
  approvePost(id: string): Promise<Post>
  /** Sends a post waiting for approval back with a comment (POST /v1/posts/{id}/reject). */
  rejectPost(id: string, comment: string): Promise<Post>
}
