import { Args } from '@oclif/core'
import type { Webhook } from '../../src/api/webhooks.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { webhookDetails } from '../../src/cli/webhook-output.js'

export default class WebhooksShow extends ApiCommand {
  static override description = 'Show a webhook endpoint: its URL, events, and whether (and why not) it is delivering.'

  static override examples = ['<%= config.bin %> webhooks show whk_01JD3Q7ZV6YV9M2R8X4T5N6P7A']

  static override args = {
    id: Args.string({ description: 'The webhook id (whk_…)', required: true }),
  }

  async run(): Promise<Webhook> {
    const { args } = await this.parse(WebhooksShow)
    const client = await this.client()
    const webhook = await this.waitFor('Fetching the webhook', client.getWebhook({ params: { id: args.id } }))
    if (!this.jsonEnabled()) this.log(webhookDetails(webhook))
    return webhook
  }
}
