import { nextFreeSlot, QUEUE_HORIZON_MS, type Slot } from '../../../src/queue-slots.js'
import type { Db } from './db.js'
import { QueueRefusedError, type WorkspaceScope } from '../port.js'
import { slotFromRow, slotRowOf, type SlotRow } from '../rows.js'

export function queuesStore(db: Db) {
  const workspaceOf = db.prepare<[string], string>('SELECT workspace_id FROM accounts WHERE id = ?').pluck()
  const owned = (scope: WorkspaceScope, accountId: string) => scope.includes(workspaceOf.get(accountId) ?? '')
  const slotsOf = db.prepare<[string], SlotRow>('SELECT day, minute FROM queue_slots WHERE account_id = ? ORDER BY day, minute')
  const clear = db.prepare<[string], void>('DELETE FROM queue_slots WHERE account_id = ?')
  const insert = db.prepare<[string, number, number], void>('INSERT INTO queue_slots (account_id, day, minute) VALUES (?, ?, ?)')
  const takenTimes = db.prepare<[string, number, number], number>(
    "SELECT scheduled_at FROM posts WHERE account_id = ? AND status IN ('scheduled', 'publishing', 'pending_approval') AND scheduled_at > ? AND scheduled_at <= ?",
  ).pluck()
  // The slots are wall-clock times in the account's workspace's zone (a personal one's is its user's).
  const timezoneOf = db.prepare<[string], string>(`SELECT coalesce(u.timezone, w.timezone) FROM accounts a JOIN workspaces w ON w.id = a.workspace_id LEFT JOIN users u ON u.id = w.personal_of WHERE a.id = ?`).pluck()

  const slotsSync = (accountId: string): Slot[] => slotsOf.all(accountId).map(slotFromRow)
  const takenSync = (accountId: string, from: number, to: number): number[] => takenTimes.all(accountId, from, to)

  const replace = db.transaction((scope: WorkspaceScope, accountId: string, slots: readonly Slot[]): Slot[] | undefined => {
    if (!owned(scope, accountId)) return undefined
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
    pickSync(accountId: string, now: number, index = 0): number {
      const at = nextFreeSlot(slotsSync(accountId), timezoneOf.get(accountId)!, now, new Set(takenSync(accountId, now, now + QUEUE_HORIZON_MS)))
      if (typeof at === 'string') throw new QueueRefusedError(at, accountId, index)
      return at
    },

    /** The account's slots, Monday first; undefined if the account is not in the scope. */
    async get(scope: WorkspaceScope, accountId: string): Promise<Slot[] | undefined> {
      return owned(scope, accountId) ? slotsSync(accountId) : undefined
    },

    /** Replaces the account's slots, in one transaction; undefined if the account is not in the scope. */
    async set(scope: WorkspaceScope, accountId: string, slots: readonly Slot[]): Promise<Slot[] | undefined> {
      return replace.immediate(scope, accountId, slots)
    },

    /** The times in (from, to] of the account's scheduled or publishing posts. */
    async taken(accountId: string, from: number, to: number): Promise<number[]> {
      return takenSync(accountId, from, to)
    },
  }
}
