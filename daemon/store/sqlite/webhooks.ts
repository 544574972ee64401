import { newId } from '../../../src/ids.js'
import type { Db } from './db.js'
import type { NewWebhook, WebhookChanges, WebhookRecord, WebhooksStore, WorkspaceScope } from '../port.js'
import { webhookEdit, webhookFromRow as recordFromRow, type WebhookEdit, type WebhookRow } from '../rows.js'


export function webhooksStore(db: Db): WebhooksStore {
  const insert = db.prepare<[string, string, string, string, string, string | null, string, number, number], void>(
    `INSERT INTO webhooks (id, workspace_id, user_id, url, events, description, secret, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const byId = db.prepare<[string], WebhookRow>('SELECT * FROM webhooks WHERE id = ?')
  const page = db.prepare<[string, string, number], WebhookRow>(
    'SELECT w.* FROM json_each(?) s CROSS JOIN webhooks w ON w.workspace_id = s.value WHERE w.id > ? ORDER BY w.id LIMIT ?',
  )
  const update = db.prepare<WebhookEdit & { updated_at: number; id: string }, void>(
    `UPDATE webhooks SET url = @url, events = @events, description = @description, enabled = @enabled, disabled_reason = @disabled_reason,
            disabled_at = @disabled_at, failing_since = @failing_since, updated_at = @updated_at WHERE id = @id`,
  )
  const rotate = db.prepare<[string, number, number, string], void>(
    'UPDATE webhooks SET previous_secret = secret, secret = ?, previous_secret_expires_at = ?, updated_at = ? WHERE id = ?',
  )
  const remove = db.prepare<[string], void>('DELETE FROM webhooks WHERE id = ?')

  function ownRow(scope: WorkspaceScope, id: string): WebhookRow | undefined {
    const row = byId.get(id)
    return row && scope.includes(row.workspace_id) ? row : undefined
  }

  const applyChanges = db.transaction((scope: WorkspaceScope, id: string, changes: WebhookChanges, now: number) => {
    const row = ownRow(scope, id)
    if (!row) return undefined
    update.run({ ...webhookEdit(row, changes, now), updated_at: now, id })
    return recordFromRow(byId.get(id)!)
  })

  return {
    async create(workspaceId: string, userId: string, input: NewWebhook, now: number): Promise<WebhookRecord> {
      const id = newId('whk', now)
      insert.run(id, workspaceId, userId, input.url, JSON.stringify(input.events), input.description, input.sealedSecret, now, now)
      return recordFromRow(byId.get(id)!)
    },

    /** The endpoint, or undefined (one outside the scope is as absent as a missing one). */
    async get(scope: WorkspaceScope, id: string): Promise<WebhookRecord | undefined> {
      const row = ownRow(scope, id)
      return row && recordFromRow(row)
    },

    async listPage(scope: WorkspaceScope, after: string, limit: number): Promise<WebhookRecord[]> {
      return page.all(JSON.stringify(scope), after, limit).map(recordFromRow)
    },

    async update(scope: WorkspaceScope, id: string, changes: WebhookChanges, now: number): Promise<WebhookRecord | undefined> {
      return applyChanges.immediate(scope, id, changes, now)
    },

    /** Makes a new sealed secret current; the one it replaces keeps signing until `overlapUntil`. */
    async rotateSecret(scope: WorkspaceScope, id: string, sealedSecret: string, overlapUntil: number, now: number): Promise<WebhookRecord | undefined> {
      if (!ownRow(scope, id)) return undefined
      rotate.run(sealedSecret, overlapUntil, now, id)
      return recordFromRow(byId.get(id)!)
    },

    /** Deletes the endpoint with its deliveries and attempts. False if there is no such endpoint. */
    async delete(scope: WorkspaceScope, id: string): Promise<boolean> {
      if (!ownRow(scope, id)) return false
      remove.run(id)
      return true
    },
  }
}
