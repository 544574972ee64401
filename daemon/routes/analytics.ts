import { TOP_POSTS, type AnalyticsMetrics, type AnalyticsReport } from '../../src/api/analytics.js'
import { routes } from '../../src/contract.js'
import { validationFailed, type FieldError } from '../../src/errors.js'
import { PLATFORM_NAMES } from '../../src/api/common.js'
import { toIso } from '../../src/time.js'
import { reportZone, resolveRange } from '../analytics/range.js'
import { accessOf } from '../access.js'
import type { AppDeps } from '../context.js'
import { EMPTY_AGGREGATE, type Aggregate } from '../store/index.js'
import { bind, type ApiRouter } from './bind.js'

/** The API's metrics object from the store's sums: the rates are derived here, nulls kept. */
function metricsOf(a: Aggregate): AnalyticsMetrics {
  const settled = a.published + a.failed
  return {
    posts_scheduled: a.scheduled,
    posts_published: a.published,
    posts_failed: a.failed,
    publish_success_rate: settled ? a.published / settled : null,
    median_publish_delay_ms: a.medianDelayMs === null ? null : Math.round(a.medianDelayMs),
    impressions: a.impressions,
    likes: a.likes,
    reposts: a.reposts,
    replies: a.replies,
    quotes: a.quotes,
    clicks: a.clicks,
    engagements: a.engagements,
    engagement_rate: a.ratedEngagements !== null && a.ratedImpressions ? a.ratedEngagements / a.ratedImpressions : null,
  }
}

export function analyticsRoutes(router: ApiRouter, deps: AppDeps): void {
  const { store, clock } = deps

  bind(router, routes.getAnalytics, async (ctx, { query, principal }) => {
    const access = accessOf(principal)
    // One workspace is reported on: the one named, or the account's or post's, or the personal one.
    const named = query.workspace_id === undefined ? undefined : access.workspace(query.workspace_id, 'read').workspaceId
    const scope = named === undefined ? access.where('read') : [named]
    const range = resolveRange(query, reportZone(principal.user.timezone), clock.now())
    const errors: FieldError[] = Array.isArray(range) ? [...range] : []
    // A filter naming nothing of the user's (in that workspace) is a mistake to report, not an empty report.
    const account = query.account_id === undefined ? undefined : await store.accounts.get(scope, query.account_id)
    if (query.account_id !== undefined && !account) {
      errors.push({ pointer: '#/account_id', code: 'not_found', detail: `no account ${query.account_id} ${named ? `in workspace ${named}` : 'of yours'}` })
    }
    const post = query.post_id === undefined ? undefined : await store.posts.get(account ? [account.workspace_id] : scope, query.post_id)
    if (query.post_id !== undefined && !post) {
      errors.push({ pointer: '#/post_id', code: 'not_found', detail: `no post ${query.post_id} ${account ? `of account ${account.id}` : named ? `in workspace ${named}` : 'of yours'}` })
    }
    if (errors.length || Array.isArray(range)) throw validationFailed(errors)

    const rows = await store.analytics.report({
      workspaceId: named ?? account?.workspace_id ?? post?.workspaceId ?? access.personal().workspaceId,
      from: range.from,
      to: range.to,
      buckets: range.buckets.map((b) => ({ start: b.countFrom, end: b.countTo })),
      accountId: query.account_id,
      platform: query.platform,
      postId: query.post_id,
      top: TOP_POSTS,
    })
    const order = (p: string) => PLATFORM_NAMES.indexOf(p as (typeof PLATFORM_NAMES)[number])
    const report: AnalyticsReport = {
      from: toIso(range.from),
      to: toIso(range.to),
      interval: query.interval,
      totals: metricsOf(rows.totals),
      by_platform: rows.byPlatform.sort((a, b) => order(a.platform) - order(b.platform)).map((a) => ({ platform: a.platform, ...metricsOf(a) })),
      series: range.buckets.map((b, i) => ({ start: toIso(b.start), ...metricsOf(rows.byBucket.get(i) ?? EMPTY_AGGREGATE) })),
      top_posts: rows.top.map((t) => ({ post_id: t.postId, platform: t.platform, url: t.url, engagements: t.engagements })),
    }
    ctx.body = report
  })
}
