import type { PostStatus } from '../../../src/api/posts.js'
import { FIRST_COLLECTION_AFTER_MS } from '../../analytics/schedule.js'
import type { PlatformName } from '../../platforms/types.js'
import type { accountsStore } from './accounts.js'
import type { Db } from './db.js'
import type { eventsStore } from './events.js'
import { batchRollups, type BatchRollups } from './batch-rollups.js'
import { postReader } from './posts.js'
import { seriesSteps } from './series.js'
import { claimedTargetOf, hasPartRows, partColumns, storedPartOf, type PartRow, type PostRow, type TargetRow } from '../rows.js'
import { dueSplit, type TargetRef, type ClaimedTarget, type Outcome, type ClaimResult, type Settlement, type StoredPart } from '../port.js'

/** How a post ends once every target is settled. */
type FinalStatus = Extract<PostStatus, 'published' | 'partially_published' | 'failed'>

/**
 * `rollups` sums a batch of outcomes' analytics (batch-rollups.ts); null only where no rollups
 * are kept (the analytics benchmark's floor, whose triggers are dropped too).
 */
export function publishingStore(db: Db, events: ReturnType<typeof eventsStore>, accounts: ReturnType<typeof accountsStore>, rollups: BatchRollups | null = batchRollups(db)) {
  const reader = postReader(db)
  const series = seriesSteps(db, events)
  // The claim: one statement moves due posts out of `scheduled`, so an edit or a cancel racing
  // it (which also requires `scheduled`) either happened before it or fails after it.
  // The longest waiting and the most recently due (dueSplit): two ends of the due index.
  const claimPosts = db.prepare<[{ now: number; oldest: number; newest: number }], { id: string; scheduled_at: number }>(
    `UPDATE posts SET status = 'publishing', updated_at = @now, version = version + 1
      WHERE id IN (SELECT id FROM (SELECT id FROM posts WHERE status = 'scheduled' AND scheduled_at <= @now ORDER BY scheduled_at LIMIT @oldest)
                   UNION SELECT id FROM (SELECT id FROM posts WHERE status = 'scheduled' AND scheduled_at <= @now ORDER BY scheduled_at DESC LIMIT @newest))
      RETURNING id, scheduled_at`,
  )
  // A retried post's targets already carry their retry time; the others fall due at the post's.
  const makeDue = db.prepare<[number, string], { due_at: number }>(
    "UPDATE post_targets SET next_attempt_at = coalesce(next_attempt_at, ?) WHERE post_id = ? AND status = 'pending' RETURNING next_attempt_at AS due_at",
  )
  const pendingOf = db.prepare<[string], { platform: PlatformName }>("SELECT platform FROM post_targets WHERE post_id = ? AND status = 'pending'")
  // A reservation is a lease on a pending target: this process will attempt it.
  // The longest waiting and the most recently due (dueSplit): two ends of the due index.
  const dueFree = "FROM post_targets WHERE status = 'pending' AND next_attempt_at <= @now AND (lease_expires_at IS NULL OR lease_expires_at <= @now)"
  const reserve = db.prepare<[{ until: number; now: number; oldest: number; newest: number }], TargetRef>(
    `UPDATE post_targets SET lease_expires_at = @until
      WHERE rowid IN (SELECT rowid FROM (SELECT rowid ${dueFree} ORDER BY next_attempt_at LIMIT @oldest)
                      UNION SELECT rowid FROM (SELECT rowid ${dueFree} ORDER BY next_attempt_at DESC LIMIT @newest))
      RETURNING post_id AS postId, platform, (SELECT account_id FROM posts p WHERE p.id = post_id) AS accountId, next_attempt_at AS dueAt`,
  )
  // A reserved target is due (it has its next attempt's time): the due index finds the few, where
  // a scan would read every pending target of every scheduled post at each start.
  const release = db.prepare(
    "UPDATE post_targets SET lease_expires_at = NULL WHERE status = 'pending' AND next_attempt_at IS NOT NULL AND lease_expires_at IS NOT NULL",
  )
  const claimTarget = db.prepare<[number, string, string, number], { attempts: number; attempts_before_retry: number; next_attempt_at: number; uncertain_since: number | null }>(
    `UPDATE post_targets SET status = 'publishing', attempts = attempts + 1, lease_expires_at = ?
      WHERE post_id = ? AND platform = ? AND status = 'pending' AND next_attempt_at <= ?
      RETURNING attempts, attempts_before_retry, next_attempt_at, uncertain_since`,
  )
  // Publishing also starts the target's metrics schedule (daemon/analytics), in the same write.
  const setPublished = db.prepare<[string | null, string | null, number, number, string, string], void>(
    `UPDATE post_targets SET status = 'published', platform_post_id = ?, url = ?, published_at = ?, metrics_due_at = ?, lease_expires_at = NULL,
            next_attempt_at = NULL, error_code = NULL, error_detail = NULL, error_part = NULL, uncertain_since = NULL
      WHERE post_id = ? AND platform = ? AND status = 'publishing'`,
  )
  const setFailed = db.prepare<[string, string, string, number | null, string, string], void>(
    `UPDATE post_targets SET status = ?, error_code = ?, error_detail = ?, error_part = ?, lease_expires_at = NULL, next_attempt_at = NULL
      WHERE post_id = ? AND platform = ? AND status IN ('publishing', 'pending')`,
  )
  const setRetry = db.prepare<[number, string, string, number | null, number | null, string, string], void>(
    `UPDATE post_targets SET status = 'pending', next_attempt_at = ?, error_code = ?, error_detail = ?, uncertain_since = ?, error_part = ?, lease_expires_at = NULL
      WHERE post_id = ? AND platform = ? AND status = 'publishing'`,
  )
  const resend = db.prepare<[number, string, string], void>(
    `UPDATE post_targets SET status = 'pending', uncertain_since = coalesce(uncertain_since, next_attempt_at), next_attempt_at = ?, lease_expires_at = NULL
      WHERE post_id = ? AND platform = ? AND status = 'publishing'`,
  )
  const renewOne = db.prepare<[number, string, string], void>(
    "UPDATE post_targets SET lease_expires_at = ? WHERE post_id = ? AND platform = ? AND status IN ('pending', 'publishing')",
  )
  const renew = db.transaction((targets: readonly { postId: string; platform: PlatformName }[], until: number) => {
    for (const t of targets) renewOne.run(until, t.postId, t.platform)
  })
  const abandoned = db.prepare<[number, number], { postId: string; platform: PlatformName; accountId: string; dueAt: number }>(
    `SELECT t.post_id AS postId, t.platform, p.account_id AS accountId, coalesce(t.uncertain_since, t.next_attempt_at, p.scheduled_at) AS dueAt
       FROM post_targets t JOIN posts p ON p.id = t.post_id
      WHERE t.status = 'publishing' AND (? OR t.lease_expires_at <= ?)`,
  )
  // Both return the post as they leave it: its events carry it, with no second read.
  const finish = db.prepare<[PostStatus, number | null, number, string], PostRow>(
    "UPDATE posts SET status = ?, published_at = ?, updated_at = ?, version = version + 1 WHERE id = ? AND status = 'publishing' RETURNING *",
  )
  const touch = db.prepare<[number, string], PostRow>('UPDATE posts SET updated_at = ?, version = version + 1 WHERE id = ? RETURNING *')
  const firstPost = db.prepare<[number], { at: number | null }>("SELECT min(scheduled_at) AS at FROM posts WHERE status = 'scheduled' AND scheduled_at > ?")
  const firstTarget = db.prepare<[number], { at: number | null }>(
    "SELECT min(next_attempt_at) AS at FROM post_targets WHERE status = 'pending' AND next_attempt_at > ?",
  )

  /**
   * Writes the post's final state once no target is still in play (from its targets as they are
   * now), else its new version; returns the post as it leaves it, its final state or undefined,
   * and whether this call moved the post into it (what moves a series on, once).
   */
  function finishIfDone(postId: string, targets: readonly TargetRow[], now: number): { row: PostRow; final?: { status: FinalStatus; entered: boolean } } {
    if (targets.some((t) => t.status === 'pending' || t.status === 'publishing')) return { row: touch.get(now, postId)! }
    const published = targets.filter((t) => t.status === 'published')
    const status: FinalStatus = published.length === targets.length ? 'published' : published.length === 0 ? 'failed' : 'partially_published'
    const publishedAt = published.length ? Math.max(...published.map((t) => t.published_at!)) : null
    const entered = finish.get(status, publishedAt, now, postId)
    return { row: entered ?? reader.rowSync(postId)!, final: { status, entered: entered !== undefined } }
  }

  // Plain functions run inside the transactions below (a nested db.transaction would add a savepoint per item).
  function settleOne(postId: string, platform: PlatformName, outcome: Outcome, now: number): boolean {
    let changed: number
    if (outcome.kind === 'published') changed = setPublished.run(outcome.platformPostId, outcome.url, now, now + FIRST_COLLECTION_AFTER_MS, postId, platform).changes
    else if (outcome.kind === 'retry') changed = setRetry.run(outcome.at, outcome.code, outcome.detail, outcome.uncertainSince ?? null, outcome.part ?? null, postId, platform).changes
    else {
      const [status, code] = outcome.kind === 'failed' ? ['failed', outcome.code] : ['unconfirmed', 'unconfirmed']
      changed = setFailed.run(status, code, outcome.detail, outcome.part ?? null, postId, platform).changes
    }
    // Settled already (by a lease recovery, say): the first outcome stands.
    if (changed === 0) return false
    if (outcome.kind === 'retry') {
      touch.get(now, postId)
      return true
    }
    // The targets are read once: they decide the post's final state and are in its events,
    // which carry the post as this transaction leaves it.
    const targets = reader.targetsSync(postId)
    const { row, final } = finishIfDone(postId, targets, now)
    const record = reader.recordFromRows(row, targets)
    if (outcome.kind === 'failed' && outcome.reauthRequired) accounts.markReauthRequiredSync(record.post.account_id, platform, now)
    if (outcome.kind === 'published' && outcome.refreshed) {
      accounts.replaceCredentialsSync(record.post.account_id, platform, outcome.refreshed.sealedCredentials, outcome.refreshed.connectedAt)
    }
    events.appendSync(record.userId, outcome.kind === 'published' ? 'post.target.published' : 'post.target.failed', { ...record.post, platform }, now)
    if (final) events.appendSync(record.userId, `post.${final.status}`, record.post, now)
    // Published, partly published or failed alike, an evergreen series goes on.
    if (final?.entered && row.series_id) series.advanceSync(postId, now)
    return true
  }
  const settle = db.transaction(settleOne)

  // A batch sums what its targets change in the rollups once per rollup row, not per target.
  const settleAll = db.transaction((settlements: readonly Settlement[]) => {
    const write = () => settlements.map((s) => settleOne(s.postId, s.platform, s.outcome, s.at))
    return rollups ? rollups(settlements, write) : write()
  })

  const claim = db.transaction((now: number, limit: number, catchUpMs: number): ClaimResult => {
    const result: ClaimResult = { claimed: 0, missed: 0 }
    for (const post of claimPosts.all({ now, ...dueSplit(limit) })) {
      result.claimed++
      const dueAt = Math.min(...makeDue.all(post.scheduled_at, post.id).map((t) => t.due_at))
      if (now - dueAt <= catchUpMs) continue
      result.missed++
      for (const { platform } of pendingOf.all(post.id)) {
        settleOne(post.id, platform, { kind: 'failed', code: 'missed_schedule', detail: `The daemon was not running at the scheduled time and the post is over ${Math.round(catchUpMs / 3_600_000)} h late; it was not published. Retry it to publish now.` }, now)
      }
    }
    return result
  })

  const claimAll = db.transaction((claims: readonly { ref: TargetRef; now: number }[], leaseMs: number) => claims.map((c) => claimTargetOf(c.ref, c.now, leaseMs)))
  const claimOne = db.transaction((ref: TargetRef, now: number, leaseMs: number) => claimTargetOf(ref, now, leaseMs))
  const partsOfTarget = db.prepare<[string, string], PartRow>('SELECT * FROM post_target_parts WHERE post_id = ? AND platform = ? ORDER BY idx')
  function claimTargetOf(ref: TargetRef, now: number, leaseMs: number): ClaimedTarget | undefined {
    const row = claimTarget.get(now + leaseMs, ref.postId, ref.platform, now)
    if (!row) return undefined
    const post = reader.rowSync(ref.postId)!
    const claim = { ...row, user_id: post.user_id, content: post.content, media_urls: post.media_urls, thread: post.thread, first_comment: post.first_comment, overrides: post.overrides }
    // The parts an earlier attempt got out: the attempt resumes after them.
    return claimedTargetOf(ref, claim, hasPartRows(post, [row]) ? partsOfTarget.all(ref.postId, ref.platform).map(storedPartOf) : [])
  }
  const insertPart = db.prepare<[PartRow], void>(
    `INSERT INTO post_target_parts (post_id, platform, idx, kind, platform_post_id, url, ref, published_at)
     VALUES (@post_id, @platform, @idx, @kind, @platform_post_id, @url, @ref, @published_at) ON CONFLICT DO NOTHING`,
  )
  const clearUncertain = db.prepare<[string, string], void>('UPDATE post_targets SET uncertain_since = NULL WHERE post_id = ? AND platform = ?')
  const recordPart = db.transaction((postId: string, platform: PlatformName, part: StoredPart): boolean => {
    if (insertPart.run(partColumns(postId, platform, part)).changes === 0) return false
    // The request whose outcome was in doubt was this part's: it is out, so the doubt is over.
    clearUncertain.run(postId, platform)
    return true
  })

  return {
    /** Claims up to `limit` due posts, oldest first; those beyond the catch-up window fail. */
    async claimDue(now: number, limit: number, catchUpMs: number): Promise<ClaimResult> {
      return claim.immediate(now, limit, catchUpMs)
    },

    async reserveDue(now: number, limit: number, leaseMs: number): Promise<TargetRef[]> {
      return reserve.all({ until: now + leaseMs, now, ...dueSplit(limit) }).sort((a, b) => a.dueAt - b.dueAt)
    },

    async releaseReservations(): Promise<void> {
      release.run()
    },

    async claimTarget(ref: TargetRef, now: number, leaseMs: number): Promise<ClaimedTarget | undefined> {
      return claimOne.immediate(ref, now, leaseMs)
    },

    async claimTargets(claims: readonly { ref: TargetRef; now: number }[], leaseMs: number): Promise<(ClaimedTarget | undefined)[]> {
      return claimAll.immediate(claims, leaseMs)
    },

    /**
     * Records an attempt's outcome, its events and, once every target is settled, the post's
     * final state and event: all in one transaction. False if the target was settled already.
     */
    async settle(postId: string, platform: PlatformName, outcome: Outcome, now: number): Promise<boolean> {
      return settle.immediate(postId, platform, outcome, now)
    },

    async settleAll(settlements: readonly Settlement[]): Promise<boolean[]> {
      return settleAll.immediate(settlements)
    },

    async renewLeases(targets: readonly { postId: string; platform: PlatformName }[], until: number): Promise<void> {
      renew(targets, until)
    },

    async recordPart(postId: string, platform: PlatformName, part: StoredPart): Promise<boolean> {
      return recordPart.immediate(postId, platform, part)
    },

    /** Puts an abandoned attempt back in the queue, for platforms where a re-send is safe. */
    async resend(postId: string, platform: PlatformName, now: number): Promise<void> {
      resend.run(now, postId, platform)
    },

    async abandoned(now: number, all: boolean): Promise<TargetRef[]> {
      if (all) release.run()
      return abandoned.all(all ? 1 : 0, now)
    },

    /**
     * What is due: whether posts wait to be claimed (at `now` or before), whether targets wait
     * for an attempt, and the earliest time after `now` when either comes due.
     */
    async due(now: number): Promise<{ posts: boolean; targets: boolean; next: number | undefined }> {
      const horizon = Number.MIN_SAFE_INTEGER
      const post = firstPost.get(horizon)!.at
      const target = firstTarget.get(horizon)!.at
      const later = [post !== null && post > now ? post : firstPost.get(now)!.at, target !== null && target > now ? target : firstTarget.get(now)!.at]
      const times = later.filter((t): t is number => t !== null)
      return {
        posts: post !== null && post <= now,
        targets: target !== null && target <= now,
        next: times.length ? Math.min(...times) : undefined,
      }
    },
  }
}
