import { FIRST_COLLECTION_AFTER_MS } from '../../analytics/schedule.js'
import type { PlatformName } from '../../platforms/types.js'
import type { accountsStore } from './accounts.js'
import type { Db } from './db.js'
import type { eventsStore } from './events.js'
import { batchRollups, type BatchRollups } from './batch-rollups.js'
import { feedInsert } from './feed.js'
import { postReader } from './post-reader.js'
import { seriesSteps } from './series.js'
import { claimedTargetOf, finalStatusOf, groupBy, hasPartRows, partColumns, storedPartOf, type ClaimRow, type PartRow, type PostRow, type TargetRow } from '../rows.js'
import { dueSplit, RECOVERY_LEASE_MS, settlementRounds, SYSTEM, type AbandonedTarget, type InStorePlatforms, type TargetRef, type ClaimedTarget, type HeldTarget, type Outcome, type ClaimResult, type Settlement, type StoredPart } from '../port.js'

/** A target as the batch statements return it. */
type TargetKey = { post_id: string; platform: PlatformName }
type ClaimedRow = TargetKey & Pick<ClaimRow, 'claim' | 'attempts' | 'attempts_before_retry' | 'next_attempt_at' | 'uncertain_since'>
const keyOf = (t: TargetKey) => `${t.post_id} ${t.platform}`
/** A due post as the claim reads it, to decide whether it publishes it itself. */
type PickedRow = Pick<PostRow, 'id' | 'account_id' | 'content' | 'media_urls'> & { scheduled_at: number; simple: 0 | 1 }
type PickedTarget = TargetKey & Pick<TargetRow, 'status' | 'attempts' | 'attempts_before_retry' | 'next_attempt_at'> & { claim: number; connection: string | null }

/** Runs a batch statement on its rows, given as one JSON array; none, no statement. */
const each = <R>(items: readonly unknown[], statement: { all(json: string): R[] }): R[] => (items.length ? statement.all(JSON.stringify(items)) : [])

/**
 * The rows of `from` (a table and a condition) that dueSplit takes (`split`): of those due
 * strictly after the `@oldest` longest waiting, up to `@newest`, `@latest` (half) the most
 * recently due and the rest the longest waiting among them; the longest waiting fill the rest of the batch.
 * A burst due in the same millisecond is then taken in the order of its rows, a whole batch at a
 * time (from both ends of it, a batch's rows sat at both ends of every index, and each of its
 * later writes touched twice the pages), and the newest part holds only what fell due after it:
 * another account's posts, none passed over for long by those falling due after it.
 */
const split = (limit: number) => {
  const { oldest, newest } = dueSplit(limit)
  return { oldest, newest, latest: Math.floor(newest / 2) }
}
const twoEnds = (key: string, from: string, due: string) => `(
  WITH later AS (SELECT ${key}, ${due} FROM ${from} AND ${due} > (SELECT ${due} FROM ${from} ORDER BY ${due} LIMIT 1 OFFSET @oldest - 1)),
       newest AS (SELECT ${key} FROM (SELECT ${key} FROM later ORDER BY ${due} DESC LIMIT @latest)
                  UNION SELECT ${key} FROM (SELECT ${key} FROM later ORDER BY ${due} LIMIT @newest - @latest))
  SELECT ${key} FROM (SELECT ${key} FROM ${from} ORDER BY ${due} LIMIT @oldest + @newest - (SELECT count(*) FROM newest))
  UNION ALL SELECT ${key} FROM newest)`

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
  const claimPosts = db.prepare<[{ now: number } & ReturnType<typeof split>], { id: string; scheduled_at: number }>(
    `UPDATE posts SET status = 'publishing', updated_at = @now, version = version + 1
      WHERE id IN ${twoEnds('id', "posts WHERE status = 'scheduled' AND scheduled_at <= @now", 'scheduled_at')}
      RETURNING id, scheduled_at`,
  )
  // With platforms the claim publishes itself (InStorePlatforms), the due posts are read first,
  // and only those it does not publish are moved to `publishing`: the others go from `scheduled`
  // to their final state in the same transaction. A post of one part is one with no thread,
  // first comment or per-platform version, and no uploaded media, what `simple` says.
  const pickDue = db.prepare<[{ now: number } & ReturnType<typeof split>], PickedRow>(
    `SELECT id, scheduled_at, account_id, content, media_urls, thread = '[]' AND first_comment IS NULL AND overrides = '{}' AND media = '[]' AS simple
       FROM posts WHERE id IN ${twoEnds('id', "posts WHERE status = 'scheduled' AND scheduled_at <= @now", 'scheduled_at')}`,
  )
  const claimPicked = db.prepare<[number, string], { id: string; scheduled_at: number }>(
    `UPDATE posts SET status = 'publishing', updated_at = ?, version = version + 1
      WHERE id IN (SELECT value FROM json_each(?)) AND status = 'scheduled' RETURNING id, scheduled_at`,
  )
  // Each target of the given posts (`[post, account]`), with its connection's status.
  const pickedTargets = db.prepare<[string], PickedTarget>(
    `SELECT t.post_id, t.platform, t.status, t.claim, t.attempts, t.attempts_before_retry, t.next_attempt_at, c.status AS connection
       FROM json_each(?) j CROSS JOIN post_targets t ON t.post_id = j.value ->> 0 LEFT JOIN connections c ON c.account_id = j.value ->> 1 AND c.platform = t.platform`,
  )
  const insertItems = feedInsert(db)
  // A target published by the claim itself: one attempt, under a claim of its own, as claimTargets
  // and setPublished leave it.
  const publishNow = db.prepare<[string], TargetKey>(
    `UPDATE post_targets SET status = 'published', attempts = attempts + 1, claim = claim + 1, platform_post_id = c.value ->> 2, url = c.value ->> 3,
            published_at = c.value ->> 4, metrics_due_at = c.value ->> 4 + ${FIRST_COLLECTION_AFTER_MS}, lease_expires_at = NULL,
            next_attempt_at = NULL, error_code = NULL, error_detail = NULL, error_part = NULL, uncertain_since = NULL
       FROM json_each(?) c
      WHERE post_targets.post_id = c.value ->> 0 AND post_targets.platform = c.value ->> 1 AND post_targets.status = 'pending'
      RETURNING post_id, platform`,
  )
  // The statements that take a batch take its rows as one JSON array: one statement for the
  // batch, not one per row (in a burst a row costs about half what a statement of its own did).
  // A retried post's targets already carry their retry time; the others fall due at the post's.
  const makeDue = db.prepare<[string], { post_id: string; platform: PlatformName; claim: number; due_at: number }>(
    `UPDATE post_targets SET next_attempt_at = coalesce(next_attempt_at, c.value ->> 1) FROM json_each(?) c
      WHERE post_targets.post_id = c.value ->> 0 AND post_targets.status = 'pending'
      RETURNING post_id, platform, claim, next_attempt_at AS due_at`,
  )
  // A reservation is a lease on a pending target: this process will attempt it.
  // The longest waiting and the most recently due (dueSplit): two ends of the due index.
  const dueFree = "post_targets WHERE status = 'pending' AND next_attempt_at <= @now AND (lease_expires_at IS NULL OR lease_expires_at <= @now)"
  const reserve = db.prepare<[{ until: number; now: number } & ReturnType<typeof split>], TargetRef>(
    `UPDATE post_targets SET lease_expires_at = @until
      WHERE rowid IN ${twoEnds('rowid', dueFree, 'next_attempt_at')}
      RETURNING post_id AS postId, platform, (SELECT account_id FROM posts p WHERE p.id = post_id) AS accountId, next_attempt_at AS dueAt`,
  )
  // A reserved target is due (it has its next attempt's time): the due index finds the few, where
  // a scan would read every pending target of every scheduled post at each start.
  const release = db.prepare(
    "UPDATE post_targets SET lease_expires_at = NULL WHERE status = 'pending' AND next_attempt_at IS NOT NULL AND lease_expires_at IS NOT NULL",
  )
  const claimTargets = db.prepare<[string], ClaimedRow>(
    `UPDATE post_targets SET status = 'publishing', attempts = attempts + 1, claim = claim + 1, lease_expires_at = c.value ->> 3 FROM json_each(?) c
      WHERE post_targets.post_id = c.value ->> 0 AND post_targets.platform = c.value ->> 1 AND post_targets.status = 'pending'
        AND post_targets.next_attempt_at <= c.value ->> 2
      RETURNING post_id, platform, claim, attempts, attempts_before_retry, next_attempt_at, uncertain_since`,
  )
  const postsOf = db.prepare<[string], PostRow>('SELECT * FROM posts WHERE id IN (SELECT value FROM json_each(?))')
  const targetsOf = db.prepare<[string], TargetRow>('SELECT * FROM post_targets WHERE post_id IN (SELECT value FROM json_each(?))')
  // Every write about a claimed target names the claim it was made under (c.value ->> 2 below,
  // its fencing token): one whose claim was taken over since changes nothing.
  // Publishing also starts the target's metrics schedule (daemon/analytics), in the same write.
  const setPublished = db.prepare<[string], TargetKey>(
    `UPDATE post_targets SET status = 'published', platform_post_id = c.value ->> 3, url = c.value ->> 4, published_at = c.value ->> 5,
            metrics_due_at = c.value ->> 5 + ${FIRST_COLLECTION_AFTER_MS}, lease_expires_at = NULL,
            next_attempt_at = NULL, error_code = NULL, error_detail = NULL, error_part = NULL, uncertain_since = NULL
       FROM json_each(?) c
      WHERE post_targets.post_id = c.value ->> 0 AND post_targets.platform = c.value ->> 1 AND post_targets.claim = c.value ->> 2
        AND post_targets.status = 'publishing'
      RETURNING post_id, platform`,
  )
  const setFailed = db.prepare<[string], TargetKey>(
    `UPDATE post_targets SET status = c.value ->> 3, error_code = c.value ->> 4, error_detail = c.value ->> 5, error_part = c.value ->> 6,
            lease_expires_at = NULL, next_attempt_at = NULL
       FROM json_each(?) c
      WHERE post_targets.post_id = c.value ->> 0 AND post_targets.platform = c.value ->> 1 AND post_targets.claim = c.value ->> 2
        AND post_targets.status IN ('publishing', 'pending')
      RETURNING post_id, platform`,
  )
  const setRetry = db.prepare<[string], TargetKey>(
    `UPDATE post_targets SET status = 'pending', next_attempt_at = c.value ->> 3, error_code = c.value ->> 4, error_detail = c.value ->> 5,
            uncertain_since = c.value ->> 6, error_part = c.value ->> 7, lease_expires_at = NULL
       FROM json_each(?) c
      WHERE post_targets.post_id = c.value ->> 0 AND post_targets.platform = c.value ->> 1 AND post_targets.claim = c.value ->> 2
        AND post_targets.status = 'publishing'
      RETURNING post_id, platform`,
  )
  const resend = db.prepare<[number, string, string, number], void>(
    `UPDATE post_targets SET status = 'pending', uncertain_since = coalesce(uncertain_since, next_attempt_at), next_attempt_at = ?, lease_expires_at = NULL
      WHERE post_id = ? AND platform = ? AND claim = ? AND status = 'publishing'`,
  )
  // A reservation (no claim yet) is renewed while it is pending; an attempt, while its claim is current.
  const renewOne = db.prepare<{ until: number; postId: string; platform: string; claim: number | null }, void>(
    `UPDATE post_targets SET lease_expires_at = @until WHERE post_id = @postId AND platform = @platform
        AND (@claim IS NULL AND status = 'pending' OR claim = @claim AND status = 'publishing')`,
  )
  const renew = db.transaction((targets: readonly { postId: string; platform: PlatformName; claim?: number }[], until: number) => {
    for (const t of targets) renewOne.run({ until, postId: t.postId, platform: t.platform, claim: t.claim ?? null })
  })
  // Taken over under a new claim, so the attempt that lost its lease can no longer write about it.
  const abandoned = db.prepare<[number, number, number], AbandonedTarget>(
    `UPDATE post_targets SET claim = claim + 1, lease_expires_at = ?
      WHERE status = 'publishing' AND (? OR lease_expires_at <= ?)
      RETURNING post_id AS postId, platform, claim, (SELECT account_id FROM posts p WHERE p.id = post_id) AS accountId,
                coalesce(uncertain_since, next_attempt_at, (SELECT scheduled_at FROM posts p WHERE p.id = post_id)) AS dueAt`,
  )
  // Both return the post as they leave it: its events carry it, with no second read.
  // From `publishing`, or from `scheduled` for a post the claim published itself (c.value ->> 4).
  const finish = db.prepare<[string], PostRow>(
    `UPDATE posts SET status = c.value ->> 1, published_at = c.value ->> 2, updated_at = c.value ->> 3, version = version + 1 FROM json_each(?) c
      WHERE posts.id = c.value ->> 0 AND posts.status = c.value ->> 4 RETURNING *`,
  )
  const touch = db.prepare<[string], PostRow>(
    'UPDATE posts SET updated_at = c.value ->> 1, version = version + 1 FROM json_each(?) c WHERE posts.id = c.value ->> 0 RETURNING *',
  )
  const firstPost = db.prepare<[number], { at: number | null }>("SELECT min(scheduled_at) AS at FROM posts WHERE status = 'scheduled' AND scheduled_at > ?")
  const firstTarget = db.prepare<[number], { at: number | null }>(
    "SELECT min(next_attempt_at) AS at FROM post_targets WHERE status = 'pending' AND next_attempt_at > ?",
  )
  // Each part reads its partial index (posts_due, post_targets_due, post_targets_leased), so a
  // scrape costs what is due, not the table (a UNION would walk post_targets' whole index in order).
  const dueCount = db.prepare<{ now: number }, { n: number }>(`
    SELECT (SELECT count(*) FROM posts WHERE status = 'scheduled' AND scheduled_at <= @now)
         + (SELECT count(DISTINCT post_id) FROM (SELECT post_id FROM post_targets WHERE status = 'pending' AND next_attempt_at <= @now
                                                 UNION ALL SELECT post_id FROM post_targets WHERE status = 'publishing')) AS n`)

  /**
   * Records outcomes, their events and, for each post whose targets are all settled, its final
   * state and event. A post's outcomes are recorded in turn, one round each, so each sees the
   * ones before it as it would alone; within a round every statement takes the whole round.
   * False for an outcome whose target was settled already, or whose claim is no longer the
   * target's (its lease ran out and a recovery took it over): the current holder's outcome stands.
   */
  function settleBatch(settlements: readonly Settlement[], claimed = true): boolean[] {
    const recorded = settlements.map(() => false)
    for (const round of settlementRounds(settlements)) {
      const done = settleRound(round.map((i) => settlements[i]!), claimed)
      round.forEach((i, k) => (recorded[i] = done[k]!))
    }
    return recorded
  }

  /**
   * One round of `settleBatch`: no post in it twice. Not `claimed`: the round's outcomes are the
   * claim's own publishes, of targets still pending on posts still scheduled.
   */
  function settleRound(round: readonly Settlement[], claimed: boolean): boolean[] {
    const published: unknown[][] = []
    const retry: unknown[][] = []
    const failed: unknown[][] = []
    for (const { postId, platform, claim, outcome: o, at } of round) {
      if (o.kind === 'published') published.push(claimed ? [postId, platform, claim, o.platformPostId, o.url, at] : [postId, platform, o.platformPostId, o.url, at])
      else if (o.kind === 'retry') retry.push([postId, platform, claim, o.at, o.code, o.detail, o.uncertainSince ?? null, o.part ?? null])
      else failed.push([postId, platform, claim, o.kind, o.kind === 'failed' ? o.code : 'unconfirmed', o.detail, o.part ?? null])
    }
    const changed = new Set([...each(published, claimed ? setPublished : publishNow), ...each(retry, setRetry), ...each(failed, setFailed)].map(keyOf))
    const recorded = round.map((s) => changed.has(keyOf({ post_id: s.postId, platform: s.platform })))
    const settled = round.filter((s, i) => recorded[i])
    // A retry changes the post's version only; the other outcomes also its state and events.
    const retried = settled.filter((s) => s.outcome.kind === 'retry')
    const ended = settled.filter((s) => s.outcome.kind !== 'retry')
    if (retried.length) touch.all(JSON.stringify(retried.map((s) => [s.postId, s.at])))
    if (ended.length === 0) return recorded
    // The targets are read once: they decide each post's final state and are in its events,
    // which carry the post as this transaction leaves it.
    const targets = groupBy(targetsOf.all(JSON.stringify(ended.map((s) => s.postId))), (t) => t.post_id)
    const finals = new Map(ended.map((s) => [s.postId, finalStatusOf(targets.get(s.postId)!)]))
    const after = new Map<string, PostRow>()
    const entered = new Set<string>()
    const finishing = ended.filter((s) => finals.get(s.postId))
    const from = claimed ? 'publishing' : 'scheduled'
    for (const row of each(finishing.map((s) => [s.postId, finals.get(s.postId)!.status, finals.get(s.postId)!.published_at, s.at, from]), finish)) {
      after.set(row.id, row)
      entered.add(row.id)
    }
    for (const row of each(ended.filter((s) => !finals.get(s.postId)).map((s) => [s.postId, s.at]), touch)) after.set(row.id, row)
    // A post that had reached its final state already (its other targets settled by a recovery, say).
    for (const row of each(ended.filter((s) => !after.has(s.postId)).map((s) => s.postId), postsOf)) after.set(row.id, row)
    for (const { postId, platform, outcome, at } of ended) {
      const row = after.get(postId)!
      const record = reader.recordFromRows(row, targets.get(postId)!)
      const final = finals.get(postId)
      if (outcome.kind === 'failed' && outcome.reauthRequired) accounts.markReauthRequiredSync(record.post.account_id, platform, at)
      if (outcome.kind === 'published' && outcome.refreshed) {
        accounts.replaceCredentialsSync(record.post.account_id, platform, outcome.refreshed.sealedCredentials, outcome.refreshed.connectedAt)
      }
      // The target's event is the post with its platform added last (as `{ ...post, platform }`
      // would be): one serialization of the post for both events.
      const post = JSON.stringify(record.post)
      events.appendJsonSync(record.workspaceId, outcome.kind === 'published' ? 'post.target.published' : 'post.target.failed', `${post.slice(0, -1)},"platform":${JSON.stringify(platform)}}`, at, SYSTEM)
      if (final) events.appendJsonSync(record.workspaceId, `post.${final.status}`, post, at, SYSTEM)
      // Published, partly published or failed alike, an evergreen series goes on: once, when the post enters its final state.
      if (entered.has(postId) && row.series_id) series.advanceSync(postId, at, SYSTEM)
    }
    return recorded
  }
  const settle = db.transaction((s: Settlement) => settleBatch([s])[0]!)
  const withRollups = <T>(settlements: readonly Settlement[], write: () => T): T => (rollups ? rollups(settlements, write) : write())

  // A batch sums what its targets change in the rollups once per rollup row, not per target.
  const settleAll = db.transaction((settlements: readonly Settlement[]) => withRollups(settlements, () => settleBatch(settlements)))

  /**
   * The posts of `picked` the claim publishes itself (InStorePlatforms), as settlements of their
   * targets: a post of one part whose targets are all pending on such platforms, due by `now`
   * and not beyond the catch-up window (what is, fails as `claim` fails it), each connection
   * active, none retried (a retried target may have parts out from before an edit). A target on
   * a connection that needs reauthorising, say, goes to an attempt, which fails it as it should.
   */
  function inStorePublishes(picked: readonly PickedRow[], now: number, catchUpMs: number, inStore: InStorePlatforms): { settlements: Settlement[]; items: unknown[][]; published: NonNullable<ClaimResult['published']> } {
    const simple = picked.filter((p) => p.simple)
    const targets = groupBy(each(simple.map((p) => [p.id, p.account_id]), pickedTargets), (t) => t.post_id)
    const settlements: Settlement[] = []
    const items: unknown[][] = []
    const published: NonNullable<ClaimResult['published']> = []
    for (const post of simple) {
      const own = targets.get(post.id)
      if (!own?.every((t) => t.status === 'pending' && t.connection === 'active' && t.attempts_before_retry === 0 && inStore.has(t.platform))) continue
      const dueAt = (t: PickedTarget) => t.next_attempt_at ?? post.scheduled_at
      if (!own.every((t) => dueAt(t) <= now && now - dueAt(t) <= catchUpMs)) continue
      for (const t of own) {
        const out = inStore.get(t.platform)!(post.account_id, post.id)
        items.push([post.account_id, post.id, post.content, post.media_urls, now])
        settlements.push({ postId: post.id, platform: t.platform, claim: t.claim + 1, outcome: { kind: 'published', platformPostId: out.platformPostId, url: out.url }, at: now })
        published.push({ postId: post.id, platform: t.platform, dueAt: dueAt(t), attempts: t.attempts + 1 })
      }
    }
    return { settlements, items, published }
  }

  const claim = db.transaction((now: number, limit: number, catchUpMs: number, inStore: InStorePlatforms | undefined): ClaimResult => {
    let posts: { id: string; scheduled_at: number }[]
    let claimed: number
    let published: ClaimResult['published']
    if (inStore?.size) {
      // The claim publishes what it can, in this transaction; the rest is claimed for attempts.
      const picked = pickDue.all({ now, ...split(limit) })
      const own = inStorePublishes(picked, now, catchUpMs, inStore)
      if (own.settlements.length) {
        insertItems.run(JSON.stringify(own.items))
        withRollups(own.settlements, () => settleBatch(own.settlements, false))
        published = own.published
      }
      const byClaim = new Set(own.settlements.map((s) => s.postId))
      const rest = picked.filter((p) => !byClaim.has(p.id))
      posts = rest.length ? claimPicked.all(now, JSON.stringify(rest.map((p) => p.id))) : []
      claimed = picked.length
    } else {
      posts = claimPosts.all({ now, ...split(limit) })
      claimed = posts.length
    }
    const result: ClaimResult = { claimed, missed: 0, ...(published ? { published } : {}) }
    if (posts.length === 0) return result
    const due = groupBy(makeDue.all(JSON.stringify(posts.map((p) => [p.id, p.scheduled_at]))), (t) => t.post_id)
    const missed: Settlement[] = []
    for (const post of posts) {
      const targets = due.get(post.id) ?? []
      if (targets.length === 0 || now - Math.min(...targets.map((t) => t.due_at)) <= catchUpMs) continue
      result.missed++
      const detail = `The daemon was not running at the scheduled time and the post is over ${Math.round(catchUpMs / 3_600_000)} h late; it was not published. Retry it to publish now.`
      for (const { platform, claim } of targets) missed.push({ postId: post.id, platform, claim, outcome: { kind: 'failed', code: 'missed_schedule', detail }, at: now })
    }
    settleBatch(missed)
    return result
  })

  const partsOfTarget = db.prepare<[string, string], PartRow>('SELECT * FROM post_target_parts WHERE post_id = ? AND platform = ? ORDER BY idx')
  const claimAll = db.transaction((claims: readonly { ref: TargetRef; now: number }[], leaseMs: number): (ClaimedTarget | undefined)[] => {
    const rows = new Map(claimTargets.all(JSON.stringify(claims.map(({ ref, now }) => [ref.postId, ref.platform, now, now + leaseMs]))).map((row) => [keyOf(row), row]))
    const posts = new Map(postsOf.all(JSON.stringify([...new Set([...rows.values()].map((r) => r.post_id))])).map((p) => [p.id, p]))
    return claims.map(({ ref }) => {
      const key = keyOf({ post_id: ref.postId, platform: ref.platform })
      const row = rows.get(key)
      if (!row) return undefined
      // A target asked for twice in one batch is claimed once.
      rows.delete(key)
      const post = posts.get(ref.postId)!
      // Written out rather than spread (see claimedTargetOf).
      const claim: ClaimRow = {
        claim: row.claim,
        attempts: row.attempts,
        attempts_before_retry: row.attempts_before_retry,
        next_attempt_at: row.next_attempt_at,
        uncertain_since: row.uncertain_since,
        user_id: post.user_id,
        content: post.content,
        media_urls: post.media_urls,
        media: post.media,
        thread: post.thread,
        first_comment: post.first_comment,
        overrides: post.overrides,
      }
      // The parts an earlier attempt got out: the attempt resumes after them.
      return claimedTargetOf(ref, claim, hasPartRows(post, [row]) ? partsOfTarget.all(ref.postId, ref.platform).map(storedPartOf) : [])
    })
  })
  const insertPart = db.prepare<[PartRow], void>(
    `INSERT INTO post_target_parts (post_id, platform, idx, kind, platform_post_id, url, ref, published_at)
     VALUES (@post_id, @platform, @idx, @kind, @platform_post_id, @url, @ref, @published_at) ON CONFLICT DO NOTHING`,
  )
  const held = db.prepare<[string, string, number], unknown>("SELECT 1 FROM post_targets WHERE post_id = ? AND platform = ? AND claim = ? AND status = 'publishing'")
  const clearUncertain = db.prepare<[string, string], void>('UPDATE post_targets SET uncertain_since = NULL WHERE post_id = ? AND platform = ?')
  // Kept only while the claim it went out under is current (one writer at a time: nothing comes between).
  const recordPart = db.transaction(({ postId, platform, claim }: HeldTarget, part: StoredPart): boolean => {
    if (!held.get(postId, platform, claim) || insertPart.run(partColumns(postId, platform, part)).changes === 0) return false
    // The request whose outcome was in doubt was this part's: it is out, so the doubt is over.
    clearUncertain.run(postId, platform)
    return true
  })

  return {
    /** Claims up to `limit` due posts, oldest first; those beyond the catch-up window fail. */
    async claimDue(now: number, limit: number, catchUpMs: number, inStore?: InStorePlatforms): Promise<ClaimResult> {
      return claim.immediate(now, limit, catchUpMs, inStore)
    },

    async reserveDue(now: number, limit: number, leaseMs: number): Promise<TargetRef[]> {
      return reserve.all({ until: now + leaseMs, now, ...split(limit) }).sort((a, b) => a.dueAt - b.dueAt)
    },

    async releaseReservations(): Promise<void> {
      release.run()
    },

    async claimTarget(ref: TargetRef, now: number, leaseMs: number): Promise<ClaimedTarget | undefined> {
      return claimAll.immediate([{ ref, now }], leaseMs)[0]
    },

    async claimTargets(claims: readonly { ref: TargetRef; now: number }[], leaseMs: number): Promise<(ClaimedTarget | undefined)[]> {
      return claimAll.immediate(claims, leaseMs)
    },

    /**
     * Records an attempt's outcome, its events and, once every target is settled, the post's
     * final state and event: all in one transaction. False if the target was settled already.
     */
    async settle(target: HeldTarget, outcome: Outcome, now: number): Promise<boolean> {
      return settle.immediate({ postId: target.postId, platform: target.platform, claim: target.claim, outcome, at: now })
    },

    async settleAll(settlements: readonly Settlement[]): Promise<boolean[]> {
      return settleAll.immediate(settlements)
    },

    async renewLeases(targets: readonly { postId: string; platform: PlatformName; claim?: number }[], until: number): Promise<void> {
      renew(targets, until)
    },

    async recordPart(target: HeldTarget, part: StoredPart): Promise<boolean> {
      return recordPart.immediate(target, part)
    },

    /** Puts an abandoned attempt back in the queue, for platforms where a re-send is safe. */
    async resend({ postId, platform, claim }: HeldTarget, now: number): Promise<void> {
      resend.run(now, postId, platform, claim)
    },

    async abandoned(now: number, all: boolean): Promise<AbandonedTarget[]> {
      if (all) release.run()
      return abandoned.all(now + RECOVERY_LEASE_MS, all ? 1 : 0, now)
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

    async dueCount(now: number): Promise<number> {
      return dueCount.get({ now })!.n
    },
  }
}
