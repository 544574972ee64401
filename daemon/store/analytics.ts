import type { PlatformName } from '../platforms/types.js'
import type { Db } from './db.js'

/** What a report covers: the user's targets whose post is scheduled in [from, to), split into buckets. */
export interface ReportQuery {
  userId: string
  from: number
  to: number
  /** Consecutive [start, end) ranges covering [from, to), in order: the series. */
  buckets: { start: number; end: number }[]
  accountId?: string
  platform?: PlatformName
  postId?: string
  /** How many top posts to return. */
  top: number
}

/** The sums one group of targets comes to, before rates are derived. */
export interface Aggregate {
  scheduled: number
  published: number
  failed: number
  medianDelayMs: number | null
  impressions: number | null
  likes: number | null
  reposts: number | null
  replies: number | null
  quotes: number | null
  clicks: number | null
  engagements: number | null
  /** Engagements and impressions of the targets that report both: the engagement rate's two sides. */
  ratedEngagements: number | null
  ratedImpressions: number | null
}

export interface TopTarget {
  postId: string
  platform: PlatformName
  url: string | null
  engagements: number
}

export interface ReportRows {
  totals: Aggregate
  byPlatform: (Aggregate & { platform: PlatformName })[]
  /** One per bucket that has targets, by index into `buckets`. */
  byBucket: Map<number, Aggregate>
  top: TopTarget[]
}

type Row = Aggregate & { grp: 'total' | 'platform' | 'bucket'; key: string | number | null }

// SUM over no reported value is NULL, which is exactly "no platform supplied this". median()
// (SQLite's percentile extension) skips NULLs: only published targets have a delay.
const AGGREGATES = `
  count(*) AS scheduled,
  coalesce(sum(status = 'published'), 0) AS published,
  coalesce(sum(status = 'failed'), 0) AS failed,
  median(delay) AS medianDelayMs,
  sum(impressions) AS impressions, sum(likes) AS likes, sum(reposts) AS reposts, sum(replies) AS replies,
  sum(quotes) AS quotes, sum(clicks) AS clicks, sum(engagements) AS engagements,
  sum(CASE WHEN impressions IS NOT NULL THEN engagements END) AS ratedEngagements,
  sum(CASE WHEN engagements IS NOT NULL THEN impressions END) AS ratedImpressions`

/** A group with no targets: nothing counted, nothing reported. */
export const EMPTY_AGGREGATE: Aggregate = {
  scheduled: 0,
  published: 0,
  failed: 0,
  medianDelayMs: null,
  impressions: null,
  likes: null,
  reposts: null,
  replies: null,
  quotes: null,
  clicks: null,
  engagements: null,
  ratedEngagements: null,
  ratedImpressions: null,
}

function filterSql(q: Pick<ReportQuery, 'accountId' | 'platform' | 'postId'>): { posts: string; targets: string } {
  return {
    posts: `${q.accountId ? ' AND p.account_id = @accountId' : ''}${q.postId ? ' AND p.id = @postId' : ''}`,
    targets: q.platform ? ' AND t.platform = @platform' : '',
  }
}

export function analyticsStore(db: Db) {
  // One pair of statements per combination of filters, prepared on first use and kept.
  const cache = new Map<string, { groups: ReturnType<Db['prepare']>; top: ReturnType<Db['prepare']> }>()

  function statements(q: ReportQuery) {
    const f = filterSql(q)
    const key = `${f.posts}|${f.targets}`
    let s = cache.get(key)
    if (s) return s
    // Targets are reached bucket by bucket through the (user_id, scheduled_at) index, so a
    // report reads only the posts in its range; the latest counts are one primary-key lookup.
    // CROSS JOIN pins that order: left to itself, SQLite's planner scans all of the user's
    // posts and probes the bucket list for each (seconds instead of milliseconds at 100k posts).
    const groups = db.prepare(`
      WITH b(i, s, e) AS (SELECT key, value ->> 0, value ->> 1 FROM json_each(@buckets)),
      rows AS MATERIALIZED (
        SELECT b.i AS bucket, t.platform, t.status,
               CASE WHEN t.status = 'published' THEN t.published_at - p.scheduled_at END AS delay,
               m.impressions, m.likes, m.reposts, m.replies, m.quotes, m.clicks, m.engagements
          FROM b
          CROSS JOIN posts p ON p.user_id = @userId AND p.scheduled_at >= b.s AND p.scheduled_at < b.e AND p.status <> 'cancelled'${f.posts}
          JOIN post_targets t ON t.post_id = p.id${f.targets}
          LEFT JOIN target_metrics m ON m.post_id = t.post_id AND m.platform = t.platform
      )
      SELECT 'total' AS grp, NULL AS key, ${AGGREGATES} FROM rows
      UNION ALL SELECT 'platform', platform, ${AGGREGATES} FROM rows GROUP BY platform
      UNION ALL SELECT 'bucket', bucket, ${AGGREGATES} FROM rows GROUP BY bucket`)
    const top = db.prepare(`
      SELECT p.id AS postId, t.platform, t.url, m.engagements
        FROM posts p
        JOIN post_targets t ON t.post_id = p.id${f.targets}
        JOIN target_metrics m ON m.post_id = t.post_id AND m.platform = t.platform
       WHERE p.user_id = @userId AND p.scheduled_at >= @from AND p.scheduled_at < @to AND p.status <> 'cancelled'${f.posts}
         AND m.engagements IS NOT NULL
       ORDER BY m.engagements DESC, p.id, t.platform
       LIMIT @top`)
    cache.set(key, (s = { groups, top }))
    return s
  }

  return {
    /** Sums over the targets in range: in all, per platform, per bucket; and the most engaging targets. */
    async report(q: ReportQuery): Promise<ReportRows> {
      const s = statements(q)
      // Named parameters a statement does not use are ignored, so both take the same object.
      const params = {
        userId: q.userId,
        buckets: JSON.stringify(q.buckets.map((b) => [b.start, b.end])),
        from: q.from,
        to: q.to,
        top: q.top,
        accountId: q.accountId ?? null,
        platform: q.platform ?? null,
        postId: q.postId ?? null,
      }
      const result: ReportRows = { totals: { ...EMPTY_AGGREGATE }, byPlatform: [], byBucket: new Map(), top: [] }
      // Both reads see one state of the database.
      db.transaction(() => {
        for (const row of s.groups.all(params) as Row[]) {
          const { grp, key, ...aggregate } = row
          if (grp === 'total') result.totals = aggregate
          else if (grp === 'platform') result.byPlatform.push({ ...aggregate, platform: key as PlatformName })
          else result.byBucket.set(Number(key), aggregate)
        }
        result.top = s.top.all(params) as TopTarget[]
      })()
      return result
    },
  }
}

