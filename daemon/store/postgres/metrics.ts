import type { Collected, DueTarget, MetricsStore, Snapshot } from '../port.js'
import { COUNTS, engagementsOf } from '../rows.js'
import { markReauthRequired } from './accounts.js'
import type { Sql } from './connect.js'

export function metricsStore(sql: Sql): MetricsStore {
  return {
    async claimDue(now, limit, leaseMs) {
      // Rows another node is claiming right now are skipped, not waited for.
      return sql<DueTarget[]>`
        WITH due AS (
          SELECT post_id, platform, metrics_due_at FROM post_targets
           WHERE metrics_due_at <= ${now} ORDER BY metrics_due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED),
        claimed AS (
          UPDATE post_targets t SET metrics_due_at = ${now + leaseMs} FROM due
           WHERE t.post_id = due.post_id AND t.platform = due.platform
          RETURNING t.post_id, t.platform, t.platform_post_id, t.published_at, t.metrics_failures, due.metrics_due_at)
        SELECT c.post_id AS "postId", c.platform, p.account_id AS "accountId", c.platform_post_id AS "platformPostId",
               c.published_at AS "publishedAt", c.metrics_due_at AS "dueAt", c.metrics_failures AS failures
          FROM claimed c JOIN posts p ON p.id = c.post_id
         ORDER BY c.metrics_due_at`
    },

    async record(results: Collected[], takenAt, reauth) {
      // Set-based, a statement per table for the whole batch. One row per target in each: a
      // target listed twice keeps its last reading and its last schedule, as one by one would.
      const readings = [...new Map(results.filter((r) => r.metrics).map((r) => [`${r.postId} ${r.platform}`, r])).values()]
      const schedules = [...new Map(results.map((r) => [`${r.postId} ${r.platform}`, r])).values()]
      const column = (k: (typeof COUNTS)[number]) => readings.map((r) => r.metrics![k] ?? null)
      await sql.begin(async (tx) => {
        if (readings.length) {
          const batch = tx`
            SELECT * FROM unnest(${readings.map((r) => r.postId)}::text[], ${readings.map((r) => r.platform)}::text[],
                                 ${column('impressions')}::bigint[], ${column('likes')}::bigint[], ${column('reposts')}::bigint[],
                                 ${column('replies')}::bigint[], ${column('quotes')}::bigint[], ${column('clicks')}::bigint[],
                                 ${readings.map((r) => engagementsOf(r.metrics!))}::bigint[])
                     AS r(post_id, platform, impressions, likes, reposts, replies, quotes, clicks, engagements)`
          // The same reading twice (a re-run after a crash) replaces, rather than duplicates, the snapshot.
          await tx`
            INSERT INTO metric_snapshots (post_id, platform, taken_at, impressions, likes, reposts, replies, quotes, clicks)
            SELECT post_id, platform, ${takenAt}, impressions, likes, reposts, replies, quotes, clicks FROM (${batch}) r
            ON CONFLICT (post_id, platform, taken_at) DO UPDATE SET impressions = excluded.impressions, likes = excluded.likes,
              reposts = excluded.reposts, replies = excluded.replies, quotes = excluded.quotes, clicks = excluded.clicks`
          // Only a newer reading replaces the latest.
          await tx`
            INSERT INTO target_metrics (post_id, platform, taken_at, impressions, likes, reposts, replies, quotes, clicks, engagements)
            SELECT post_id, platform, ${takenAt}, impressions, likes, reposts, replies, quotes, clicks, engagements FROM (${batch}) r
            ON CONFLICT (post_id, platform) DO UPDATE SET taken_at = excluded.taken_at, impressions = excluded.impressions,
              likes = excluded.likes, reposts = excluded.reposts, replies = excluded.replies, quotes = excluded.quotes,
              clicks = excluded.clicks, engagements = excluded.engagements
            WHERE excluded.taken_at >= target_metrics.taken_at`
        }
        if (schedules.length) {
          await tx`
            UPDATE post_targets t SET metrics_due_at = r.next_at, metrics_failures = r.failures
              FROM unnest(${schedules.map((r) => r.postId)}::text[], ${schedules.map((r) => r.platform)}::text[],
                          ${schedules.map((r) => r.nextAt)}::bigint[], ${schedules.map((r) => r.failures)}::int[]) AS r(post_id, platform, next_at, failures)
             WHERE t.post_id = r.post_id AND t.platform = r.platform AND t.status = 'published'`
        }
        if (reauth) await markReauthRequired(tx, reauth.accountId, reauth.platform, takenAt)
      })
    },

    async history(postId, platform) {
      return sql<Snapshot[]>`
        SELECT taken_at AS "takenAt", impressions, likes, reposts, replies, quotes, clicks
          FROM metric_snapshots WHERE post_id = ${postId} AND platform = ${platform} ORDER BY taken_at`
    },
  }
}
