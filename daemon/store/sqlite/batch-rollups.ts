import type { PlatformName } from '../../platforms/types.js'
import { hourOf } from './analytics-rollups.js'
import type { Db } from './db.js'
import { UNCOUNTED_STATUSES } from './migrations/0020-workspaces.js'
import { foldDelays } from './migrations/0029-delays-journaled.js'

const COUNTED_CHANGE = "((d.status = 'published') <> (t.status = 'published') OR (d.status = 'failed') <> (t.status = 'failed') OR d.published_at IS NOT t.published_at)"
// The driving table is the batch's few targets; the planner has no statistics to know it.
const CHANGED = 'analytics_deferred d CROSS JOIN post_targets t ON t.post_id = d.post_id AND t.platform = d.platform'
const LIVE_POST = 'CROSS JOIN posts p ON p.id = d.post_id'

function statements(db: Db) {
  return {
    note: db.prepare<[string], void>(
      `INSERT OR IGNORE INTO analytics_deferred (post_id, platform, status, published_at)
       SELECT t.post_id, t.platform, t.status, t.published_at FROM json_each(?) j JOIN post_targets t ON t.post_id = j.value ->> 0 AND t.platform = j.value ->> 1`,
    ),
    // The trigger's own journal row (migration 23), for each target of the batch whose counts moved.
    sum: db.prepare<[], void>(
      `INSERT INTO analytics_pending (workspace_id, account_id, platform, hour, published, failed)
       SELECT p.workspace_id, p.account_id, t.platform, ${hourOf('p.scheduled_at')},
              (t.status = 'published') - (d.status = 'published'), (t.status = 'failed') - (d.status = 'failed')
         FROM ${CHANGED} ${LIVE_POST}
        WHERE p.status NOT IN ${UNCOUNTED_STATUSES} AND ((d.status = 'published') <> (t.status = 'published') OR (d.status = 'failed') <> (t.status = 'failed'))`,
    ),
    // Only a target published before the batch has a delay to drop, found by its post (migration 27),
    // once the journal is folded (migration 29): seldom, so the fold is not prepared.
    publishedBefore: db.prepare<[], number>("SELECT EXISTS (SELECT 1 FROM analytics_deferred WHERE status = 'published')").pluck(),
    dropDelays: db.prepare<[], void>(
      `DELETE FROM publish_delays WHERE (workspace_id, account_id, scheduled_at, post_id, platform) IN (
         SELECT p.workspace_id, p.account_id, p.scheduled_at, d.post_id, d.platform FROM ${CHANGED} ${LIVE_POST} WHERE d.status = 'published' AND ${COUNTED_CHANGE})`,
    ),
    // To the journal of delays (migration 29), folded into their tree in key order as it fills.
    addDelays: db.prepare<[], void>(
      `INSERT INTO publish_delays_pending (workspace_id, scheduled_at, post_id, platform, account_id, delay)
       SELECT p.workspace_id, p.scheduled_at, t.post_id, t.platform, p.account_id, t.published_at - p.scheduled_at
         FROM ${CHANGED} ${LIVE_POST}
        WHERE ${COUNTED_CHANGE} AND p.status NOT IN ${UNCOUNTED_STATUSES} AND t.status = 'published' AND t.published_at IS NOT NULL`,
    ),
    forget: db.prepare<[], void>('DELETE FROM analytics_deferred'),
  }
}

/**
 * Runs `write`, which changes the given targets (and may change anything else), inside the
 * caller's transaction, and adds to the analytics rollups what it changed in those targets: the
 * row trigger on targets skips them meanwhile (migration 16), and the batch writes their rollup
 * journal rows (migration 23) and publish delays (to their journal, migration 29) in one
 * statement each, where the trigger would run its statements once per target. The rollups end
 * exactly as the trigger would have left them, target by target, as long as the targets are not
 * deleted within `write` (a settlement never deletes one).
 */
export type BatchRollups = <T>(targets: readonly { postId: string; platform: PlatformName }[], write: () => T) => T

export function batchRollups(db: Db): BatchRollups {
  // Prepared when first used: a store opened on a database older than the rollups never needs them.
  let prepared: ReturnType<typeof statements> | undefined
  return (targets, write) => {
    const s = (prepared ??= statements(db))
    s.note.run(JSON.stringify(targets.map((t) => [t.postId, t.platform])))
    const result = write()
    s.sum.run()
    if (s.publishedBefore.get()) {
      db.exec(foldDelays())
      s.dropDelays.run()
    }
    s.addDelays.run()
    s.forget.run()
    return result
  }
}
