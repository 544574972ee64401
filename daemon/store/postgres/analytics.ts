import { PLATFORM_NAMES } from '../../../src/api/common.js'
import type { PlatformName } from '../../platforms/types.js'
import { EMPTY_AGGREGATE, type Aggregate, type AnalyticsStore, type ReportQuery, type ReportRows, type TopTarget } from '../port.js'
import type { Sql } from './connect.js'

type Row = Aggregate & { by_platform: number; by_bucket: number; platform: PlatformName | null; bucket: number | null }

/**
 * GET /v1/analytics on PostgreSQL: one pass over the targets in range, grouped three ways at once
 * (GROUPING SETS), the median delay exact (percentile_cont), the latest counts one join away.
 */
export function analyticsStore(sql: Sql): AnalyticsStore {
  return {
    /** No rollups are kept on PostgreSQL: there is nothing to drift. */
    async drift() {
      return { hours: 0, delays: 0, top: 0 }
    },

    async report(q: ReportQuery): Promise<ReportRows> {
      const posts = sql`
        ${q.accountId ? sql`AND p.account_id = ${q.accountId}` : sql``}
        ${q.postId ? sql`AND p.id = ${q.postId}` : sql``}`
      const targets = q.platform ? sql`AND t.platform = ${q.platform}` : sql``
      return sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (tx) => {
        // SUM over no reported value is NULL: "no platform supplied this", never 0.
        const rows = await tx<Row[]>`
          WITH b AS (SELECT * FROM unnest(${q.buckets.map((_, i) => i)}::int[], ${q.buckets.map((b) => b.start)}::bigint[], ${q.buckets.map((b) => b.end)}::bigint[]) AS b(i, s, e)),
          r AS (
            SELECT b.i AS bucket, t.platform, t.status,
                   CASE WHEN t.status = 'published' THEN t.published_at - p.scheduled_at END AS delay,
                   m.impressions, m.likes, m.reposts, m.replies, m.quotes, m.clicks, m.engagements
              FROM b JOIN posts p ON p.workspace_id = ${q.workspaceId} AND p.scheduled_at >= b.s AND p.scheduled_at < b.e AND p.status NOT IN ('cancelled', 'draft', 'pending_approval', 'rejected') ${posts}
              JOIN post_targets t ON t.post_id = p.id ${targets}
              LEFT JOIN target_metrics m ON m.post_id = t.post_id AND m.platform = t.platform)
          SELECT GROUPING(platform) AS by_platform, GROUPING(bucket) AS by_bucket, platform, bucket,
                 count(*)::bigint AS scheduled,
                 count(*) FILTER (WHERE status = 'published')::bigint AS published,
                 count(*) FILTER (WHERE status = 'failed')::bigint AS failed,
                 percentile_cont(0.5) WITHIN GROUP (ORDER BY delay) AS "medianDelayMs",
                 sum(impressions)::bigint AS impressions, sum(likes)::bigint AS likes, sum(reposts)::bigint AS reposts,
                 sum(replies)::bigint AS replies, sum(quotes)::bigint AS quotes, sum(clicks)::bigint AS clicks,
                 sum(engagements)::bigint AS engagements,
                 sum(engagements) FILTER (WHERE impressions IS NOT NULL)::bigint AS "ratedEngagements",
                 sum(impressions) FILTER (WHERE engagements IS NOT NULL)::bigint AS "ratedImpressions"
            FROM r GROUP BY GROUPING SETS ((), (platform), (bucket))`
        const result: ReportRows = { totals: { ...EMPTY_AGGREGATE }, byPlatform: [], byBucket: new Map(), top: [] }
        for (const { by_platform, by_bucket, platform, bucket, ...aggregate } of rows) {
          if (by_platform && by_bucket) {
            if (aggregate.scheduled) result.totals = aggregate
          } else if (!by_platform) result.byPlatform.push({ ...aggregate, platform: platform! })
          else result.byBucket.set(bucket!, aggregate)
        }
        result.byPlatform.sort((a, b) => PLATFORM_NAMES.indexOf(a.platform) - PLATFORM_NAMES.indexOf(b.platform))
        result.top = await tx<TopTarget[]>`
          SELECT p.id AS "postId", t.platform, t.url, m.engagements
            FROM posts p
            JOIN post_targets t ON t.post_id = p.id ${targets}
            JOIN target_metrics m ON m.post_id = t.post_id AND m.platform = t.platform
           WHERE p.workspace_id = ${q.workspaceId} AND p.scheduled_at >= ${q.from} AND p.scheduled_at < ${q.to} AND p.status NOT IN ('cancelled', 'draft', 'pending_approval', 'rejected') ${posts}
             AND m.engagements IS NOT NULL
           ORDER BY m.engagements DESC, p.id, t.platform
           LIMIT ${q.top}`
        return result
      })
    },
  }
}
