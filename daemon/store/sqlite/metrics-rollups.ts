import type { Db } from './db.js'
import { hourOf } from './analytics-rollups.js'
import { UNCOUNTED_STATUSES } from './migrations/0020-workspaces.js'

// What new latest counts (target_metrics) do to the analytics rollups, for a whole batch of
// readings at once. Migration 6's row triggers did this for every snapshot: four rollup upserts
// and the ranking's delete and insert each, one statement at a time. Migration 15 drops them;
// the metrics store hands each batch's newest readings here before it writes them, and three
// statements compare them with the counts they replace: the rollup journal (migration 23) gets
// one row per target whose counts move (none when nothing it counts changed), and the ranking
// (one tree by rank, migration 30) loses the entry and gains one for each target whose
// engagements changed. The figures are the triggers' own: a live post's target adds its latest
// counts to its hour's rollup rows (its account's and all accounts' on its platform: migration
// 28) and ranks by its engagements; a draft's, a cancelled post's or one awaiting approval's
// counts nowhere.

/** A target's newest reading of a batch, as its target_metrics row would hold it. */
export type LatestRow = [
  postId: string,
  platform: string,
  takenAt: number,
  impressions: number | null,
  likes: number | null,
  reposts: number | null,
  replies: number | null,
  quotes: number | null,
  clicks: number | null,
  engagements: number | null,
]

const METRICS = ['impressions', 'likes', 'reposts', 'replies', 'quotes', 'clicks', 'engagements'] as const

/** What the target_metrics row `m` counts, by rollup column (migration 6's metricsPart); 0s where there is no row. */
function countsOf(m: string): [string, string][] {
  const rated = `(${m}.impressions IS NOT NULL AND ${m}.engagements IS NOT NULL)`
  return [
    ...METRICS.flatMap((k): [string, string][] => [
      [k, `coalesce(${m}.${k}, 0)`],
      [`${k}_n`, `(${m}.${k} IS NOT NULL)`],
    ]),
    ['rated_engagements', `CASE WHEN ${rated} THEN ${m}.engagements ELSE 0 END`],
    ['rated_impressions', `CASE WHEN ${rated} THEN ${m}.impressions ELSE 0 END`],
    ['rated_n', `${rated}`],
  ]
}

const CHANGES = countsOf('n').map(([column, now], i) => [column, `(${now}) - (${countsOf('o')[i]![1]})`] as const)

/**
 * The batch's readings (n) of live posts' targets (p) that replace the latest counts (o: none,
 * or older): the upsert's own condition in the metrics store.
 */
const REPLACING = (also = '') => `
  FROM temp.latest_batch n
  CROSS JOIN posts p ON p.id = n.post_id
  LEFT JOIN target_metrics o ON o.post_id = n.post_id AND o.platform = n.platform${also}
 WHERE p.status NOT IN ${UNCOUNTED_STATUSES} AND (o.taken_at IS NULL OR n.taken_at >= o.taken_at)`

/** The rollup bookkeeping of target_metrics, for the metrics store. */
export function metricsRollups(db: Db) {
  // Per connection, empty between batches.
  db.exec(`
    CREATE TEMP TABLE IF NOT EXISTS latest_batch (
      post_id TEXT NOT NULL, platform TEXT NOT NULL, taken_at INTEGER NOT NULL,
      ${METRICS.join(' INTEGER, ')} INTEGER,
      PRIMARY KEY (post_id, platform)
    ) WITHOUT ROWID`)
  const stage = db.prepare<LatestRow, void>(`INSERT INTO temp.latest_batch VALUES (${new Array(10).fill('?').join(', ')})`)
  // One journal row (migration 23) for each target whose counts move.
  const journal = db.prepare(`
    INSERT INTO analytics_pending (workspace_id, account_id, platform, hour, ${CHANGES.map(([c]) => c).join(', ')})
    SELECT p.workspace_id, p.account_id, n.platform, ${hourOf('p.scheduled_at')},
           ${CHANGES.map(([, change]) => change).join(', ')}
      ${REPLACING()} AND (${CHANGES.map(([, change]) => `${change} <> 0`).join(' OR ')})`)
  // The ranking holds the latest engagements of each live target that has any, keyed by them
  // (migration 30): an entry whose engagements change goes, and one with the new comes. A
  // target's entry holds its latest counts' engagements, so those find it.
  const unrank = db.prepare(`
    DELETE FROM top_targets WHERE (workspace_id, engagements, post_id, platform) IN (
      SELECT p.workspace_id, o.engagements, n.post_id, n.platform FROM temp.latest_batch n
       CROSS JOIN posts p ON p.id = n.post_id
        JOIN target_metrics o ON o.post_id = n.post_id AND o.platform = n.platform
       WHERE o.engagements IS NOT NULL AND n.engagements IS NOT o.engagements AND n.taken_at >= o.taken_at)`)
  const rank = db.prepare(`
    INSERT INTO top_targets (workspace_id, engagements, post_id, platform, scheduled_at, account_id)
    SELECT p.workspace_id, n.engagements, n.post_id, n.platform, p.scheduled_at, p.account_id
      ${REPLACING()} AND n.engagements IS NOT NULL AND n.engagements IS NOT o.engagements`)
  const clear = db.prepare('DELETE FROM temp.latest_batch')

  return {
    /**
     * Moves the rollups and the ranking by what `rows` (a batch's newest reading of each target,
     * one per target) change, before the metrics store writes them: call it in the transaction
     * of those writes.
     */
    beforeLatest(rows: LatestRow[]): void {
      if (!rows.length) return
      for (const row of rows) stage.run(...row)
      journal.run()
      unrank.run()
      rank.run()
      clear.run()
    },
  }
}

export type MetricsRollups = ReturnType<typeof metricsRollups>
