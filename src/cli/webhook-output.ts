import { Flags } from '@oclif/core'
import { ApiError } from '../errors.js'
import { WEBHOOK_EVENT_FILTERS, type Webhook, type WebhookDeliveryAttempt } from '../api/webhooks.js'
import { repeatable } from './flags.js'
import { formatNumber } from '../numbers.js'
import { details, localTime, paint, shownOnceGone, table, type Detail } from './output.js'

/** `--event`: an event type to subscribe to, or `*` for all (repeatable or comma-separated). */
export const eventFlag = Flags.option({ options: WEBHOOK_EVENT_FILTERS, helpValue: '<event>', ...repeatable, delimiter: ',' })

/**
 * What to do when the daemon refused a webhook URL as private: the common case is a receiver on
 * this machine, being tested. Undefined for any other failure.
 */
export function privateReceiverHint(error: Error, bin: string): string | undefined {
  const refused = error instanceof ApiError && error.errors.some((e) => e.pointer === '#/url' && e.detail.includes('--allow-private-network'))
  if (!refused) return undefined
  return [
    'To test with a receiver on this machine or your network, the operator runs the daemon with',
    `  ${bin} daemon --allow-private-network`,
    "(only where every user is trusted: it lets their URLs reach your network). If the receiver's",
    'certificate is self-signed, the daemon trusts it for webhook deliveries with',
    `  ${bin} daemon --allow-private-network --webhook-ca-file /path/to/receiver-cert.pem`,
    '(or SMM_WEBHOOK_CA_FILE; NODE_EXTRA_CA_CERTS=/path/to/receiver-cert.pem trusts it for everything).',
  ].join('\n')
}

function state(w: Webhook): string {
  return w.enabled ? 'enabled' : `disabled${w.disabled_reason ? `: ${w.disabled_reason}` : ''}`
}

/** Webhook endpoints as an aligned table: what `webhooks list` prints. */
export function webhookTable(webhooks: readonly Webhook[]): string {
  return table(webhooks, [
    { header: 'ID', value: (w) => w.id },
    { header: 'URL', value: (w) => w.url },
    { header: 'EVENTS', value: (w) => w.events.join(',') },
    { header: 'STATE', value: state, style: (w) => (w.enabled ? 'green' : 'red') },
    { header: 'DESCRIPTION', value: (w) => w.description ?? '' },
  ])
}

/** One endpoint in full. */
export function webhookDetails(w: Webhook): string {
  const pairs: Detail[] = [
    ['Webhook', w.id],
    ['URL', w.url],
    ['Events', w.events.join(', ')],
    ['State', state(w), w.enabled ? 'green' : 'red'],
  ]
  if (w.description) pairs.push(['Description', w.description])
  if (w.disabled_at) pairs.push(['Disabled', localTime(w.disabled_at)])
  if (w.previous_secret_expires_at) pairs.push(['Old secret', `also signs until ${localTime(w.previous_secret_expires_at)}`])
  pairs.push(['Created', localTime(w.created_at)], ['Updated', localTime(w.updated_at)])
  return details(pairs)
}

/** Delivery attempts, newest first: what `webhooks deliveries` prints. */
export function deliveryTable(attempts: readonly WebhookDeliveryAttempt[]): string {
  return table(attempts, [
    { header: 'TIME', value: (a) => localTime(a.created_at) },
    { header: 'EVENT', value: (a) => a.event_type },
    { header: 'MESSAGE', value: (a) => a.event_id },
    { header: 'TRY', value: (a) => String(a.attempt) },
    { header: 'RESULT', value: (a) => (a.succeeded ? 'ok' : 'failed'), style: (a) => (a.succeeded ? 'green' : 'red') },
    { header: 'HTTP', value: (a) => (a.status_code === null ? '-' : String(a.status_code)) },
    { header: 'MS', value: (a) => formatNumber(a.duration_ms) },
    { header: 'NEXT TRY', value: (a) => localTime(a.next_attempt_at, '') },
    { header: 'ERROR', value: (a) => a.error ?? '' },
  ])
}

/** The secret block printed once, after creation or rotation. */
export function secretNotice(secret: string | undefined): string {
  if (secret === undefined) return shownOnceGone('signing secret')
  return `Its signing secret is shown only this once; store it now (receivers verify with it):\n\n  ${paint('bold', secret)}\n`
}
