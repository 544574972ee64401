import type { Metrics, PlatformName } from '../../platforms/types.js'
import type { accountsStore } from './accounts.js'
import type { Db } from './db.js'
import type { DueTarget, Collected, Snapshot } from '../port.js'
import { COUNTS, engagementsOf } from '../rows.js'

type SnapshotArgs = [string, string, number, number | null, number | null, number | null, number | null, number | null, number | null]

export function metricsStore(db: Db, accounts: ReturnType<typeof accountsStore>) {
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

  function snapshotSync(postId: string, platform: PlatformName, takenAt: number, m: Metrics): void {
    const args: SnapshotArgs = [postId, platform, takenAt, ...COUNTS.map((k) => m[k] ?? null)] as SnapshotArgs
    insertSnapshot.run(...args)
    upsertLatest.run(...args, engagementsOf(m))
  }

  const record = db.transaction((results: Collected[], takenAt: number, reauth: { accountId: string; platform: PlatformName } | undefined) => {
    for (const r of results) {
      if (r.metrics) snapshotSync(r.postId, r.platform, takenAt, r.metrics)
      reschedule.run(r.nextAt, r.failures, r.postId, r.platform)
    }
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

    /** Keeps one snapshot (and the latest counts if it is the newest). For composing in one transaction: seeding, imports. */
    snapshotSync,

    /** Every snapshot of a target, oldest first. */
    async history(postId: string, platform: PlatformName): Promise<Snapshot[]> {
      return history.all(postId, platform)
    },
  }
}
