import type { SecretBox } from '../secret-box.js'

// The associated data binding a sealed value to its use: a webhook secret cannot be swapped
// for a sealed platform credential (or the reverse) and still open.
const CONTEXT = 'webhook-signing-secret'

/** A webhook signing secret sealed with the data dir's secret box, as text for its column. */
export function sealWebhookSecret(box: SecretBox, secret: string): string {
  return box.seal(secret, CONTEXT).toString('base64')
}

export function openWebhookSecret(box: SecretBox, sealed: string): string {
  return box.open(Buffer.from(sealed, 'base64'), CONTEXT) as string
}
