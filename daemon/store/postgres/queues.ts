import { nextFreeSlot, QUEUE_HORIZON_MS } from '../../../src/queue-slots.js'
import { QueueRefusedError, type QueuesStore } from '../port.js'
import { slotFromRow, slotRowOf, type SlotRow } from '../rows.js'
import type { Queryable, Sql } from './connect.js'

async function slotsOf(q: Queryable, accountId: string) {
  return (await q<SlotRow[]>`SELECT day, minute FROM queue_slots WHERE account_id = ${accountId} ORDER BY day, minute`).map(slotFromRow)
}

async function takenTimes(q: Queryable, accountId: string, from: number, to: number): Promise<number[]> {
  const rows = await q<{ scheduled_at: number }[]>`
    SELECT scheduled_at FROM posts
     WHERE account_id = ${accountId} AND status IN ('scheduled', 'publishing', 'pending_approval') AND scheduled_at > ${from} AND scheduled_at <= ${to}`
  return rows.map((r) => r.scheduled_at)
}

/**
 * The account's next free slot after `now`, for a post created in the caller's transaction.
 * The account's row is locked first: a second queued create for the account (on any node)
 * waits until this transaction ends, then reads the slot as taken, so two never share one.
 */
export async function pickSlot(tx: Queryable, accountId: string, now: number, index = 0): Promise<number> {
  // The slots are wall-clock times in the account's workspace's zone (a personal one's is its user's).
  const [account] = await tx<{ timezone: string }[]>`
    SELECT coalesce(u.timezone, w.timezone) AS timezone FROM accounts a JOIN workspaces w ON w.id = a.workspace_id LEFT JOIN users u ON u.id = w.personal_of
     WHERE a.id = ${accountId} FOR UPDATE OF a`
  // The account went away meanwhile: no slots, and the insert that follows fails its foreign key anyway.
  if (!account) throw new QueueRefusedError('queue_empty', accountId, index)
  const taken = new Set(await takenTimes(tx, accountId, now, now + QUEUE_HORIZON_MS))
  const at = nextFreeSlot(await slotsOf(tx, accountId), account.timezone, now, taken)
  if (typeof at === 'string') throw new QueueRefusedError(at, accountId, index)
  return at
}

export function queuesStore(sql: Sql): QueuesStore {
  return {
    async get(scope, accountId) {
      const [account] = await sql`SELECT 1 FROM accounts WHERE id = ${accountId} AND workspace_id = ANY(${scope}::text[])`
      return account ? slotsOf(sql, accountId) : undefined
    },

    async set(scope, accountId, slots) {
      return sql.begin(async (tx) => {
        // Locked as a queued create locks it: the slots change between creates, not during one.
        const [account] = await tx`SELECT 1 FROM accounts WHERE id = ${accountId} AND workspace_id = ANY(${scope}::text[]) FOR UPDATE`
        if (!account) return undefined
        await tx`DELETE FROM queue_slots WHERE account_id = ${accountId}`
        if (slots.length > 0) await tx`INSERT INTO queue_slots ${tx(slots.map((slot) => ({ account_id: accountId, ...slotRowOf(slot) })))}`
        return slotsOf(tx, accountId)
      })
    },

    async taken(accountId, from, to) {
      return takenTimes(sql, accountId, from, to)
    },
  }
}
