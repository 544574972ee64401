import { Cron } from 'croner'
import { metricsCollector } from './analytics/collector.js'
import type { AppDeps } from './context.js'
import { removeUnusedMedia } from './media/cleanup.js'
import { webhookDeliveryWorker } from './webhooks/delivery.js'
import type { Worker } from './worker.js'

/** A croner job as a worker: no overlapping runs, and a throw is logged, never fatal. */
export function cronWorker(name: string, pattern: string, deps: Pick<AppDeps, 'log'>, run: () => Promise<void>): Worker {
  let job: Cron | undefined
  let running: Promise<void> | undefined
  return {
    name,
    start() {
      job = new Cron(pattern, { protect: true, catch: (error) => deps.log.error({ err: error, worker: name }, 'worker run failed') }, () => {
        running = run()
        return running
      })
    },
    async stop() {
      job?.stop()
      await running?.catch(() => undefined)
    },
  }
}

/** Every background loop, in start order. Each feature adds its own line. */
export function createWorkers(deps: AppDeps): Worker[] {
  return [
    // Rate-limit counts are kept in memory on the hot path and written every second.
    cronWorker('rate-limit-flush', '* * * * * *', deps, () => deps.store.rateLimits.flush()),
    // Replayable idempotent responses live 24 h.
    // Publishing: croner-armed for the earliest due post, plus its own sweep.
    { name: 'scheduler', start: () => deps.scheduler.start(), stop: () => deps.scheduler.stop() },
    cronWorker('idempotency-purge', '*/10 * * * *', deps, () => deps.store.idempotency.purgeExpired(deps.clock.now())),
    // Outbox events to signed webhook deliveries, with retries.
    webhookDeliveryWorker(deps),
    // Delivery history is kept 30 days: long enough to debug an endpoint, short enough to stay small.
    cronWorker('webhook-history-purge', '17 * * * *', deps, async () => {
      await deps.store.webhookDeliveries.purgeFinished(deps.clock.now() - 30 * 86_400_000)
    }),
    // Engagement counts of published posts, on the schedule of SPEC §9.
    metricsCollector(deps),
    // Bytes of media no post needs, and of uploads abandoned; tests call its tick.
    {
      ...cronWorker('media-cleanup', '*/10 * * * *', deps, async () => void (await removeUnusedMedia(deps, deps.clock.now()))),
      tick: async (now: number) => void (await removeUnusedMedia(deps, now)),
    },
  ]
}
