import type { EventType } from '../../../src/events.js'
import { newId } from '../../../src/ids.js'
import type { Db } from './db.js'
import type { StoredEvent } from '../port.js'
import { eventFromRow, type EventRow as Row } from '../rows.js'

// The list lives in src/ so the API's schemas (webhook subscriptions) can name the types too.
export { EVENT_TYPES, type EventType } from '../../../src/events.js'


export function eventsStore(db: Db) {
  const insert = db.prepare<[string, string, string, string, number], void>(
    'INSERT INTO events (id, workspace_id, type, data, created_at) VALUES (?, ?, ?, ?, ?)',
  )
  // Listed as still to dispatch (migration 17): the webhook dispatcher takes it off the list.
  const queue = db.prepare<[string], void>('INSERT INTO outbox (event_id) VALUES (?)')
  const after = db.prepare<[string, number], Row>('SELECT * FROM events WHERE id > ? ORDER BY id LIMIT ?')

  return {
    /**
     * Appends an event. Synchronous on purpose: call it inside the transaction of the change it
     * reports, so the change and its event commit together or not at all.
     */
    appendSync(workspaceId: string, type: EventType, data: unknown, now: number): StoredEvent {
      const id = newId('msg', now)
      insert.run(id, workspaceId, type, JSON.stringify(data), now)
      queue.run(id)
      return { id, workspaceId, type, data, createdAt: now }
    },
    async append(workspaceId: string, type: EventType, data: unknown, now: number): Promise<StoredEvent> {
      return this.appendSync(workspaceId, type, data, now)
    },
    /** Events in order after a given id (`''` for the first), for the delivery loop. */
    async listAfter(afterId: string, limit: number): Promise<StoredEvent[]> {
      return after.all(afterId, limit).map(eventFromRow)
    },
  }
}
