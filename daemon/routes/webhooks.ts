import { sealWebhookSecret } from '../webhooks/secret-seal.js'
import { routes } from '../../src/contract.js'
import { conflict, invalidField, notFound } from '../../src/errors.js'
import { afterId, toPage } from '../../src/pagination.js'
import type { Webhook } from '../../src/api/webhooks.js'
import { toIso, toIsoOrNull } from '../../src/time.js'
import type { AppDeps } from '../context.js'
import type { WebhookRecord } from '../store/index.js'
import { endpointUrlProblem } from '../webhooks/endpoint-url.js'
import { generateSecret } from '../webhooks/signing.js'
import { bind, type ApiRouter } from './bind.js'

/** How long the secret before a rotation keeps signing, so receivers can switch without a gap. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000

/** The API's view of an endpoint at `now`: the old secret's expiry only while it still signs. */
function webhookView(record: WebhookRecord, now: number): Webhook {
  const overlap = record.previousSecretExpiresAt !== null && record.previousSecretExpiresAt > now
  return {
    id: record.id,
    url: record.url,
    events: record.events,
    description: record.description,
    enabled: record.enabled,
    disabled_reason: record.disabledReason,
    disabled_at: toIsoOrNull(record.disabledAt),
    previous_secret_expires_at: overlap ? toIso(record.previousSecretExpiresAt!) : null,
    created_at: toIso(record.createdAt),
    updated_at: toIso(record.updatedAt),
  }
}

export function webhookRoutes(router: ApiRouter, { store, clock, secrets, allowPrivateNetwork }: AppDeps): void {
  async function checkUrl(url: string): Promise<void> {
    const problem = await endpointUrlProblem(url, allowPrivateNetwork)
    if (problem) throw invalidField('#/url', problem)
  }

  async function own(userId: string, id: string) {
    const row = await store.webhooks.get(userId, id)
    if (!row) throw notFound('webhook', id)
    return row
  }

  bind(router, routes.listWebhooks, async (ctx, { query, principal }) => {
    const rows = await store.webhooks.listPage(principal.user.id, afterId(query.cursor), query.limit + 1)
    const now = clock.now()
    ctx.body = toPage(
      rows.map((row) => webhookView(row, now)),
      query.limit,
    )
  })

  bind(router, routes.createWebhook, async (ctx, { body, principal }) => {
    await checkUrl(body.url)
    const secret = generateSecret()
    const now = clock.now()
    const row = await store.webhooks.create(
      principal.user.id,
      { url: body.url, events: body.events, description: body.description ?? null, sealedSecret: sealWebhookSecret(secrets, secret) },
      now,
    )
    ctx.status = 201
    ctx.set('Location', `/v1/webhooks/${row.id}`)
    ctx.body = { ...webhookView(row, now), secret }
  })

  bind(router, routes.getWebhook, async (ctx, { params, principal }) => {
    ctx.body = webhookView(await own(principal.user.id, params.id), clock.now())
  })

  bind(router, routes.updateWebhook, async (ctx, { params, body, principal }) => {
    await own(principal.user.id, params.id)
    if (body.url !== undefined) await checkUrl(body.url)
    const now = clock.now()
    const row = await store.webhooks.update(principal.user.id, params.id, body, now)
    if (!row) throw notFound('webhook', params.id)
    ctx.body = webhookView(row, now)
  })

  bind(router, routes.deleteWebhook, async (ctx, { params, principal }) => {
    if (!(await store.webhooks.delete(principal.user.id, params.id))) throw notFound('webhook', params.id)
    ctx.status = 204
  })

  bind(router, routes.testWebhook, async (ctx, { params, principal }) => {
    const row = await own(principal.user.id, params.id)
    if (!row.enabled) {
      throw conflict('webhook_disabled', `Webhook ${row.id} is disabled (${row.disabledReason ?? 'no reason recorded'}); enable it with PATCH {"enabled": true} first.`)
    }
    const event = await store.events.append(
      principal.user.id,
      'webhook.test',
      { webhook_id: row.id, message: 'A test event sent from smm on request; it needs no action.' },
      clock.now(),
    )
    ctx.status = 202
    ctx.body = { event_id: event.id }
  })

  bind(router, routes.rotateWebhookSecret, async (ctx, { params, principal }) => {
    await own(principal.user.id, params.id)
    const secret = generateSecret()
    const now = clock.now()
    const row = await store.webhooks.rotateSecret(principal.user.id, params.id, sealWebhookSecret(secrets, secret), now + ROTATION_OVERLAP_MS, now)
    if (!row) throw notFound('webhook', params.id)
    ctx.body = { ...webhookView(row, now), secret }
  })

  bind(router, routes.listWebhookDeliveries, async (ctx, { params, query, principal }) => {
    await own(principal.user.id, params.id)
    const attempts = await store.webhookDeliveries.listAttempts(params.id, afterId(query.cursor), query.limit + 1)
    ctx.body = toPage(attempts, query.limit)
  })
}
