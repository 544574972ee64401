import { newId } from '../../../src/ids.js'
import type { WebhookChanges, WebhooksStore, WorkspaceScope } from '../port.js'
import { webhookEdit, webhookFromRow, type WebhookRow } from '../rows.js'
import type { Sql } from './connect.js'

export function webhooksStore(sql: Sql): WebhooksStore {
  const one = (rows: WebhookRow[]) => (rows[0] ? webhookFromRow(rows[0]) : undefined)
  return {
    async create(workspaceId, userId, input, now) {
      return one(
        await sql<WebhookRow[]>`
          INSERT INTO webhooks (id, workspace_id, user_id, url, events, description, secret, created_at, updated_at)
          VALUES (${newId('whk', now)}, ${workspaceId}, ${userId}, ${input.url}, ${JSON.stringify(input.events)}, ${input.description}, ${input.sealedSecret}, ${now}, ${now})
          RETURNING *`,
      )!
    },
    async get(scope, id) {
      return one(await sql<WebhookRow[]>`SELECT * FROM webhooks WHERE id = ${id} AND workspace_id = ANY(${scope}::text[])`)
    },
    async listPage(scope, after, limit) {
      return (await sql<WebhookRow[]>`SELECT * FROM webhooks WHERE workspace_id = ANY(${scope}::text[]) AND id > ${after} ORDER BY id LIMIT ${limit}`).map(webhookFromRow)
    },
    async update(scope: WorkspaceScope, id: string, changes: WebhookChanges, now: number) {
      return sql.begin(async (tx) => {
        const [row] = await tx<WebhookRow[]>`SELECT * FROM webhooks WHERE id = ${id} AND workspace_id = ANY(${scope}::text[]) FOR UPDATE`
        if (!row) return undefined
        return one(
          await tx<WebhookRow[]>`
            UPDATE webhooks SET ${tx({ ...webhookEdit(row, changes, now), updated_at: now })}
             WHERE id = ${id} RETURNING *`,
        )
      })
    },
    async rotateSecret(scope, id, sealedSecret, overlapUntil, now) {
      return one(
        await sql<WebhookRow[]>`
          UPDATE webhooks SET previous_secret = secret, secret = ${sealedSecret}, previous_secret_expires_at = ${overlapUntil}, updated_at = ${now}
           WHERE id = ${id} AND workspace_id = ANY(${scope}::text[]) RETURNING *`,
      )
    },
    async delete(scope, id) {
      return (await sql`DELETE FROM webhooks WHERE id = ${id} AND workspace_id = ANY(${scope}::text[]) RETURNING 1`).length > 0
    },
  }
}
