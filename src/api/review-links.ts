import * as v from 'valibot'
import { Actor, forbiddenBy } from './approval.js'
import { IdParams, listOf, NullableTimestamp, Timestamp } from './common.js'
import { route } from './route.js'

/** How long a review link lasts unless told: a week, time enough for a client to look. */
export const REVIEW_LINK_DEFAULT_SECONDS = 7 * 86_400
/** The longest a review link may last: a link is a password in a URL, so it does not live for ever. */
export const REVIEW_LINK_MAX_SECONDS = 90 * 86_400
/** The shortest: a minute, so a link is not dead by the time it is pasted. */
export const REVIEW_LINK_MIN_SECONDS = 60

export const ReviewLinkCreate = v.strictObject({
  expires_in: v.optional(
    v.pipe(
      v.number('must be a number of seconds'),
      v.integer('must be a whole number of seconds'),
      v.minValue(REVIEW_LINK_MIN_SECONDS, `must be at least ${REVIEW_LINK_MIN_SECONDS} seconds`),
      v.maxValue(REVIEW_LINK_MAX_SECONDS, `must be at most ${REVIEW_LINK_MAX_SECONDS} seconds (90 days)`),
      v.description('Seconds until the link stops working (default 604800, a week)'),
    ),
  ),
})

/** A review link, as listed: its URL is shown only when it is made (only its token's hash is kept). */
export const ReviewLink = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.description('rvl_…')),
    post_id: v.string(),
    created_by: Actor,
    created_at: Timestamp,
    expires_at: Timestamp,
    revoked_at: NullableTimestamp,
    state: v.pipe(v.picklist(['active', 'expired', 'revoked']), v.description('Whether the link opens the post now')),
  }),
  v.title('ReviewLink'),
)
export type ReviewLink = v.InferOutput<typeof ReviewLink>

export const ReviewLinkWithUrl = v.pipe(
  v.object({
    ...ReviewLink.entries,
    url: v.pipe(v.string(), v.description('The page to send the reviewer: anyone holding it may approve the post or ask for changes until it expires or is revoked. Shown only here')),
  }),
  v.title('ReviewLinkWithUrl'),
)

const ReviewLinkParams = v.object({ id: v.string(), link_id: v.string() })

export const reviewLinkRoutes = {
  createReviewLink: route({
    method: 'POST',
    path: '/v1/posts/{id}/review-links',
    summary: 'Make a link that lets someone without an account see the post and approve it or ask for changes (admin, owner)',
    tag: 'posts',
    scope: 'posts:approve',
    params: IdParams,
    body: ReviewLinkCreate,
    status: 201,
    response: ReviewLinkWithUrl,
    noLocation: true,
    shownOnce: ['url'],
    problems: { 403: forbiddenBy },
  }),
  listReviewLinks: route({
    method: 'GET',
    path: '/v1/posts/{id}/review-links',
    summary: 'List a post’s review links, oldest first, with whether each still works (admin, owner)',
    tag: 'posts',
    scope: 'posts:approve',
    params: IdParams,
    status: 200,
    response: listOf(ReviewLink),
    problems: { 403: forbiddenBy },
  }),
  revokeReviewLink: route({
    method: 'DELETE',
    path: '/v1/posts/{id}/review-links/{link_id}',
    summary: 'Revoke a review link: its page says so from then on (admin, owner)',
    tag: 'posts',
    scope: 'posts:approve',
    params: ReviewLinkParams,
    status: 204,
    problems: { 403: forbiddenBy },
  }),
}
