// Weekly queue slots (a day and a wall-clock time in the user's zone) and the instants they
// fall on: shared by the daemon (which picks a queued post's slot) and the CLI and calendar
// (which show the next free ones). The zone arithmetic itself is src/zoned-time.ts's.
import { addDays, slotInstant, weekdayOf, zonedParts, type Weekday } from './zoned-time.js'

/** The days a slot may name, Monday first (ISO weekday order: index + 1 is the weekday). */
export const WEEKDAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export type WeekdayName = (typeof WEEKDAY_NAMES)[number]

/** One weekly slot: `time` is 'HH:MM', 24-hour. */
export interface Slot {
  day: WeekdayName
  time: string
}

/** The most slots one account's queue holds. */
export const MAX_QUEUE_SLOTS = 100
/** How far ahead a queued post looks for a free slot before the queue counts as full. */
export const QUEUE_HORIZON_DAYS = 366
export const QUEUE_HORIZON_MS = QUEUE_HORIZON_DAYS * 86_400_000

/** A slot's place in the week, in minutes from Monday 00:00: its sort key and its identity. */
export function slotKey(slot: Slot): number {
  const [hour, minute] = slot.time.split(':').map(Number) as [number, number]
  return WEEKDAY_NAMES.indexOf(slot.day) * 1440 + hour * 60 + minute
}

/** The slot a week-minute key names. */
export function slotOfKey(key: number): Slot {
  const minutes = key % 1440
  const pad = (n: number) => String(n).padStart(2, '0')
  return { day: WEEKDAY_NAMES[Math.floor(key / 1440)]!, time: `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}` }
}

/** Slots Monday first, then by time. */
export function sortSlots(slots: readonly Slot[]): Slot[] {
  return [...slots].sort((a, b) => slotKey(a) - slotKey(b))
}

/**
 * The instants the weekly slots fall on in a zone, strictly after `after`, in order and each
 * once (two slots in one spring gap both land on its end: that instant is one slot). Endless:
 * the caller stops.
 */
export function* slotOccurrences(slots: readonly Slot[], timeZone: string, after: number): Generator<number> {
  if (slots.length === 0) return
  const byDay = new Map<Weekday, [number, number][]>()
  for (const slot of sortSlots(slots)) {
    const weekday = (WEEKDAY_NAMES.indexOf(slot.day) + 1) as Weekday
    const [hour, minute] = slot.time.split(':').map(Number) as [number, number]
    byDay.set(weekday, [...(byDay.get(weekday) ?? []), [hour, minute]])
  }
  let last = after
  // From the day before: a late slot in a gap that crosses midnight lands on the next day.
  for (let date = addDays(zonedParts(after, timeZone).date, -1); ; date = addDays(date, 1)) {
    for (const [hour, minute] of byDay.get(weekdayOf(date)) ?? []) {
      const at = slotInstant(date, hour, minute, timeZone)
      if (at > last) {
        yield at
        last = at
      }
    }
  }
}

/**
 * Up to `count` slot instants after `after` that no post takes (`taken` holds the instants of
 * the account's scheduled posts), within the horizon; fewer when the horizon runs out first.
 */
export function freeSlots(slots: readonly Slot[], timeZone: string, after: number, taken: ReadonlySet<number>, count: number): number[] {
  const free: number[] = []
  if (count <= 0) return free
  for (const at of slotOccurrences(slots, timeZone, after)) {
    if (at > after + QUEUE_HORIZON_MS) break
    if (taken.has(at)) continue
    free.push(at)
    if (free.length === count) break
  }
  return free
}

/** Why a queued post found no slot: the account has none, or none is free within the horizon. */
export type QueueRefusal = 'queue_empty' | 'queue_full'

/** The slot a queued post takes: the first free one after `now`, or why there is none. */
export function nextFreeSlot(slots: readonly Slot[], timeZone: string, now: number, taken: ReadonlySet<number>): number | QueueRefusal {
  if (slots.length === 0) return 'queue_empty'
  return freeSlots(slots, timeZone, now, taken, 1)[0] ?? 'queue_full'
}
