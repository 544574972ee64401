import { sealWebhookSecret } from '../webhooks/secret-seal.js'
import { routes } from '../../src/contract.js'
import { conflict, invalidField, notFound } from '../../src/errors.js'
import { afterId, toPage } from '../../src/pagination.js'
import type { Webhook } from '../../src/api/webhooks.js'
import { toIso, toIsoOrNull } from '../../src/time.js'
import { accessOf } from '../access.js'
import type { AppDeps } from '../context.js'
import type { Principal, WebhookRecord } from '../store/index.js'
import { endpointUrlProblem } from '../webhooks/endpoint-url.js'
import { generateSecret } from '../webhooks/signing.js'
import { bind, type ApiRouter } from './bind.js'

/** How long the secret before a rotation keeps signing, so receivers can switch without a gap. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000

/** Sending to a disabled endpoint is refused, saying why it is disabled and how to enable it. */
function enabledOr409(record: WebhookRecord): void {
  if (record.enabled) return
  throw conflict('webhook_disabled', `Webhook ${record.id} is disabled (${record.disabledReason ?? 'no reason recorded'}); enable it with PATCH {"enabled": true} first.`)
}

/** The API's view of an endpoint at `now`: the old secret's expiry only while it still signs. */
function webhookView(record: WebhookRecord, now: number): Webhook {
  const overlap = record.previousSecretExpiresAt !== null && record.previousSecretExpiresAt > now
  return {
    id: record.id,
    workspace_id: record.workspaceId,
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

  /** The endpoint, if the user can see its workspace (404 otherwise) and may manage its webhooks there (403 otherwise). */
  const own = (principal: Principal, id: string) =>
    accessOf(principal).find('manage_webhooks', (scope) => store.webhooks.get(scope, id), (w) => w.workspaceId, () => notFound('webhook', id))

  bind(router, routes.listWebhooks, async (ctx, { query, principal }) => {
    const scope = accessOf(principal).scope(query.workspace_id, 'manage_webhooks')
    const rows = await store.webhooks.listPage(scope, afterId(query.cursor), query.limit + 1)
    const now = clock.now()
    ctx.body = toPage(
      rows.map((row) => webhookView(row, now)),
      query.limit,
    )
  })

  bind(router, routes.createWebhook, async (ctx, { body, principal }) => {
    const workspace = accessOf(principal).workspace(body.workspace_id, 'manage_webhooks')
    await checkUrl(body.url)
    const secret = generateSecret()
    const now = clock.now()
    const row = await store.webhooks.create(
      workspace.workspaceId,
      principal.user.id,
      { url: body.url, events: body.events, description: body.description ?? null, sealedSecret: sealWebhookSecret(secrets, secret) },
      now,
    )
    ctx.status = 201
    ctx.set('Location', `/v1/webhooks/${row.id}`)
    ctx.body = { ...webhookView(row, now), secret }
  })

  bind(router, routes.getWebhook, async (ctx, { params, principal }) => {
    ctx.body = webhookView(await own(principal, params.id), clock.now())
  })

  bind(router, routes.updateWebhook, async (ctx, { params, body, principal }) => {
    const { workspaceId } = await own(principal, params.id)
    if (body.url !== undefined) await checkUrl(body.url)
    const now = clock.now()
    const row = await store.webhooks.update([workspaceId], params.id, body, now)
    if (!row) throw notFound('webhook', params.id)
    ctx.body = webhookView(row, now)
  })

  bind(router, routes.deleteWebhook, async (ctx, { params, principal }) => {
    const { workspaceId } = await own(principal, params.id)
    if (!(await store.webhooks.delete([workspaceId], params.id))) throw notFound('webhook', params.id)
    ctx.status = 204
  })

  bind(router, routes.testWebhook, async (ctx, { params, principal }) => {
    const row = await own(principal, params.id)
    enabledOr409(row)
    const event = await store.events.append(
      row.workspaceId,
      'webhook.test',
      { webhook_id: row.id, message: 'A test event sent from smm on request; it needs no action.' },
      clock.now(),
      accessOf(principal).actor,
    )
    ctx.status = 202
    ctx.body = { event_id: event.id }
  })

  bind(router, routes.resendWebhookDelivery, async (ctx, { params, principal }) => {
    const row = await own(principal, params.id)
    enabledOr409(row)
    const result = await store.webhookDeliveries.resend(row.id, params.delivery_id, clock.now())
    if (result.kind === 'not_found') throw notFound('delivery', params.delivery_id)
    if (result.kind === 'in_flight') throw conflict('delivery_in_flight', `Delivery ${params.delivery_id} is being attempted right now; wait for its outcome.`, { 'Retry-After': '15' })
    ctx.status = 202
    ctx.body = { event_id: result.eventId }
  })

  bind(router, routes.rotateWebhookSecret, async (ctx, { params, principal }) => {
    const { workspaceId } = await own(principal, params.id)
    const secret = generateSecret()
    const now = clock.now()
    const row = await store.webhooks.rotateSecret([workspaceId], params.id, sealWebhookSecret(secrets, secret), now + ROTATION_OVERLAP_MS, now)
    if (!row) throw notFound('webhook', params.id)
    ctx.body = { ...webhookView(row, now), secret }
  })

  bind(router, routes.listWebhookDeliveries, async (ctx, { params, query, principal }) => {
    await own(principal, params.id)
    const attempts = await store.webhookDeliveries.listAttempts(params.id, afterId(query.cursor), query.limit + 1)
    ctx.body = toPage(attempts, query.limit)
  })
}
