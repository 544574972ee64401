import { FIRST_COLLECTION_AFTER_MS } from '../../analytics/schedule.js'
import type { PlatformName } from '../../platforms/types.js'
import { dueSplit, RECOVERY_LEASE_MS, settlementRounds, SYSTEM, type AbandonedTarget, type ClaimedTarget, type ClaimResult, type HeldTarget, type PublishingStore, type Settlement, type StoredPart, type TargetRef } from '../port.js'
import { claimedTargetOf, finalStatusOf, groupBy, hasPartRows, partColumns, postRecordOf, storedPartOf, type ClaimRow, type PartRow, type PostRow, type TargetRow } from '../rows.js'
import { markReauthRequired, replaceCredentials } from './accounts.js'
import type { Queryable, Sql } from './connect.js'
import { appendEvents } from './events.js'
import { advanceSeries } from './series.js'

/**
 * Records outcomes on `tx`, their events and, for each post whose targets are all settled, its
 * final state and event. Every post of the batch is locked first, at once and in one order, so
 * that batches on several nodes never deadlock, and targets of one post settled at once on
 * several nodes take turns: the last sees every other outcome and writes the post's final
 * state. A post's outcomes are recorded in turn, one round each, so each sees the ones before
 * it as it would alone; within a round every statement takes the whole round. Each statement
 * names the claim an outcome was reached under (its fencing token) beside the target: false for
 * an outcome whose target was settled already, or whose claim is no longer the target's (its
 * lease ran out and another node took it over): the current holder's outcome stands.
 */
async function settleBatch(tx: Queryable, settlements: readonly Settlement[]): Promise<boolean[]> {
  if (settlements.length === 0) return []
  const ids = [...new Set(settlements.map((s) => s.postId))].sort()
  const posts = new Map((await tx<PostRow[]>`SELECT * FROM posts WHERE id = ANY(${ids}) ORDER BY id FOR UPDATE`).map((p) => [p.id, p]))
  const recorded = settlements.map(() => false)
  for (const round of settlementRounds(settlements)) {
    const done = await settleRound(tx, posts, round.map((i) => settlements[i]!).filter((s) => posts.has(s.postId)))
    round.forEach((i) => (recorded[i] = done.has(settlements[i]!)))
  }
  return recorded
}

/** One round of `settleBatch` (no post in it twice), on the posts as locked and changed so far; the settlements it recorded. */
async function settleRound(tx: Queryable, posts: Map<string, PostRow>, round: readonly Settlement[]): Promise<Set<Settlement>> {
  // Each kind of outcome with its outcome's type, for the columns below.
  const published = round.flatMap((s) => (s.outcome.kind === 'published' ? [{ ...s, outcome: s.outcome }] : []))
  const retry = round.flatMap((s) => (s.outcome.kind === 'retry' ? [{ ...s, outcome: s.outcome }] : []))
  const failed = round.flatMap((s) => (s.outcome.kind === 'failed' || s.outcome.kind === 'unconfirmed' ? [{ ...s, outcome: s.outcome }] : []))
  const done = { lease_expires_at: null, claimed_by: null }
  const changed: { post_id: string; platform: string }[] = []
  if (published.length) {
    changed.push(
      ...(await tx<{ post_id: string; platform: string }[]>`
        UPDATE post_targets t SET status = 'published', platform_post_id = r.platform_post_id, url = r.url, published_at = r.at,
               metrics_due_at = r.at + ${FIRST_COLLECTION_AFTER_MS}, next_attempt_at = NULL, error_code = NULL, error_detail = NULL, error_part = NULL,
               uncertain_since = NULL, ${tx(done)}
          FROM unnest(${published.map((s) => s.postId)}::text[], ${published.map((s) => s.platform)}::text[], ${published.map((s) => s.claim)}::int[],
                      ${published.map((s) => s.outcome.platformPostId)}::text[], ${published.map((s) => s.outcome.url)}::text[], ${published.map((s) => s.at)}::bigint[])
               AS r(post_id, platform, claim, platform_post_id, url, at)
         WHERE t.post_id = r.post_id AND t.platform = r.platform AND t.claim = r.claim AND t.status = 'publishing'
        RETURNING t.post_id, t.platform`),
    )
  }
  if (retry.length) {
    changed.push(
      ...(await tx<{ post_id: string; platform: string }[]>`
        UPDATE post_targets t SET status = 'pending', next_attempt_at = r.next_at, error_code = r.code, error_detail = r.detail,
               uncertain_since = r.uncertain_since, error_part = r.part, ${tx(done)}
          FROM unnest(${retry.map((s) => s.postId)}::text[], ${retry.map((s) => s.platform)}::text[], ${retry.map((s) => s.claim)}::int[], ${retry.map((s) => s.outcome.at)}::bigint[],
                      ${retry.map((s) => s.outcome.code)}::text[], ${retry.map((s) => s.outcome.detail)}::text[],
                      ${retry.map((s) => s.outcome.uncertainSince ?? null)}::bigint[], ${retry.map((s) => s.outcome.part ?? null)}::int[])
               AS r(post_id, platform, claim, next_at, code, detail, uncertain_since, part)
         WHERE t.post_id = r.post_id AND t.platform = r.platform AND t.claim = r.claim AND t.status = 'publishing'
        RETURNING t.post_id, t.platform`),
    )
  }
  if (failed.length) {
    changed.push(
      ...(await tx<{ post_id: string; platform: string }[]>`
        UPDATE post_targets t SET status = r.status, error_code = r.code, error_detail = r.detail, error_part = r.part, next_attempt_at = NULL, ${tx(done)}
          FROM unnest(${failed.map((s) => s.postId)}::text[], ${failed.map((s) => s.platform)}::text[], ${failed.map((s) => s.claim)}::int[], ${failed.map((s) => s.outcome.kind)}::text[],
                      ${failed.map((s) => (s.outcome.kind === 'failed' ? s.outcome.code : 'unconfirmed'))}::text[], ${failed.map((s) => s.outcome.detail)}::text[],
                      ${failed.map((s) => s.outcome.part ?? null)}::int[])
               AS r(post_id, platform, claim, status, code, detail, part)
         WHERE t.post_id = r.post_id AND t.platform = r.platform AND t.claim = r.claim AND t.status IN ('publishing', 'pending')
        RETURNING t.post_id, t.platform`),
    )
  }
  const keys = new Set(changed.map((t) => `${t.post_id} ${t.platform}`))
  const settled = new Set(round.filter((s) => keys.has(`${s.postId} ${s.platform}`)))
  if (settled.size === 0) return settled
  const ended = [...settled].filter((s) => s.outcome.kind !== 'retry')
  const targets = groupBy(ended.length ? await tx<TargetRow[]>`SELECT * FROM post_targets WHERE post_id = ANY(${ended.map((s) => s.postId)})` : [], (t) => t.post_id)
  // Each post as this round leaves it: a retry or an outcome that leaves targets in play bumps
  // its version; the last outcome also writes its final state, once (a post that reached it
  // already keeps it).
  const finals = new Map<Settlement, ReturnType<typeof finalStatusOf>>()
  const entered = new Set<string>()
  const changedPosts: PostRow[] = []
  for (const s of settled) {
    const post = posts.get(s.postId)!
    const final = s.outcome.kind === 'retry' ? undefined : finalStatusOf(targets.get(s.postId)!)
    finals.set(s, final)
    if (final && post.status !== 'publishing') continue
    if (final) entered.add(s.postId)
    const after: PostRow = { ...post, ...final, updated_at: s.at, version: post.version + 1 }
    posts.set(s.postId, after)
    changedPosts.push(after)
  }
  if (changedPosts.length) {
    await tx`
      UPDATE posts p SET status = r.status, published_at = r.published_at, updated_at = r.updated_at, version = r.version
        FROM unnest(${changedPosts.map((p) => p.id)}::text[], ${changedPosts.map((p) => p.status)}::text[], ${changedPosts.map((p) => p.published_at)}::bigint[],
                    ${changedPosts.map((p) => p.updated_at)}::bigint[], ${changedPosts.map((p) => p.version)}::int[]) AS r(id, status, published_at, updated_at, version)
       WHERE p.id = r.id`
  }
  if (ended.length === 0) return settled
  const withParts = ended.filter((s) => hasPartRows(posts.get(s.postId)!, targets.get(s.postId)!)).map((s) => s.postId)
  const parts = withParts.length ? await tx<PartRow[]>`SELECT * FROM post_target_parts WHERE post_id = ANY(${withParts}) ORDER BY platform, idx` : []
  const events: Parameters<typeof appendEvents>[1][number][] = []
  for (const s of ended) {
    const { postId, platform, outcome, at } = s
    const after = posts.get(postId)!
    const record = postRecordOf(after, targets.get(postId)!, parts.filter((p) => p.post_id === postId))
    if (outcome.kind === 'failed' && outcome.reauthRequired) await markReauthRequired(tx, record.post.account_id, platform, at)
    if (outcome.kind === 'published' && outcome.refreshed) {
      await replaceCredentials(tx, record.post.account_id, platform, outcome.refreshed.sealedCredentials, outcome.refreshed.connectedAt)
    }
    events.push({ workspaceId: record.workspaceId, type: outcome.kind === 'published' ? 'post.target.published' : 'post.target.failed', data: { ...record.post, platform }, at, by: SYSTEM })
    const final = finals.get(s)
    if (final) events.push({ workspaceId: record.workspaceId, type: `post.${final.status}`, data: record.post, at, by: SYSTEM })
  }
  await appendEvents(tx, events)
  // Published, partly published or failed alike, an evergreen series goes on: once, when the post enters its final state.
  for (const s of ended) if (entered.has(s.postId)) await advanceSeries(tx, posts.get(s.postId)!, s.at, SYSTEM)
  return settled
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
      UPDATE post_targets t SET status = 'publishing', attempts = t.attempts + 1, claim = t.claim + 1, lease_expires_at = r.now + ${leaseMs}, claimed_by = ${nodeId}
        FROM posts p, unnest(${claims.map((c) => c.ref.postId)}::text[], ${claims.map((c) => c.ref.platform)}::text[], ${claims.map((c) => c.now)}::bigint[]) AS r(post_id, platform, now)
       WHERE p.id = t.post_id AND t.post_id = r.post_id AND t.platform = r.platform AND t.status = 'pending' AND t.next_attempt_at <= r.now
         AND (t.claimed_by = ${nodeId} OR t.lease_expires_at IS NULL OR t.lease_expires_at <= r.now)
      RETURNING t.post_id, t.platform, t.claim, t.attempts, t.attempts_before_retry, t.next_attempt_at, t.uncertain_since, p.user_id, p.content, p.media_urls,
                p.media, p.thread, p.first_comment, p.overrides`
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
        const due = await tx<{ post_id: string; platform: PlatformName; claim: number; due_at: number }[]>`
          UPDATE post_targets t SET next_attempt_at = coalesce(t.next_attempt_at, p.scheduled_at)
            FROM posts p
           WHERE p.id = t.post_id AND t.post_id = ANY(${posts.map((p) => p.id)}) AND t.status = 'pending'
          RETURNING t.post_id, t.platform, t.claim, t.next_attempt_at AS due_at`
        const missed: Settlement[] = []
        for (const post of posts) {
          const targets = due.filter((t) => t.post_id === post.id)
          if (targets.length === 0 || now - Math.min(...targets.map((t) => t.due_at)) <= catchUpMs) continue
          result.missed++
          const detail = `The daemon was not running at the scheduled time and the post is over ${Math.round(catchUpMs / 3_600_000)} h late; it was not published. Retry it to publish now.`
          for (const { platform, claim } of targets) missed.push({ postId: post.id, platform, claim, outcome: { kind: 'failed', code: 'missed_schedule', detail }, at: now })
        }
        await settleBatch(tx, missed)
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

    settle: ({ postId, platform, claim }, outcome, now) => sql.begin(async (tx) => (await settleBatch(tx, [{ postId, platform, claim, outcome, at: now }]))[0]!),

    settleAll: (settlements) => sql.begin((tx) => settleBatch(tx, settlements)),

    async renewLeases(targets, until) {
      if (targets.length === 0) return
      // A reservation (no claim yet) is this node's while it is pending; an attempt, while its claim is current.
      await sql`
        UPDATE post_targets t SET lease_expires_at = ${until}
          FROM unnest(${targets.map((x) => x.postId)}::text[], ${targets.map((x) => x.platform)}::text[], ${targets.map((x) => x.claim ?? null)}::int[]) AS r(post_id, platform, claim)
         WHERE t.post_id = r.post_id AND t.platform = r.platform AND t.claimed_by = ${nodeId}
           AND (r.claim IS NULL AND t.status = 'pending' OR t.claim = r.claim AND t.status = 'publishing')`
    },

    async recordPart({ postId, platform, claim }: HeldTarget, part: StoredPart) {
      // One statement: the part is kept only while the claim is current (the target's row locked
      // from the check to the commit, so no take-over slips between), and the request whose
      // outcome was in doubt was this part's: it is out, so the doubt is over.
      const columns = partColumns(postId, platform, part)
      const recorded = await sql`
        WITH held AS (SELECT 1 FROM post_targets WHERE post_id = ${postId} AND platform = ${platform} AND claim = ${claim} AND status = 'publishing' FOR UPDATE),
             part AS (INSERT INTO post_target_parts (post_id, platform, idx, kind, platform_post_id, url, ref, published_at)
                      SELECT ${columns.post_id}::text, ${columns.platform}::text, ${columns.idx}::int, ${columns.kind}::text, ${columns.platform_post_id}::text, ${columns.url}::text,
                             ${columns.ref}::text, ${columns.published_at}::bigint FROM held
                      ON CONFLICT DO NOTHING RETURNING 1)
        UPDATE post_targets SET uncertain_since = NULL WHERE post_id = ${postId} AND platform = ${platform} AND EXISTS (SELECT 1 FROM part) RETURNING 1`
      return recorded.length > 0
    },

    async resend({ postId, platform, claim }, now) {
      await sql`
        UPDATE post_targets SET status = 'pending', uncertain_since = coalesce(uncertain_since, next_attempt_at), next_attempt_at = ${now}, lease_expires_at = NULL, claimed_by = NULL
         WHERE post_id = ${postId} AND platform = ${platform} AND status = 'publishing' AND claim = ${claim}`
    },

    /**
     * Attempts whose lease ran out, on any node; at start (`all`) also this node's own, whatever
     * their lease (its previous run is gone), and its reservations are given back. Each is taken
     * over under this node's id and a new claim before it is returned, so one node, not every node
     * that notices, resolves it, and the holder that lost it can no longer write about it.
     */
    async abandoned(now, all) {
      if (all) await releaseReservations()
      return sql<AbandonedTarget[]>`
        UPDATE post_targets t SET lease_expires_at = ${now + RECOVERY_LEASE_MS}, claimed_by = ${nodeId}, claim = t.claim + 1
          FROM posts p
         WHERE p.id = t.post_id AND t.status = 'publishing'
           AND (t.lease_expires_at <= ${now} OR (${all} AND t.claimed_by = ${nodeId}))
        RETURNING t.post_id AS "postId", t.platform, t.claim, p.account_id AS "accountId", coalesce(t.uncertain_since, t.next_attempt_at, p.scheduled_at) AS "dueAt"`
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

    async dueCount(now) {
      // Each part reads its partial index (posts_due, post_targets_due, post_targets_leased).
      const [row] = await sql<{ n: number }[]>`
        SELECT ((SELECT count(*) FROM posts WHERE status = 'scheduled' AND scheduled_at <= ${now})
              + (SELECT count(DISTINCT post_id) FROM (SELECT post_id FROM post_targets WHERE status = 'pending' AND next_attempt_at <= ${now}
                                                     UNION ALL SELECT post_id FROM post_targets WHERE status = 'publishing') due))::int AS n`
      return row!.n
    },
  }
}
