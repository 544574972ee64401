import { newId } from '../../../src/ids.js'
import type { AttemptRecord, ClaimLimits, DeliveryJob, WebhookDeliveriesStore } from '../port.js'
import { attemptFromRow, disableReasonFor, INTERRUPTED, type AttemptRow } from '../rows.js'
import type { Queryable, Sql } from './connect.js'

interface Candidate {
  webhook_id: string
  event_id: string
  next_attempt_at: number
  lease_expires_at: number | null
}

async function insertAttempt(q: Queryable, a: { webhookId: string; eventId: string; attempt: number; succeeded: boolean; statusCode: number | null; durationMs: number; responseBody: string | null; error: string | null; nextAttemptAt: number | null }, now: number) {
  await q`
    INSERT INTO webhook_attempts (id, webhook_id, event_id, attempt, succeeded, status_code, duration_ms, response_body, error, next_attempt_at, created_at)
    VALUES (${newId('dlv', now)}, ${a.webhookId}, ${a.eventId}, ${a.attempt}, ${a.succeeded ? 1 : 0}, ${a.statusCode}, ${Math.round(a.durationMs)},
            ${a.responseBody}, ${a.error}, ${a.nextAttemptAt}, ${now})`
}

/**
 * Webhook delivery on a database several nodes share: each node fans out a different batch of
 * the outbox (SKIP LOCKED) and leases due deliveries under its id. At most `perEndpoint`
 * attempts are in flight to one endpoint across all nodes; `total` is each node's own.
 */
export function webhookDeliveriesStore(sql: Sql, nodeId: string): WebhookDeliveriesStore {
  return {
    async hasWork(now) {
      const [row] = await sql<{ found: boolean }[]>`
        SELECT EXISTS (SELECT 1 FROM events WHERE dispatched_at IS NULL)
            OR EXISTS (SELECT 1 FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ${now}
                         AND (lease_expires_at IS NULL OR lease_expires_at <= ${now})) AS found`
      return row!.found
    },

    async backlog(now) {
      const [row] = await sql<{ n: number }[]>`
        SELECT ((SELECT count(*) FROM events WHERE dispatched_at IS NULL)
              + (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ${now}))::int AS n`
      return row!.n
    },

    async dispatch(now, limit = 500) {
      return sql.begin(async (tx) => {
        const batch = await tx<{ id: string }[]>`
          SELECT id FROM events WHERE dispatched_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`
        if (batch.length === 0) return 0
        const ids = batch.map((e) => e.id)
        // To every enabled endpoint of the event's user that subscribes to its type and existed
        // when it happened; webhook.test goes to its endpoint only.
        await tx`
          INSERT INTO webhook_deliveries (webhook_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
          SELECT w.id, e.id, 'pending', 0, ${now}, ${now}, ${now}
            FROM events e JOIN webhooks w ON w.workspace_id = e.workspace_id AND w.enabled = 1 AND w.created_at <= e.created_at
           WHERE e.id = ANY(${ids})
             AND CASE WHEN e.type = 'webhook.test' THEN w.id = (e.data::jsonb ->> 'webhook_id')
                      ELSE w.events::jsonb ? e.type OR w.events::jsonb ? '*' END
          ON CONFLICT DO NOTHING`
        await tx`UPDATE events SET dispatched_at = ${now} WHERE id = ANY(${ids})`
        return ids.length
      })
    },

    async claim(now: number, limits: ClaimLimits): Promise<DeliveryJob[]> {
      return sql.begin(async (tx) => {
        const leased = await tx<{ webhook_id: string; n: number; mine: number }[]>`
          SELECT webhook_id, count(*)::bigint AS n, count(*) FILTER (WHERE claimed_by = ${nodeId})::bigint AS mine
            FROM webhook_deliveries WHERE lease_expires_at > ${now} GROUP BY webhook_id`
        const busy = new Map(leased.map((r) => [r.webhook_id, r.n]))
        const free = limits.total - leased.reduce((sum, r) => sum + r.mine, 0)
        if (free <= 0) return []
        // Per endpoint, so one endpoint's backlog cannot starve the others; rows another node is
        // claiming right now are skipped, not waited for.
        const candidates = (
          await tx<Candidate[]>`
            SELECT d.webhook_id, d.event_id, d.next_attempt_at, d.lease_expires_at
              FROM webhooks w CROSS JOIN LATERAL (
                SELECT * FROM webhook_deliveries d
                 WHERE d.webhook_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= ${now}
                   AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= ${now})
                 ORDER BY d.next_attempt_at, d.event_id LIMIT ${limits.perEndpoint}
                 FOR UPDATE SKIP LOCKED) d
             WHERE w.enabled = 1`
        ).filter((c, _, all) => {
          const room = limits.perEndpoint - (busy.get(c.webhook_id) ?? 0)
          return all.filter((o) => o.webhook_id === c.webhook_id).indexOf(c) < room
        })
        candidates.sort((a, b) => a.next_attempt_at - b.next_attempt_at || (a.event_id < b.event_id ? -1 : 1))
        const jobs: DeliveryJob[] = []
        for (const c of candidates.slice(0, free)) {
          const [row] = await tx<(Omit<DeliveryJob, 'attempt'> & { attempts: number })[]>`
            WITH leased AS (
              UPDATE webhook_deliveries SET attempts = attempts + 1, lease_expires_at = ${now + limits.leaseMs}, claimed_by = ${nodeId}, updated_at = ${now}
               WHERE webhook_id = ${c.webhook_id} AND event_id = ${c.event_id} RETURNING attempts)
            SELECT w.id AS "webhookId", e.id AS "eventId", w.url, w.secret AS "sealedSecret", w.previous_secret AS "sealedPreviousSecret",
                   w.previous_secret_expires_at AS "previousSecretExpiresAt", e.type AS "eventType", e.data AS "eventData",
                   e.created_at AS "eventCreatedAt", leased.attempts
              FROM leased, webhooks w JOIN events e ON e.id = ${c.event_id} WHERE w.id = ${c.webhook_id}`
          const { attempts, ...job } = row!
          // A lease that ran out is an attempt whose outcome nobody recorded: it counts.
          if (c.lease_expires_at !== null) {
            await insertAttempt(tx, { webhookId: c.webhook_id, eventId: c.event_id, attempt: attempts - 1, succeeded: false, statusCode: null, durationMs: 0, responseBody: null, error: INTERRUPTED, nextAttemptAt: now }, now)
          }
          jobs.push({ ...job, attempt: attempts })
        }
        return jobs
      })
    },

    async record(r: AttemptRecord, now: number) {
      return sql.begin(async (tx) => {
        const status = r.succeeded ? 'succeeded' : r.nextAttemptAt === null ? 'failed' : 'pending'
        // Only under the claim the attempt was made under: its number is the claim's fencing token.
        const settled = await tx`
          UPDATE webhook_deliveries SET status = ${status}, next_attempt_at = coalesce(${r.nextAttemptAt}, next_attempt_at),
                 lease_expires_at = NULL, claimed_by = NULL, updated_at = ${now}
           WHERE webhook_id = ${r.webhookId} AND event_id = ${r.eventId} AND attempts = ${r.attempt} AND lease_expires_at IS NOT NULL RETURNING 1`
        // Claimed again by another worker after this one's lease ran out, or the endpoint deleted
        // while the attempt was in flight: there is nothing this attempt may record.
        if (settled.length === 0) return { recorded: false, disabledReason: null }
        await insertAttempt(tx, r, now)
        if (r.succeeded) {
          await tx`UPDATE webhooks SET failing_since = NULL WHERE id = ${r.webhookId}`
          return { recorded: true, disabledReason: null }
        }
        const [endpoint] = await tx<{ failing_since: number; enabled: number }[]>`
          UPDATE webhooks SET failing_since = coalesce(failing_since, ${now}) WHERE id = ${r.webhookId} RETURNING failing_since, enabled`
        const reason = (endpoint && endpoint.enabled === 1 && disableReasonFor(r, endpoint.failing_since, now)) || null
        if (!reason) return { recorded: true, disabledReason: null }
        await tx`UPDATE webhooks SET enabled = 0, disabled_reason = ${reason}, disabled_at = ${now}, updated_at = ${now} WHERE id = ${r.webhookId} AND enabled = 1`
        return { recorded: true, disabledReason: reason }
      })
    },

    /**
     * At this node's start, its own leases belong to a process that is gone: expired now, so
     * those deliveries are retried at once. Other nodes' leases are theirs until they run out.
     */
    async releaseLeases(now) {
      return (await sql`
        UPDATE webhook_deliveries SET lease_expires_at = ${now}
         WHERE claimed_by = ${nodeId} AND lease_expires_at > ${now} AND status = 'pending' RETURNING 1`).length
    },

    async resend(webhookId, ref, now) {
      return sql.begin(async (tx) => {
        // Named by its event's id (the webhook-id header) or by one of its attempts (dlv_…).
        const [delivery] = await tx<{ event_id: string; lease_expires_at: number | null }[]>`
          SELECT event_id, lease_expires_at FROM webhook_deliveries
           WHERE webhook_id = ${webhookId}
             AND event_id = coalesce((SELECT event_id FROM webhook_attempts WHERE id = ${ref} AND webhook_id = ${webhookId}), ${ref})
           FOR UPDATE`
        if (!delivery) return { kind: 'not_found' as const }
        if (delivery.lease_expires_at !== null && delivery.lease_expires_at > now) return { kind: 'in_flight' as const }
        await tx`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ${now}, updated_at = ${now}
                  WHERE webhook_id = ${webhookId} AND event_id = ${delivery.event_id}`
        return { kind: 'ok' as const, eventId: delivery.event_id }
      })
    },

    async purgeFinished(before) {
      return (await sql`DELETE FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < ${before} RETURNING 1`).length
    },

    async listAttempts(webhookId, before, limit) {
      const rows = await sql<AttemptRow[]>`
        SELECT a.*, e.type AS event_type FROM webhook_attempts a JOIN events e ON e.id = a.event_id
         WHERE a.webhook_id = ${webhookId} AND (${before} = '' OR a.id < ${before}) ORDER BY a.id DESC LIMIT ${limit}`
      return rows.map(attemptFromRow)
    },
  }
}
