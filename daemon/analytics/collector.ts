import { Cron } from 'croner'
import type { AppDeps } from '../context.js'
import { EgressError } from '../egress.js'
import { PlatformError, type Metrics, type Platform, type PlatformContext } from '../platforms/types.js'
import { callWithConnection } from '../platforms/oauth-tokens.js'
import { KeyedLimiter } from '../scheduler/limiter.js'
import type { StoredConnection } from '../store/index.js'
import type { Collected, DueTarget } from '../store/index.js'
import type { Worker } from '../worker.js'
import { collectionBackoffMs, nextCollectionAt } from './schedule.js'

/** How long a claimed batch of reads is this node's: past it (the node died), any node reads them. */
const CLAIM_LEASE_MS = 5 * 60_000

export interface CollectorOptions {
  /** Reads in flight at once per platform (one per connection: a connection's batches go in turn). */
  perPlatform?: number
  /** Platform post ids per `metrics()` call. */
  batchSize?: number
  /** Due targets taken from the store at a time, and at most this many pages per run. */
  pageSize?: number
  maxPages?: number
  /** croner pattern of the periodic run. Default: every minute. */
  pattern?: string
  /** How long `stop()` waits for reads in flight; an abandoned read is simply done again after a restart. */
  stopGraceMs?: number
}

export interface MetricsCollector extends Worker {
  /** Reads everything due at `now` and resolves when every result is recorded. */
  tick(now: number): Promise<void>
}

type Deps = Pick<AppDeps, 'store' | 'clock' | 'log' | 'http' | 'platforms' | 'secrets' | 'oauthApps' | 'prometheus'>

/** How a read that threw affects the targets of its connection. */
type Failure = { kind: 'auth'; detail: string } | { kind: 'permanent'; detail: string } | { kind: 'transient'; detail: string; retryAfterMs: number }

function failureOf(error: unknown): Failure {
  if (error instanceof PlatformError) {
    if (error.kind === 'transient') return { kind: 'transient', detail: `${error.code}: ${error.message}`, retryAfterMs: error.retryAfterMs ?? 0 }
    return { kind: error.kind === 'auth' ? 'auth' : 'permanent', detail: `${error.code}: ${error.message}` }
  }
  // A read changes nothing on the platform, so a timeout is as safe to repeat as any network fault.
  if (error instanceof EgressError) return error.transient ? { kind: 'transient', detail: error.message, retryAfterMs: 0 } : { kind: 'permanent', detail: error.message }
  return { kind: 'transient', detail: error instanceof Error ? error.message : String(error), retryAfterMs: 0 }
}

/**
 * Reads engagement counts of published targets on the schedule of `./schedule.ts`. The
 * schedule lives on the target rows, so a restart resumes where the last run stopped. Each
 * connection's due targets are read in batches, one batch at a time, with a few connections of
 * a platform in parallel; a rate limit or outage backs that connection off (Retry-After
 * honoured), a refused credential marks it `reauth_required`. It shares nothing with
 * publishing but the database, and writes there in short transactions.
 */
export function metricsCollector(deps: Deps, options: CollectorOptions = {}): MetricsCollector {
  const { store, clock, log } = deps
  const o = { perPlatform: 4, batchSize: 100, pageSize: 500, maxPages: 20, pattern: '0 * * * * *', stopGraceMs: 5_000, ...options }
  const limiter = new KeyedLimiter(() => o.perPlatform)
  const ctx: PlatformContext = { http: deps.http, clock, log }
  let job: Cron | undefined
  let stopping = false
  // Runs never overlap: a tick waits for the one before it.
  let last: Promise<void> = Promise.resolve()

  const later = (t: DueTarget, at: number, failures = t.failures): Collected => ({ postId: t.postId, platform: t.platform, nextAt: nextCollectionAt(t.publishedAt, at) ?? null, failures })
  const never = (t: DueTarget): Collected => ({ postId: t.postId, platform: t.platform, nextAt: null, failures: t.failures })

  async function openConnection(targets: DueTarget[]): Promise<{ stored: StoredConnection; credentials: Record<string, unknown> } | string> {
    const { accountId, platform } = targets[0]!
    const stored = await store.accounts.connection(accountId, platform)
    if (!stored) return 'not connected'
    if (stored.status !== 'active') return 'waiting for the account to be reconnected'
    try {
      const credentials = deps.secrets.open(stored.sealedCredentials, `${accountId}:${platform}`) as Record<string, unknown>
      return { stored, credentials }
    } catch (error) {
      return `credentials unreadable (${(error as Error).message})`
    }
  }

  /** One connection's due targets: batch by batch until done or the platform says stop. */
  async function collectConnection(platform: Platform | undefined, targets: DueTarget[]): Promise<void> {
    const { accountId, platform: name } = targets[0]!
    // Nothing to ask: the platform reports no counts, or gave the post no id.
    const unreadable = targets.filter((t) => !platform?.metrics || t.platformPostId === null)
    if (unreadable.length) await store.metrics.record(unreadable.map(never), clock.now())
    const readable = targets.filter((t) => platform?.metrics && t.platformPostId !== null)
    if (!readable.length || !platform?.metrics) return
    const connection = await openConnection(readable)
    if (typeof connection === 'string') {
      // Not readable now; try again at the next step of the schedule (a reconnect resumes it).
      log.info({ worker: 'metrics', account_id: accountId, platform: name, targets: readable.length, reason: connection }, 'metrics read skipped')
      await store.metrics.record(readable.map((t) => later(t, clock.now())), clock.now())
      return
    }
    for (let i = 0; i < readable.length; i += o.batchSize) {
      const batch = readable.slice(i, i + o.batchSize)
      if (stopping) return
      const release = await limiter.acquire([`platform:${name}`])
      const started = clock.now()
      let failure: Failure | undefined
      let counts: Map<string, Metrics> | undefined
      try {
        const metrics = platform.metrics.bind(platform)
        // OAuth tokens are refreshed (and stored) in there, before they expire and once on a refusal.
        counts = await callWithConnection(deps, platform, connection.stored, connection.credentials, ctx, (withTokens, withApp) =>
          metrics(withTokens, batch.map((t) => t.platformPostId!), withApp),
        )
      } catch (error) {
        failure = failureOf(error)
      } finally {
        release()
      }
      const at = clock.now()
      if (counts) {
        // A post missing from the answer (deleted on the platform) keeps its last counts.
        await store.metrics.record(batch.map((t) => ({ ...later(t, at, 0), metrics: counts.get(t.platformPostId!) })), at)
        log.debug({ worker: 'metrics', account_id: accountId, platform: name, targets: batch.length, read: counts.size, ms: at - started }, 'metrics read')
        continue
      }
      const f = failure!
      const fields = { worker: 'metrics', account_id: accountId, platform: name, targets: batch.length, error: f.detail }
      if (f.kind === 'permanent') {
        log.warn(fields, 'metrics read refused')
        await store.metrics.record(batch.map((t) => later(t, at, t.failures + 1)), at)
        continue
      }
      // Auth or transient: the rest of this connection's targets would meet the same answer.
      const rest = readable.slice(i)
      if (f.kind === 'auth') {
        log.warn(fields, 'metrics read: credentials refused; the connection needs reconnecting')
        await store.metrics.record(rest.map((t) => later(t, at, t.failures + 1)), at, { accountId, platform: name })
      } else {
        const retryAfterMs = f.retryAfterMs
        log.warn({ ...fields, retry_after_ms: retryAfterMs }, 'metrics read failed; backing off')
        await store.metrics.record(rest.map((t) => ({ postId: t.postId, platform: t.platform, nextAt: at + collectionBackoffMs(t.failures + 1, retryAfterMs), failures: t.failures + 1 })), at)
      }
      return
    }
  }

  async function collect(now: number): Promise<void> {
    for (let page = 0; page < o.maxPages && !stopping; page++) {
      const due = await store.metrics.claimDue(now, o.pageSize, CLAIM_LEASE_MS)
      const byConnection = new Map<string, DueTarget[]>()
      for (const t of due) {
        const key = `${t.accountId} ${t.platform}`
        byConnection.set(key, [...(byConnection.get(key) ?? []), t])
      }
      await Promise.all(
        [...byConnection.values()].map((targets) =>
          collectConnection(deps.platforms.platformFor(targets[0]!.platform), targets).catch((error: unknown) => {
            // Claimed but not recorded: they fall due again when the claim runs out.
            log.error({ err: error, worker: 'metrics', account_id: targets[0]!.accountId, platform: targets[0]!.platform }, 'metrics collection failed')
          }),
        ),
      )
      // Every target read or skipped has moved past `now`; a short page means none are left.
      if (due.length < o.pageSize) break
    }
  }

  function tick(now: number): Promise<void> {
    const run = last.then(() => collect(now))
    last = run.catch(() => undefined)
    return run
  }

  return {
    name: 'metrics-collector',
    tick,
    start() {
      stopping = false
      job = new Cron(o.pattern, { protect: true, catch: (error) => log.error({ err: error, worker: 'metrics' }, 'metrics run failed') }, () => tick(clock.now()))
    },
    async stop() {
      stopping = true
      job?.stop()
      let timer: NodeJS.Timeout | undefined
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, o.stopGraceMs)))
      await Promise.race([last, grace])
      clearTimeout(timer)
    },
  }
}
