import type Koa from 'koa'
import type { Limits } from '../../src/api/users.js'
import { ApiError } from '../../src/errors.js'
import { presetHeader } from '../application.js'
import type { AppDeps, State } from '../context.js'
import { counterChildren, metricSet } from '../prometheus/registry.js'
import type { RateDecision } from '../store/index.js'

/**
 * `smm_rate_limited_total`, by the limit that refused: an API key's windows, or the failed
 * authentications of one client address (daemon/middleware/auth.ts).
 */
export const rateLimitedTotal = metricSet(({ Counter }, registers) =>
  counterChildren(
    new Counter({
      name: 'smm_rate_limited_total',
      help: "API requests this node refused 429, by limit: `key` (an API key's minute, hour or day window) or `auth_failures` (an address's failed authentications).",
      labelNames: ['limit'],
      registers,
    }),
    ['key', 'auth_failures'],
  ),
)

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000))

/**
 * The IETF RateLimit-Policy and RateLimit fields for a decision, built on every authenticated
 * request. Named in lowercase, as HTTP/2 writes every name (names are case-insensitive, RFC 9110
 * §5.1): Node keys headers by the lowercased name, and lowercasing `RateLimit-Policy` made a new
 * string to look up on every request.
 */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return { 'ratelimit-policy': policyField(decision), ratelimit: stateField(decision) }
}

const policyField = (decision: RateDecision) => decision.windows.map((w) => `"${w.name}";q=${w.limit};w=${w.seconds}`).join(', ')

function stateField(decision: RateDecision): string {
  let state = ''
  for (const w of decision.windows) state += `${state === '' ? '' : ', '}"${w.name}";r=${w.remaining};t=${seconds(w.resetMs)}`
  return state
}

/** RateLimit-Policy of each key owner's limits, made once: it changes only with the plan. */
const policies = new WeakMap<Limits, string>()

/**
 * Per-key limits over the minute, hour and day at once. A refused request is not counted, and
 * `Retry-After` is the wait until every violated window has reset.
 */
export function rateLimit(deps: AppDeps): Koa.Middleware<State> {
  const refused = rateLimitedTotal(deps.prometheus).get('key')!
  return async (ctx, next) => {
    const principal = ctx.state.principal
    if (!principal) return next()
    const limits = principal.user.limits
    const decision = await deps.store.rateLimits.consume(principal.key.id, limits, deps.clock.now())
    if (!decision.admitted) {
      const headers = rateLimitHeaders(decision)
      const wait = Math.max(...decision.windows.filter((w) => decision.violated.includes(w.name)).map((w) => seconds(w.resetMs)))
      refused.inc()
      throw new ApiError(
        429,
        'rate_limited',
        `Rate limit exceeded for this API key (${decision.violated.join(', ')} window). Retry after ${wait} s.`,
        { headers: { ...headers, 'Retry-After': String(wait) }, extensions: { violated: decision.violated } },
      )
    }
    let policy = policies.get(limits)
    if (policy === undefined) policies.set(limits, (policy = policyField(decision)))
    // Preset (see presetHeader): Koa's `set` makes three arrays and lowercases the name once more per call.
    presetHeader(ctx.res, 'ratelimit-policy', policy)
    presetHeader(ctx.res, 'ratelimit', stateField(decision))
    return next()
  }
}
