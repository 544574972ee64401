import type Koa from 'koa'
import { hasApiKeyShape, hashApiKey, isWellFormedApiKey } from '../../src/api-key.js'
import { ApiError, invalidToken } from '../../src/errors.js'
import type { Clock } from '../../src/time.js'
import type { AppDeps, State } from '../context.js'
import { lastUseDue } from '../store/index.js'
import { counterChildren, metricSet } from '../prometheus/registry.js'
import { rateLimitedTotal } from './rate-limit.js'

/** Why an authentication failed: the `reason` label of smm_auth_failures_total. */
const FAILURES = ['missing', 'malformed', 'unknown', 'revoked', 'expired'] as const

const authFailures = metricSet(({ Counter }, registers) =>
  counterChildren(
    new Counter({
      name: 'smm_auth_failures_total',
      help: 'API requests this node refused 401 for their key: missing, malformed, unknown, revoked or expired.',
      labelNames: ['reason'],
      registers,
    }),
    FAILURES,
  ),
)

const WINDOW_MS = 60_000

/**
 * Counts failed authentications per client address in one-minute windows, so a client guessing
 * keys is slowed down without touching the per-key limits of real keys. In memory on purpose:
 * it guards against a live attack, and a restart does not help an attacker much.
 */
export class AuthFailureLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>()

  constructor(
    private readonly clock: Clock,
    private readonly perMinute: number,
  ) {}

  /** Seconds until the address may try again, or 0 if it may now. */
  retryAfter(address: string): number {
    const now = this.clock.now()
    const w = this.windows.get(address)
    if (!w || w.start + WINDOW_MS <= now || w.count < this.perMinute) return 0
    return Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000))
  }

  fail(address: string): void {
    const now = this.clock.now()
    if (this.windows.size > 10_000) {
      for (const [k, w] of this.windows) if (w.start + WINDOW_MS <= now) this.windows.delete(k)
    }
    const w = this.windows.get(address)
    if (!w || w.start + WINDOW_MS <= now) this.windows.set(address, { start: now, count: 1 })
    else w.count += 1
  }
}

const BEARER = /^Bearer[ ]+(\S+)\s*$/i
const MALFORMED = 'The API key is malformed (wrong length, characters or checksum): check it was copied whole.'

/** Paths under /v1 that anyone may read. */
const OPEN_PATHS = new Set(['/v1/openapi.json'])

/** Resolves `Authorization: Bearer <key>` to a principal for every /v1 request that needs one. */
export function authenticate(deps: AppDeps): Koa.Middleware<State> {
  const limiter = new AuthFailureLimiter(deps.clock, deps.authFailuresPerMinute ?? 30)
  const failures = authFailures(deps.prometheus)
  const lockedOut = rateLimitedTotal(deps.prometheus).get('auth_failures')!
  const check: Koa.Middleware<State> = async (ctx, next) => {
    const address = ctx.state.clientIp
    const header = ctx.get('Authorization')
    const match = BEARER.exec(header)
    // Why the request is refused, if it is: the metric's reason, and what the client is told.
    let failure: [(typeof FAILURES)[number], string] | undefined
    if (!header) failure = ['missing', 'Missing Authorization header: send "Authorization: Bearer <API key>".']
    else if (!match) failure = ['malformed', 'Malformed Authorization header: expected "Bearer <API key>".']
    else if (!hasApiKeyShape(match[1]!)) failure = ['malformed', MALFORMED]
    const now = deps.clock.now()
    if (failure === undefined) {
      const found = await deps.store.apiKeys.authenticate(hashApiKey(match![1]!), now)
      // The checksum tells a mistyped key from an unknown one, so it is checked only for a key
      // the store does not know: every key it knows was made here, well-formed. (On every
      // request it cost a CRC32 and its base62, about 5 % of the daemon's own work.)
      if (found === 'unknown') failure = isWellFormedApiKey(match![1]!) ? ['unknown', 'The API key is not known to this server.'] : ['malformed', MALFORMED]
      else if (found === 'revoked') failure = ['revoked', 'The API key has been revoked.']
      else if (found === 'expired') failure = ['expired', 'The API key has expired.']
      else ctx.state.principal = found
    }
    if (failure !== undefined) {
      const [reason, problem] = failure
      failures.get(reason)!.inc()
      // The limit counts failures, not clients: a valid key is served even from an address that
      // is locked out (behind NAT one guessing client must not lock out everyone). Keys carry a
      // checksum and 178 random bits, so answering the guesses is no help to the guesser.
      const wait = limiter.retryAfter(address)
      if (wait > 0) {
        lockedOut.inc()
        throw new ApiError(429, 'rate_limited', `Too many failed authentications from ${address}. Try again in ${wait} s.`, {
          headers: { 'Retry-After': String(wait) },
          extensions: { violated: ['auth_failures'] },
        })
      }
      limiter.fail(address)
      throw invalidToken(problem)
    }
    // Once a minute per key: not a call, and not a wait, on every request.
    const principal = ctx.state.principal!
    if (lastUseDue(principal, now)) await deps.store.apiKeys.touch(principal, now)
    return next()
  }
  // Not async: an open path passes straight on, its promise not wrapped in another.
  return (ctx, next) => (ctx.path.startsWith('/v1/') && !OPEN_PATHS.has(ctx.path) ? check(ctx, next) : next())
}
