import { fromEgress } from './platform-http.js'
import type { PlatformContext } from './types.js'

// Statuses whose Response may not carry a body (the WHATWG constructor throws otherwise).
const NULL_BODY = new Set([101, 204, 205, 304])

/**
 * A WHATWG `fetch` that goes through the egress client, for libraries that take one
 * (@atproto/api): every request they make, session refreshes included, obeys the same policy
 * as ours. A refused or failed request rejects with a PlatformError, which the library wraps
 * and the caller finds again in the error's `cause`.
 */
export function egressFetch(ctx: PlatformContext, label: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init)
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined
    let response
    try {
      response = await ctx.http(request.url, { method: request.method, headers: Object.fromEntries(request.headers), body })
    } catch (error) {
      throw fromEgress(error, label)
    }
    return new Response(NULL_BODY.has(response.status) ? null : response.body, { status: response.status, headers: response.headers })
  }
}
