import { openWebhookSecret } from './secret-seal.js'
import { performance } from 'node:perf_hooks'
import { toIso } from '../../src/time.js'
import type { AppDeps } from '../context.js'
import { EgressError, type OutboundResponse } from '../egress.js'
import { StoreUnavailableError, whileUnavailable, type DeliveryJob } from '../store/index.js'
import { counterChildren, metricSet, storeGauge } from '../prometheus/registry.js'
import type { Worker } from '../worker.js'
import { DISABLE_AFTER_FAILING_MS, nextAttemptAt, parseRetryAfter, verdictOf } from './policy.js'
import { signedHeaders } from './signing.js'

export interface DeliveryOptions {
  /** Attempts in flight at once over all endpoints. */
  concurrency?: number
  /** Attempts in flight at once to one endpoint. */
  perEndpoint?: number
  /** How long a claimed delivery stays reserved (an attempt times out at 15 s); past it the attempt counts as interrupted and any node may retry it. Default 30 s. */
  leaseMs?: number
  /** How often the outbox and due retries are looked at when nothing else wakes the loop. */
  pollMs?: number
  /** How long stop() waits for attempts in flight before abandoning them to their leases. */
  stopGraceMs?: number
  random?: () => number
}

export interface WebhookDeliveryWorker extends Worker {
  /** Fans out the outbox and makes every attempt due at `now`, until none is left; for tests. */
  tick(now: number): Promise<void>
}

/** How an attempt ended: the `outcome` label of smm_webhook_deliveries_total. */
const OUTCOMES = ['delivered', 'retrying', 'failed', 'gone'] as const

const deliveryOutcomes = metricSet(({ Counter }, registers) =>
  counterChildren(
    new Counter({
      name: 'smm_webhook_deliveries_total',
      help: 'Webhook delivery attempts this node made and recorded, by outcome: delivered (2xx), retrying (failed, tried again later), failed (the last attempt failed), gone (410: the endpoint is disabled).',
      labelNames: ['outcome'],
      registers,
    }),
    OUTCOMES,
  ),
)

const TIMEOUT_MS = 15_000
const MAX_RESPONSE_BYTES = 1024 * 1024
const KEPT_RESPONSE_BYTES = 1024

/** The body every attempt of an event sends, byte for byte: the Standard Webhooks envelope. */
export function envelope(job: Pick<DeliveryJob, 'eventType' | 'eventCreatedAt' | 'eventData'>): string {
  return `{"type":${JSON.stringify(job.eventType)},"timestamp":${JSON.stringify(toIso(job.eventCreatedAt))},"data":${job.eventData}}`
}

function failureText(response: OutboundResponse): string {
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.location ? ` to ${response.headers.location}` : ''
    return `HTTP ${response.status}: a redirect${location}, which smm does not follow; point the webhook at the final URL`
  }
  if (response.status === 410) return 'HTTP 410 Gone: the receiver asked for no more deliveries'
  return `HTTP ${response.status}: only 2xx counts as delivered`
}

/**
 * The delivery loop: fans each outbox event out to the endpoints that want it, then leases due
 * deliveries (bounded overall and per endpoint) and makes each attempt outside any transaction,
 * recording every outcome. A completed attempt wakes the loop, so a backlog drains without
 * waiting for the poll, and a slow endpoint only ever holds its own few slots.
 */
export function webhookDeliveryWorker(
  deps: Pick<AppDeps, 'store' | 'clock' | 'log' | 'http' | 'webhookHttp' | 'secrets' | 'prometheus'>,
  options: DeliveryOptions = {},
): WebhookDeliveryWorker {
  const { store, log } = deps
  const outcomes = deliveryOutcomes(deps.prometheus)
  if (deps.prometheus) {
    storeGauge(deps.prometheus, {
      name: 'smm_webhook_backlog',
      help: 'Webhook deliveries due and not yet made (being attempted included), plus events not yet fanned out to their endpoints, in the database all nodes share (every node reports the same figure). NaN when the store did not answer within a second.',
      read: () => store.webhookDeliveries.backlog(deps.clock.now()),
    })
  }
  const limits = { total: options.concurrency ?? 32, perEndpoint: options.perEndpoint ?? 4, leaseMs: options.leaseMs ?? 30_000 }
  const random = options.random ?? Math.random
  const inFlight = new Set<Promise<void>>()
  let stopped = true
  // Set once stop()'s grace is over: an outcome still waiting for the database is given up then (the lease redelivers it).
  let halted = false
  let timer: NodeJS.Timeout | undefined
  let pumping = false
  let unavailableSaid = Number.NEGATIVE_INFINITY
  let again = false

  async function send(job: DeliveryJob, now: number): Promise<void> {
    const body = envelope(job)
    const started = performance.now()
    let response: OutboundResponse | undefined
    let error: string | null = null
    try {
      const secrets = [openWebhookSecret(deps.secrets, job.sealedSecret)]
      if (job.sealedPreviousSecret && (job.previousSecretExpiresAt ?? 0) > now) secrets.push(openWebhookSecret(deps.secrets, job.sealedPreviousSecret))
      response = await (deps.webhookHttp ?? deps.http)(job.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signedHeaders(job.eventId, now, body, secrets) },
        body,
        timeoutMs: TIMEOUT_MS,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        maxRedirects: 0,
      })
    } catch (caught) {
      if (!(caught instanceof EgressError)) log.error({ err: caught, webhook_id: job.webhookId, event_id: job.eventId }, 'webhook attempt failed unexpectedly')
      error = caught instanceof EgressError ? caught.message : `smm could not make the request: ${(caught as Error).message}`
    }
    const durationMs = performance.now() - started
    const recordedAt = deps.clock.now()
    const verdict = response ? verdictOf(response.status) : 'retry'
    if (response && verdict !== 'success') error = failureText(response)
    const retryAfter = response ? parseRetryAfter(response.headers['retry-after'], recordedAt) : undefined
    const next = verdict === 'retry' ? nextAttemptAt(job.attempt, recordedAt, retryAfter, random) : null
    // Kept until the database takes it: an outage delays the record, and never makes a delivered event go out again.
    const attempt = {
      webhookId: job.webhookId,
      eventId: job.eventId,
      attempt: job.attempt,
      succeeded: verdict === 'success',
      statusCode: response?.status ?? null,
      durationMs,
      responseBody: response ? response.body.subarray(0, KEPT_RESPONSE_BYTES).toString('utf8') : null,
      error,
      nextAttemptAt: next,
      ...(verdict === 'gone' ? { disableReason: `the endpoint answered 410 Gone on ${toIso(recordedAt)}` } : {}),
      disableAfterFailingMs: DISABLE_AFTER_FAILING_MS,
    }
    const { recorded, disabledReason } = await whileUnavailable(() => store.webhookDeliveries.record(attempt, recordedAt), () => halted)
    // Counted as recorded: a stale outcome dropped here is the newer claim's to count.
    if (recorded) outcomes.get(verdict === 'success' ? 'delivered' : verdict === 'gone' ? 'gone' : next === null ? 'failed' : 'retrying')!.inc()
    const fields = { webhook_id: job.webhookId, event_id: job.eventId, attempt: job.attempt, status: response?.status, duration_ms: Math.round(durationMs) }
    // This worker was stopped past its lease and the delivery claimed again, or the endpoint is gone: the newer claim's outcome stands.
    if (!recorded) log.warn(fields, 'stale webhook attempt outcome dropped: the delivery was claimed again after its lease ran out, or deleted')
    else if (verdict === 'success') log.info(fields, 'webhook delivered')
    else log.warn({ ...fields, error, next_attempt_at: next === null ? null : toIso(next) }, 'webhook attempt failed')
    if (disabledReason) log.warn({ webhook_id: job.webhookId, reason: disabledReason }, 'webhook endpoint disabled')
  }

  function track(job: DeliveryJob, now: number): Promise<void> {
    const running = send(job, now).catch((error: unknown) => {
      // The lease keeps the delivery: it is retried once the lease runs out.
      log.error({ err: error, webhook_id: job.webhookId, event_id: job.eventId }, 'recording a webhook attempt failed')
    })
    inFlight.add(running)
    void running.finally(() => {
      inFlight.delete(running)
      if (!stopped) wake()
    })
    return running
  }

  async function dispatchAll(now: number): Promise<void> {
    // Each batch is one transaction; loop until the outbox is caught up, letting the event loop
    // run between batches: on SQLite a batch never waits for I/O, so a backlog of 100,000 events
    // would otherwise hold every timer (the scheduler's armed post among them) until it is done.
    while ((await store.webhookDeliveries.dispatch(now)) > 0) await new Promise((resolve) => setImmediate(resolve))
  }

  async function pump(): Promise<void> {
    // A wake-up queued before stop() must not touch a store that is being closed.
    if (stopped) return
    if (pumping) {
      again = true
      return
    }
    pumping = true
    try {
      const now = deps.clock.now()
      if (!(await store.webhookDeliveries.hasWork(now))) return
      await dispatchAll(now)
      for (const job of await store.webhookDeliveries.claim(now, limits)) void track(job, now)
    } catch (error) {
      // The database away: polled as before (the store answers at once meanwhile), said once a minute.
      const now = Date.now()
      if (!(error instanceof StoreUnavailableError) || now - unavailableSaid >= 60_000) {
        log.error({ err: error, worker: 'webhook-delivery' }, 'webhook delivery loop failed; retrying at the next poll')
        if (error instanceof StoreUnavailableError) unavailableSaid = now
      }
    } finally {
      pumping = false
      if (again && !stopped) {
        again = false
        wake()
      }
    }
  }

  function wake(): void {
    setImmediate(() => void pump())
  }

  return {
    name: 'webhook-delivery',
    start() {
      stopped = false
      halted = false
      timer = setInterval(() => void pump(), options.pollMs ?? 50)
      wake()
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      // Attempts still running after the grace keep their leases: the next start redelivers them.
      const grace = new Promise<void>((resolve) => setTimeout(resolve, options.stopGraceMs ?? 5_000).unref())
      await Promise.race([Promise.all([...inFlight]), grace])
      halted = true
    },
    async tick(now) {
      await dispatchAll(now)
      // Like the timer-driven loop: each finished attempt frees a slot and claims again, so a
      // slow endpoint holds up only its own deliveries here too.
      const fill = async (): Promise<void> => {
        const jobs = await store.webhookDeliveries.claim(now, limits)
        await Promise.all(jobs.map((job) => track(job, now).then(fill)))
      }
      await fill()
    },
  }
}
