import { metricSet, type Prometheus } from '../prometheus/registry.js'
import type { Ctx } from '../context.js'

const httpMetrics = metricSet(({ Counter, Histogram }, registers) => ({
  requests: new Counter({
    name: 'smm_http_requests_total',
    help: 'API requests this node answered, by method, route pattern (never a path or an id) and status.',
    labelNames: ['method', 'route', 'status'],
    registers,
  }),
  duration: new Histogram({
    name: 'smm_http_request_duration_seconds',
    help: 'Time this node took to answer each API request, by method and route pattern.',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  }),
}))

/** The methods the API knows; any other a client sends is counted as `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** The route label of a request whose path is no route's (a 404): never the path itself. */
export const UNMATCHED = 'unmatched'

/**
 * What the request log calls as each request ends, when metrics are on: counts it and observes
 * its duration. The route is the pattern the router matched (`/v1/posts/:id`); a request answered
 * before routing (401, 429) or with 405 gets the pattern its path belongs to, and a path of no
 * route gets `unmatched`, so however many paths clients try, the labels stay the API's few. Each
 * set of labels is resolved once, then a request costs two map lookups and two updates.
 */
export function requestMetrics(prometheus: Prometheus, routeOf: (path: string, method: string) => string | undefined): (ctx: Ctx, seconds: number) => void {
  const { requests, duration } = httpMetrics(prometheus)
  const counters = new Map<string, { inc(): void }>()
  const timers = new Map<string, { observe(value: number): void }>()
  return (ctx, seconds) => {
    const method = METHODS.has(ctx.method) ? ctx.method : 'other'
    const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? routeOf(ctx.path, ctx.method) ?? UNMATCHED
    const timed = `${method} ${route}`
    let timer = timers.get(timed)
    if (!timer) timers.set(timed, (timer = duration.labels(method, route)))
    timer.observe(seconds)
    const status = ctx.status
    const counted = `${timed} ${status}`
    let counter = counters.get(counted)
    if (!counter) counters.set(counted, (counter = requests.labels(method, route, String(status))))
    counter.inc()
  }
}
