import { EgressError } from '../egress.js'
import { PlatformError, type Platform } from '../platforms/types.js'
import type { ClaimedTarget, Outcome } from '../store/index.js'

/**
 * Why a target failed for good, as `smm_posts_failed_total` says it: the class of the platform's
 * error (`permanent`, `auth`, or `transient` until the attempts ran out), or what stopped the
 * attempt before the platform was asked (`not_connected`, `missed_schedule`).
 */
export type FailureReason = 'permanent' | 'auth' | 'transient' | 'not_connected' | 'missed_schedule'

/** An attempt's outcome as the scheduler reaches it: a failure also says why, for the metrics. */
export type AttemptOutcome = Exclude<Outcome, { kind: 'failed' }> | (Extract<Outcome, { kind: 'failed' }> & { reason: FailureReason })

/** Transient failures are tried this many times in all before the target fails for good. */
export const MAX_ATTEMPTS = 5
const FIRST_RETRY_MS = 90_000

/**
 * A re-send must be due this long before the platform's idempotency window closes: it may wait
 * its turn (a tick, the per-connection limit) before it leaves.
 */
export const RESEND_MARGIN_MS = 5 * 60_000

/**
 * Whether a publish sent no earlier than `sentAt`, whose outcome is unknown, may be sent again
 * at `resendAt`: only while the platform still knows the first request, so a repeat cannot
 * post twice.
 */
export function canResend(platform: Platform, sentAt: number, resendAt: number): boolean {
  return resendAt + RESEND_MARGIN_MS - sentAt <= platform.idempotencyWindowMs
}

/** What `unconfirmed` says: why the outcome is unknown and why smm did not simply send it again. */
export function unconfirmedDetail(name: string, window: number, why: string): string {
  const because = window > 0 ? ` (${name} recognises a repeated request for only ${Math.round(window / 60_000)} min, so smm did not send it again)` : ''
  return `${why}; it may or may not have published${because}. Check ${name}, then retry if it did not.`
}

/** Exponential backoff after the n-th failed attempt: 1.5, 4.5, 13.5 and 40.5 min, an hour in all. */
export function backoffMs(attempt: number): number {
  return FIRST_RETRY_MS * 3 ** (attempt - 1)
}

/**
 * What a failed platform call means for the target. A call whose outcome is unknown is never
 * repeated on a platform where a repeat could post twice: the target becomes `unconfirmed`
 * for the user to check. The outcome is unknown when the request may have reached the
 * platform: a timeout or a connection broken once it was up (the platform may have published
 * and the answer been lost). A network failure before any connection was made (refused, DNS,
 * TLS handshake) cannot have published anything, so it is retried like any transient error.
 */
export function outcomeOfError(error: unknown, target: ClaimedTarget, platform: Platform, started: number, now: number, maxAttempts = MAX_ATTEMPTS): AttemptOutcome {
  const name = platform.name
  let kind: 'transient' | 'permanent' | 'auth' | 'unknown'
  let code: string
  let detail: string
  let retryAfterMs = 0
  if (error instanceof PlatformError) {
    kind = error.kind === 'transient' && error.outcomeUnknown ? 'unknown' : error.kind
    code = error.code
    detail = error.message
    retryAfterMs = error.retryAfterMs ?? 0
  } else if (error instanceof EgressError) {
    kind = !error.transient ? 'permanent' : error.connected ? 'unknown' : 'transient'
    code = error.code === 'network' ? 'network_error' : error.code
    detail = error.message
  } else {
    // A throw that is not a platform's answer (a bug in a module): whether the request left is unknown.
    kind = 'unknown'
    code = 'internal_error'
    detail = `${name} publish failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`
  }
  if (kind === 'auth') return { kind: 'failed', code, detail: `${name} refused the credentials: ${detail}. Reconnect the account, then retry.`, reauthRequired: true, reason: 'auth' }
  if (kind === 'permanent') return { kind: 'failed', code, detail, reason: 'permanent' }
  const tried = target.attemptsSinceRetry
  if (tried >= maxAttempts) return { kind: 'failed', code, detail: `${detail} (gave up after ${tried} attempts)`, reason: 'transient' }
  const at = now + Math.max(backoffMs(tried), retryAfterMs)
  // A request of this chain whose outcome is unknown (this one, or an earlier one, whatever
  // ended the attempts since) may have published: send again only while the platform would
  // still know the first of them.
  const uncertainSince = target.uncertainSince ?? (kind === 'unknown' ? started : undefined)
  if (uncertainSince !== undefined && !canResend(platform, uncertainSince, at)) {
    const why = kind === 'unknown' ? `${name} was asked to publish but did not answer (${detail})` : `An earlier attempt got no answer from ${name}, and this one failed (${detail})`
    return { kind: 'unconfirmed', detail: unconfirmedDetail(name, platform.idempotencyWindowMs, why) }
  }
  return { kind: 'retry', at, code, detail, ...(uncertainSince === undefined ? {} : { uncertainSince }) }
}
