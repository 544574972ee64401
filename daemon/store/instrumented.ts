import type { Clock } from '../../src/time.js'
import { withinScrapeTimeout, type Prometheus } from '../prometheus/registry.js'
import { BucketedHistogram } from '../prometheus/tally.js'
import { QueueRefusedError, type Store } from './port.js'

/** A call of the port, named `family.method` (`posts.create`): the `operation` label, one per method of the port. */
type Call = (...args: unknown[]) => Promise<unknown>

/**
 * On SQLite, one call in how many of an operation called more often than that between two scrapes
 * is timed (see Buckets.timeThis). A call answered from memory (a known key, a rate limit) takes
 * about a microsecond, as long as the two clock readings that time it: timing every call of the
 * three a request makes cost about 4 % of a request's CPU, measured (benchmarks.md).
 */
const SAMPLED = 16

/** Answers the port gives on purpose (a queue with no free slot), not failures of the store. */
const refusal = (error: unknown) => error instanceof QueueRefusedError

/**
 * The store, timed: every call of a family's method (one unit of work, a transaction or a read)
 * observed in `smm_store_operation_duration_seconds`, each failure counted in
 * `smm_store_errors_total`, and `smm_store_up` read at each scrape. The calls themselves are the
 * store's own: each answers with the very promise the store returned, so callers see no extra
 * turn of the event loop.
 *
 * `synchronous`: the store does each call's work before it returns (SQLite: better-sqlite3 is
 * synchronous, and no family method awaits), so the call is timed as it returns, and only a
 * failure is waited for; a store that answers later (PostgreSQL) is timed when its promise
 * settles. Under a request, which makes several calls, that saves a closure each. On such a store
 * an operation called more than SAMPLED times between two scrapes has one call in SAMPLED timed
 * beyond those, each standing for the calls since the last one timed; every call is counted, and
 * every failure.
 */
export function instrumentStore(store: Store, { client, registry }: Prometheus, clock: Clock, synchronous: boolean): Store {
  // Observed under every request, several times: a bucketed histogram (prometheus/tally.ts).
  const duration = new BucketedHistogram(
    registry,
    'smm_store_operation_duration_seconds',
    "Time each call of this node's store took (one unit of work: a transaction or a read), by operation (family.method).",
    ['operation'],
    [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  )
  const errors = new client.Counter({
    name: 'smm_store_errors_total',
    help: "Calls of this node's store that failed (the database unreachable, a statement that failed), by operation.",
    labelNames: ['operation'],
    registers: [registry],
  })
  new client.Gauge({
    name: 'smm_store_up',
    help: "1 when this node's store answered a read within a second at this scrape, else 0: whether the node can serve requests.",
    registers: [registry],
    async collect() {
      this.set((await withinScrapeTimeout(() => store.publishing.due(clock.now()))) ? 1 : 0)
    },
  })

  const timed = (operation: string, call: Call, target: object): Call => {
    const timer = duration.labels(operation)
    const failed = errors.labels(operation)
    const onFailure = (error: unknown) => {
      if (!refusal(error)) failed.inc()
    }
    return (...args) => {
      const timing = !synchronous || timer.timeThis(SAMPLED)
      const started = timing ? performance.now() : 0
      let answer: Promise<unknown>
      try {
        answer = call.apply(target, args)
      } catch (error) {
        onFailure(error)
        throw error
      }
      if (synchronous) {
        if (timing) timer.observe((performance.now() - started) / 1000)
        answer.then(undefined, onFailure)
      } else {
        answer.then(
          () => timer.observe((performance.now() - started) / 1000),
          (error: unknown) => {
            timer.observe((performance.now() - started) / 1000)
            onFailure(error)
          },
        )
      }
      return answer
    }
  }

  const instrumented = Object.create(store) as Store
  for (const [family, methods] of Object.entries(store)) {
    if (typeof methods !== 'object' || methods === null) continue
    const wrapped = Object.create(methods) as Record<string, unknown>
    for (const name of methodNames(methods)) wrapped[name] = timed(`${family}.${name}`, (methods as Record<string, Call>)[name]!, methods)
    ;(instrumented as unknown as Record<string, unknown>)[family] = wrapped
  }
  return instrumented
}

/** A family's methods, its own and its prototypes' (a family may be a class instance). */
function methodNames(family: object): string[] {
  const names = new Set<string>()
  for (let o: object | null = family; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      if (name !== 'constructor' && typeof (family as Record<string, unknown>)[name] === 'function') names.add(name)
    }
  }
  return [...names]
}
