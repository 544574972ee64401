import type Koa from 'koa'
import { badRequest } from '../../src/errors.js'
import type { State } from '../context.js'

/** Headers that carry one value: two of them are ambiguous, never "the first one wins". */
const SINGLE = new Set(['authorization', 'content-type', 'idempotency-key', 'if-match'])

/** Refuses a request that sends any of the single-valued headers twice (400 `duplicate_header`). */
export function singleHeaders(): Koa.Middleware<State> {
  return async (ctx, next) => {
    const seen = new Set<string>()
    const raw = ctx.req.rawHeaders
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase()
      if (!SINGLE.has(name)) continue
      if (seen.has(name)) throw badRequest('duplicate_header', `The ${raw[i]} header was sent more than once; send it once.`)
      seen.add(name)
    }
    return next()
  }
}
