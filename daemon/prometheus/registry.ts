import { collectDefaultMetrics, Gauge, Registry, type Counter } from 'prom-client'

/**
 * A module's metrics, defined where they are counted and registered once in each registry that
 * asks for them. A daemon serving no metrics (no `--metrics-port`) passes no registry: the
 * metrics are then made unregistered, counted and never read, and go when their owner goes.
 */
export function metricSet<T>(define: (registers: Registry[]) => T): (registry: Registry | undefined) => T {
  const defined = new WeakMap<Registry, T>()
  return (registry) => {
    if (!registry) return define([])
    let metrics = defined.get(registry)
    if (!metrics) defined.set(registry, (metrics = define([registry])))
    return metrics
  }
}

/** What a counter is for one set of label values. */
export interface CounterChild {
  inc(value?: number): void
}

/**
 * A counter's children for every combination of the label values given (one list per label, in
 * order), by those values joined with a space (`'mastodon auth'`). Each reads 0 from the first
 * scrape on: an alert on `increase()` then sees the first failure, which a series born at 1 hides.
 */
export function counterChildren(counter: Counter<string>, ...values: (readonly string[])[]): Map<string, CounterChild> {
  const combinations = values.reduce<string[][]>((sets, list) => sets.flatMap((set) => list.map((value) => [...set, value])), [[]])
  return new Map(
    combinations.map((labels) => {
      const child = counter.labels(...labels)
      child.inc(0)
      return [labels.join(' '), child]
    }),
  )
}

/** How long a scrape waits for the store to answer a gauge that reads it; then the gauge reads NaN. */
export const STORE_READ_TIMEOUT_MS = 1_000

/** Whether `read` answered within STORE_READ_TIMEOUT_MS: its value, or undefined. */
export async function withinScrapeTimeout<T>(read: () => Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), STORE_READ_TIMEOUT_MS)))
  try {
    return await Promise.race([read(), late])
  } catch {
    // Unanswered (the database is away, or closing under a scrape at shutdown): the gauge says
    // NaN, and smm_store_up says why; the error itself is the store's to log where it matters.
    return undefined
  } finally {
    clearTimeout(timer)
  }
}

/**
 * A gauge read from the database at each scrape, such as the posts due. A store that does not
 * answer within a second makes it NaN ("unknown"), not 0 and not its last value, and never
 * fails the scrape.
 */
export function storeGauge(registry: Registry, config: { name: string; help: string; read: () => Promise<number> }): void {
  const { read, ...rest } = config
  new Gauge({
    ...rest,
    registers: [registry],
    async collect() {
      this.set((await withinScrapeTimeout(read)) ?? Number.NaN)
    },
  })
}

/** What the daemon reports about itself, the label values of `smm_build_info`. */
export interface BuildInfo {
  version: string
  store: 'sqlite' | 'postgres'
}

/** A daemon's registry, with what it is (`smm_build_info`); each module adds its own metrics. */
export function daemonRegistry(build: BuildInfo): Registry {
  const registry = new Registry()
  new Gauge({
    name: 'smm_build_info',
    help: 'Always 1; its labels say which smm version this node runs and on which store.',
    labelNames: ['version', 'store'],
    registers: [registry],
  }).set({ version: build.version, store: build.store }, 1)
  return registry
}

let processMetrics: Registry | undefined

/**
 * Node's process metrics (CPU, resident memory, heap, event-loop lag, open descriptors, GC), once
 * per process however many daemons it runs (tests run several): each keeps an event-loop
 * monitor and a GC observer for good.
 */
export function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry()
    collectDefaultMetrics({ register: processMetrics })
    // Gauges named like counters, which `promtool check metrics` rejects; the same counts are
    // kept, by type, in nodejs_active_handles, nodejs_active_requests and nodejs_active_resources.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) processMetrics.removeSingleMetric(name)
  }
  return processMetrics
}
