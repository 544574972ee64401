import { nextFreeSlot, QUEUE_HORIZON_MS, type Slot } from '../../../src/queue-slots.js'
import type { Db } from './db.js'
import { QueueRefusedError } from '../port.js'
import { slotFromRow, slotRowOf, type SlotRow } from '../rows.js'

export function queuesStore(db: Db) {
  const owned = db.prepare<[string, string], { id: string }>('SELECT id FROM accounts WHERE id = ? AND user_id = ?')
  const slotsOf = db.prepare<[string], SlotRow>('SELECT day, minute FROM queue_slots WHERE account_id = ? ORDER BY day, minute')
  const clear = db.prepare<[string], void>('DELETE FROM queue_slots WHERE account_id = ?')
  const insert = db.prepare<[string, number, number], void>('INSERT INTO queue_slots (account_id, day, minute) VALUES (?, ?, ?)')
  const takenTimes = db.prepare<[string, number, number], number>(
    "SELECT scheduled_at FROM posts WHERE account_id = ? AND status IN ('scheduled', 'publishing') AND scheduled_at > ? AND scheduled_at <= ?",
  ).pluck()
  const timezoneOf = db.prepare<[string], string>('SELECT timezone FROM users WHERE id = ?').pluck()

  const slotsSync = (accountId: string): Slot[] => slotsOf.all(accountId).map(slotFromRow)
  const takenSync = (accountId: string, from: number, to: number): number[] => takenTimes.all(accountId, from, to)

  const replace = db.transaction((userId: string, accountId: string, slots: readonly Slot[]): Slot[] | undefined => {
    if (!owned.get(accountId, userId)) return undefined
    clear.run(accountId)
    for (const slot of slots) {
      const row = slotRowOf(slot)
      insert.run(accountId, row.day, row.minute)
    }
    return slotsSync(accountId)
  })

  return {
    /**
     * The account's next free slot after `now`, for a post created in the caller's (immediate)
     * transaction: SQLite has one writer at a time, so no other create can take it meanwhile.
     */
    pickSync(userId: string, accountId: string, now: number, index = 0): number {
      const at = nextFreeSlot(slotsSync(accountId), timezoneOf.get(userId)!, now, new Set(takenSync(accountId, now, now + QUEUE_HORIZON_MS)))
      if (typeof at === 'string') throw new QueueRefusedError(at, accountId, index)
      return at
    },

    /** The account's slots, Monday first; undefined if the account is not the user's. */
    async get(userId: string, accountId: string): Promise<Slot[] | undefined> {
      return owned.get(accountId, userId) ? slotsSync(accountId) : undefined
    },

    /** Replaces the account's slots, in one transaction; undefined if the account is not the user's. */
    async set(userId: string, accountId: string, slots: readonly Slot[]): Promise<Slot[] | undefined> {
      return replace.immediate(userId, accountId, slots)
    },

    /** The times in (from, to] of the account's scheduled or publishing posts. */
    async taken(accountId: string, from: number, to: number): Promise<number[]> {
      return takenSync(accountId, from, to)
    },
  }
}
