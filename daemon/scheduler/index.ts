import { Cron } from 'croner'
import type { Logger } from 'pino'
import { PLATFORM_NAMES } from '../../src/api/common.js'
import type { Clock } from '../../src/time.js'
import type { HttpClient } from '../egress.js'
import type { PlatformRegistry } from '../platforms/index.js'
import type { OAuthApps } from '../platforms/oauth-apps.js'
import { callWithConnection } from '../platforms/oauth-tokens.js'
import type { PlatformContext, PlatformName, Published, PublishRequest } from '../platforms/types.js'
import { attachmentOf } from '../media/attachments.js'
import type { MediaStore } from '../media/port.js'
import type { SecretBox } from '../secret-box.js'
import type { Store } from '../store/index.js'
import { StoreUnavailableError, whileUnavailable, type ClaimedTarget, type ClaimResult, type InStorePlatforms, type Settlement, type StoredConnection, type StoredPart, type TargetRef } from '../store/index.js'
import { Batcher } from '../batcher.js'
import { counterChildren, metricSet, storeGauge, type Prometheus } from '../prometheus/registry.js'
import { canResend, MAX_ATTEMPTS, outcomeOfError, unconfirmedDetail, type AttemptOutcome, type FailureReason } from './attempt.js'
import { KeyedLimiter } from './limiter.js'
import { followUpOf, inPart } from './parts.js'
import { SharedLoop } from './shared-loop.js'

export interface SchedulerDeps {
  store: Store
  clock: Clock
  log: Logger
  http: HttpClient
  platforms: PlatformRegistry
  secrets: SecretBox
  oauthApps: OAuthApps
  /** Where the publishing metrics are registered; unset when metrics are off. */
  prometheus?: Prometheus
  /** Where uploaded media's bytes are, for the platforms that upload them. */
  mediaStore: MediaStore
}

/** The `reason` of a target that failed for good, or `unconfirmed` for one whose outcome is unknown. */
const FAILED_REASONS = ['permanent', 'auth', 'transient', 'not_connected', 'missed_schedule', 'unconfirmed'] as const satisfies readonly (FailureReason | 'unconfirmed')[]

const publishMetrics = metricSet(({ Counter, Gauge, Histogram }, registers) => {
  const published = new Counter({
    name: 'smm_posts_published_total',
    help: 'Post targets (a post on one platform) this node published, by platform.',
    labelNames: ['platform'],
    registers,
  })
  const failed = new Counter({
    name: 'smm_posts_failed_total',
    help: "Post targets this node failed for good, by platform and reason: the platform error's class (permanent, auth, transient once the attempts ran out), unconfirmed (unknown whether it went out, not sent again), not_connected or missed_schedule.",
    labelNames: ['platform', 'reason'],
    registers,
  })
  return {
    published: counterChildren(published, PLATFORM_NAMES),
    failed: counterChildren(failed, PLATFORM_NAMES, FAILED_REASONS),
    missed: new Counter({
      name: 'smm_posts_missed_total',
      help: 'Posts this node found due beyond the catch-up window (the daemons were down) and failed with missed_schedule without an attempt.',
      registers,
    }),
    lateness: new Histogram({
      name: 'smm_publish_lateness_seconds',
      help: 'How late each publish attempt by this node started after it was due (the post’s scheduled time, or its retry’s).',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
      registers,
    }),
    inFlight: new Gauge({ name: 'smm_publish_attempts_in_flight', help: 'Publish attempts this node is making right now (claimed, not yet recorded).', registers }),
  }
})

export interface SchedulerOptions {
  /** How late an overdue post may still be published (after downtime). Default 24 h. */
  catchUpMs?: number
  /** How long an attempt's claim holds unless renewed (every third of it while the attempt runs): how soon another node takes over the work of one that died. Default 30 s. */
  leaseMs?: number
  maxAttempts?: number
  /** Attempts in flight per platform, and per connection (one account on one platform). */
  perPlatform?: number
  perConnection?: number
  /**
   * Targets a node holds at once (reserved, waiting for a slot, or being attempted): it reserves
   * more only as these finish, so the nodes sharing a database share a burst. Default 64.
   */
  holding?: number
  /** The safety-net sweep (which also takes over expired leases), a croner pattern. Default every 15 s, or every half lease if that is shorter. */
  sweepPattern?: string
  /** How long `stop()` waits for attempts in flight. Default 10 s. */
  stopGraceMs?: number
}

export interface TickResult {
  claimed: number
  missed: number
  attempted: number
}

/**
 * Posts claimed per statement. Each batch is one synchronous stretch on the event loop (about
 * 3 ms on SQLite): small enough that the attempts and another account's posts are not held up
 * for long by a burst's claims, large enough that a burst is a few commits per thousand posts.
 */
const CLAIM_BATCH = 128

/** A connection and its credentials, opened for an attempt; or the outcome when it cannot be. */
type Opened = { connection: StoredConnection; credentials: Record<string, unknown> } | AttemptOutcome

const failed = (code: string, detail: string, reason: FailureReason): AttemptOutcome => ({ kind: 'failed', code, detail, reason })

const keyOf = (ref: Pick<TargetRef, 'postId' | 'platform'>) => `${ref.postId} ${ref.platform}`
const heldOf = ({ postId, platform, claim }: ClaimedTarget) => ({ postId, platform, claim })

/**
 * Publishes posts when they are due. A croner job is armed for the earliest due post or retry
 * (re-armed whenever posts change), a periodic sweep is the safety net, and `tick(now)` does
 * the work: claim due posts, then attempt each due target under per-platform and
 * per-connection limits, recording each outcome as it comes.
 */
export class Scheduler {
  private readonly options: Required<SchedulerOptions>
  private readonly limiter: KeyedLimiter
  private readonly inFlight = new Set<Promise<void>>()
  /** The targets this scheduler holds leases on (reserved, or attempted under `claim`), by `postId platform`. */
  private readonly leased = new Map<string, { postId: string; platform: TargetRef['platform']; claim?: number }>()
  private renewer: NodeJS.Timeout | undefined
  /** When (on the clock) the leases were last renewed: every lease held runs at least a lease past it. */
  private renewedAt = Number.NEGATIVE_INFINITY
  private armed: { at: number; job: Cron } | undefined
  private sweep: Cron | undefined
  private soon: NodeJS.Immediate | undefined
  private started: Promise<void> | undefined
  /** Claims due posts: one loop at a time, however many ticks ask (see `claim`). */
  private readonly claiming: SharedLoop<{ claimed: number; missed: number; horizon: number }>
  /** Reserves due targets and starts their attempts: one loop at a time likewise (see `reserve`). */
  private readonly reserving: SharedLoop<{ started: number }>
  private stopping = false
  /** Set once `stop()`'s grace is over: outcomes still waiting for the database are given up then (recovery resolves them). */
  private halted = false
  /** Whether the start-up recovery (every attempt of this node's previous run) is still to be done. */
  private recoverAll = false
  /** A run failed for the database being out of reach: once it answers again, leases are renewed first and others' left alone a while. */
  private outage = false
  /** Until when (on the clock) other nodes' lapsed attempts are left to them: after an outage, their renewals come first. */
  private holdRecoveryUntil = Number.NEGATIVE_INFINITY
  private retryTimer: NodeJS.Timeout | undefined
  private readonly platformCtx: PlatformContext
  /** Outcomes recorded together, one transaction per batch: a burst's hottest write. */
  private readonly settlements: Batcher<Settlement, boolean>
  /**
   * Claims taken together likewise: one statement for the attempts that get their slots at once,
   * and one read (and opening) of each connection they publish on, not one per attempt.
   */
  private readonly claims: Batcher<{ ref: TargetRef; now: number }, { target: ClaimedTarget; connection: Promise<Opened> } | undefined>
  private readonly metrics: ReturnType<typeof publishMetrics>
  /** The platforms whose publish is an item in the store's own feed (`Platform.inStore`): the claim publishes their posts. */
  private readonly inStore: InStorePlatforms

  constructor(
    private readonly deps: SchedulerDeps,
    options: SchedulerOptions = {},
  ) {
    // Renewed every third of it while the attempt runs: a node that dies is taken over within it
    // (and the sweep that looks for such attempts after it).
    const leaseMs = options.leaseMs ?? 30_000
    this.options = {
      catchUpMs: 24 * 3_600_000,
      leaseMs,
      maxAttempts: MAX_ATTEMPTS,
      perPlatform: 32,
      perConnection: 4,
      holding: 64,
      sweepPattern: `*/${Math.max(1, Math.min(15, Math.floor(leaseMs / 2_000)))} * * * * *`,
      stopGraceMs: 10_000,
      ...options,
    }
    // Keys are `platform:NAME` and `connection:ACCOUNT:NAME`; a platform may declare its own limits.
    this.limiter = new KeyedLimiter((key) => {
      const [kind, ...rest] = key.split(':')
      const declared = deps.platforms.platformFor(rest[rest.length - 1]!)?.concurrency
      return kind === 'platform' ? (declared?.perPlatform ?? this.options.perPlatform) : (declared?.perConnection ?? this.options.perConnection)
    })
    this.platformCtx = { http: deps.http, clock: deps.clock, log: deps.log }
    const inStore = new Map<PlatformName, (accountId: string, postId: string) => { platformPostId: string | null; url: string | null }>()
    for (const name of deps.platforms.available()) {
      const platform = deps.platforms.platformFor(name)!
      if (!platform.inStore) continue
      inStore.set(name, (accountId, postId) => {
        const out = platform.inStore!(accountId, postId)
        return { platformPostId: out.platform_post_id, url: out.url }
      })
    }
    this.inStore = inStore
    this.metrics = publishMetrics(deps.prometheus)
    if (deps.prometheus) {
      storeGauge(deps.prometheus, {
        name: 'smm_scheduler_due_posts',
        help: 'Posts due and not yet out, in the database all nodes share (every node reports the same figure): waiting for a claim, or with a target due or being attempted. NaN when the store did not answer within a second.',
        read: () => deps.store.publishing.dueCount(deps.clock.now()),
      })
    }
    const { publishing } = deps.store
    this.claims = new Batcher(async (batch) => {
      const connections = new Map<string, Promise<Opened>>()
      const opened = (target: ClaimedTarget) => {
        const key = `${target.accountId} ${target.platform}`
        let opening = connections.get(key)
        if (!opening) {
          connections.set(key, (opening = this.open(target)))
          // An attempt that ends before it needs the connection (too late, say) never awaits it: a
          // failed read is then the other attempts' error, not an unhandled rejection.
          opening.catch(() => undefined)
        }
        return opening
      }
      return (await publishing.claimTargets(batch, this.options.leaseMs)).map((target) => ({
        status: 'fulfilled' as const,
        value: target && { target, connection: opened(target) },
      }))
    })
    // One outcome that cannot be written must not hold back the others: a failed batch is
    // recorded again outcome by outcome (settleAll is one transaction).
    this.settlements = new Batcher(async (batch) => (await publishing.settleAll(batch)).map((value) => ({ status: 'fulfilled', value })), { retryAlone: true })
    this.claiming = new SharedLoop(() => ({ claimed: 0, missed: 0, horizon: Number.NEGATIVE_INFINITY }), (horizon, totals) => this.claimRound(horizon, totals), () => deps.clock.now())
    this.reserving = new SharedLoop(() => ({ started: 0 }), (horizon, totals) => this.reserveRound(horizon, totals), () => deps.clock.now())
  }

  /**
   * Resolves attempts a previous run left open (if the database does not answer, the next run
   * does), then starts the sweep and arms for the next post.
   */
  start(): void {
    this.started ??= (async () => {
      this.recoverAll = true
      await this.recover(this.deps.clock.now(), false).catch((error) => this.failed(error, 'start'))
      this.renewer = setInterval(() => void this.renewLeases(this.deps.clock.now()).catch((error) => this.failed(error, 'lease renewal')), this.options.leaseMs / 3)
      this.renewer.unref()
      this.sweep = new Cron(this.options.sweepPattern, { protect: true, catch: (error) => this.failed(error, 'sweep') }, async () => {
        await this.tick(this.deps.clock.now())
      })
      this.wake()
    })()
  }

  /** Posts changed (created, updated, cancelled, retried): arm for whatever is now earliest. */
  wake(): void {
    if (this.stopping) return
    this.rearm(true).catch((error) => this.failed(error, 'arm'))
  }

  /** Does everything due at `now`, and resolves when every attempt in flight has settled. */
  async tick(now: number): Promise<TickResult> {
    await this.started
    const result: TickResult = { claimed: 0, missed: 0, attempted: 0 }
    if (this.stopping) return result
    await this.recover(now, false)
    // Armed for what falls due next while this tick works through what is due now: a post due
    // one second into a burst gets a tick of its own then, not when the burst is done (nor when
    // the claims this tick joined are).
    const [claimed] = await Promise.all([this.claim(now), this.rearm(false)])
    result.claimed = claimed.claimed
    result.missed = claimed.missed
    const { horizon } = claimed
    result.attempted = await this.reserve(horizon)
    // Also wait for attempts an overlapping tick started: when this resolves, everything due
    // by `now` has been attempted (what tests and a draining shutdown rely on).
    await Promise.all([...this.inFlight].map((p) => p.catch(() => undefined)))
    // Run again at once only if this tick made progress: due targets that another tick holds
    // in its queue would otherwise make ticks spin until they are attempted.
    if (!this.stopping) await this.rearm(result.claimed + result.attempted > 0)
    return result
  }

  /**
   * Claims the posts due by `now`, or by a later time an overlapping tick asks for meanwhile: one
   * loop at a time, however many ticks run, as the reservations are. A large burst is claimed
   * batch by batch, and the first attempts need not wait for the last claim: the store answers
   * at once (SQLite is synchronous), so the loop gives the event loop a turn after each batch,
   * and the attempts (whose claims, feed items and outcomes each wait a turn for their batch)
   * go on meanwhile. One loop and small batches keep that share fair: a post of another account
   * falling due every few milliseconds starts a tick each, and each tick looping through the
   * burst by itself made every turn a claim per tick, the attempts one step a turn.
   */
  private claim(now: number): Promise<{ claimed: number; missed: number; horizon: number }> {
    return this.claiming.ask(now)
  }

  /**
   * One batch of `claim`: true while more may be due. A large burst takes a while to claim: what
   * falls due meanwhile (another account's post a second in) is claimed with it, a quarter of
   * each batch from the most recently due.
   */
  private async claimRound(horizon: number, totals: { claimed: number; missed: number; horizon: number }): Promise<boolean> {
    totals.horizon = horizon
    const batch = await this.deps.store.publishing.claimDue(horizon, CLAIM_BATCH, this.options.catchUpMs, this.inStore)
    totals.claimed += batch.claimed
    totals.missed += batch.missed
    this.metrics.missed.inc(batch.missed)
    if (batch.published) this.publishedByClaim(batch.published, horizon)
    if (batch.claimed < CLAIM_BATCH) return false
    this.reserve(horizon).catch((error) => this.failed(error, 'reserve'))
    // What is claimed waits for a reservation anyway: while this node holds a batch, the next is
    // claimed once an attempt finishes or a tick asks (another account's post falling due), not
    // at every turn of the event loop. A burst's claims running ahead made every turn a claim of
    // 128 longer, and another account's post waits a few turns for each step of its attempt.
    if (this.leased.size >= this.options.holding / 2) await Promise.race([...this.inFlight, this.claiming.nextAsk()])
    else await new Promise((resolve) => setImmediate(resolve))
    return true
  }

  /**
   * Reserves due targets and starts their attempts, by `now` or by a later time an overlapping
   * tick asks for meanwhile: one loop at a time, however many ticks run (a post falling due every
   * few milliseconds during a burst starts a tick each; each waking at every finished attempt
   * would cost more than the burst). Only what this node can soon attempt is reserved, more as
   * attempts finish: a burst is shared with the other nodes on the database, not swallowed by
   * the first to look. Resolves, once nothing more is due, to how many attempts it started.
   */
  private async reserve(now: number): Promise<number> {
    return (await this.reserving.ask(now)).started
  }

  /** One reservation of `reserve`: true while more may be due, or it waited for room. */
  private async reserveRound(horizon: number, totals: { started: number }): Promise<boolean> {
    if (this.stopping) return false
    const room = this.options.holding - this.leased.size
    // Reserved in batches of at least half of what a node holds: one statement, not one per target.
    if (room < this.options.holding / 2) {
      await Promise.race(this.inFlight)
      return true
    }
    const refs = await this.deps.store.publishing.reserveDue(horizon, room, this.options.leaseMs)
    for (const ref of refs) {
      this.leased.set(keyOf(ref), { postId: ref.postId, platform: ref.platform })
      void this.track(this.attempt(ref, horizon))
    }
    totals.started += refs.length
    return refs.length === room
  }

  /** Stops taking work; attempts in flight may finish (bounded), the rest stay queued for the next start. */
  async stop(): Promise<void> {
    this.stopping = true
    this.sweep?.stop()
    this.armed?.job.stop()
    this.armed = undefined
    if (this.soon) clearImmediate(this.soon)
    await this.started
    let timer: NodeJS.Timeout | undefined
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.stopGraceMs)))
    await Promise.race([Promise.allSettled([...this.inFlight]), grace])
    this.halted = true
    clearTimeout(timer)
    clearTimeout(this.retryTimer)
    clearInterval(this.renewer)
    // What was reserved and not begun is due again for the other nodes (or the next start) at once.
    await this.deps.store.publishing.releaseReservations().catch((error) => this.logError(error, 'release'))
  }

  private track(work: Promise<void>): Promise<void> {
    this.inFlight.add(work)
    return work.finally(() => this.inFlight.delete(work))
  }

  /** Arms the croner job for the next due time; `now` also runs a tick at once if anything is due. */
  private async rearm(now: boolean): Promise<void> {
    const current = this.deps.clock.now()
    const due = await this.deps.store.publishing.due(current)
    if (this.stopping) return
    if (due.posts || (now && due.targets)) this.runSoon()
    const at = due.next
    if (at === undefined) {
      this.armed?.job.stop()
      this.armed = undefined
      return
    }
    if (this.armed?.at === at) return
    this.armed?.job.stop()
    // croner times runs by the wall clock; the wait is measured on our clock, so an injected
    // clock and the system clock agree on how far away the post is.
    const job = new Cron(new Date(Date.now() + (at - current)), { catch: (error) => this.failed(error, 'armed run') }, () => {
      if (this.armed?.job === job) this.armed = undefined
      this.runSoon()
    })
    this.armed = { at, job }
  }

  /** One tick on the next turn of the event loop, however many wake-ups asked for it. */
  private runSoon(): void {
    if (this.soon || this.stopping) return
    this.soon = setImmediate(() => {
      this.soon = undefined
      this.tick(this.deps.clock.now()).catch((error) => this.failed(error, 'tick'))
    })
  }

  /** Extends the leases this scheduler holds, each attempt's only while its claim is current. */
  private async renewLeases(now: number): Promise<void> {
    if (this.leased.size === 0) return
    await this.deps.store.publishing.renewLeases([...this.leased.values()], now + this.options.leaseMs)
    this.renewedAt = Math.max(this.renewedAt, now)
  }

  /**
   * Attempts whose lease ran out, or at start every attempt (no attempt of a dead process is
   * alive): re-sent while the platform would recognise the repeat (counted from when the attempt
   * fell due, or an earlier attempt of unknown outcome was sent), else `unconfirmed`. This
   * node's own leases are renewed first if their renewal is due: after the process was stopped
   * (SIGSTOP, a suspended VM) its sweep may run before its renewal timer, and must not take
   * its own live attempts for abandoned ones.
   */
  private async recover(now: number, restarting: boolean): Promise<void> {
    const { store, platforms } = this.deps
    const all = restarting || this.recoverAll
    if (!all && (this.outage || now - this.renewedAt >= this.options.leaseMs / 3)) await this.renewLeases(now)
    // Back after an outage longer than a lease, every node's leases look lapsed: each renews its
    // own at its first run (above), and leaves the others' a third of a lease to do the same.
    if (this.outage) this.holdRecoveryUntil = now + this.options.leaseMs / 3
    this.outage = false
    if (!all && now < this.holdRecoveryUntil) return
    const abandoned = await store.publishing.abandoned(now, all)
    if (all) this.recoverAll = false
    for (const ref of abandoned) {
      const platform = platforms.platformFor(ref.platform)
      if (platform && canResend(platform, ref.dueAt, now)) {
        await store.publishing.resend(ref, now)
      } else {
        const detail = unconfirmedDetail(ref.platform, platform?.idempotencyWindowMs ?? 0, `The daemon stopped while ${ref.platform} was publishing this post`)
        const outcome = { kind: 'unconfirmed' as const, detail }
        if (await store.publishing.settle(ref, outcome, now)) this.count(ref.platform, outcome)
      }
      this.deps.log.warn({ post_id: ref.postId, platform: ref.platform }, 'recovered an interrupted publish attempt')
    }
  }

  private async attempt(ref: TargetRef, horizon: number): Promise<void> {
    const { clock, log } = this.deps
    const release = await this.limiter.acquire([`connection:${ref.accountId}:${ref.platform}`, `platform:${ref.platform}`])
    let attempting = false
    try {
      // Stopping: leave it pending (its reservation given back at stop), for another node or the next start.
      if (this.stopping) return
      const claimed = await this.claims.add({ ref, now: Math.max(horizon, clock.now()) })
      if (!claimed) return
      const { target } = claimed
      this.leased.set(keyOf(ref), heldOf(target))
      const started = clock.now()
      attempting = true
      this.metrics.inFlight.inc()
      this.metrics.lateness.observe(Math.max(0, started - target.dueAt) / 1000)
      const outcome = await this.publish(target, claimed.connection)
      // An outcome known is kept until the database takes it (an outage delays it, never loses it).
      const recorded = outcome !== undefined && (await whileUnavailable(() => this.settlements.add({ postId: target.postId, platform: target.platform, claim: target.claim, outcome, at: clock.now() }), () => this.halted))
      // Not recorded: the lease ran out (this process was stopped, say) and the target was taken
      // over; what this attempt saw is stale, and the current holder's outcome stands.
      if (!outcome || !recorded) {
        log.warn({ post_id: target.postId, platform: target.platform, attempt: target.attempts, outcome: outcome?.kind ?? null }, 'stale publish outcome dropped: the claim was taken over after its lease ran out')
        return
      }
      this.count(target.platform, outcome)
      log.info({
        msg: 'publish attempt',
        post_id: target.postId,
        platform: target.platform,
        attempt: target.attempts,
        outcome: outcome.kind,
        ...(outcome.kind === 'published' ? {} : { code: outcome.kind === 'unconfirmed' ? 'unconfirmed' : outcome.code }),
        late_ms: started - target.dueAt,
        ms: clock.now() - started,
      })
    } catch (error) {
      // The target stays `publishing` under its lease; recovery resolves it.
      this.logError(error, 'attempt', { post_id: ref.postId, platform: ref.platform })
    } finally {
      if (attempting) this.metrics.inFlight.dec()
      this.leased.delete(keyOf(ref))
      release()
    }
  }

  /** Counts and logs the targets a claim published itself, at `at`, as an attempt's are. */
  private publishedByClaim(published: NonNullable<ClaimResult['published']>, at: number): void {
    for (const { postId, platform, dueAt, attempts } of published) {
      this.metrics.lateness.observe(Math.max(0, at - dueAt) / 1000)
      this.metrics.published.get(platform)!.inc()
      this.deps.log.info({ msg: 'publish attempt', post_id: postId, platform, attempt: attempts, outcome: 'published', late_ms: at - dueAt, ms: 0 })
    }
  }

  /** Counts a recorded outcome: published, or failed for good and why (a retry is neither yet). */
  private count(platform: string, outcome: AttemptOutcome): void {
    if (outcome.kind === 'published') this.metrics.published.get(platform)!.inc()
    else if (outcome.kind !== 'retry') this.metrics.failed.get(`${platform} ${outcome.kind === 'failed' ? outcome.reason : 'unconfirmed'}`)!.inc()
  }

  /** A claimed target's connection and its credentials, opened; or why it cannot publish. */
  private async open(target: ClaimedTarget): Promise<Opened> {
    const name = target.platform
    const connection = await this.deps.store.accounts.connection(target.accountId, name)
    if (!connection) return failed('platform_not_connected', `The account is no longer connected to ${name}. Connect it, then retry.`, 'not_connected')
    if (connection.status !== 'active') return failed('reauth_required', `The ${name} connection needs to be connected again (its credentials were refused). Reconnect, then retry.`, 'auth')
    try {
      return { connection, credentials: this.deps.secrets.open(connection.sealedCredentials, `${target.accountId}:${name}`) as Record<string, unknown> }
    } catch (error) {
      return failed('credentials_unreadable', `${(error as Error).message} Reconnect the account.`, 'auth')
    }
  }

  /**
   * Calls the platform; never throws: every way it can end is an outcome, or undefined when a
   * part went out but the claim was lost meanwhile (nothing more is sent under it).
   */
  private async publish(target: ClaimedTarget, opening: Promise<Opened>): Promise<AttemptOutcome | undefined> {
    const { store, platforms, secrets, clock } = this.deps
    const name = target.platform
    const platform = platforms.platformFor(name)
    if (!platform) return failed('platform_unavailable', `This smm has no ${name} platform.`, 'not_connected')
    const now = clock.now()
    if (now - target.dueAt > this.options.catchUpMs) {
      return failed('missed_schedule', `The attempt is over ${Math.round(this.options.catchUpMs / 3_600_000)} h late (the daemon was down); it was not published. Retry it to publish now.`, 'missed_schedule')
    }
    const opened = await opening
    if ('kind' in opened) return opened
    const { connection } = opened
    let { credentials } = opened
    // Part by part: each one out is recorded at once, in its own write, so a failure (or a crash)
    // part-way leaves the parts before it recorded, and the next attempt resumes after them.
    const out = new Map(target.published.map((part) => [part.index, part]))
    const several = target.parts.length > 1
    // Uploaded media, read once for every part: a media named by a post cannot be deleted while it is publishing.
    const ids = [...new Set(target.parts.flatMap((part) => part.media.map((ref) => ref.id)))]
    const media = new Map((ids.length ? await store.media.getMany(target.userId, ids) : []).map((m) => [m.id, m]))
    const gone = ids.filter((id) => !media.has(id))
    if (gone.length) return failed('media_missing', `The media ${gone.join(', ')} no longer exist (deleted with their account?); the post was not published. Upload them again and edit the post.`, 'permanent')
    let sealed: Buffer | undefined
    for (const part of target.parts) {
      if (out.has(part.index)) continue
      const started = clock.now()
      const request: PublishRequest = {
        postId: target.postId,
        content: part.content,
        mediaUrls: part.mediaUrls,
        media: part.media.map((ref) => attachmentOf(media.get(ref.id)!, ref, this.deps.mediaStore)),
        ...(part.index > 0 ? { followUp: followUpOf(part, out) } : {}),
      }
      let result: Published
      try {
        // OAuth tokens are refreshed (and stored) in there, before they expire and once on a refusal.
        result = await callWithConnection(this.deps, platform, connection, credentials, this.platformCtx, (withTokens, ctx) => platform.publish(withTokens, request, ctx))
      } catch (error) {
        // The database went away under the call (the feed writes its item there; refreshed tokens
        // are stored there): not the platform's answer. The attempt is left to its lease, and
        // recovery sends it again once the database is back, as after a crash.
        if (error instanceof StoreUnavailableError) throw error
        // A part recorded in this attempt settled whatever doubt the claim carried: it was that part's.
        const current = out.size > target.published.length ? { ...target, uncertainSince: undefined } : target
        const outcome = outcomeOfError(error, current, platform, started, clock.now(), this.options.maxAttempts)
        return several ? inPart(outcome, part, target.parts.length) : outcome
      }
      // A platform that refreshed its session hands the new credentials back: used for the next
      // part, and kept sealed, so a restart resumes that session instead of logging in again.
      if (result.credentials) {
        credentials = result.credentials
        sealed = secrets.seal(result.credentials, `${target.accountId}:${name}`)
      }
      const stored: StoredPart = { index: part.index, kind: part.kind, platformPostId: result.platform_post_id, url: result.url, ref: result.ref ?? null, publishedAt: clock.now() }
      // A post of one part needs no record of its own: the settlement that follows is it (and a
      // burst of single posts pays no second write each).
      if (several && !(await whileUnavailable(() => store.publishing.recordPart(target, stored), () => this.halted))) return undefined
      out.set(part.index, stored)
    }
    const main = out.get(0)!
    const refreshed = sealed && { sealedCredentials: sealed, connectedAt: connection.connectedAt }
    return { kind: 'published', platformPostId: main.platformPostId, url: main.url, ...(refreshed ? { refreshed } : {}) }
  }

  /**
   * A run that failed: logged; if the database was out of reach, runs again in a second (not at
   * the next sweep), so publishing resumes as soon as it answers.
   */
  private failed(error: unknown, where: string): void {
    this.logError(error, where)
    if (!(error instanceof StoreUnavailableError)) return
    this.outage = true
    if (this.retryTimer || this.stopping) return
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined
      this.runSoon()
    }, 1_000)
    this.retryTimer.unref()
  }

  private logError(error: unknown, where: string, extra: Record<string, unknown> = {}): void {
    this.deps.log.error({ err: error, worker: 'scheduler', where, ...extra }, 'scheduler error')
  }
}
