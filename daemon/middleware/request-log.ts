import type Koa from 'koa'
import { newId } from '../../src/ids.js'
import { presetHeader } from '../application.js'
import type { AppDeps, State } from '../context.js'
import { requestMetrics } from './http-metrics.js'

/**
 * Gives each request its id (`X-Request-Id`) and the headers every answer carries, and writes one
 * JSON log line when it ends; with metrics on, also counts and times it (`routeOf` names the
 * route of a request refused before routing).
 */
export function requestLog(deps: AppDeps, routeOf: (path: string, method: string) => string | undefined): Koa.Middleware<State> {
  const measured = deps.prometheus && requestMetrics(deps.prometheus, routeOf)
  // Timed, and awaited, only for what reads the time: the metrics, or a log at `info` (the level
  // is read once a request, so its line and its timing agree). Otherwise nothing is left to do
  // once the request is answered, and its promise is handed on rather than wrapped in another.
  const timed = async (ctx: Koa.ParameterizedContext<State>, next: Koa.Next, logged: boolean) => {
    const started = performance.now()
    try {
      await next()
    } finally {
      const ms = performance.now() - started
      measured?.(ctx, ms / 1000)
      // Below `info` the line is not made at all: its fields are read only to be written.
      if (logged) {
        deps.log.info({
          msg: 'request',
          req_id: ctx.state.requestId,
          method: ctx.method,
          // The route pattern, not the raw URL: a query string is the caller's and may hold anything.
          route: (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? ctx.path,
          status: ctx.status,
          ms: Math.round(ms * 100) / 100,
          key_id: ctx.state.principal?.key.id,
          ip: ctx.state.clientIp,
        })
      }
    }
  }
  return (ctx, next) => {
    ctx.state.requestId = newId('req')
    // Lowercase and preset, as the RateLimit fields (see rateLimitHeaders, presetHeader).
    presetHeader(ctx.res, 'x-request-id', ctx.state.requestId)
    // Every answer is what its Content-Type says (no browser may sniff a feed or a problem into
    // HTML), and no cache keeps it unless its route says so (feeds): most are one key's owner's.
    presetHeader(ctx.res, 'x-content-type-options', 'nosniff')
    presetHeader(ctx.res, 'cache-control', 'no-store')
    const logged = deps.log.isLevelEnabled('info')
    return measured || logged ? timed(ctx, next, logged) : next()
  }
}
