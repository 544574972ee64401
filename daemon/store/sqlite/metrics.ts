import type { Metrics, PlatformName } from '../../platforms/types.js'
import type { accountsStore } from './accounts.js'
import type { Db } from './db.js'
import type { DueTarget, Collected, Snapshot } from '../port.js'
import { COUNTS, engagementsOf } from '../rows.js'
import type { LatestRow, MetricsRollups } from './metrics-rollups.js'

type Counts = [number | null, number | null, number | null, number | null, number | null, number | null]
type SnapshotArgs = [string, string, number, ...Counts]

/** One reading of a target's counts, at `takenAt`. */
export interface Reading {
  postId: string
  platform: PlatformName
  takenAt: number
  metrics: Metrics
}

const countsOf = (m: Metrics) => COUNTS.map((k) => m[k] ?? null) as Counts

/**
 * Snapshots, latest counts and the collector's schedule. `rollups` keeps the analytics rollups
 * of the latest counts (migration 15); null only where a database has none: before migration 6,
 * and the analytics benchmark's floor, which measures the same writes without that bookkeeping.
 */
export function metricsStore(db: Db, accounts: ReturnType<typeof accountsStore>, rollups: MetricsRollups | null) {
  const due = db.prepare<[number, number], DueTarget>(
    `SELECT t.post_id AS postId, t.platform, p.account_id AS accountId, t.platform_post_id AS platformPostId,
            t.published_at AS publishedAt, t.metrics_due_at AS dueAt, t.metrics_failures AS failures
       FROM post_targets t JOIN posts p ON p.id = t.post_id
      WHERE t.metrics_due_at <= ? ORDER BY t.metrics_due_at LIMIT ?`,
  )
  // The same reading twice (a re-run after a crash) replaces, rather than duplicates, the snapshot.
  const insertSnapshot = db.prepare<SnapshotArgs, void>(
    `INSERT INTO metric_snapshots (post_id, platform, taken_at, impressions, likes, reposts, replies, quotes, clicks)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (post_id, platform, taken_at) DO UPDATE SET impressions = excluded.impressions, likes = excluded.likes,
       reposts = excluded.reposts, replies = excluded.replies, quotes = excluded.quotes, clicks = excluded.clicks`,
  )
  // Only a newer reading replaces the latest: snapshots may be written out of order (seeding, backfill).
  const upsertLatest = db.prepare<[...SnapshotArgs, number | null], void>(
    `INSERT INTO target_metrics (post_id, platform, taken_at, impressions, likes, reposts, replies, quotes, clicks, engagements)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (post_id, platform) DO UPDATE SET taken_at = excluded.taken_at, impressions = excluded.impressions,
       likes = excluded.likes, reposts = excluded.reposts, replies = excluded.replies, quotes = excluded.quotes,
       clicks = excluded.clicks, engagements = excluded.engagements
     WHERE excluded.taken_at >= target_metrics.taken_at`,
  )
  const lease = db.prepare<[number, string, string], void>('UPDATE post_targets SET metrics_due_at = ? WHERE post_id = ? AND platform = ?')
  const claim = db.transaction((now: number, limit: number, leaseMs: number): DueTarget[] => {
    const targets = due.all(now, limit)
    for (const t of targets) lease.run(now + leaseMs, t.postId, t.platform)
    return targets
  })
  const reschedule = db.prepare<[number | null, number, string, string], void>(
    "UPDATE post_targets SET metrics_due_at = ?, metrics_failures = ? WHERE post_id = ? AND platform = ? AND status = 'published'",
  )
  const history = db.prepare<[string, string], Snapshot>(
    `SELECT taken_at AS takenAt, impressions, likes, reposts, replies, quotes, clicks
       FROM metric_snapshots WHERE post_id = ? AND platform = ? ORDER BY taken_at`,
  )

  // A batch of readings: every one kept as a snapshot; of each target's, the newest (the last of
  // those taken at the same time, as one by one) replaces its latest counts unless they are
  // newer, and the rollups move by what that changes, for the whole batch at once.
  const snapshots = db.transaction((readings: Reading[]) => {
    const newest = new Map<string, Reading>()
    for (const r of readings) {
      insertSnapshot.run(r.postId, r.platform, r.takenAt, ...countsOf(r.metrics))
      const key = `${r.postId} ${r.platform}`
      const seen = newest.get(key)
      if (!seen || r.takenAt >= seen.takenAt) newest.set(key, r)
    }
    const latest = [...newest.values()].map((r): LatestRow => [r.postId, r.platform, r.takenAt, ...countsOf(r.metrics), engagementsOf(r.metrics)])
    rollups?.beforeLatest(latest)
    for (const row of latest) upsertLatest.run(...row)
  })

  const record = db.transaction((results: Collected[], takenAt: number, reauth: { accountId: string; platform: PlatformName } | undefined) => {
    snapshots(results.flatMap((r) => (r.metrics ? [{ postId: r.postId, platform: r.platform, takenAt, metrics: r.metrics }] : [])))
    for (const r of results) reschedule.run(r.nextAt, r.failures, r.postId, r.platform)
    if (reauth) accounts.markReauthRequiredSync(reauth.accountId, reauth.platform, takenAt)
  })

  return {
    /** Targets due for a read at `now`, most overdue first. */
    async claimDue(now: number, limit: number, leaseMs: number): Promise<DueTarget[]> {
      return claim.immediate(now, limit, leaseMs)
    },

    /**
     * Records one batch of reads: each snapshot (and the target's latest counts), each target's
     * next read and, when the platform refused the credentials, the connection's
     * `reauth_required` (and its event): all in one transaction, at `takenAt`.
     */
    async record(results: Collected[], takenAt: number, reauth?: { accountId: string; platform: PlatformName }): Promise<void> {
      record.immediate(results, takenAt, reauth)
    },

    /**
     * Keeps a batch of readings (of any targets, at any times): each as a snapshot, the newest of
     * each target as its latest counts unless a newer one is kept, the rollups moved to match;
     * in one transaction, which nests in the caller's. For seeding and imports.
     */
    snapshotsSync: snapshots as (readings: Reading[]) => void,

    /** Every snapshot of a target, oldest first. */
    async history(postId: string, platform: PlatformName): Promise<Snapshot[]> {
      return history.all(postId, platform)
    },
  }
}
