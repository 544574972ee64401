import type Koa from 'koa'
import { badRequest } from '../../src/errors.js'
import type { State } from '../context.js'

/** Headers that carry one value: two of them are ambiguous, never "the first one wins". */
const SINGLE = ['authorization', 'content-type', 'idempotency-key', 'if-match']

/** Refuses a request that sends any of the single-valued headers twice (400 `duplicate_header`). */
export function singleHeaders(): Koa.Middleware<State> {
  // Not async, and nothing allocated per request: it runs on every one, and almost always passes.
  return (ctx, next) => {
    let seen = 0
    const raw = ctx.req.rawHeaders
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!
      const which = SINGLE.indexOf(name.toLowerCase())
      if (which < 0) continue
      if (seen & (1 << which)) throw badRequest('duplicate_header', `The ${name} header was sent more than once; send it once.`)
      seen |= 1 << which
    }
    return next()
  }
}
