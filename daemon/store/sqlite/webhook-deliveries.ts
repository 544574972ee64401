import type { WebhookDeliveryAttempt } from '../../../src/api/webhooks.js'
import { newId } from '../../../src/ids.js'
import type { Db } from './db.js'
import type { DeliveryJob, ClaimLimits, AttemptRecord, Resend } from '../port.js'
import { attemptFromRow, disableReasonFor, INTERRUPTED, type AttemptRow } from '../rows.js'

export function webhookDeliveriesStore(db: Db) {
  // One batch of the outbox fans out to every enabled endpoint of the event's workspace that
  // subscribes to its type and existed when it happened; webhook.test goes to its endpoint only.
  // The batch is the first `limit` events of the outbox (migration 17), in id order; dispatching
  // them is taking them off it.
  const fanOut = db.prepare<{ now: number; limit: number }, void>(`
    INSERT OR IGNORE INTO webhook_deliveries (webhook_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
    SELECT w.id, e.id, 'pending', 0, @now, @now, @now
      FROM (SELECT event_id FROM outbox ORDER BY event_id LIMIT @limit) o
      CROSS JOIN events e ON e.id = o.event_id
      JOIN webhooks w ON w.workspace_id = e.workspace_id AND w.enabled = 1 AND w.created_at <= e.created_at
     WHERE CASE WHEN e.type = 'webhook.test' THEN w.id = json_extract(e.data, '$.webhook_id')
                ELSE EXISTS (SELECT 1 FROM json_each(w.events) j WHERE j.value IN ('*', e.type)) END`)
  const markDispatched = db.prepare<{ limit: number }, void>('DELETE FROM outbox WHERE event_id IN (SELECT event_id FROM outbox ORDER BY event_id LIMIT @limit)')
  const dispatch = db.transaction((now: number, limit: number) => {
    fanOut.run({ now, limit })
    return markDispatched.run({ limit }).changes
  })

  const inFlight = db.prepare<[number], { webhook_id: string; n: number }>(
    // Shaped so SQLite reads the partial index of leased rows rather than scanning the history
    // (the IS NOT NULL matches the index; LIMIT -1 keeps the GROUP BY from being flattened into a scan).
    `SELECT webhook_id, count(*) AS n FROM (
       SELECT webhook_id FROM webhook_deliveries WHERE lease_expires_at IS NOT NULL AND lease_expires_at > ? LIMIT -1)
     GROUP BY webhook_id`,
  )
  const enabled = db.prepare<[], { id: string }>('SELECT id FROM webhooks WHERE enabled = 1')
  // Per endpoint, so one endpoint's backlog cannot fill the candidates and starve the others,
  // and each look-up is a short range of the (webhook_id, next_attempt_at) index.
  const dueFor = db.prepare<[string, number, number, number], { webhook_id: string; event_id: string; next_attempt_at: number; lease_expires_at: number | null }>(`
    SELECT webhook_id, event_id, next_attempt_at, lease_expires_at FROM webhook_deliveries
     WHERE webhook_id = ? AND status = 'pending' AND next_attempt_at <= ? AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
     ORDER BY next_attempt_at, event_id LIMIT ?`)
  const lease = db.prepare<[number, number, string, string], { attempts: number }>(
    'UPDATE webhook_deliveries SET attempts = attempts + 1, lease_expires_at = ?, updated_at = ? WHERE webhook_id = ? AND event_id = ? RETURNING attempts',
  )
  const jobOf = db.prepare<[string, string], Omit<DeliveryJob, 'attempt'>>(`
    SELECT w.id AS webhookId, e.id AS eventId, w.url, w.secret AS sealedSecret, w.previous_secret AS sealedPreviousSecret,
           w.previous_secret_expires_at AS previousSecretExpiresAt, e.type AS eventType, e.data AS eventData,
           e.created_at AS eventCreatedAt
      FROM webhooks w JOIN events e ON e.id = ? WHERE w.id = ?`)
  const insertAttempt = db.prepare<[string, string, string, number, number, number | null, number, string | null, string | null, number | null, number], void>(`
    INSERT INTO webhook_attempts (id, webhook_id, event_id, attempt, succeeded, status_code, duration_ms, response_body, error, next_attempt_at, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)

  const claim = db.transaction((now: number, limits: ClaimLimits): DeliveryJob[] => {
    const busy = new Map(inFlight.all(now).map((r) => [r.webhook_id, r.n]))
    const free = limits.total - [...busy.values()].reduce((a, b) => a + b, 0)
    if (free <= 0) return []
    const candidates = enabled.all().flatMap(({ id }) => {
      const room = Math.min(free, limits.perEndpoint - (busy.get(id) ?? 0))
      return room > 0 ? dueFor.all(id, now, now, room) : []
    })
    // Oldest due first across endpoints.
    candidates.sort((a, b) => a.next_attempt_at - b.next_attempt_at || (a.event_id < b.event_id ? -1 : 1))
    const jobs: DeliveryJob[] = []
    for (const row of candidates.slice(0, free)) {
      const { attempts } = lease.get(now + limits.leaseMs, now, row.webhook_id, row.event_id)!
      // A lease that ran out means an attempt whose outcome nobody recorded: the daemon died
      // or hung mid-request. It counts, so an event that crashes the daemon cannot loop forever.
      if (row.lease_expires_at !== null) insertAttempt.run(newId('dlv', now), row.webhook_id, row.event_id, attempts - 1, 0, null, 0, null, INTERRUPTED, now, now)
      jobs.push({ ...jobOf.get(row.event_id, row.webhook_id)!, attempt: attempts })
    }
    return jobs
  })

  // Only under the claim the attempt was made under: its number is the claim's fencing token.
  const settle = db.prepare<[string, number | null, number, string, string, number], void>(`
    UPDATE webhook_deliveries SET status = ?, next_attempt_at = coalesce(?, next_attempt_at), lease_expires_at = NULL, updated_at = ?
     WHERE webhook_id = ? AND event_id = ? AND attempts = ? AND lease_expires_at IS NOT NULL`)
  const succeeded = db.prepare<[string], void>('UPDATE webhooks SET failing_since = NULL WHERE id = ?')
  const failed = db.prepare<[number, string], { failing_since: number; enabled: number } | undefined>(
    'UPDATE webhooks SET failing_since = coalesce(failing_since, ?) WHERE id = ? RETURNING failing_since, enabled',
  )
  const disable = db.prepare<[string, number, number, string], void>(
    'UPDATE webhooks SET enabled = 0, disabled_reason = ?, disabled_at = ?, updated_at = ? WHERE id = ? AND enabled = 1',
  )
  const record = db.transaction((r: AttemptRecord, now: number): { recorded: boolean; disabledReason: string | null } => {
    const status = r.succeeded ? 'succeeded' : r.nextAttemptAt === null ? 'failed' : 'pending'
    // Claimed again after this attempt's lease ran out, or the endpoint deleted while the attempt
    // was in flight: there is nothing this attempt may record.
    if (settle.run(status, r.nextAttemptAt, now, r.webhookId, r.eventId, r.attempt).changes === 0) return { recorded: false, disabledReason: null }
    insertAttempt.run(newId('dlv', now), r.webhookId, r.eventId, r.attempt, r.succeeded ? 1 : 0, r.statusCode, Math.round(r.durationMs), r.responseBody, r.error, r.nextAttemptAt, now)
    if (r.succeeded) {
      succeeded.run(r.webhookId)
      return { recorded: true, disabledReason: null }
    }
    const endpoint = failed.get(now, r.webhookId)
    const reason = (endpoint && endpoint.enabled === 1 && disableReasonFor(r, endpoint.failing_since, now)) || null
    if (reason) disable.run(reason, now, now, r.webhookId)
    return { recorded: true, disabledReason: reason }
  })

  // A delivery is named by its event's id (msg_…, the webhook-id header) or by one of its attempts (dlv_…).
  const deliveryOf = db.prepare<[string, string, string, string], { event_id: string; lease_expires_at: number | null }>(`
    SELECT event_id, lease_expires_at FROM webhook_deliveries
     WHERE webhook_id = ? AND event_id = coalesce((SELECT event_id FROM webhook_attempts WHERE id = ? AND webhook_id = ?), ?)`)
  const requeue = db.prepare<[number, number, string, string], void>(
    "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, updated_at = ? WHERE webhook_id = ? AND event_id = ?",
  )
  const resend = db.transaction((webhookId: string, ref: string, now: number): Resend => {
    const delivery = deliveryOf.get(webhookId, ref, webhookId, ref)
    if (!delivery) return { kind: 'not_found' }
    if (delivery.lease_expires_at !== null && delivery.lease_expires_at > now) return { kind: 'in_flight' }
    requeue.run(now, now, webhookId, delivery.event_id)
    return { kind: 'ok', eventId: delivery.event_id }
  })

  const releaseLeases = db.prepare<[number, number], void>(
    "UPDATE webhook_deliveries SET lease_expires_at = ? WHERE lease_expires_at IS NOT NULL AND lease_expires_at > ? AND status = 'pending'",
  )
  const purge = db.prepare<[number], void>("DELETE FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < ?")
  const work = db.prepare<[number, number], { found: number }>(`
    SELECT EXISTS (SELECT 1 FROM outbox)
        OR EXISTS (SELECT 1 FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ?
                     AND (lease_expires_at IS NULL OR lease_expires_at <= ?)) AS found`)
  const backlog = db.prepare<[number], { n: number }>(`
    SELECT (SELECT count(*) FROM outbox) + (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ?) AS n`)
  const attemptsPage = db.prepare<[string, string, string, number], AttemptRow>(`
    SELECT a.*, e.type AS event_type FROM webhook_attempts a JOIN events e ON e.id = a.event_id
     WHERE a.webhook_id = ? AND (? = '' OR a.id < ?) ORDER BY a.id DESC LIMIT ?`)

  return {
    /** Whether there is anything to dispatch or claim: a read, so polling an idle outbox takes no write lock. */
    async hasWork(now: number): Promise<boolean> {
      return work.get(now, now)!.found === 1
    },

    async backlog(now: number): Promise<number> {
      return backlog.get(now)!.n
    },

    /** Fans the next batch of undelivered outbox events out to deliveries; how many events it took. */
    async dispatch(now: number, limit = 500): Promise<number> {
      return dispatch.immediate(now, limit)
    },

    /** Leases due deliveries within the concurrency limits, oldest first. */
    async claim(now: number, limits: ClaimLimits): Promise<DeliveryJob[]> {
      return claim.immediate(now, limits)
    },

    /** Records one attempt and its consequences (retry, final state, endpoint disabled) together, under its claim. */
    async record(attempt: AttemptRecord, now: number): Promise<{ recorded: boolean; disabledReason: string | null }> {
      return record.immediate(attempt, now)
    },

    /**
     * At start-up every lease belongs to a daemon that is gone (one daemon per data dir): expire
     * them so those deliveries are retried now, with the same webhook-id, rather than a lease later.
     */
    /**
     * Sends a delivery again now: it is pending once more, with the same webhook-id and body, and
     * its attempts keep counting (the history stays). Refused while an attempt is in flight.
     */
    async resend(webhookId: string, ref: string, now: number): Promise<Resend> {
      return resend.immediate(webhookId, ref, now)
    },

    async releaseLeases(now: number): Promise<number> {
      return releaseLeases.run(now, now).changes
    },

    /** Forgets finished deliveries (and their attempts) last touched before `before`. */
    async purgeFinished(before: number): Promise<number> {
      return purge.run(before).changes
    },

    /** An endpoint's attempts, newest first, after a cursor (`''` for the first page). */
    async listAttempts(webhookId: string, before: string, limit: number): Promise<WebhookDeliveryAttempt[]> {
      return attemptsPage.all(webhookId, before, before, limit).map(attemptFromRow)
    },
  }
}
