import type { Prometheus } from '../prometheus/registry.js'
import { BucketedHistogram, talliedCounter, type Buckets, type Tally } from '../prometheus/tally.js'
import type { Ctx } from '../context.js'

/** The methods the API knows; any other a client sends is counted as `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** The route label of a request whose path is no route's (a 404): never the path itself. */
export const UNMATCHED = 'unmatched'

/** One route's metrics under one method: its timer, and its count by status. */
interface RouteMetrics {
  duration: Buckets
  byStatus: Map<number, Tally>
}

/**
 * What the request log calls as each request ends, when metrics are on: counts it and observes
 * its duration. The route is the pattern the router matched (`/v1/posts/:id`); a request answered
 * before routing (401, 429) or with 405 gets the pattern its path belongs to, and a path of no
 * route gets `unmatched`, so however many paths clients try, the labels stay the API's few. Each
 * set of labels is resolved once; then a request costs three map lookups and two additions.
 */
export function requestMetrics(prometheus: Prometheus, routeOf: (path: string, method: string) => string | undefined): (ctx: Ctx, seconds: number) => void {
  const requests = talliedCounter(prometheus, {
    name: 'smm_http_requests_total',
    help: 'API requests this node answered, by method, route pattern (never a path or an id) and status.',
    labelNames: ['method', 'route', 'status'],
  })
  const duration = new BucketedHistogram(
    prometheus.registry,
    'smm_http_request_duration_seconds',
    'Time this node took to answer each API request, by method and route pattern.',
    ['method', 'route'],
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  )
  const byMethod = new Map<string, Map<string, RouteMetrics>>()
  return (ctx, seconds) => {
    const method = METHODS.has(ctx.method) ? ctx.method : 'other'
    const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? routeOf(ctx.path, ctx.method) ?? UNMATCHED
    let routes = byMethod.get(method)
    if (!routes) byMethod.set(method, (routes = new Map()))
    let metrics = routes.get(route)
    if (!metrics) routes.set(route, (metrics = { duration: duration.labels(method, route), byStatus: new Map() }))
    metrics.duration.observe(seconds)
    const status = ctx.status
    let count = metrics.byStatus.get(status)
    if (!count) metrics.byStatus.set(status, (count = requests(method, route, String(status))))
    count.inc()
  }
}
