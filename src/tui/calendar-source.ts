import type { PlatformInfo } from '../api/platforms.js'

// What the calendar needs from the API, as one small interface, so the TUI can be built and
// tested on its own and wired to the typed client (SmmClient) in one place. The types mirror
// SPEC §5 field for field; they will give way to the shared schemas' types once those land.

/** Lifecycle states of a post (SPEC §6). */
export type PostStatus = 'scheduled' | 'publishing' | 'published' | 'partially_published' | 'failed' | 'cancelled'

/** States of one platform target of a post. */
export type TargetStatus = 'pending' | 'publishing' | 'published' | 'failed' | 'unconfirmed'

/** One platform's delivery of a post. */
export interface PostTarget {
  platform: string
  status: TargetStatus
  attempts: number
  platform_post_id: string | null
  url: string | null
  published_at: string | null
  error: { code: string; detail: string } | null
}

/** A post as GET /v1/posts returns it. */
export interface Post {
  id: string
  account_id: string
  content: string
  media_urls: string[]
  platforms: string[]
  scheduled_at: string
  status: PostStatus
  targets: PostTarget[]
  created_at: string
  updated_at: string
  published_at: string | null
  cancelled_at: string | null
}

/** One platform connected to an account. */
export interface Connection {
  platform: string
  handle: string
  display_name: string
  status: 'active' | 'reauth_required' | 'pending'
  connected_at: string
  expires_at?: string
}

/** A brand or person that posts are published for. */
export interface Account {
  id: string
  name: string
  connections: Connection[]
  created_at: string
}

/** A platform the daemon publishes to and its limits, as GET /v1/platforms lists it: what the form counts against. */
export type { PlatformInfo } from '../api/platforms.js'

/** The body of POST /v1/posts as the calendar sends it. */
export interface PostCreateInput {
  account_id: string
  content: string
  platforms: string[]
  scheduled_at: string
  media_urls?: string[]
}

/** The body of PUT /v1/posts/{id}: any subset of the editable fields. */
export interface PostUpdateInput {
  content?: string
  platforms?: string[]
  scheduled_at?: string
  media_urls?: string[]
}

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
  /** `etag`, when given, is sent as If-Match so an edit never overwrites a change made elsewhere. */
  updatePost(id: string, input: PostUpdateInput, etag?: string): Promise<Post>
  /** Cancels a scheduled post (DELETE /v1/posts/{id}). */
  cancelPost(id: string): Promise<Post>
}
