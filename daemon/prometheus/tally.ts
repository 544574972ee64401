import type { CounterConfiguration, Metric, MetricValue, Registry } from 'prom-client'
import type { Prometheus } from './registry.js'

/**
 * Counters and histograms for what happens on every request (the request itself, each store
 * call under it): a request adds to plain numbers, and the registry reads them at a scrape.
 * prom-client's own `inc` and `observe` validate the labels and build a key for them on every
 * call (about 0.5 µs each, measured); the half-dozen a request made were a sixth of its CPU.
 * Everything else is counted with prom-client's metrics directly.
 */

/** One set of label values of a tallied counter: `inc()` adds to a number the scrape collects. */
export class Tally {
  pending = 0
  constructor(readonly values: string[]) {}
  inc(): void {
    this.pending++
  }
}

/** A prom-client counter whose children are tallies, added into it at each scrape (its `collect`). */
export function talliedCounter({ client, registry }: Prometheus, config: Omit<CounterConfiguration<string>, 'registers' | 'collect'>): (...values: string[]) => Tally {
  const tallies = new Map<string, Tally>()
  new client.Counter({
    ...config,
    registers: [registry],
    collect() {
      for (const tally of tallies.values()) {
        if (tally.pending === 0) continue
        this.labels(...tally.values).inc(tally.pending)
        tally.pending = 0
      }
    },
  })
  return (...values) => {
    const key = values.join('\n')
    let tally = tallies.get(key)
    if (!tally) tallies.set(key, (tally = new Tally(values)))
    return tally
  }
}

/**
 * The `sharedLabels` of every value a BucketedHistogram gives the registry: none. prom-client
 * caches the text of a value's shared labels by the object (in a WeakMap), and reads a missing one
 * as a fresh `{}`: an entry per line per scrape, which every young-generation collection after it
 * then has to clear.
 */
const NO_SHARED_LABELS: Record<string, string> = Object.freeze({})

/** One set of label values of a bucketed histogram: `observe(seconds)` adds to its bucket. */
export class Buckets {
  readonly counts: Float64Array
  /** The labels of each `_bucket` line (`le` first, then the child's), made once. */
  readonly bucketLabels: Record<string, string | number>[]
  sum = 0
  count = 0
  /** Calls since the last scrape, and those of them not timed since the last one timed (see `timeThis`). */
  private sinceScrape = 0
  private untimed = 0
  /** The last value observed: what untimed calls are counted as. */
  private last = 0
  constructor(
    readonly labels: Record<string, string>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length)
    this.bucketLabels = [...bounds, '+Inf'].map((le) => ({ le, ...labels }))
  }

  /**
   * Whether to time the call being made, when timing it costs about what the call does: every
   * one of the first `every` calls after a scrape (an operation called less often is timed each
   * time), then one in `every`. A call not timed is counted with the next one timed, as it took,
   * or at the scrape as the last one did: the count stays exact, and the buckets a systematic
   * sample of the calls.
   */
  timeThis(every: number): boolean {
    const n = ++this.sinceScrape
    if (n <= every || n % every === 0) return true
    this.untimed++
    return false
  }

  observe(value: number): void {
    const times = 1 + this.untimed
    this.untimed = 0
    this.last = value
    const bounds = this.bounds
    let i = 0
    while (i < bounds.length && value > bounds[i]!) i++
    if (i < bounds.length) this.counts[i]! += times
    this.sum += value * times
    this.count += times
  }

  /** At a scrape: calls not yet counted are counted as the last one timed; sampling starts over. */
  settle(): void {
    if (this.untimed > 0) {
      this.untimed--
      this.observe(this.last)
    }
    this.sinceScrape = 0
  }
}

/** One line of a metric, as the registry reads it. */
const line = (metricName: string, labels: Record<string, string | number>, value: number) => ({ metricName, labels, value, sharedLabels: NO_SHARED_LABELS }) as unknown as MetricValue<string>

/**
 * A histogram in the registry, of the shape prom-client's has (`_bucket` by `le`, cumulative,
 * then `_sum` and `_count`), whose children are Buckets: the registry reads them at a scrape and
 * writes the text format as for its own.
 */
export class BucketedHistogram {
  readonly type = 'histogram'
  readonly aggregator = 'sum'
  private readonly children = new Map<string, Buckets>()
  private readonly bounds: number[]

  constructor(
    registry: Registry,
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    buckets: readonly number[],
  ) {
    this.bounds = [...buckets].sort((a, b) => a - b)
    registry.registerMetric(this as unknown as Metric)
  }

  /** The child for these label values, in `labelNames` order: resolve it once and keep it. */
  labels(...values: string[]): Buckets {
    const key = values.join('\n')
    let child = this.children.get(key)
    if (!child) this.children.set(key, (child = new Buckets(Object.fromEntries(this.labelNames.map((name, i) => [name, values[i]!])), this.bounds)))
    return child
  }

  /** What the registry reads of a metric at a scrape, as prom-client's own histogram gives it. */
  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: MetricValue<string>[] }> {
    const values: MetricValue<string>[] = []
    // A child nothing was observed in (a store operation never called) is not shown, as prom-client does.
    for (const child of this.children.values()) {
      child.settle()
      if (child.count === 0) continue
      const bucket = `${this.name}_bucket`
      let cumulative = 0
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += child.counts[i]!
        values.push(line(bucket, child.bucketLabels[i]!, cumulative))
      }
      values.push(line(bucket, child.bucketLabels[this.bounds.length]!, child.count))
      values.push(line(`${this.name}_sum`, child.labels, child.sum))
      values.push(line(`${this.name}_count`, child.labels, child.count))
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values }
  }

  reset(): void {
    for (const child of this.children.values()) {
      child.counts.fill(0)
      child.sum = 0
      child.count = 0
    }
  }
}
