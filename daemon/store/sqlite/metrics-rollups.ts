import type { PlatformName } from '../../platforms/types.js'
import type { Db } from './db.js'
import { HOUR_MS } from './migrations/0006-analytics-rollups.js'

// What a change of a target's latest counts (target_metrics) does to the analytics rollups,
// summed over a batch of changes and written once per rollup row touched. Migration 6's row
// triggers did this for every snapshot (four rollup upserts and the ranking's delete and insert
// each); migration 15 drops them and the metrics store calls this instead, in the transaction
// of the batch. The figures are the triggers' own: a live post's target adds its latest counts
// to its hour's four rows (its account and all accounts, its platform and all platforms) and
// ranks by its engagements; a draft or a cancelled post's target counts nowhere.

/** A target's latest counts: a target_metrics row's columns. */
export interface LatestCounts {
  impressions: number | null
  likes: number | null
  reposts: number | null
  replies: number | null
  quotes: number | null
  clicks: number | null
  engagements: number | null
}

/** The target_metrics columns the rollups sum; each nullable one beside its count of reports. */
const METRICS = ['impressions', 'likes', 'reposts', 'replies', 'quotes', 'clicks', 'engagements'] as const
const DELTA_COLUMNS = [...METRICS.flatMap((k) => [k, `${k}_n`]), 'rated_engagements', 'rated_impressions', 'rated_n'] as const
const WIDTH = DELTA_COLUMNS.length

/** What `m` counts, in DELTA_COLUMNS' order (migration 6's metricsPart); all 0 for no counts. */
function countsIn(m: LatestCounts | undefined): number[] {
  if (!m) return new Array<number>(WIDTH).fill(0)
  const rated = m.impressions !== null && m.engagements !== null
  return [...METRICS.flatMap((k) => [m[k] ?? 0, m[k] === null ? 0 : 1]), rated ? m.engagements! : 0, rated ? m.impressions! : 0, rated ? 1 : 0]
}

type PostRow = { user_id: string; account_id: string; scheduled_at: number | null; status: string }

/** The rollup bookkeeping of target_metrics, for the metrics store; `begin()` starts a batch. */
export function metricsRollups(db: Db) {
  const postOf = db.prepare<[string], PostRow>('SELECT user_id, account_id, scheduled_at, status FROM posts WHERE id = ?')
  const addToHour = db.prepare<unknown[], void>(`
    INSERT INTO analytics_hours (user_id, account_scope, platform, hour, ${DELTA_COLUMNS.join(', ')})
    VALUES (?, ?, ?, ?, ${DELTA_COLUMNS.map(() => '?').join(', ')})
    ON CONFLICT (user_id, account_scope, platform, hour) DO UPDATE SET ${DELTA_COLUMNS.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`)
  const rank = db.prepare<[string, number, string, string, number, string], void>(`
    INSERT INTO top_targets (user_id, engagements, post_id, platform, scheduled_at, account_id) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (post_id, platform) DO UPDATE SET engagements = excluded.engagements`)
  const unrank = db.prepare<[string, string], void>('DELETE FROM top_targets WHERE post_id = ? AND platform = ?')

  return {
    /**
     * A batch: `change` each target whose latest counts were written (`before` null when it had
     * none), then `flush` once, in the same transaction, before anything else reads the rollups.
     */
    begin() {
      const posts = new Map<string, PostRow | undefined>()
      const hours = new Map<string, { key: [string, string, string, number]; sums: number[] }>()
      const addTo = (key: [string, string, string, number], delta: number[]) => {
        const id = key.join('\u0000')
        const row = hours.get(id)
        if (row) row.sums = row.sums.map((v, i) => v + delta[i]!)
        else hours.set(id, { key, sums: delta })
      }
      return {
        change(postId: string, platform: PlatformName, before: LatestCounts | undefined, after: LatestCounts): void {
          let post = posts.get(postId)
          if (!posts.has(postId)) posts.set(postId, (post = postOf.get(postId)))
          if (!post || post.scheduled_at === null || post.status === 'cancelled' || post.status === 'draft') return
          const old = countsIn(before)
          const delta = countsIn(after).map((v, i) => v - old[i]!)
          if (delta.some((v) => v !== 0)) {
            const hour = Math.floor(post.scheduled_at / HOUR_MS)
            for (const scope of [post.account_id, '*']) for (const p of [platform, '*']) addTo([post.user_id, scope, p, hour], delta)
          }
          // The ranking holds the latest engagements of each live target that has any.
          if ((before?.engagements ?? null) === after.engagements) return
          if (after.engagements === null) unrank.run(postId, platform)
          else rank.run(post.user_id, after.engagements, postId, platform, post.scheduled_at, post.account_id)
        },
        /** Writes the summed changes: one upsert per rollup row whose sums moved. */
        flush(): void {
          for (const { key, sums } of hours.values()) if (sums.some((v) => v !== 0)) addToHour.run(...key, ...sums)
        },
      }
    },
  }
}

export type MetricsRollups = ReturnType<typeof metricsRollups>
