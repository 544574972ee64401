// When the collector reads a published target's counts (SPEC §9): every 15 minutes while the
// post is under 48 hours old, hourly under 7 days, daily under 30 days, then never. Engagement
// piles up in the first hours, so that is where reads are dense; a month on, counts barely move.

const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR

/** Past this age a target's counts are no longer read; the last snapshot stands. */
export const COLLECT_FOR_MS = 30 * DAY

/** The first read after publishing: a quarter of an hour in, when there is something to count. */
export const FIRST_COLLECTION_AFTER_MS = 15 * MIN

/** The gap between two reads of a post this old. */
export function collectionStep(ageMs: number): number {
  if (ageMs < 2 * DAY) return 15 * MIN
  if (ageMs < 7 * DAY) return HOUR
  return DAY
}

/**
 * When to read a target again after reading it (or skipping it) at `at`: one step on, but never
 * past the 30-day mark, which gets one last read; after that, undefined (never again).
 */
export function nextCollectionAt(publishedAt: number, at: number): number | undefined {
  const end = publishedAt + COLLECT_FOR_MS
  if (at >= end) return undefined
  return Math.min(at + collectionStep(at - publishedAt), end)
}

/**
 * After a failed read: 1, 2, 4 … minutes, capped at an hour, or longer if the platform asked
 * (Retry-After). Capped so a long outage does not stretch past the next scheduled read by much.
 */
export function collectionBackoffMs(failures: number, retryAfterMs = 0): number {
  return Math.max(Math.min(MIN * 2 ** Math.max(0, failures - 1), HOUR), retryAfterMs)
}
