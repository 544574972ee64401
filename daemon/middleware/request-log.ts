import type Koa from 'koa'
import { newId } from '../../src/ids.js'
import { presetHeader, type Application } from '../application.js'
import type { AppDeps, Ctx, State } from '../context.js'
import { requestMetrics } from './http-metrics.js'

/**
 * Gives each request its id (`X-Request-Id`) and the headers every answer carries, and writes one
 * JSON log line once it is answered; with metrics on, also counts and times it (`routeOf` names
 * the route of a request refused before routing). The line and the metrics are the application's
 * `answered` hook, called as the answer is handed to Node: the request's own promise is handed on,
 * not wrapped in another.
 */
export function requestLog(app: Application<State>, deps: AppDeps, routeOf: (path: string, method: string) => string | undefined): Koa.Middleware<State> {
  const measured = deps.prometheus && requestMetrics(deps.prometheus, routeOf)
  const timed = (ctx: Ctx, ms: number) => {
    measured?.(ctx, ms / 1000)
    // Below `info` the line is not made at all: its fields are read only to be written.
    if (!deps.log.isLevelEnabled('info')) return
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
  // Timed only for what reads the time: the metrics, or a log at `info` (the level is read as the
  // request arrives, so a request timed is one whose line is made, unless the level rose since).
  app.answered = (ctx) => {
    const started = ctx.state.started
    if (started !== undefined) timed(ctx, performance.now() - started)
  }
  return (ctx, next) => {
    ctx.state.requestId = newId('req')
    // Lowercase and preset, as the RateLimit fields (see rateLimitHeaders, presetHeader).
    presetHeader(ctx.res, 'x-request-id', ctx.state.requestId)
    // Every answer is what its Content-Type says (no browser may sniff a feed or a problem into
    // HTML), and no cache keeps it unless its route says so (feeds): most are one key's owner's.
    presetHeader(ctx.res, 'x-content-type-options', 'nosniff')
    presetHeader(ctx.res, 'cache-control', 'no-store')
    if (measured || deps.log.isLevelEnabled('info')) ctx.state.started = performance.now()
    return next()
  }
}
