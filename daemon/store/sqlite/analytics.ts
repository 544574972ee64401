import { PLATFORM_NAMES } from '../../../src/api/common.js'
import type { PlatformName } from '../../platforms/types.js'
import { addChange, addSums, aggregateOf, CODES, mediansOf, TWO_ROWS, PLATFORM_CODE, rangeOf, RAW_SUMS, splitHours, ZERO_SUMS, type Statement, type SumRow, type Sums } from './analytics-rollups.js'
import type { Db } from './db.js'
import { HOUR_MS, ROLLUP_COLUMNS } from './migrations/0006-analytics-rollups.js'
import { COUNT_COLUMNS, METRIC_COLUMNS } from './migrations/0031-counts-apart-from-metrics.js'
import { EXPECTED_DELAYS, EXPECTED_HOURS, EXPECTED_TOP, UNCOUNTED_STATUSES } from './migrations/0020-workspaces.js'
import type { ReportQuery, Aggregate, TopTarget, ReportRows } from '../port.js'
import { EMPTY_AGGREGATE } from '../port.js'

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

function filterSql(q: Pick<ReportQuery, 'accountId' | 'platform' | 'postId'>): { posts: string; targets: string } {
  return {
    posts: `${q.accountId ? ' AND p.account_id = @accountId' : ''}${q.postId ? ' AND p.id = @postId' : ''}`,
    targets: q.platform ? ' AND t.platform = @platform' : '',
  }
}

/**
 * top_posts reads the targets in range and sorts them when the range holds at most RAW_TOP_UNDER
 * targets of which at most RANK_WALK_ABOVE have engagements; otherwise it walks the ranking.
 */
const RANK_WALK_ABOVE = 2_000
const RAW_TOP_UNDER = 10_000

export function analyticsStore(db: Db) {
  // One set of statements per combination of filters, prepared on first use and kept.
  const cache = new Map<string, { groups: Statement; top: Statement; hours: Statement; series: Statement; pending: Statement; edges: Statement; delays: Statement; unfolded: Statement; ranked: Statement }>()

  function statements(q: ReportQuery) {
    const f = filterSql(q)
    const key = `${f.posts}|${f.targets}`
    let s = cache.get(key)
    if (s) return s
    // Raw targets are reached range by range through the (workspace_id, scheduled_at) index, so a
    // read touches only the posts in its ranges; the latest counts are one primary-key lookup.
    // CROSS JOIN pins that order: left to itself, SQLite's planner scans all of the user's
    // posts and probes the range list for each (seconds instead of milliseconds at 100k posts).
    const rawTargets = `
      CROSS JOIN posts p ON p.workspace_id = @workspaceId AND p.scheduled_at >= b.s AND p.scheduled_at < b.e AND p.status NOT IN ${UNCOUNTED_STATUSES}${f.posts}
      JOIN post_targets t ON t.post_id = p.id${f.targets}
      LEFT JOIN target_metrics m ON m.post_id = t.post_id AND m.platform = t.platform`
    const ranges = `b(i, s, e) AS (SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(@ranges))`
    // A single post's report (post_id) is a handful of raw rows: no rollup is kept per post.
    const groups = db.prepare(`
      WITH ${ranges},
      rows AS MATERIALIZED (
        SELECT b.i AS bucket, t.platform, t.status,
               CASE WHEN t.status = 'published' THEN t.published_at - p.scheduled_at END AS delay,
               m.impressions, m.likes, m.reposts, m.replies, m.quotes, m.clicks, m.engagements
          FROM b ${rawTargets}
      )
      SELECT 'total' AS grp, NULL AS key, ${AGGREGATES} FROM rows
      UNION ALL SELECT 'platform', platform, ${AGGREGATES} FROM rows GROUP BY platform
      UNION ALL SELECT 'bucket', bucket, ${AGGREGATES} FROM rows GROUP BY bucket`)
    // Whole hours from the rollups, one run of rows per range: the all-accounts rows ('*') or
    // one account's, on one platform; a series on all platforms sums the rows on each
    // (migrations 24 and 28 keep no other).
    // Each run of rows is one scope's (migration 26): found by its ids once per read, then by number.
    // The counts and the metrics are rows of two tables (migration 31); hours with counts and no
    // metrics have no metrics rows, so the metrics' sums over none are 0.
    const hoursOf = (platforms: string) => {
      const run = `scope IN (SELECT id FROM analytics_scopes WHERE workspace_id = @workspaceId AND account_scope = @scope AND platform ${platforms}) AND hour >= @s AND hour < @e`
      return db.prepare(`
      SELECT * FROM (SELECT ${COUNT_COLUMNS.map((c) => `sum(${c}) AS ${c}`).join(', ')} FROM analytics_counts WHERE ${run}),
                    (SELECT ${METRIC_COLUMNS.map((c) => `coalesce(sum(${c}), 0) AS ${c}`).join(', ')} FROM analytics_metrics WHERE ${run})`)
    }
    const hours = hoursOf('= @rollupPlatform')
    const series = q.platform ? hours : hoursOf(`IN (${PLATFORM_NAMES.map((p) => `'${p}'`).join(', ')})`)
    // What the journal holds still unfolded in the report's hours (migration 23): at most a couple
    // of thousand rows, read once, as arrays (a row as an object costs several times more).
    const pending = db
      .prepare(`
      SELECT hour, platform, ${ROLLUP_COLUMNS.join(', ')}
        FROM analytics_pending
       WHERE workspace_id = @workspaceId AND hour >= @firstHour AND hour < @lastHour${q.accountId ? ' AND account_id = @accountId' : ''}${q.platform ? ' AND platform = @platform' : ''}`)
      .raw()
    const edges = db.prepare(`WITH ${ranges} SELECT b.i AS bucket, t.platform, ${RAW_SUMS} FROM b ${rawTargets} GROUP BY b.i, t.platform`)
    // Exact medians from the published targets' delays alone, a narrow table by account and time
    // (migration 27): one bucket at a time, a range seek in the account's run, or in the run of
    // each account the workspace has delays of (@accounts), its delays handed over as one JSON array.
    const delays = db.prepare(`
      SELECT json_group_array(delay * ${CODES} + ${PLATFORM_CODE})
        FROM publish_delays
       WHERE workspace_id = @workspaceId AND account_id ${q.accountId ? '= @accountId' : 'IN (SELECT value FROM json_each(@accounts))'}
         AND scheduled_at >= @s AND scheduled_at < @e${q.platform ? ' AND platform = @platform' : ''}`).pluck()
    // The delays their journal holds still unfolded (migration 29), read once for all buckets: at most
    // a fold's worth of rows, their times and their coded delays as two JSON arrays.
    const unfolded = db.prepare(`
      SELECT json_group_array(scheduled_at) AS at, json_group_array(delay * ${CODES} + ${PLATFORM_CODE}) AS coded
        FROM publish_delays_pending
       WHERE workspace_id = @workspaceId AND scheduled_at >= @s AND scheduled_at < @e${q.accountId ? ' AND account_id = @accountId' : ''}${q.platform ? ' AND platform = @platform' : ''}`)
    // The most engaging targets in range: walked down the workspace's ranking when the range
    // holds many (the first few found are the answer); read from the posts in range and sorted
    // when it holds few, and for one post.
    const ranked = db.prepare(`
        SELECT e.post_id AS postId, e.platform, t.url, e.engagements
          FROM top_targets e
          CROSS JOIN post_targets t ON t.post_id = e.post_id AND t.platform = e.platform
         WHERE e.workspace_id = @workspaceId AND e.scheduled_at >= @from AND e.scheduled_at < @to${q.accountId ? ' AND e.account_id = @accountId' : ''}${q.platform ? ' AND e.platform = @platform' : ''}
         ORDER BY e.engagements DESC, e.post_id, e.platform
         LIMIT @top`)
    const top = db.prepare(`
      SELECT p.id AS postId, t.platform, t.url, m.engagements
        FROM posts p
        JOIN post_targets t ON t.post_id = p.id${f.targets}
        JOIN target_metrics m ON m.post_id = t.post_id AND m.platform = t.platform
       WHERE p.workspace_id = @workspaceId AND p.scheduled_at >= @from AND p.scheduled_at < @to AND p.status NOT IN ${UNCOUNTED_STATUSES}${f.posts}
         AND m.engagements IS NOT NULL
       ORDER BY m.engagements DESC, p.id, t.platform
       LIMIT @top`)
    cache.set(key, (s = { groups, top, hours, series, pending, edges, delays, unfolded, ranked }))
    return s
  }

  // The rollups, counts and metrics (migration 31), with the journal's rows added (migration 23).
  // Rollup rows whose targets all moved away stay, all zeros: they count nothing.
  const kept = `
    SELECT workspace_id, account_scope, platform, hour, ${ROLLUP_COLUMNS.map((c) => `sum(${c}) AS ${c}`).join(', ')}
      FROM (SELECT c.workspace_id, c.account_scope, c.platform, r.hour, ${ROLLUP_COLUMNS.map((col) => (COUNT_COLUMNS.includes(col) ? `r.${col}` : `0 AS ${col}`)).join(', ')}
              FROM analytics_counts r JOIN analytics_scopes c ON c.id = r.scope
            UNION ALL
            SELECT c.workspace_id, c.account_scope, c.platform, r.hour, ${ROLLUP_COLUMNS.map((col) => (METRIC_COLUMNS.includes(col) ? `r.${col}` : `0 AS ${col}`)).join(', ')}
              FROM analytics_metrics r JOIN analytics_scopes c ON c.id = r.scope
            UNION ALL
            SELECT workspace_id, CASE WHEN s.k & 1 THEN '*' ELSE account_id END, CASE WHEN s.k & 2 THEN '*' ELSE platform END, hour, ${ROLLUP_COLUMNS.join(', ')}
              FROM analytics_pending, ${TWO_ROWS})
     GROUP BY 1, 2, 3, 4
    HAVING ${ROLLUP_COLUMNS.map((c) => `sum(${c}) <> 0`).join(' OR ')}`
  // The delays in their tree and in their journal (migration 29): a key in both, or twice, counts too.
  const delays = ['publish_delays', 'publish_delays_pending'].map((t) => `SELECT workspace_id, scheduled_at, post_id, platform, account_id, delay FROM ${t}`).join(' UNION ALL ')
  // Migration 20's recount, but for the rows on all platforms, which migrations 24 and 28 drop.
  const expected = `SELECT * FROM (${EXPECTED_HOURS}) WHERE platform <> '*'`
  const drift = db.prepare<[], { hours: number; delays: number; top: number }>(`
    SELECT (SELECT count(*) FROM (${expected} EXCEPT ${kept}))
         + (SELECT count(*) FROM (${kept} EXCEPT ${expected})) AS hours,
           (SELECT count(*) FROM (SELECT * FROM (${EXPECTED_DELAYS}) EXCEPT SELECT * FROM (${delays})))
         + (SELECT count(*) FROM (SELECT * FROM (${delays}) EXCEPT SELECT * FROM (${EXPECTED_DELAYS})))
         + (SELECT count(*) FROM (SELECT 1 FROM (${delays}) GROUP BY workspace_id, account_id, scheduled_at, post_id, platform HAVING count(*) > 1)) AS delays,
           (SELECT count(*) FROM (SELECT * FROM (${EXPECTED_TOP}) EXCEPT SELECT workspace_id, engagements, post_id, platform, scheduled_at, account_id FROM top_targets))
         + (SELECT count(*) FROM (SELECT workspace_id, engagements, post_id, platform, scheduled_at, account_id FROM top_targets EXCEPT SELECT * FROM (${EXPECTED_TOP}))) AS top`)

  // The accounts a workspace has delays of, one seek each: the runs a report of all accounts reads.
  const delayAccounts = db
    .prepare<{ workspaceId: string }, string>(`
    WITH RECURSIVE a(id) AS (
      SELECT (SELECT min(account_id) FROM publish_delays WHERE workspace_id = @workspaceId)
      UNION ALL
      SELECT (SELECT min(account_id) FROM publish_delays WHERE workspace_id = @workspaceId AND account_id > a.id) FROM a WHERE a.id IS NOT NULL)
    SELECT json_group_array(id) FROM a WHERE id IS NOT NULL`)
    .pluck()

  return {
    /**
     * How many rollup rows, publish delays and ranked targets differ from what the raw rows say (all 0 when
     * they agree): a full recount, for tests and for checking a database by hand.
     */
    async drift(): Promise<{ hours: number; delays: number; top: number }> {
      return drift.get()!
    },

    /** Sums over the targets in range: in all, per platform, per bucket; and the most engaging targets. */
    async report(q: ReportQuery): Promise<ReportRows> {
      const s = statements(q)
      // Named parameters a statement does not use are ignored, so all take the same object.
      const params = {
        workspaceId: q.workspaceId,
        from: q.from,
        to: q.to,
        top: q.top,
        accountId: q.accountId ?? null,
        scope: q.accountId ?? '*',
        platform: q.platform ?? null,
        postId: q.postId ?? null,
      }
      const bucketRanges = JSON.stringify(q.buckets.map((b, i) => [i, b.start, b.end]))
      const result: ReportRows = { totals: { ...EMPTY_AGGREGATE }, byPlatform: [], byBucket: new Map(), top: [] }
      // Every read sees one state of the database.
      db.transaction(() => {
        if (q.postId) {
          for (const row of s.groups.all({ ...params, ranges: bucketRanges }) as Row[]) {
            const { grp, key, ...aggregate } = row
            if (grp === 'total') result.totals = aggregate
            else if (grp === 'platform') result.byPlatform.push({ ...aggregate, platform: key as PlatformName })
            else result.byBucket.set(Number(key), aggregate)
          }
        } else {
          const split = splitHours(q.buckets)
          const total = { ...ZERO_SUMS }
          const byPlatform = new Map<PlatformName, Sums>()
          const byBucket = new Map<number, Sums>()
          const sumsOf = (into: Map<number, Sums> | Map<PlatformName, Sums>, key: number | PlatformName) => {
            const map = into as Map<number | PlatformName, Sums>
            return map.get(key) ?? map.set(key, { ...ZERO_SUMS }).get(key)!
          }
          const add = (into: Map<number, Sums> | Map<PlatformName, Sums>, key: number | PlatformName, row: Sums) => {
            // Rows whose targets all moved away stay, all zeros: they count nothing.
            if (row.scheduled) addSums(sumsOf(into, key), row)
          }
          for (const [bucket, s0, e0] of split.hours) add(byBucket, bucket, s.series.get({ ...params, rollupPlatform: q.platform ?? '*', s: s0, e: e0 }) as Sums)
          if (split.edges.length) {
            for (const row of s.edges.all({ ...params, ranges: JSON.stringify(split.edges) }) as SumRow[]) add(byBucket, row.bucket, row)
          }
          // A platform's total needs no buckets: the whole hours of [from, to), and its two edges raw.
          const whole = splitHours([{ start: q.from, end: q.to }])
          for (const platform of q.platform ? [q.platform] : PLATFORM_NAMES) {
            for (const [, s0, e0] of whole.hours) add(byPlatform, platform, s.hours.get({ ...params, rollupPlatform: platform, s: s0, e: e0 }) as Sums)
          }
          if (whole.edges.length) {
            for (const row of s.edges.all({ ...params, ranges: JSON.stringify(whole.edges) }) as SumRow[]) add(byPlatform, row.platform, row)
          }
          // The journal's rows still unfolded, each a change to the whole hours that hold it.
          const journal = s.pending.all({ ...params, firstHour: Math.floor(q.from / HOUR_MS), lastHour: Math.ceil(q.to / HOUR_MS) }) as [number, PlatformName, ...number[]][]
          if (journal.length) {
            for (const row of journal) {
              const bucket = rangeOf(split.hours, row[0])
              if (bucket !== undefined) addChange(sumsOf(byBucket, bucket), row)
              if (rangeOf(whole.hours, row[0]) !== undefined) addChange(sumsOf(byPlatform, row[1]), row)
            }
            // What the journal took back from the rollups (a post cancelled or moved) may leave nothing.
            for (const map of [byBucket, byPlatform] as Map<unknown, Sums>[]) for (const [key, sums] of map) if (!sums.scheduled) map.delete(key)
          }
          for (const sums of byPlatform.values()) addSums(total, sums)
          const medians = mediansOf(s.delays, q.accountId ? params : { ...params, accounts: delayAccounts.get({ workspaceId: q.workspaceId }) }, q.buckets, s.unfolded)
          if (total.scheduled) result.totals = aggregateOf(total, medians.total)
          for (const [platform, sums] of byPlatform) result.byPlatform.push({ ...aggregateOf(sums, medians.platform.get(platform) ?? null), platform })
          for (const [bucket, sums] of byBucket) result.byBucket.set(bucket, aggregateOf(sums, medians.bucket.get(bucket) ?? null))
          const few = total.engagements_n <= RANK_WALK_ABOVE && total.scheduled <= RAW_TOP_UNDER
          if (total.engagements_n) result.top = (few ? s.top : s.ranked).all(params) as TopTarget[]
          return
        }
        result.top = s.top.all(params) as TopTarget[]
      })()
      return result
    },
  }
}
