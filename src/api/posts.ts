import * as v from 'valibot'
import { PlatformName } from './accounts.js'
import { distinct, IdParams, listOf, NullableTimestamp, PageQueryEntries, PLATFORM_NAMES, ProblemFieldError, Timestamp, TimestampInput, timestampInput } from './common.js'
import { AltText, MEDIA_TYPES } from './media.js'
import { route } from './route.js'
import { unknownWorkspace, WorkspaceFilter } from './workspaces.js'
import { DURATION, MAX_OCCURRENCES, overAYear, parseInterval, underAnHour } from '../recurrence.js'

export const POST_STATUSES = ['draft', 'pending_approval', 'rejected', 'scheduled', 'publishing', 'published', 'partially_published', 'failed', 'cancelled'] as const
export type PostStatus = (typeof POST_STATUSES)[number]
export const TARGET_STATUSES = ['pending', 'publishing', 'published', 'failed', 'unconfirmed'] as const
export type TargetStatus = (typeof TARGET_STATUSES)[number]

/** Caps that hold whatever the platforms: each platform's own, stricter rules are checked too. */
export const MAX_CONTENT_CHARS = 100_000
export const MAX_MEDIA = 20

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password
  } catch {
    // Not parseable as a URL at all: the message below says what is expected.
    return false
  }
}

const MediaUrls = v.pipe(
  v.array(
    v.pipe(
      v.string(),
      // Written out as the document states it; then read as a URL, as it will be fetched.
      v.regex(/^https:\/\/[\w.~%!$&'()*+,;=:[\]-]+(?:[/?#]\S*)?$/, 'must be an absolute https:// URL (without user:password@)'),
      v.check(isHttpsUrl, 'must be an absolute https:// URL (without user:password@)'),
      v.metadata({ format: 'uri' }),
    ),
  ),
  v.maxLength(MAX_MEDIA, `must hold at most ${MAX_MEDIA} URLs`),
)
/** One uploaded media a post (or a part, or a platform's version) uses, in order. */
export const MediaRef = v.pipe(
  v.strictObject({
    id: v.pipe(v.string(), v.description('A media object of yours (`med_…`), from POST /v1/media or a finished upload')),
    alt_text: v.optional(v.pipe(v.nullable(AltText), v.description("Alt text for this post, in place of the media's own; absent or null: the media's own"))),
  }),
  v.title('MediaRef'),
)
export type MediaRef = v.InferOutput<typeof MediaRef>

const MediaRefs = v.pipe(
  v.array(MediaRef),
  v.maxLength(MAX_MEDIA, `must hold at most ${MAX_MEDIA} items`),
  ...distinct<MediaRef>('must not name a media twice', (m) => m.id),
  v.description('Uploaded media, in order, beside (after) any media_urls'),
)

/** An uploaded media as a post shows it. */
export const PostMedia = v.pipe(
  v.object({
    id: v.string(),
    url: v.pipe(v.string(), v.description("The media's public URL")),
    content_type: v.picklist(MEDIA_TYPES),
    width: v.nullable(v.pipe(v.number(), v.integer())),
    height: v.nullable(v.pipe(v.number(), v.integer())),
    alt_text: v.pipe(v.nullable(v.string()), v.description("The alt text it goes out with: the post's own, else the media's")),
  }),
  v.title('PostMedia'),
)
export type PostMedia = v.InferOutput<typeof PostMedia>

const Content = v.pipe(v.string(), v.maxLength(MAX_CONTENT_CHARS, `must be at most ${MAX_CONTENT_CHARS} characters`))
/** How many follow-up parts a thread may have after the post itself. */
export const MAX_THREAD_PARTS = 24

/** One follow-up part of a thread: its text, its media, or both. */
export const ThreadPart = v.pipe(
  v.strictObject({
    content: v.optional(Content),
    media_urls: v.optional(MediaUrls),
    media: v.optional(MediaRefs),
  }),
  v.title('ThreadPart'),
  v.description('A follow-up part: content, media_urls, media or more than one (one of them must say something)'),
)
export type ThreadPart = v.InferOutput<typeof ThreadPart>

const Thread = v.pipe(
  v.array(ThreadPart),
  v.maxLength(MAX_THREAD_PARTS, `must hold at most ${MAX_THREAD_PARTS} parts`),
  v.description(
    `Up to ${MAX_THREAD_PARTS} parts published after the post, in order: a chain of replies where the platform has replies (GET /v1/platforms: thread "replies"), consecutive posts or messages elsewhere. [] or absent: no thread.`,
  ),
)
const FirstComment = v.pipe(
  v.nullable(Content),
  v.description(
    'Published right after the post, before any thread part: as a reply to the post, or a comment on it where the platform has comments (GET /v1/platforms: first_comment). Refused on a platform with neither. null: none.',
  ),
)

/** What an override may replace for one platform; what it leaves out stays the post's own. */
export const PlatformOverride = v.pipe(
  v.strictObject({
    content: v.optional(Content),
    media_urls: v.optional(MediaUrls),
    media: v.optional(MediaRefs),
    thread: v.optional(Thread),
    first_comment: v.optional(FirstComment),
  }),
  v.title('PlatformOverride'),
  v.description('Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there'),
)
export type PlatformOverride = v.InferOutput<typeof PlatformOverride>

/** Per-platform versions, keyed by platform name; each platform must be one the post targets. */
export const Overrides = v.pipe(
  v.strictObject(Object.fromEntries(PLATFORM_NAMES.map((name) => [name, v.optional(PlatformOverride)])) as Record<(typeof PLATFORM_NAMES)[number], v.OptionalSchema<typeof PlatformOverride, undefined>>),
  v.description("Per-platform versions: each key a platform the post targets, its fields replacing the post's for that platform only"),
)
export type Overrides = v.InferOutput<typeof Overrides>

const Platforms = v.pipe(
  v.array(PlatformName),
  v.minLength(1, `must name at least one platform (${PLATFORM_NAMES.join(', ')})`),
  ...distinct<(typeof PLATFORM_NAMES)[number]>('must not name a platform twice'),
)

/**
 * `repeat` on POST /v1/posts: the post is the first occurrence of a series. Rules that need the
 * first occurrence's time and the user's time zone (until, at most a year) are checked after.
 */
export const RepeatInput = v.strictObject({
  interval: v.pipe(
    v.string(),
    v.regex(DURATION, 'must be an ISO 8601 duration of whole units, like PT6H, P1D, P1W, P1M or P1Y'),
    v.check((text) => parseInterval(text) !== undefined, 'must be an ISO 8601 duration of whole units, like PT6H, P1D, P1W, P1M or P1Y'),
    v.check((text) => {
      const interval = parseInterval(text)
      return interval === undefined || !underAnHour(interval)
    }, 'is under one hour: a series repeats at most every hour (PT1H)'),
    v.check((text) => {
      const interval = parseInterval(text)
      return interval === undefined || !overAYear(interval)
    }, 'is longer than a year: a series spans at most a year (366 days), so it repeats at least yearly (P1Y)'),
    v.description('ISO 8601 duration between occurrences: PT#H or PT#M are exact; P#D, P#W, P#M, P#Y keep the wall-clock time in your time zone across DST (P1M keeps the day of the month, clamped: 31 January, 28 February, 31 March). At least PT1H.'),
  ),
  count: v.optional(
    v.pipe(
      v.number(),
      v.integer('must be a whole number'),
      v.minValue(2, 'must be at least 2: it counts every occurrence, the first included'),
      v.maxValue(MAX_OCCURRENCES, `must be at most ${MAX_OCCURRENCES}: a series spans at most a year (366 days) and repeats at most hourly`),
      v.description('How many occurrences in all, the first included'),
    ),
  ),
  until: v.optional(timestampInput('No occurrence after this time')),
})
export type RepeatInput = v.InferOutput<typeof RepeatInput>

/** POST /v1/posts. Rules that need the account, the clock or the platforms are checked after. */
export const PostCreate = v.strictObject({
  account_id: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  content: v.optional(Content),
  media_urls: v.optional(MediaUrls),
  media: v.optional(MediaRefs),
  scheduled_at: v.optional(
    timestampInput('When to publish; omitted: now (or, with queue, the next free slot). At most 5 minutes in the past. For a draft: the planned time, optional, not checked against the clock until the draft is scheduled.'),
  ),
  platforms: Platforms,
  draft: v.optional(
    v.pipe(
      v.boolean(),
      v.description('true: keep the post as a draft (status `draft`, event `post.drafted`): checked as any post is except for its time, never published until POST /v1/posts/{id}/schedule'),
    ),
  ),
  queue: v.optional(
    v.pipe(
      v.boolean(),
      v.description("true: publish at the account's next free queue slot (GET /v1/accounts/{id}/queue) instead of at scheduled_at; 422 queue_empty when the account has no slots"),
    ),
  ),
  repeat: v.optional(
    v.pipe(
      RepeatInput,
      v.description('Makes the post the first occurrence of a series (recurring or evergreen): when an occurrence is published, partly published or fails, the next is scheduled as a new post with the same series_id. It must end: count or until, at most a year (366 days) after the first occurrence.'),
    ),
  ),
  thread: v.optional(Thread),
  first_comment: v.optional(FirstComment),
  overrides: v.optional(Overrides),
})
export type PostCreate = v.InferOutput<typeof PostCreate>

/** How many posts one POST /v1/posts/bulk may carry. */
export const MAX_BULK_POSTS = 500

/** The bulk envelope around any item schema: the contract's (PostCreate) and the route's first pass (unknown items, each then parsed as POST /v1/posts parses). */
export function bulkOf<T extends v.GenericSchema>(item: T) {
  return v.strictObject({
    posts: v.pipe(
      v.array(item),
      v.minLength(1, 'must hold at least one post'),
      v.maxLength(MAX_BULK_POSTS, `must hold at most ${MAX_BULK_POSTS} posts; split the batch into several requests`),
      v.description(`1 to ${MAX_BULK_POSTS} posts, each exactly what POST /v1/posts takes`),
    ),
    dry_run: v.optional(
      v.pipe(v.boolean(), v.description('true: validate every post and answer 200 {valid, count}, creating nothing')),
    ),
  })
}

/** POST /v1/posts/bulk. */
export const PostBulk = bulkOf(PostCreate)
export type PostBulk = v.InferOutput<typeof PostBulk>

/** PUT /v1/posts/{id}: any subset, merged into the post, then checked as a whole. */
export const PostUpdate = v.strictObject({
  account_id: v.optional(v.pipe(v.string(), v.description('If present, must be the post’s own account: a post cannot move'))),
  content: v.optional(Content),
  media_urls: v.optional(MediaUrls),
  media: v.optional(MediaRefs),
  scheduled_at: v.optional(TimestampInput),
  platforms: v.optional(Platforms),
  thread: v.optional(Thread),
  first_comment: v.optional(FirstComment),
  overrides: v.optional(v.pipe(Overrides, v.description('Replaces the whole set of overrides ({} removes them all)'))),
})
export type PostUpdate = v.InferOutput<typeof PostUpdate>

/** POST /v1/posts/{id}/schedule: when the draft is to be published ({} is now). */
export const PostSchedule = v.strictObject({
  scheduled_at: v.optional(timestampInput('When to publish; at most 5 minutes in the past. Omitted (and no queue): now')),
  queue: v.optional(v.pipe(v.boolean(), v.description("true: at the account's next free queue slot"))),
})
export type PostSchedule = v.InferOutput<typeof PostSchedule>

export const TargetError = v.object({
  code: v.string(),
  detail: v.string(),
  part: v.optional(v.pipe(v.number(), v.integer(), v.description('In a post of several parts: the index (in `parts` order: 0 the post) of the part that failed; the parts before it are out'))),
})

export const PART_KINDS = ['post', 'first_comment', 'thread'] as const
export type PartKind = (typeof PART_KINDS)[number]

/** One part of a target that is out on the platform. */
export const PublishedPart = v.pipe(
  v.object({
    index: v.pipe(v.number(), v.integer(), v.description('0 the post, then the first comment (if any), then the thread parts in order')),
    kind: v.picklist(PART_KINDS),
    platform_post_id: v.nullable(v.string()),
    url: v.nullable(v.string()),
    published_at: Timestamp,
  }),
  v.title('PublishedPart'),
)
export type PublishedPart = v.InferOutput<typeof PublishedPart>

/** How a post fares on one platform. */
export const Target = v.pipe(
  v.object({
    platform: v.picklist(PLATFORM_NAMES),
    status: v.pipe(
      v.picklist(TARGET_STATUSES),
      v.description('unconfirmed: the platform was asked but no answer came; it is not re-sent automatically'),
    ),
    attempts: v.pipe(v.number(), v.integer()),
    platform_post_id: v.pipe(
      v.nullable(v.string()),
      v.description("The platform's id of the published item; null while unpublished, and on platforms that return none (a Slack incoming webhook answers only \"ok\")"),
    ),
    url: v.pipe(v.nullable(v.string()), v.description('Where the published item can be seen; null while unpublished, and where the platform gives no link (Slack; a Telegram chat that is neither a channel nor a supergroup)')),
    published_at: NullableTimestamp,
    error: v.nullable(TargetError),
    parts: v.pipe(
      v.array(PublishedPart),
      v.description('The parts already out, in order (the post, its first comment, its thread parts): a retry resumes after the last of them and never sends one again'),
    ),
  }),
  v.title('Target'),
)
export type Target = v.InferOutput<typeof Target>

/** A series as its occurrences show it. */
export const Repeat = v.pipe(
  v.object({
    interval: v.string(),
    count: v.nullable(v.pipe(v.number(), v.integer())),
    until: NullableTimestamp,
    timezone: v.pipe(v.string(), v.description('The time zone whose wall-clock time calendar intervals keep: the user’s when the series was created')),
    starts_at: v.pipe(Timestamp, v.description('The first occurrence’s time: every occurrence’s time counts from it, so editing one occurrence moves no other')),
  }),
  v.title('Repeat'),
)
export type Repeat = v.InferOutput<typeof Repeat>

export const Post = v.pipe(
  v.object({
    id: v.string(),
    workspace_id: v.pipe(v.string(), v.description('Its account’s workspace')),
    account_id: v.string(),
    content: v.string(),
    media_urls: v.array(v.string()),
    media: v.pipe(v.array(PostMedia), v.description('Uploaded media, in order (a media deleted since is left out)')),
    platforms: v.array(v.picklist(PLATFORM_NAMES)),
    thread: v.array(v.object({ content: v.string(), media_urls: v.array(v.string()), media: v.optional(v.pipe(v.array(PostMedia), v.description('Uploaded media of the part; absent when it has none'))) })),
    first_comment: v.nullable(v.string()),
    overrides: v.pipe(Overrides, v.description('Per-platform versions as given; {} when there are none')),
    scheduled_at: v.pipe(
      v.nullable(Timestamp),
      v.description('When the post is (or was) to be published; null only for a draft given no time yet, or such a draft cancelled (it lists as if scheduled at its created_at)'),
    ),
    status: v.pipe(
      v.picklist(POST_STATUSES),
      v.description(
        'draft: kept, never published until scheduled (POST /v1/posts/{id}/schedule); pending_approval: an editor’s post in a workspace that requires approval, never published until an admin or owner approves it (POST /v1/posts/{id}/approve); rejected: sent back with a comment, waiting for an edit (which makes it pending_approval again)',
      ),
    ),
    targets: v.array(Target),
    created_at: Timestamp,
    updated_at: Timestamp,
    published_at: NullableTimestamp,
    cancelled_at: NullableTimestamp,
    series_id: v.pipe(v.nullable(v.string()), v.description('The series (`ser_…`) this post is an occurrence of; null for a one-off post')),
    occurrence: v.pipe(v.nullable(v.pipe(v.number(), v.integer())), v.description('Which occurrence of its series this is, from 1 (skipped occurrences leave gaps); null for a one-off post')),
    repeat: v.pipe(v.nullable(Repeat), v.description('How the series repeats; null for a one-off post')),
  }),
  v.title('Post'),
)
export type Post = v.InferOutput<typeof Post>

/** One target of a validated post: its text's length counted the platform's way, against its limit. */
export const TargetMeasure = v.pipe(
  v.object({
    platform: v.picklist(PLATFORM_NAMES),
    length: v.pipe(v.number(), v.integer(), v.description("The text's length as this platform counts it (its links, emoji and CJK rules)")),
    limit: v.pipe(v.number(), v.integer(), v.description('The most this platform allows for this post (a caption under media may be shorter; a Mastodon instance may allow more)')),
    parts: v.pipe(
      v.array(
        v.object({
          index: v.pipe(v.number(), v.integer()),
          kind: v.picklist(['first_comment', 'thread'] as const),
          length: v.pipe(v.number(), v.integer()),
          limit: v.pipe(v.number(), v.integer()),
        }),
      ),
      v.description("The parts after the post on this platform (its version, overrides applied), each measured likewise; index as in a target's `parts`"),
    ),
    warnings: v.pipe(
      v.array(ProblemFieldError),
      v.description(
        'What goes out on this platform otherwise than given, though the post is valid: `alt_text_not_sent` at an uploaded media (`#/media/0`, `#/thread/1/media/0`, `#/overrides/telegram/media/0`) whose alt text the platform has no place for. Empty: nothing',
      ),
    ),
  }),
  v.title('TargetMeasure'),
)
export type TargetMeasure = v.InferOutput<typeof TargetMeasure>

/** What POST /v1/posts/validate answers when POST /v1/posts would create the post. */
export const PostValidation = v.pipe(
  v.object({
    valid: v.literal(true),
    scheduled_at: v.pipe(
      v.nullable(Timestamp),
      v.description('When the post would be published, as create would store it (now, when the request gave none; the next free slot, with queue); for a draft its planned time, null if it has none'),
    ),
    targets: v.array(TargetMeasure),
  }),
  v.title('PostValidation'),
)
export type PostValidation = v.InferOutput<typeof PostValidation>

export const PostListQuery = v.strictObject({
  ...PageQueryEntries,
  status: v.optional(
    v.pipe(
      v.string(),
      v.regex(new RegExp(`^(?:${POST_STATUSES.join('|')})(?:,(?:${POST_STATUSES.join('|')}))*$`), `must be one or more of ${POST_STATUSES.join(', ')}, separated by commas`),
      v.description('Only posts in this state, or in any of several separated by commas (scheduled,publishing)'),
    ),
  ),
  account_id: v.optional(v.string()),
  ...WorkspaceFilter,
  platform: v.optional(PlatformName),
  series_id: v.optional(v.pipe(v.string(), v.description('Only the occurrences of this series (`ser_…`)'))),
  from: v.optional(timestampInput('Posts scheduled at or after this time (a draft with no time: created at or after)')),
  to: v.optional(timestampInput('Posts scheduled before this time (a draft with no time: created before)')),
  order: v.optional(
    v.pipe(v.picklist(['asc', 'desc'], 'must be asc or desc'), v.description('By scheduled_at (a draft with no time by its created_at), then id; default asc')),
    'asc',
  ),
  count: v.optional(
    v.pipe(v.picklist(['true', 'false'], 'must be true or false'), v.description('true: the answer also says how many posts match (`total`), this page and the rest')),
  ),
})
export type PostListQuery = v.InferOutput<typeof PostListQuery>

export const PostCancelQuery = v.strictObject({
  series: v.optional(
    v.pipe(v.picklist(['true', 'false'], 'must be true or false'), v.description('true: also stop the post’s series: no occurrence follows (post.series_ended)')),
  ),
})

export const postRoutes = {
  listPosts: route({
    method: 'GET',
    path: '/v1/posts',
    summary: 'List posts by scheduled time (drafts with no time by creation time), filtered by status, account, platform and time range',
    tag: 'posts',
    scope: 'posts:read',
    query: PostListQuery,
    status: 200,
    response: v.object({
      ...listOf(Post).entries,
      total: v.optional(v.pipe(v.number(), v.integer(), v.description('With ?count=true: how many posts match the filters, from this page on'))),
    }),
    problems: unknownWorkspace,
  }),
  createPost: route({
    method: 'POST',
    path: '/v1/posts',
    summary: 'Create and schedule a post (no scheduled_at: publish now; queue: the next free slot), or keep it as a draft',
    description:
      'Creates a scheduled post (event `post.scheduled`), published at `scheduled_at`, now when it is omitted, or with `"queue": true` at the account’s next free queue slot (422 `queue_empty` when it has none, `queue_full` when none is free within 366 days). With `"draft": true` the post is kept as a draft (event `post.drafted`): checked as any post, except that its optional time is not compared with the clock, and never published until POST /v1/posts/{id}/schedule.',
    tag: 'posts',
    scope: 'posts:write',
    body: PostCreate,
    status: 201,
    response: Post,
    etag: true,
  }),
  validatePost: route({
    method: 'POST',
    path: '/v1/posts/validate',
    summary: 'Check a post as POST /v1/posts would, creating nothing: 200 with each platform’s length and limit, or the same 422',
    description:
      'Takes exactly what POST /v1/posts takes and runs the same checks (schema, account, connections, each platform’s rules, the time). A valid post answers 200 with when it would be published and, per platform, its length against its limit ("212/280"); an invalid one answers the 422 problem create would answer, byte for byte but for `instance`. Nothing is stored: no post, no event, no webhook. An Idempotency-Key is honoured as on any POST: a retry with it replays the first answer.',
    tag: 'posts',
    scope: 'posts:write',
    body: PostCreate,
    status: 200,
    response: PostValidation,
  }),
  createPosts: route({
    method: 'POST',
    path: '/v1/posts/bulk',
    summary: `Create up to ${MAX_BULK_POSTS} posts at once: all, or none if any is invalid`,
    description:
      'Every post is checked as POST /v1/posts checks it before any is created; a 422 lists the errors of all of them, with pointers like `#/posts/3/content`. The posts are created in one transaction, each with its `post.scheduled` event, and answered in the order sent. The request counts once against the rate limits.',
    tag: 'posts',
    scope: 'posts:write',
    body: PostBulk,
    status: 201,
    response: v.object({ data: v.array(Post) }),
    noLocation: true,
    alternatives: {
      200: {
        description: 'With `"dry_run": true`: every post is valid; nothing was created',
        response: v.pipe(v.object({ valid: v.literal(true), count: v.pipe(v.number(), v.integer()) }), v.title('BulkValidation')),
      },
    },
  }),
  getPost: route({
    method: 'GET',
    path: '/v1/posts/{id}',
    summary: 'Get a post, its status and each platform’s result (with an ETag)',
    tag: 'posts',
    scope: 'posts:read',
    params: IdParams,
    status: 200,
    response: Post,
    etag: true,
  }),
  updatePost: route({
    method: 'PUT',
    path: '/v1/posts/{id}',
    summary: 'Update a scheduled post or a draft (If-Match honoured); 409 post_not_editable once it is neither',
    description:
      'An occurrence of a series is edited alone: the occurrences after it keep the series’ content and times (each counted from the series’ start). A series’ `repeat` cannot be changed (422 at `#/repeat`): stop it (DELETE with `?series=true`) and create a new one.',
    tag: 'posts',
    scope: 'posts:write',
    params: IdParams,
    body: PostUpdate,
    status: 200,
    response: Post,
    etag: true,
    ifMatch: true,
    problems: {
      409: '`post_not_editable`: the post is no longer scheduled (nor a draft); `edit_conflict`: it kept changing while the edit was applied',
    },
  }),
  schedulePost: route({
    method: 'POST',
    path: '/v1/posts/{id}/schedule',
    summary: 'Schedule a draft: at scheduled_at, at the next free queue slot (queue), or now ({}); If-Match honoured',
    description:
      'Runs every check of POST /v1/posts again (the connections may have changed since the draft was written, and the time must not be more than 5 minutes in the past), then turns the draft into a scheduled post and sends `post.scheduled`. The draft’s own planned time is not used: send it as scheduled_at to keep it.',
    tag: 'posts',
    scope: 'posts:write',
    params: IdParams,
    body: PostSchedule,
    status: 200,
    response: Post,
    etag: true,
    ifMatch: true,
    problems: {
      409: '`post_not_editable`: the post is not a draft; `edit_conflict`: it kept changing meanwhile',
    },
  }),
  cancelPost: route({
    method: 'DELETE',
    path: '/v1/posts/{id}',
    summary: 'Cancel a scheduled post or a draft; cancelling again answers the cancelled post',
    description:
      'An occurrence of a series: a plain DELETE cancels this occurrence only and schedules the next (the series skips one and goes on, or ends with post.series_ended if this was its last); `?series=true` cancels this occurrence and stops the series: every scheduled occurrence of it is cancelled, none follows, and post.series_ended is sent. `?series=true` on a post that is not part of a series is 422.',
    tag: 'posts',
    scope: 'posts:write',
    params: IdParams,
    query: PostCancelQuery,
    status: 200,
    response: Post,
    etag: true,
    problems: { 409: '`post_not_editable`: the post is publishing or already published, failed or partly published' },
  }),
  retryPost: route({
    method: 'POST',
    path: '/v1/posts/{id}/retry',
    summary: 'Re-queue the failed and unconfirmed targets of a failed or partially published post, now',
    tag: 'posts',
    scope: 'posts:write',
    params: IdParams,
    status: 200,
    response: Post,
    etag: true,
    problems: { 409: '`post_not_retryable`: only a failed or partially published post with failed or unconfirmed targets can be retried' },
  }),
}
