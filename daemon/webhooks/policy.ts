/** When a failed delivery is tried again (the Standard Webhooks schedule), after attempt 1, 2, … */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
] as const

/** The first try and one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1
/** An endpoint that has not succeeded for this long while failing is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 86_400_000
/** A `Retry-After` longer than this is capped: it must not park an event for weeks. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000
/** ±10 %: endpoints that failed together do not all come back at the same instant. */
const JITTER = 0.1

/**
 * When to try again after a failed attempt, or null if it was the last. A `Retry-After` later
 * than the schedule wins; an earlier one does not hurry the schedule.
 */
export function nextAttemptAt(attempt: number, now: number, retryAfterMs: number | undefined, random: () => number = Math.random): number | null {
  if (attempt >= MAX_ATTEMPTS) return null
  const base = RETRY_DELAYS_MS[attempt - 1]!
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random()))
  return now + Math.max(jittered, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS))
}

/** `Retry-After` in ms, from whole seconds or an HTTP date; undefined if absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

export type Verdict = 'success' | 'retry' | 'gone'

/** 2xx is success; 410 means the receiver is gone for good; anything else (3xx too) is retried. */
export function verdictOf(status: number): Verdict {
  if (status >= 200 && status < 300) return 'success'
  if (status === 410) return 'gone'
  return 'retry'
}
