import * as v from 'valibot'
import { isRfc3339 } from '../time.js'
import { isCivilDate } from '../zoned-time.js'
import { PLATFORM_NAMES, Timestamp } from './common.js'
import { route } from './route.js'
import { unknownWorkspace } from './workspaces.js'

export const INTERVALS = ['day', 'week', 'month'] as const
export type Interval = (typeof INTERVALS)[number]

/** The longest range one report covers. */
export const MAX_RANGE_DAYS = 366
/** How many targets `top_posts` lists. */
export const TOP_POSTS = 10

const Bound = v.pipe(
  v.string(),
  v.check(
    (s) => isRfc3339(s) || isCivilDate(s),
    'must be an RFC 3339 date-time with a zone (2026-03-08T09:00:00Z) or a date YYYY-MM-DD (a whole day in your timezone)',
  ),
  v.check((s) => !s.startsWith('0000'), 'is outside the years 0001 to 9999'),
  v.metadata({ anyOf: [{ format: 'date-time' }, { format: 'date' }] }),
)

export const AnalyticsQuery = v.strictObject({
  from: v.optional(
    v.pipe(Bound, v.description('Start (inclusive). A date is the start of that day in the user’s timezone. Default: 30 days before `to`, at the start of a day.')),
  ),
  to: v.optional(
    v.pipe(Bound, v.description('End (exclusive). A date is included: the range ends at the start of the next day. Default: the end of today in the user’s timezone.')),
  ),
  workspace_id: v.optional(v.pipe(v.string(), v.description('The workspace reported on (default: the account’s or post’s, if one is named, else your personal workspace)'))),
  account_id: v.optional(v.pipe(v.string(), v.description('Only this account’s posts'))),
  platform: v.optional(v.pipe(v.picklist(PLATFORM_NAMES, `must be one of: ${PLATFORM_NAMES.join(', ')}`), v.description('Only targets on this platform'))),
  post_id: v.optional(v.pipe(v.string(), v.description('Only this post'))),
  interval: v.optional(
    v.pipe(
      v.picklist(INTERVALS, 'must be day, week or month'),
      v.description('Series bucket size, aligned to the user’s timezone: days from midnight, weeks from Monday, months from the 1st'),
    ),
    'day',
  ),
})
export type AnalyticsQuery = v.InferOutput<typeof AnalyticsQuery>

const count = (description: string) => v.pipe(v.number(), v.integer(), v.description(description))
const reported = (description: string) =>
  v.pipe(v.nullable(v.pipe(v.number(), v.integer())), v.description(`${description} Null when no platform in scope reports it (never 0 for unknown).`))

// The definitions below are the contract of every figure; docs/analytics.md quotes them.
const MetricEntries = {
  posts_scheduled: count('Targets (one post on one platform) whose post is scheduled in the range, cancelled posts excluded, whatever their state.'),
  posts_published: count('Of those, targets published.'),
  posts_failed: count('Of those, targets failed for good (unconfirmed, pending and publishing ones are neither published nor failed).'),
  publish_success_rate: v.pipe(
    v.nullable(v.number()),
    v.description('posts_published / (posts_published + posts_failed), 0..1; null when neither happened.'),
  ),
  median_publish_delay_ms: v.pipe(
    v.nullable(v.number()),
    v.description('Median over published targets of (target published_at − post scheduled_at), in ms (the mean of the middle two for an even count, rounded); null when none was published.'),
  ),
  impressions: reported('Sum of the latest impressions count of each target.'),
  likes: reported('Sum of the latest likes (Mastodon favourites) of each target.'),
  reposts: reported('Sum of the latest reposts (Mastodon reblogs) of each target.'),
  replies: reported('Sum of the latest replies of each target.'),
  quotes: reported('Sum of the latest quotes of each target.'),
  clicks: reported('Sum of the latest link clicks of each target.'),
  engagements: reported('Sum over targets of likes + reposts + replies + quotes + clicks, each target counting the ones its platform reports.'),
  engagement_rate: v.pipe(
    v.nullable(v.number()),
    v.description('Engagements / impressions over the targets that report both; null when none does or their impressions are 0.'),
  ),
}

export const AnalyticsMetrics = v.pipe(v.object(MetricEntries), v.title('AnalyticsMetrics'))
export type AnalyticsMetrics = v.InferOutput<typeof AnalyticsMetrics>

export const AnalyticsReport = v.pipe(
  v.object({
    from: v.pipe(Timestamp, v.description('Start of the range (inclusive)')),
    to: v.pipe(Timestamp, v.description('End of the range (exclusive)')),
    interval: v.picklist(INTERVALS),
    totals: AnalyticsMetrics,
    by_platform: v.pipe(
      v.array(v.object({ platform: v.picklist(PLATFORM_NAMES), ...MetricEntries })),
      v.description('One entry per platform with targets in the range, in the order of the platform list'),
    ),
    series: v.pipe(
      v.array(v.object({ start: v.pipe(Timestamp, v.description('Start of the day, week (Monday) or month in the user’s timezone; the first may begin before `from`, whose targets it does not count')), ...MetricEntries })),
      v.description('Every bucket from the one holding `from` to the one holding the end of the range, empty ones included'),
    ),
    top_posts: v.pipe(
      v.array(
        v.object({
          post_id: v.string(),
          platform: v.picklist(PLATFORM_NAMES),
          url: v.nullable(v.string()),
          engagements: v.pipe(v.number(), v.integer()),
        }),
      ),
      v.description(`Up to ${TOP_POSTS} targets with the most engagements (latest counts), most first; targets with no reported engagement are left out`),
    ),
  }),
  v.title('AnalyticsReport'),
)
export type AnalyticsReport = v.InferOutput<typeof AnalyticsReport>

export const analyticsRoutes = {
  getAnalytics: route({
    method: 'GET',
    path: '/v1/analytics',
    summary: 'Publishing performance and engagement over a time range, in total, per platform, as a series and top posts',
    tag: 'analytics',
    scope: 'analytics:read',
    query: AnalyticsQuery,
    status: 200,
    response: AnalyticsReport,
    problems: { ...unknownWorkspace, 422: 'A bad date, an unknown interval or platform, `from` not before `to`, a range over 366 days, or an unknown account_id or post_id' },
  }),
}
