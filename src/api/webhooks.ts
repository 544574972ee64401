import * as v from 'valibot'
import { EVENT_TYPES } from '../events.js'
import { distinct, IdParams, listOf, NullableTimestamp, PageQueryEntries, singleLine, Timestamp } from './common.js'
import { route } from './route.js'
import { unknownWorkspace, WorkspaceFilter, WorkspaceIdInput } from './workspaces.js'

/** What an endpoint subscribes to: event types, or `*` for every type (including future ones). */
export const WEBHOOK_EVENT_FILTERS = ['*', ...EVENT_TYPES] as const

export const Webhook = v.pipe(
  v.object({
    id: v.string(),
    workspace_id: v.pipe(v.string(), v.description('The workspace whose events it receives')),
    url: v.string(),
    events: v.array(v.picklist(WEBHOOK_EVENT_FILTERS)),
    description: v.nullable(v.string()),
    enabled: v.boolean(),
    disabled_reason: v.pipe(v.nullable(v.string()), v.description('Why smm stopped delivering (410 Gone, 5 days of failures…), or null')),
    disabled_at: NullableTimestamp,
    /** While set, deliveries are signed with the previous secret too. */
    previous_secret_expires_at: v.pipe(NullableTimestamp, v.description('Until when deliveries also carry a signature with the secret before the last rotation')),
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
  v.title('Webhook'),
)
export type Webhook = v.InferOutput<typeof Webhook>

const Secret = v.optional(
  v.pipe(
    v.string(),
    v.description('`whsec_` + base64 of 32 random bytes, for the Standard Webhooks `verify`. In this response only: store it now. Absent when an Idempotency-Key replays the response (it is never stored).'),
  ),
)

/** The answer to a creation or a rotation: the only responses that carry the secret. */
export const WebhookWithSecret = v.pipe(v.object({ ...Webhook.entries, secret: Secret }), v.title('WebhookWithSecret'))
export type WebhookWithSecret = v.InferOutput<typeof WebhookWithSecret>

const Url = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.url('must be an absolute https:// URL'),
  // The document reads the text before the trim, and its patterns have no flags.
  v.regex(/^\s*[Hh][Tt][Tt][Pp][Ss]:\/\//, 'must be an https:// URL: deliveries are never sent in clear'),
)

const Events = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENT_FILTERS, `must be one of: *, ${EVENT_TYPES.join(', ')}`)),
  v.minLength(1, 'must list at least one event type, or be ["*"] for all of them'),
  ...distinct<(typeof WEBHOOK_EVENT_FILTERS)[number]>('must not repeat an event type'),
  v.check((e) => !e.includes('*') || e.length === 1, '"*" already means every event type: give it alone'),
  v.metadata<(typeof WEBHOOK_EVENT_FILTERS)[number][], Record<string, unknown>>({ not: { contains: { const: '*' }, minItems: 2 } }),
)

const Description = v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(500, 'must be at most 500 characters'), singleLine()))

export const WebhookCreate = v.strictObject({
  workspace_id: WorkspaceIdInput,
  url: Url,
  events: Events,
  description: v.optional(Description),
})
export type WebhookCreate = v.InferOutput<typeof WebhookCreate>

export const WebhookUpdate = v.strictObject({
  url: v.optional(Url),
  events: v.optional(Events),
  description: v.optional(Description),
  enabled: v.optional(v.boolean('must be true or false')),
})
export type WebhookUpdate = v.InferOutput<typeof WebhookUpdate>

/** One attempt to deliver one event to one endpoint. */
export const WebhookDeliveryAttempt = v.pipe(
  v.object({
    id: v.string(),
    webhook_id: v.string(),
    event_id: v.pipe(v.string(), v.description('The `webhook-id` header sent: the same on every retry of this event')),
    event_type: v.picklist(EVENT_TYPES),
    attempt: v.pipe(v.number(), v.integer(), v.description('1 for the first try of this event, 2 for the first retry…')),
    succeeded: v.boolean(),
    status_code: v.pipe(v.nullable(v.number()), v.description('The HTTP status answered, or null when no answer came')),
    duration_ms: v.number(),
    response_body: v.pipe(v.nullable(v.string()), v.description('The first 1 KiB of the answer')),
    error: v.pipe(v.nullable(v.string()), v.description('Why the attempt failed, or null')),
    next_attempt_at: v.pipe(NullableTimestamp, v.description('When the event is tried again, or null if this attempt was the last')),
    created_at: Timestamp,
  }),
  v.title('WebhookDeliveryAttempt'),
)
export type WebhookDeliveryAttempt = v.InferOutput<typeof WebhookDeliveryAttempt>

export const WebhookTestAccepted = v.pipe(
  v.object({ event_id: v.pipe(v.string(), v.description('The `webhook-id` the test delivery carries')) }),
  v.title('WebhookTestAccepted'),
)

export const webhookRoutes = {
  listWebhooks: route({
    method: 'GET',
    path: '/v1/webhooks',
    summary: 'List the webhook endpoints of your workspaces (never their secrets)',
    tag: 'webhooks',
    scope: 'webhooks:read',
    query: v.strictObject({ ...PageQueryEntries, ...WorkspaceFilter }),
    status: 200,
    response: listOf(Webhook),
    problems: unknownWorkspace,
  }),
  createWebhook: route({
    method: 'POST',
    path: '/v1/webhooks',
    summary: 'Register an HTTPS endpoint for events; its signing secret is in this response only',
    tag: 'webhooks',
    scope: 'webhooks:write',
    body: WebhookCreate,
    status: 201,
    response: WebhookWithSecret,
    shownOnce: ['secret'],
    problems: unknownWorkspace,
  }),
  getWebhook: route({
    method: 'GET',
    path: '/v1/webhooks/{id}',
    summary: 'One webhook endpoint',
    tag: 'webhooks',
    scope: 'webhooks:read',
    params: IdParams,
    status: 200,
    response: Webhook,
  }),
  updateWebhook: route({
    method: 'PATCH',
    path: '/v1/webhooks/{id}',
    summary: 'Change an endpoint (url, events, description) or enable/disable it; enabling clears disabled_reason',
    tag: 'webhooks',
    scope: 'webhooks:write',
    params: IdParams,
    body: WebhookUpdate,
    status: 200,
    response: Webhook,
  }),
  deleteWebhook: route({
    method: 'DELETE',
    path: '/v1/webhooks/{id}',
    summary: 'Delete an endpoint and its delivery history; pending deliveries are dropped',
    tag: 'webhooks',
    scope: 'webhooks:write',
    params: IdParams,
    status: 204,
  }),
  testWebhook: route({
    method: 'POST',
    path: '/v1/webhooks/{id}/test',
    summary: 'Send a webhook.test event to this endpoint only',
    tag: 'webhooks',
    scope: 'webhooks:write',
    params: IdParams,
    status: 202,
    response: WebhookTestAccepted,
  }),
  rotateWebhookSecret: route({
    method: 'POST',
    path: '/v1/webhooks/{id}/rotate-secret',
    summary: 'Replace the signing secret; for 24 h deliveries are signed with both the old and the new one',
    tag: 'webhooks',
    scope: 'webhooks:write',
    params: IdParams,
    status: 200,
    response: WebhookWithSecret,
    shownOnce: ['secret'],
  }),
  resendWebhookDelivery: route({
    method: 'POST',
    path: '/v1/webhooks/{id}/deliveries/{delivery_id}/resend',
    summary: 'Send one delivery again now (same webhook-id and body), whether it succeeded or failed; its attempts keep counting',
    tag: 'webhooks',
    scope: 'webhooks:write',
    params: v.object({
      id: v.string(),
      delivery_id: v.pipe(v.string(), v.description('The event id of the delivery (msg_…, its webhook-id header), or the id of one of its attempts (dlv_…)')),
    }),
    status: 202,
    response: WebhookTestAccepted,
    problems: { 409: 'webhook_disabled: enable the endpoint first; delivery_in_flight: an attempt is being made right now' },
  }),
  listWebhookDeliveries: route({
    method: 'GET',
    path: '/v1/webhooks/{id}/deliveries',
    summary: "The endpoint's delivery attempts, newest first: status codes, durations, answers and errors",
    tag: 'webhooks',
    scope: 'webhooks:read',
    params: IdParams,
    query: v.strictObject({ ...PageQueryEntries }),
    status: 200,
    response: listOf(WebhookDeliveryAttempt),
  }),
}
