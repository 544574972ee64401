import type { EventType } from '../../../src/events.js'
import { newId } from '../../../src/ids.js'
import type { Actor, AuditRecord, EventsStore, StoredEvent } from '../port.js'
import { actorJson, eventFromRow, type EventRow } from '../rows.js'
import type { Queryable, Sql } from './connect.js'

/** Appends an event and who caused it on `q`: inside the transaction of the change it reports, they commit together. */
export async function appendEvent(q: Queryable, workspaceId: string, type: EventType, data: unknown, now: number, by: Actor): Promise<StoredEvent> {
  const id = newId('msg', now)
  await q`INSERT INTO events (id, workspace_id, type, data, actor, created_at) VALUES (${id}, ${workspaceId}, ${type}, ${JSON.stringify(data)}, ${actorJson(by)}, ${now})`
  return { id, workspaceId, type, data, actor: by, createdAt: now }
}

/** Appends several events in one statement, in order (their ids are monotonic). */
export async function appendEvents(q: Queryable, events: readonly { workspaceId: string; type: EventType; data: unknown; at: number; by: Actor }[]): Promise<void> {
  if (events.length === 0) return
  const rows = events.map((e) => ({ id: newId('msg', e.at), workspace_id: e.workspaceId, type: e.type, data: JSON.stringify(e.data), actor: actorJson(e.by), created_at: e.at }))
  await q`INSERT INTO events ${q(rows, 'id', 'workspace_id', 'type', 'data', 'actor', 'created_at')}`
}

export function eventsStore(sql: Sql): EventsStore {
  return {
    append: (workspaceId, type, data, now, by) => appendEvent(sql, workspaceId, type, data, now, by),
    async listAfter(afterId, limit) {
      return (await sql<EventRow[]>`SELECT * FROM events WHERE id > ${afterId} ORDER BY id LIMIT ${limit}`).map(eventFromRow)
    },
    async audit(workspaceId, filters, before, limit): Promise<AuditRecord[]> {
      const exact = (filters.kinds ?? []).filter((k) => !k.endsWith('.*'))
      const families = (filters.kinds ?? []).filter((k) => k.endsWith('.*')).map((k) => `${k.slice(0, -1)}%`)
      const rows = await sql<(EventRow & { actor_name: string | null })[]>`
        SELECT e.*, u.name AS actor_name FROM events e LEFT JOIN users u ON u.id = (e.actor::jsonb ->> 'user_id')
         WHERE e.workspace_id = ${workspaceId}
           ${before ? sql`AND e.id < ${before}` : sql``}
           ${filters.from !== undefined ? sql`AND e.created_at >= ${filters.from}` : sql``}
           ${filters.to !== undefined ? sql`AND e.created_at < ${filters.to}` : sql``}
           ${filters.kinds ? sql`AND (e.type = ANY(${exact}::text[]) OR e.type LIKE ANY(${families}::text[]))` : sql``}
         ORDER BY e.id DESC LIMIT ${limit}`
      return rows.map((row) => ({ ...eventFromRow(row), actorName: row.actor_name }))
    },
  }
}
