import type { Counter, Registry } from 'prom-client'

/** prom-client, as `import('prom-client')` gives it. */
export type PromClient = typeof import('prom-client')

/** The metric classes a module defines its metrics with. */
export type MetricClasses = Pick<PromClient, 'Counter' | 'Gauge' | 'Histogram'>

/**
 * A daemon's Prometheus metrics when they are on: prom-client, loaded only then (it and Node's
 * process metrics under it are tens of milliseconds of every start), and the registry served on
 * `--metrics-port`.
 */
export interface Prometheus {
  client: PromClient
  registry: Registry
}

/**
 * What metrics are when they are off: prom-client's shapes, counting nothing, so the code that
 * counts need not ask whether metrics are on, and pays a call that does nothing.
 */
class Uncounted {
  labels(): this {
    return this
  }
  inc(): void {}
  dec(): void {}
  set(): void {}
  observe(): void {}
}
const UNCOUNTED = { Counter: Uncounted, Gauge: Uncounted, Histogram: Uncounted } as unknown as MetricClasses

/**
 * A module's metrics, defined where they are counted and registered once in each registry that
 * asks for them. With metrics off (no `--metrics-port`) they are made of no-ops, once.
 */
export function metricSet<T>(define: (classes: MetricClasses, registers: Registry[]) => T): (prometheus: Prometheus | undefined) => T {
  const defined = new WeakMap<Registry, T>()
  let off: T | undefined
  return (prometheus) => {
    if (!prometheus) return (off ??= define(UNCOUNTED, []))
    let metrics = defined.get(prometheus.registry)
    if (!metrics) defined.set(prometheus.registry, (metrics = define(prometheus.client, [prometheus.registry])))
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
export function storeGauge(prometheus: Prometheus, config: { name: string; help: string; read: () => Promise<number> }): void {
  const { read, ...rest } = config
  new prometheus.client.Gauge({
    ...rest,
    registers: [prometheus.registry],
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

/** Loads prom-client and makes a daemon's registry, with what it is (`smm_build_info`); each module adds its own metrics. */
export async function startPrometheus(build: BuildInfo): Promise<Prometheus> {
  const client = await import('prom-client')
  const registry = new client.Registry()
  new client.Gauge({
    name: 'smm_build_info',
    help: 'Always 1; its labels say which smm version this node runs and on which store.',
    labelNames: ['version', 'store'],
    registers: [registry],
  }).set({ version: build.version, store: build.store }, 1)
  return { client, registry }
}

let processMetrics: Registry | undefined

/**
 * Node's process metrics (CPU, resident memory, heap, event-loop lag, open descriptors, GC), once
 * per process however many daemons it runs (tests run several): each keeps an event-loop
 * monitor and a GC observer for good.
 */
export function processRegistry(client: PromClient): Registry {
  if (!processMetrics) {
    processMetrics = new client.Registry()
    client.collectDefaultMetrics({ register: processMetrics })
    // Gauges named like counters, which `promtool check metrics` rejects; the same counts are
    // kept, by type, in nodejs_active_handles, nodejs_active_requests and nodejs_active_resources.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) processMetrics.removeSingleMetric(name)
  }
  return processMetrics
}
