import { FIRST_COLLECTION_AFTER_MS } from '../../analytics/schedule.js'
import type { PlatformName } from '../../platforms/types.js'
import { dueSplit, type ClaimedTarget, type ClaimResult, type Outcome, type PublishingStore, type StoredPart, type TargetRef } from '../port.js'
import { claimedTargetOf, finalStatusOf, hasPartRows, partColumns, postRecordOf, storedPartOf, type ClaimRow, type PartRow, type PostRow, type TargetRow } from '../rows.js'
import { markReauthRequired, replaceCredentials } from './accounts.js'
import type { Queryable, Sql } from './connect.js'
import { appendEvents } from './events.js'
import { advanceSeries } from './series.js'

/** How long a node holds an interrupted attempt it took over while it resolves it. */
const RECOVERY_LEASE_MS = 60_000

/**
 * Records one attempt's outcome on `tx`. The post's row is locked first, so that targets of one
 * post settled at once on several nodes take turns, and the last one sees every other outcome
 * and writes the post's final state. The post as the events carry it is built from the rows
 * read here, not read again: a settle is six statements, the hottest write of a burst.
 */
async function settleOn(tx: Queryable, postId: string, platform: PlatformName, outcome: Outcome, now: number): Promise<boolean> {
  const [post] = await tx<PostRow[]>`SELECT * FROM posts WHERE id = ${postId} FOR UPDATE`
  if (!post) return false
  const done = { lease_expires_at: null, claimed_by: null }
  let changed
  if (outcome.kind === 'published') {
    changed = await tx`
      UPDATE post_targets SET status = 'published', platform_post_id = ${outcome.platformPostId}, url = ${outcome.url}, published_at = ${now},
             metrics_due_at = ${now + FIRST_COLLECTION_AFTER_MS}, next_attempt_at = NULL, error_code = NULL, error_detail = NULL, error_part = NULL, uncertain_since = NULL,
             ${tx(done)}
       WHERE post_id = ${postId} AND platform = ${platform} AND status = 'publishing' RETURNING 1`
  } else if (outcome.kind === 'retry') {
    changed = await tx`
      UPDATE post_targets SET status = 'pending', next_attempt_at = ${outcome.at}, error_code = ${outcome.code}, error_detail = ${outcome.detail},
             uncertain_since = ${outcome.uncertainSince ?? null}, error_part = ${outcome.part ?? null},
             ${tx(done)}
       WHERE post_id = ${postId} AND platform = ${platform} AND status = 'publishing' RETURNING 1`
  } else {
    const [status, code] = outcome.kind === 'failed' ? ['failed', outcome.code] : ['unconfirmed', 'unconfirmed']
    changed = await tx`
      UPDATE post_targets SET status = ${status}, error_code = ${code}, error_detail = ${outcome.detail}, error_part = ${outcome.part ?? null}, next_attempt_at = NULL, ${tx(done)}
       WHERE post_id = ${postId} AND platform = ${platform} AND status IN ('publishing', 'pending') RETURNING 1`
  }
  // Settled already (by a recovery on another node, say): the first outcome stands.
  if (changed.length === 0) return false
  if (outcome.kind === 'retry') {
    await tx`UPDATE posts SET updated_at = ${now}, version = version + 1 WHERE id = ${postId}`
    return true
  }
  const targets = await tx<TargetRow[]>`SELECT * FROM post_targets WHERE post_id = ${postId}`
  const final = finalStatusOf(targets)
  let after: PostRow = post
  if (!final) after = { ...post, updated_at: now, version: post.version + 1 }
  else if (post.status === 'publishing') after = { ...post, ...final, updated_at: now, version: post.version + 1 }
  if (after !== post) {
    await tx`UPDATE posts SET status = ${after.status}, published_at = ${after.published_at}, updated_at = ${now}, version = ${after.version} WHERE id = ${postId}`
  }
  const parts = hasPartRows(post, targets) ? await tx<PartRow[]>`SELECT * FROM post_target_parts WHERE post_id = ${postId} ORDER BY platform, idx` : []
  const record = postRecordOf(after, targets, parts)
  if (outcome.kind === 'failed' && outcome.reauthRequired) await markReauthRequired(tx, record.post.account_id, platform, now)
  if (outcome.kind === 'published' && outcome.refreshed) {
    await replaceCredentials(tx, record.post.account_id, platform, outcome.refreshed.sealedCredentials, outcome.refreshed.connectedAt)
  }
  await appendEvents(tx, record.userId, [
    [outcome.kind === 'published' ? 'post.target.published' : 'post.target.failed', { ...record.post, platform }],
    ...(final ? [[`post.${final.status}`, record.post] as const] : []),
  ], now)
  // Published, partly published or failed alike, an evergreen series goes on: once, when the post enters its final state.
  if (final && post.status === 'publishing') await advanceSeries(tx, after, now)
  return true
}

/**
 * The scheduler's side of posts on a database several nodes share: due posts and targets are
 * claimed with FOR UPDATE SKIP LOCKED or a conditional update, so no two nodes take the same
 * work; each claim carries this node's id and a lease.
 */
export function publishingStore(sql: Sql, nodeId: string): PublishingStore {
  // A reserved target is due (it has its next attempt's time): the due index finds the few.
  async function releaseReservations(): Promise<void> {
    await sql`UPDATE post_targets SET lease_expires_at = NULL, claimed_by = NULL WHERE status = 'pending' AND next_attempt_at IS NOT NULL AND claimed_by = ${nodeId}`
  }
  async function claimTargets(claims: readonly { ref: TargetRef; now: number }[], leaseMs: number): Promise<(ClaimedTarget | undefined)[]> {
    if (claims.length === 0) return []
    // The WHERE is checked again on each row as locked: of two nodes, one updates, the other finds it taken.
    const rows = await sql<(ClaimRow & { post_id: string; platform: string })[]>`
      UPDATE post_targets t SET status = 'publishing', attempts = t.attempts + 1, lease_expires_at = r.now + ${leaseMs}, claimed_by = ${nodeId}
        FROM posts p, unnest(${claims.map((c) => c.ref.postId)}::text[], ${claims.map((c) => c.ref.platform)}::text[], ${claims.map((c) => c.now)}::bigint[]) AS r(post_id, platform, now)
       WHERE p.id = t.post_id AND t.post_id = r.post_id AND t.platform = r.platform AND t.status = 'pending' AND t.next_attempt_at <= r.now
         AND (t.claimed_by = ${nodeId} OR t.lease_expires_at IS NULL OR t.lease_expires_at <= r.now)
      RETURNING t.post_id, t.platform, t.attempts, t.attempts_before_retry, t.next_attempt_at, t.uncertain_since, p.user_id, p.content, p.media_urls,
                p.thread, p.first_comment, p.overrides`
    const claimed = new Map(rows.map((row) => [`${row.post_id} ${row.platform}`, row]))
    // The parts an earlier attempt got out: the attempt resumes after them.
    const withParts = rows.filter((r) => hasPartRows(r, [r])).map((r) => r.post_id)
    const parts = withParts.length === 0 ? [] : await sql<PartRow[]>`SELECT * FROM post_target_parts WHERE post_id = ANY(${withParts}) ORDER BY idx`
    return claims.map(({ ref }) => {
      const key = `${ref.postId} ${ref.platform}`
      const row = claimed.get(key)
      // A target asked for twice in one batch is claimed once.
      claimed.delete(key)
      return row && claimedTargetOf(ref, row, parts.filter((p) => p.post_id === ref.postId && p.platform === ref.platform).map(storedPartOf))
    })
  }

  return {
    async claimDue(now, limit, catchUpMs) {
      return sql.begin(async (tx) => {
        const result: ClaimResult = { claimed: 0, missed: 0 }
        // The longest waiting and the most recently due (dueSplit).
        const { oldest, newest } = dueSplit(limit)
        const posts = await tx<{ id: string; scheduled_at: number }[]>`
          WITH oldest AS (SELECT id FROM posts WHERE status = 'scheduled' AND scheduled_at <= ${now} ORDER BY scheduled_at LIMIT ${oldest} FOR UPDATE SKIP LOCKED),
               newest AS (SELECT id FROM posts WHERE status = 'scheduled' AND scheduled_at <= ${now} ORDER BY scheduled_at DESC LIMIT ${newest} FOR UPDATE SKIP LOCKED)
          UPDATE posts SET status = 'publishing', updated_at = ${now}, version = version + 1
           WHERE id IN (SELECT id FROM oldest UNION SELECT id FROM newest)
          RETURNING id, scheduled_at`
        if (posts.length === 0) return result
        result.claimed = posts.length
        // A retried post's targets already carry their retry time; the others fall due at the post's.
        const due = await tx<{ post_id: string; platform: PlatformName; due_at: number }[]>`
          UPDATE post_targets t SET next_attempt_at = coalesce(t.next_attempt_at, p.scheduled_at)
            FROM posts p
           WHERE p.id = t.post_id AND t.post_id = ANY(${posts.map((p) => p.id)}) AND t.status = 'pending'
          RETURNING t.post_id, t.platform, t.next_attempt_at AS due_at`
        for (const post of posts) {
          const targets = due.filter((t) => t.post_id === post.id)
          if (targets.length === 0 || now - Math.min(...targets.map((t) => t.due_at)) <= catchUpMs) continue
          result.missed++
          const detail = `The daemon was not running at the scheduled time and the post is over ${Math.round(catchUpMs / 3_600_000)} h late; it was not published. Retry it to publish now.`
          for (const { platform } of targets) await settleOn(tx, post.id, platform, { kind: 'failed', code: 'missed_schedule', detail }, now)
        }
        return result
      })
    },

    async reserveDue(now, limit, leaseMs) {
      // The longest waiting and the most recently due (dueSplit): two ends of the due index.
      const { oldest, newest } = dueSplit(limit)
      const due = sql`status = 'pending' AND next_attempt_at <= ${now} AND (lease_expires_at IS NULL OR lease_expires_at <= ${now})`
      const refs = await sql<TargetRef[]>`
        WITH oldest AS (SELECT post_id, platform FROM post_targets WHERE ${due} ORDER BY next_attempt_at LIMIT ${oldest} FOR UPDATE SKIP LOCKED),
             newest AS (SELECT post_id, platform FROM post_targets WHERE ${due} ORDER BY next_attempt_at DESC LIMIT ${newest} FOR UPDATE SKIP LOCKED)
        UPDATE post_targets t SET lease_expires_at = ${now + leaseMs}, claimed_by = ${nodeId}
          FROM posts p
         WHERE p.id = t.post_id AND (t.post_id, t.platform) IN (SELECT * FROM oldest UNION SELECT * FROM newest)
        RETURNING t.post_id AS "postId", t.platform, p.account_id AS "accountId", t.next_attempt_at AS "dueAt"`
      return [...refs].sort((a, b) => a.dueAt - b.dueAt)
    },

    releaseReservations,

    claimTarget: async (ref, now, leaseMs) => (await claimTargets([{ ref, now }], leaseMs))[0],

    claimTargets,

    settle: (postId, platform, outcome, now) => sql.begin((tx) => settleOn(tx, postId, platform, outcome, now)),

    async settleAll(settlements) {
      return sql.begin(async (tx) => {
        // Every post of the batch locked at once, in one order: batches on several nodes never deadlock.
        await tx`SELECT id FROM posts WHERE id = ANY(${[...new Set(settlements.map((s) => s.postId))].sort()}) ORDER BY id FOR UPDATE`
        const byPost = new Map<string, number[]>()
        settlements.forEach((s, i) => byPost.set(s.postId, [...(byPost.get(s.postId) ?? []), i]))
        const recorded: boolean[] = []
        // Posts side by side on the transaction's connection (the driver pipelines them), each post's targets in turn.
        await Promise.all(
          [...byPost.values()].map(async (indices) => {
            for (const i of indices) {
              const s = settlements[i]!
              recorded[i] = await settleOn(tx, s.postId, s.platform, s.outcome, s.at)
            }
          }),
        )
        return recorded
      })
    },

    async renewLeases(targets, until) {
      if (targets.length === 0) return
      await sql`
        UPDATE post_targets t SET lease_expires_at = ${until}
          FROM unnest(${targets.map((x) => x.postId)}::text[], ${targets.map((x) => x.platform)}::text[]) AS r(post_id, platform)
         WHERE t.post_id = r.post_id AND t.platform = r.platform AND t.status IN ('pending', 'publishing') AND t.claimed_by = ${nodeId}`
    },

    async recordPart(postId: string, platform: PlatformName, part: StoredPart) {
      return sql.begin(async (tx) => {
        const inserted = await tx`INSERT INTO post_target_parts ${tx(partColumns(postId, platform, part))} ON CONFLICT DO NOTHING RETURNING 1`
        if (inserted.length === 0) return false
        // The request whose outcome was in doubt was this part's: it is out, so the doubt is over.
        await tx`UPDATE post_targets SET uncertain_since = NULL WHERE post_id = ${postId} AND platform = ${platform}`
        return true
      })
    },

    async resend(postId, platform, now) {
      await sql`
        UPDATE post_targets SET status = 'pending', uncertain_since = coalesce(uncertain_since, next_attempt_at), next_attempt_at = ${now}, lease_expires_at = NULL, claimed_by = NULL
         WHERE post_id = ${postId} AND platform = ${platform} AND status = 'publishing' AND claimed_by = ${nodeId}`
    },

    /**
     * Attempts whose lease ran out, on any node; at start (`all`) also this node's own, whatever
     * their lease (its previous run is gone), and its reservations are given back. Each is taken over under this node's id before it
     * is returned, so one node, not every node that notices, resolves it.
     */
    async abandoned(now, all) {
      if (all) await releaseReservations()
      return sql<TargetRef[]>`
        UPDATE post_targets t SET lease_expires_at = ${now + RECOVERY_LEASE_MS}, claimed_by = ${nodeId}
          FROM posts p
         WHERE p.id = t.post_id AND t.status = 'publishing'
           AND (t.lease_expires_at <= ${now} OR (${all} AND t.claimed_by = ${nodeId}))
        RETURNING t.post_id AS "postId", t.platform, p.account_id AS "accountId", coalesce(t.uncertain_since, t.next_attempt_at, p.scheduled_at) AS "dueAt"`
    },

    async due(now) {
      const [row] = await sql<{ post: number | null; target: number | null; next_post: number | null; next_target: number | null }[]>`
        SELECT (SELECT min(scheduled_at) FROM posts WHERE status = 'scheduled') AS post,
               (SELECT min(next_attempt_at) FROM post_targets WHERE status = 'pending') AS target,
               (SELECT min(scheduled_at) FROM posts WHERE status = 'scheduled' AND scheduled_at > ${now}) AS next_post,
               (SELECT min(next_attempt_at) FROM post_targets WHERE status = 'pending' AND next_attempt_at > ${now}) AS next_target`
      const times = [row!.next_post, row!.next_target].filter((t): t is number => t !== null)
      return {
        posts: row!.post !== null && row!.post <= now,
        targets: row!.target !== null && row!.target <= now,
        next: times.length ? Math.min(...times) : undefined,
      }
    },
  }
}
