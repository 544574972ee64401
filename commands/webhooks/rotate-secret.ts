import { Args } from '@oclif/core'
import type { WebhookWithSecret } from '../../src/api/webhooks.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { localTime } from '../../src/cli/output.js'
import { secretNotice } from '../../src/cli/webhook-output.js'

export default class WebhooksRotateSecret extends ApiCommand {
  static override description = `Give a webhook endpoint a new signing secret, printed once.

For 24 hours deliveries carry signatures with both the old and the new secret, so the receiver can switch over without missing one.`

  static override examples = ['<%= config.bin %> webhooks rotate-secret whk_01JD3Q7ZV6YV9M2R8X4T5N6P7A']

  static override args = {
    id: Args.string({ description: 'The webhook id (whk_…)', required: true }),
  }

  async run(): Promise<WebhookWithSecret> {
    const { args } = await this.parse(WebhooksRotateSecret)
    const client = await this.client()
    const webhook = await this.waitFor('Rotating the secret', client.rotateWebhookSecret({ params: { id: args.id } }))
    if (!this.jsonEnabled()) {
      this.log(`Rotated the secret of ${webhook.id}; the old one also signs until ${localTime(webhook.previous_secret_expires_at)}.`)
      this.log(secretNotice(webhook.secret))
    }
    return webhook
  }
}
