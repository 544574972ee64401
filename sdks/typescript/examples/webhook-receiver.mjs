// Webhooks: verify a delivery with the endpoint's secret before trusting it.
import http from 'node:http'
import { verifyWebhook, WebhookVerificationError } from '@smm/sdk'

export function createReceiver(secret, onEvent) {
  return http.createServer((req, res) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      try {
        onEvent(verifyWebhook(Buffer.concat(chunks), req.headers, secret)) // the raw body, never re-serialised JSON
        res.writeHead(204).end()
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error
        res.writeHead(400).end(error.message)
      }
    })
  })
}
