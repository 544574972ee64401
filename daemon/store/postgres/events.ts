import type { EventType } from '../../../src/events.js'
import { newId } from '../../../src/ids.js'
import type { EventsStore, StoredEvent } from '../port.js'
import { eventFromRow, type EventRow } from '../rows.js'
import type { Queryable, Sql } from './connect.js'

/** Appends an event on `q`: inside the transaction of the change it reports, they commit together. */
export async function appendEvent(q: Queryable, workspaceId: string, type: EventType, data: unknown, now: number): Promise<StoredEvent> {
  const id = newId('msg', now)
  await q`INSERT INTO events (id, workspace_id, type, data, created_at) VALUES (${id}, ${workspaceId}, ${type}, ${JSON.stringify(data)}, ${now})`
  return { id, workspaceId, type, data, createdAt: now }
}

/** Appends several events in one statement, in order (their ids are monotonic). */
export async function appendEvents(q: Queryable, events: readonly { workspaceId: string; type: EventType; data: unknown; at: number }[]): Promise<void> {
  if (events.length === 0) return
  const rows = events.map((e) => ({ id: newId('msg', e.at), workspace_id: e.workspaceId, type: e.type, data: JSON.stringify(e.data), created_at: e.at }))
  await q`INSERT INTO events ${q(rows, 'id', 'workspace_id', 'type', 'data', 'created_at')}`
}

export function eventsStore(sql: Sql): EventsStore {
  return {
    append: (workspaceId, type, data, now) => appendEvent(sql, workspaceId, type, data, now),
    async listAfter(afterId, limit) {
      return (await sql<EventRow[]>`SELECT * FROM events WHERE id > ${afterId} ORDER BY id LIMIT ${limit}`).map(eventFromRow)
    },
  }
}
