// What a day of the calendar holds: its posts and the free queue slots between them. The slots
// come from each account's weekly queue laid over the visible range by src/queue-slots.ts, the
// arithmetic the daemon itself picks a queued post's slot with, so a free slot shown here is a
// slot `"queue": true` could take.

import { slotOccurrences } from '../queue-slots.js'
import { zonedParts, type CivilDate } from '../zoned-time.js'
import type { Account, Post, PostStatus, Queue, TimeRange } from './calendar-source.js'
import { placedAt } from './post-style.js'

/** One free queue slot: an instant of an account's weekly slots that no post of the account takes. */
export interface FreeSlot {
  at: number
  accountId: string
  accountName: string
}

/** One line of a day: a post, or a free slot of some account's queue. */
export type DayEntry = { kind: 'post'; at: number; post: Post } | { kind: 'slot'; at: number; slot: FreeSlot }

// What takes a slot, as the daemon counts it: a post of the account that will go out, or is
// going out, at exactly that instant, or one waiting for approval. A draft, a rejected or a
// cancelled post leaves the slot free.
const TAKES_SLOT: ReadonlySet<PostStatus> = new Set(['scheduled', 'publishing', 'pending_approval'])

/**
 * The free slots of every account's queue within `range` and after `now` (the daemon never
 * queues into the past), in time order. `posts` must hold the range's posts: the ones that
 * take a slot are among them. Slots are wall-clock times in the queue's own zone (the user's
 * profile zone), whatever zone the calendar shows.
 */
export function freeSlotsIn(queues: Readonly<Record<string, Queue>>, accounts: Account[], posts: Post[], range: TimeRange, now: number): FreeSlot[] {
  const from = Date.parse(range.from)
  const to = Date.parse(range.to)
  const taken = new Set(posts.filter((p) => TAKES_SLOT.has(p.status) && p.scheduled_at !== null).map((p) => `${p.account_id} ${placedAt(p)}`))
  const free: FreeSlot[] = []
  for (const [accountId, queue] of Object.entries(queues)) {
    const accountName = accounts.find((a) => a.id === accountId)?.name ?? accountId
    for (const at of slotOccurrences(queue.slots, queue.timezone, Math.max(from - 1, now))) {
      if (at >= to) break
      if (!taken.has(`${accountId} ${at}`)) free.push({ at, accountId, accountName })
    }
  }
  return free.sort((a, b) => a.at - b.at)
}

/** What the free slots are worked out from: the calendar's state, in part. */
export interface SlotInputs {
  queues: Readonly<Record<string, Queue>>
  accounts: Account[]
  posts: Post[]
  /** The range `posts` were loaded for; null before the first load. */
  loadedRange: TimeRange | null
  now: number
}

let lastSlots: { inputs: SlotInputs; slots: FreeSlot[] } | null = null

/**
 * The free queue slots of the loaded range: none until its posts are loaded, as they say which
 * slots are taken. Remembered for the last inputs, since every key and frame asks again.
 */
export function visibleFreeSlots(state: SlotInputs): FreeSlot[] {
  if (!state.loadedRange) return []
  const last = lastSlots?.inputs
  if (last && last.queues === state.queues && last.accounts === state.accounts && last.posts === state.posts && last.loadedRange === state.loadedRange && last.now === state.now) {
    return lastSlots!.slots
  }
  const slots = freeSlotsIn(state.queues, state.accounts, state.posts, state.loadedRange, state.now)
  lastSlots = { inputs: { queues: state.queues, accounts: state.accounts, posts: state.posts, loadedRange: state.loadedRange, now: state.now }, slots }
  return slots
}

function postsByTime(a: Post, b: Post): number {
  return placedAt(a) - placedAt(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/** Posts grouped by the day they are scheduled on in the user's zone, each day in time order. */
export function postsByDay(posts: Post[], timeZone: string): Map<CivilDate, Post[]> {
  const days = new Map<CivilDate, Post[]>()
  for (const post of [...posts].sort(postsByTime)) {
    const day = zonedParts(placedAt(post), timeZone).date
    const list = days.get(day)
    if (list) list.push(post)
    else days.set(day, [post])
  }
  return days
}

function byTime(a: DayEntry, b: DayEntry): number {
  if (a.at !== b.at) return a.at - b.at
  // At one instant: posts first, then slots by account; posts by id, as the API lists them.
  if (a.kind !== b.kind) return a.kind === 'post' ? -1 : 1
  const ka = a.kind === 'post' ? a.post.id : a.slot.accountName
  const kb = b.kind === 'post' ? b.post.id : b.slot.accountName
  return ka < kb ? -1 : ka > kb ? 1 : 0
}

/** Posts and free slots grouped by the day they fall on in the user's zone, each day in time order. */
export function entriesByDay(posts: Post[], slots: FreeSlot[], timeZone: string): Map<CivilDate, DayEntry[]> {
  const entries: DayEntry[] = [
    ...posts.map((post) => ({ kind: 'post' as const, at: placedAt(post), post })),
    ...slots.map((slot) => ({ kind: 'slot' as const, at: slot.at, slot })),
  ].sort(byTime)
  const days = new Map<CivilDate, DayEntry[]>()
  for (const entry of entries) {
    const day = zonedParts(entry.at, timeZone).date
    const list = days.get(day)
    if (list) list.push(entry)
    else days.set(day, [entry])
  }
  return days
}
