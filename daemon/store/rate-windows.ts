import type { Limits } from '../../src/api/users.js'
import type { RateDecision, WindowName, WindowState } from './port.js'

/**
 * Fixed windows aligned to the clock (the minute, the UTC hour and day), counted per key; a
 * request is counted only if every window admits it. Both stores count with these.
 */
export const WINDOWS: readonly { name: WindowName; ms: number; limit: keyof Limits }[] = [
  { name: 'minute', ms: 60_000, limit: 'per_minute' },
  { name: 'hour', ms: 3_600_000, limit: 'per_hour' },
  { name: 'day', ms: 86_400_000, limit: 'per_day' },
]

/** Where each window (in WINDOWS order) starts at `now`. */
export const windowStarts = (now: number): number[] => WINDOWS.map((w) => Math.floor(now / w.ms) * w.ms)

/**
 * The decision on one request, from each window's count before it (in WINDOWS order, already
 * reset for windows that have rolled over): admitted only if every window has room.
 */
export function decide(limits: Limits, now: number, before: readonly number[]): RateDecision {
  const starts = windowStarts(now)
  const violated: WindowName[] = []
  const windows: WindowState[] = WINDOWS.map((w, i) => {
    const limit = limits[w.limit]
    if (before[i]! >= limit) violated.push(w.name)
    return { name: w.name, limit, seconds: w.ms / 1000, remaining: limit - before[i]!, resetMs: starts[i]! + w.ms - now }
  })
  const admitted = violated.length === 0
  for (const w of windows) w.remaining = Math.max(0, w.remaining - (admitted ? 1 : 0))
  return { admitted, violated, windows }
}
