import type Koa from 'koa'
import { ApiError, internalError } from '../../src/errors.js'
import type { AppDeps, State } from '../context.js'
import { StoreUnavailableError } from '../store/index.js'

/** 503 `store_unavailable`: the database cannot be reached right now; try again in a few seconds. */
export const storeUnavailable = (detail = 'The database is unreachable right now, so the request was not carried out. Retry in a few seconds.') =>
  new ApiError(503, 'store_unavailable', detail, { headers: { 'Retry-After': '5' } })

/** Any thrown value as the ApiError the client will see; an unexpected one becomes a bare 500. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  if (error instanceof StoreUnavailableError) return storeUnavailable()
  return internalError()
}

/** Renders every error as RFC 9457 problem+json. A 5xx says nothing of internals; the log does. */
export function errorRenderer(deps: AppDeps): Koa.Middleware<State> {
  const render = (ctx: Koa.ParameterizedContext<State>, thrown: unknown) => {
    const error = toApiError(thrown)
    if (!(thrown instanceof ApiError) || error.status >= 500) {
      deps.log.error({ req_id: ctx.state.requestId, err: thrown }, 'request failed')
    }
    ctx.status = error.status
    for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value)
    ctx.type = 'application/problem+json'
    ctx.body = error.toProblem(ctx.state.requestId)
  }
  // Not async: `next()` is always a promise (Koa's composition turns a throw into a rejection),
  // and a handler on its rejection costs a promise where an async function awaiting it also
  // keeps its frame to resume.
  return (ctx, next) => next().catch((thrown: unknown) => render(ctx, thrown))
}
