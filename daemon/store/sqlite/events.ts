import type { EventType } from '../../../src/events.js'
import { newId } from '../../../src/ids.js'
import type { Db } from './db.js'
import type { Actor, AuditFilters, AuditRecord, StoredEvent } from '../port.js'
import { actorJson, eventFromRow, type EventRow as Row } from '../rows.js'

// The list lives in src/ so the API's schemas (webhook subscriptions) can name the types too.
export { EVENT_TYPES, type EventType } from '../../../src/events.js'

export function eventsStore(db: Db) {
  const insert = db.prepare<[string, string, string, string, string | null, number], void>(
    'INSERT INTO events (id, workspace_id, type, data, actor, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  )
  // Listed as still to dispatch (migration 17): the webhook dispatcher takes it off the list.
  const queue = db.prepare<[string], void>('INSERT INTO outbox (event_id) VALUES (?)')
  const after = db.prepare<[string, number], Row>('SELECT * FROM events WHERE id > ? ORDER BY id LIMIT ?')
  // Newest first along (workspace_id, id); a kind ending in `.*` names a family of types.
  const audit = db.prepare<{ workspace: string; before: string; from: number | null; to: number | null; kinds: string | null; limit: number }, Row & { actor_name: string | null }>(`
    SELECT e.*, u.name AS actor_name FROM events e LEFT JOIN users u ON u.id = e.actor ->> '$.user_id'
     WHERE e.workspace_id = @workspace AND (@before = '' OR e.id < @before)
       AND (@from IS NULL OR e.created_at >= @from) AND (@to IS NULL OR e.created_at < @to)
       AND (@kinds IS NULL OR EXISTS (SELECT 1 FROM json_each(@kinds) k
             WHERE k.value = e.type OR (k.value LIKE '%.*' AND substr(e.type, 1, length(k.value) - 1) = substr(k.value, 1, length(k.value) - 1))))
     ORDER BY e.id DESC LIMIT @limit`)

  return {
    /**
     * Appends an event, with who caused it. Synchronous on purpose: call it inside the
     * transaction of the change it reports, so the change and its event commit together or not
     * at all.
     */
    appendSync(workspaceId: string, type: EventType, data: unknown, now: number, by: Actor): StoredEvent {
      return { id: this.appendJsonSync(workspaceId, type, JSON.stringify(data), now, by), workspaceId, type, data, actor: by, createdAt: now }
    },
    /** The same, with the data already in JSON (a burst's outcomes write the post twice, and serialize it once); answers the event's id. */
    appendJsonSync(workspaceId: string, type: EventType, json: string, now: number, by: Actor): string {
      const id = newId('msg', now)
      insert.run(id, workspaceId, type, json, actorJson(by), now)
      queue.run(id)
      return id
    },
    async append(workspaceId: string, type: EventType, data: unknown, now: number, by: Actor): Promise<StoredEvent> {
      return this.appendSync(workspaceId, type, data, now, by)
    },
    /** Events in order after a given id (`''` for the first), for the delivery loop. */
    async listAfter(afterId: string, limit: number): Promise<StoredEvent[]> {
      return after.all(afterId, limit).map(eventFromRow)
    },
    /** A workspace's events, newest first, before a given id: its audit log. */
    async audit(workspaceId: string, filters: AuditFilters, before: string, limit: number): Promise<AuditRecord[]> {
      const rows = audit.all({ workspace: workspaceId, before, from: filters.from ?? null, to: filters.to ?? null, kinds: filters.kinds ? JSON.stringify(filters.kinds) : null, limit })
      return rows.map((row) => ({ ...eventFromRow(row), actorName: row.actor_name }))
    },
  }
}
