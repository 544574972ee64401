import Router, { type Layer, type RouterContext, type RouterMiddleware } from '@koa/router'
import type Koa from 'koa'
import type { Scope } from '../../src/api/common.js'
import { ApiError, insufficientScope } from '../../src/errors.js'
import type { State } from '../context.js'

/** A route as the table keeps it: its Koa pattern, the scope a key needs for it, and its handler. */
interface Route {
  pattern: string
  scope?: Scope
  handler: RouterMiddleware<State>
  /** Its body is bytes its handler streams (an upload), not JSON for the body reader. */
  rawBody: boolean
}

/**
 * Where a route or a request path belongs: its first two segments (`v1/posts`), or its first
 * alone when the second is a parameter (`feeds` for `/feeds/:account_id.rss`).
 */
function groupOf(path: string): string {
  const [first = '', second] = path.slice(1).split('/', 2)
  if (second === undefined || /[:(*]/.test(second)) return first
  // Koa's patterns escape a literal dot (`openapi\.json`); a request path does not.
  return `${first}/${second.replace(/\\(.)/g, '$1')}`
}

/** The group of a request path among `groups`: its first two segments, then its first (by index: this runs on every request). */
function groupOfRequest<T>(groups: ReadonlyMap<string, T>, path: string): T | undefined {
  const first = path.indexOf('/', 1)
  const second = first < 0 ? -1 : path.indexOf('/', first + 1)
  return groups.get(path.slice(1, second < 0 ? path.length : second)) ?? (first < 0 ? undefined : groups.get(path.slice(1, first)))
}

/**
 * Exact matching: `/V1/me`, `/v1/me/` and `/v1//me` are not `/v1/me`, so no spelling of a path
 * can reach a route while passing the middleware that checks `/v1/` paths (issue 17, point 3).
 */
const newRouter = () => new Router<State>({ sensitive: true, strict: true })

/** 405 with `Allow` for a method the path lacks; OPTIONS is answered with the same list. */
function refuse(ctx: Koa.ParameterizedContext<State>, methods: Iterable<string>): void {
  const allow = [...new Set([...methods, 'OPTIONS'])].join(', ')
  if (ctx.method === 'OPTIONS') {
    ctx.set('Allow', allow)
    ctx.status = 204
    return
  }
  throw new ApiError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${allow}.`, { headers: { Allow: allow } })
}

/**
 * The API's routes. Matching comes before the body is read, so a request for a path or method
 * that has no route, or from a key without the route's scope, is refused before any body work
 * (`match`); the matched handler runs last (`dispatch`).
 *
 * A path without parameters (`/v1/posts/bulk`) is matched exactly: it has the methods registered
 * for it and no others, and no pattern of its group (`/v1/posts/:id`) may claim it. Other paths
 * are matched by one @koa/router per group of paths that share their first segments: a router
 * tests every one of its routes' patterns on every request (one router over the API tested 42),
 * so one Map lookup picks the group and only its few patterns are tried.
 */
export class RouteTable {
  private readonly groups = new Map<string, Router<State>>()
  /** The route of each layer the groups' routers hold. */
  private readonly routeOf = new Map<Layer<State>, Route>()
  /** Routes without parameters, by path and method (HEAD with GET): one lookup finds them. */
  private readonly fixed = new Map<string, Map<string, Route>>()

  /** Adds a route: a Koa path pattern (`/v1/posts/:id`), its methods, and the scope it needs. */
  register(path: string, methods: string[], handler: RouterMiddleware<State>, scope?: Scope, rawBody = false): void {
    if (methods.length === 0) throw new Error(`${path}: a route needs a method.`)
    const group = groupOf(path)
    const first = group.split('/')[0]!
    if (/[:(*]/.test(first)) throw new Error(`${path}: the first segment of a route must be fixed.`)
    // A request is looked up by its first two segments, then its first: a group that took
    // `/feeds/:id` would never see `/feeds/static` if `feeds/static` were a group too.
    for (const other of this.groups.keys()) {
      if ((group === first) !== (other === first) && other.split('/')[0] === first) {
        throw new Error(`Routes under /${first} both have and lack a fixed second segment (${path}); the table cannot group them.`)
      }
    }
    let router = this.groups.get(group)
    if (!router) {
      router = newRouter()
      this.groups.set(group, router)
    }
    router.register(path, methods, handler)
    const layer = router.stack.at(-1)!
    const route: Route = { pattern: path, scope, handler, rawBody }
    this.routeOf.set(layer, route)
    // Only a pattern of plain characters (and escaped dots) is one fixed path.
    if (!/^[\w/.\\-]+$/.test(path)) return
    // The pattern's own text, unescaped (`/v1/openapi\.json` is `/v1/openapi.json`).
    const literal = path.replace(/\\(.)/g, '$1')
    if (!layer.match(literal)) throw new Error(`${path}: the table cannot tell which request paths this pattern matches.`)
    let byMethod = this.fixed.get(literal)
    if (!byMethod) this.fixed.set(literal, (byMethod = new Map()))
    for (const method of layer.methods) {
      if (byMethod.has(method)) throw new Error(`${method} ${path} has two routes.`)
      byMethod.set(method, route)
    }
  }

  get(path: string, handler: RouterMiddleware<State>): void {
    this.register(path, ['GET'], handler)
  }

  /**
   * The pattern of the route a request path belongs to (`/v1/posts/:id`), whatever its method,
   * or undefined if none: what a request refused before matching (401, 429) or with 405 is
   * counted under in the metrics.
   */
  patternOf(path: string, method: string): string | undefined {
    const exact = this.fixed.get(path)
    if (exact) return (exact.get(method) ?? exact.values().next().value)?.pattern
    const layer = groupOfRequest(this.groups, path)?.match(path, method).path[0]
    return layer && this.routeOf.get(layer)?.pattern
  }

  /**
   * The middleware that finds a request's route and checks its scope, leaving the handler on
   * `ctx.state.handler` (and `ctx.params`, and the pattern as `_matchedRoute` for the log). A
   * path in no route is 404, a method the path lacks 405 with `Allow`, OPTIONS 204 with `Allow`.
   */
  match(): Koa.Middleware<State> {
    const groups = this.groups
    const fixed = this.fixed
    const routeOf = this.routeOf
    const found = (ctx: Koa.ParameterizedContext<State>, route: Route, params: Record<string, string>) => {
      if (route.scope && !ctx.state.principal?.scopes.has(route.scope)) throw insufficientScope(route.scope)
      const routed = ctx as RouterContext<State>
      routed.params = params
      routed._matchedRoute = route.pattern
      ctx.state.handler = route.handler
      ctx.state.rawBody = route.rawBody
    }
    return (ctx, next) => {
      const path = ctx.path
      const exact = fixed.get(path)
      if (exact) {
        const route = exact.get(ctx.method)
        if (!route) return refuse(ctx, exact.keys())
        found(ctx, route, {})
        return next()
      }
      const router = groupOfRequest(groups, path)
      const matched = router?.match(path, ctx.method)
      const layer = matched?.pathAndMethod[0]
      if (!layer) {
        if (matched?.path.length) return refuse(ctx, matched.path.flatMap((l) => l.methods))
        throw new ApiError(404, 'not_found', `No endpoint ${ctx.method} ${ctx.path}. The API's endpoints are listed at /v1/openapi.json.`)
      }
      found(ctx, routeOf.get(layer)!, layer.params(path, layer.captures(path)))
      return next()
    }
  }

  /** The middleware that runs the handler `match` found: the last one. */
  dispatch(): Koa.Middleware<State> {
    return (ctx, next) => ctx.state.handler!(ctx as RouterContext<State>, next)
  }
}
