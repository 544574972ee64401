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

/** Where window `i` (of WINDOWS) starts at `now`. */
export const windowStart = (i: number, now: number): number => Math.floor(now / WINDOWS[i]!.ms) * WINDOWS[i]!.ms

/** Where each window (in WINDOWS order) starts at `now`. */
export const windowStarts = (now: number): number[] => WINDOWS.map((_, i) => windowStart(i, now))

/**
 * The decision on one request, from each window's count before it (in WINDOWS order, already
 * reset for windows that have rolled over): admitted only if every window has room. It runs on
 * every authenticated request, so it loops rather than maps.
 */
export function decide(limits: Limits, now: number, before: readonly number[]): RateDecision {
  let admitted = true
  for (let i = 0; i < WINDOWS.length; i++) if (before[i]! >= limits[WINDOWS[i]!.limit]) admitted = false
  const violated: WindowName[] = []
  const windows: WindowState[] = []
  for (let i = 0; i < WINDOWS.length; i++) {
    const w = WINDOWS[i]!
    const limit = limits[w.limit]
    if (before[i]! >= limit) violated.push(w.name)
    const remaining = Math.max(0, limit - before[i]! - (admitted ? 1 : 0))
    windows.push({ name: w.name, limit, seconds: w.ms / 1000, remaining, resetMs: windowStart(i, now) + w.ms - now })
  }
  return { admitted, violated, windows }
}
