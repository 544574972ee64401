import Router, { type RouterContext, type RouterMiddleware } from '@koa/router'
import type Koa from 'koa'
import type { State } from '../context.js'

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

/**
 * Exact matching: `/V1/me`, `/v1/me/` and `/v1//me` are not `/v1/me`, so no spelling of a path
 * can reach a route while passing the middleware that checks `/v1/` paths (issue 17, point 3).
 */
const newRouter = () => new Router<State>({ sensitive: true, strict: true })

/**
 * The API's routes, one @koa/router per group of paths that share their first segments. A
 * router tests every one of its routes' patterns on every request (one router over the API
 * tested 42), so a request is matched only against its own group's few: one Map lookup picks
 * the group. Each group answers as one router over all routes would: the route, 405 with
 * `Allow` for a path it has under another method, or nothing (404).
 */
export class RouteTable {
  private readonly groups = new Map<string, Router<State>>()
  /**
   * Routes without parameters, by path and method, for the ones no earlier route of their
   * group also matches: for those a request's path is the route exactly, and a lookup finds it.
   */
  private readonly fixed = new Map<string, Map<string, { route: string; middleware: RouterMiddleware<State> }>>()

  /** Adds a route: a Koa path pattern (`/v1/posts/:id`) and its methods. */
  register(path: string, methods: string[], middleware: RouterMiddleware<State>): void {
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
    const earlier = [...router.stack]
    router.register(path, methods, middleware)
    const layer = router.stack.at(-1)!
    // Only a pattern of plain characters (and escaped dots) is one fixed path.
    if (!/^[\w/.\\-]+$/.test(path)) return
    // The pattern's own text, unescaped (`/v1/openapi\.json` is `/v1/openapi.json`).
    const literal = path.replace(/\\(.)/g, '$1')
    if (!layer.match(literal)) throw new Error(`${path}: the table cannot tell which request paths this pattern matches.`)
    let byMethod = this.fixed.get(literal)
    if (!byMethod) this.fixed.set(literal, (byMethod = new Map()))
    for (const method of layer.methods) {
      const shadowed = earlier.some((l) => l.methods.includes(method) && l.match(literal))
      if (!shadowed && !byMethod.has(method)) byMethod.set(method, { route: path, middleware })
    }
  }

  get(path: string, middleware: RouterMiddleware<State>): void {
    this.register(path, ['GET'], middleware)
  }

  /**
   * The middleware that dispatches a request. A path and method with a route go straight to that
   * route's handler: @koa/router's own dispatch builds and composes a middleware chain, parses the
   * Host header and makes closures on every request. A handler answers (none calls `next`), so
   * the first route that matches is the one the router would run, with the same `ctx.params` and
   * route name. Anything else (404, 405 with `Allow`, OPTIONS, 501) goes through the group's
   * router and its `allowedMethods`, which answer as the one router did; a path in no group, to
   * an empty router.
   */
  routes(): Koa.Middleware<State> {
    const full = (router: Router<State>): Koa.Middleware<State> => {
      const routes = router.routes()
      const allowed = router.allowedMethods()
      return (ctx, next) => allowed(ctx as RouterContext<State>, () => routes(ctx as RouterContext<State>, next))
    }
    const groups = new Map([...this.groups].map(([group, router]) => [group, { router, full: full(router) }]))
    const none = newRouter()
    const unrouted = { router: none, full: full(none) }
    const fixed = this.fixed
    return (ctx, next) => {
      const path = ctx.path
      const exact = fixed.get(path)?.get(ctx.method)
      if (exact) {
        const routed = ctx as RouterContext<State>
        routed.params = {}
        routed._matchedRoute = exact.route
        return exact.middleware(routed, next)
      }
      // The first two segments, then the first; by index, not by splitting (this runs on every request).
      const first = path.indexOf('/', 1)
      const second = first < 0 ? -1 : path.indexOf('/', first + 1)
      const group = groups.get(path.slice(1, second < 0 ? path.length : second)) ?? (first < 0 ? undefined : groups.get(path.slice(1, first))) ?? unrouted
      const { route, pathAndMethod } = group.router.match(path, ctx.method)
      if (!route) return group.full(ctx, next)
      const layer = pathAndMethod[0]!
      const routed = ctx as RouterContext<State>
      routed.params = layer.params(path, layer.captures(path))
      routed._matchedRoute = layer.path
      return (layer.stack[0] as RouterMiddleware<State>)(routed, next)
    }
  }
}
