import type * as v from 'valibot'
import { routes, type RouteDef } from '../../src/contract.js'
import { invalidField } from '../../src/errors.js'
import { parseInput } from '../../src/validate.js'
import type { Ctx } from '../context.js'
import type { Principal } from '../store/index.js'
import type { RouteTable } from './table.js'

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined

/** What a handler is given: the route's parameters, query and body, parsed by its schemas. */
export interface Input<R extends RouteDef> {
  params: Out<R['params']>
  query: Out<R['query']>
  body: Out<R['body']>
  /** The caller; present on every route that has a scope. */
  principal: R['scope'] extends string ? Principal : Principal | undefined
}

export type Handler<R extends RouteDef> = (ctx: Ctx, input: Input<R>) => Promise<void>

export type ApiRouter = RouteTable

/** `/v1/posts/{id}` as Koa's router writes it: `/v1/posts/:id`. */
export function koaPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1').replace(/\.json$/, '\\.json')
}

/**
 * Binds a handler to a route of the contract: the table checks the scope before the body is
 * read, and every input is validated with the route's own schemas before the handler runs, so
 * no handler parses by hand.
 */
export function bind<R extends RouteDef>(router: ApiRouter, def: R, handler: Handler<R>): void {
  // From the contract, not `def`: a handler that parses its own body binds with `body: undefined`.
  const takesBody = Object.values(routes).some((r: RouteDef) => r.method === def.method && r.path === def.path && r.body !== undefined)
  // Not async: what it throws becomes the request's rejection all the same, and the handler's own
  // promise is handed on rather than wrapped in another.
  router.register(koaPath(def.path), [def.method], (ctx) => {
    const principal = ctx.state.principal
    ctx.state.shownOnce = def.shownOnce
    const sent = ctx.request.body
    // An action without a body (`…/retry`, `…/test`) must not run on a request that asked for more.
    if (!takesBody && sent !== undefined && Object.keys(sent as object).length > 0) {
      throw invalidField('#', `${def.method} ${def.path} takes no body: send none, or {}.`, 'unexpected')
    }
    const input = {
      params: def.params ? parseInput(def.params, ctx.params) : undefined,
      query: def.query ? parseInput(def.query, { ...ctx.query }) : undefined,
      body: def.body ? parseInput(def.body, ctx.request.body ?? {}) : undefined,
      principal,
    } as Input<R>
    return handler(ctx as Ctx, input)
  }, def.scope, def.rawBody !== undefined)
}
