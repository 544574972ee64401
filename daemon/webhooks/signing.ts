import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of 32 random bytes. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/** The Standard Webhooks headers of one attempt. `id` stays the same on every retry. */
export function signedHeaders(id: string, now: number, body: string, secrets: readonly string[]): Record<string, string> {
  const timestamp = new Date(now)
  // Several space-separated signatures are allowed: during a rotation the receiver may hold
  // either secret, and the library's verify accepts a message if any signature matches.
  const signature = secrets.map((secret) => new Webhook(secret).sign(id, timestamp, body)).join(' ')
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now / 1000)),
    'webhook-signature': signature,
  }
}
