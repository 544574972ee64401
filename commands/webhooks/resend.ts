import { Args } from '@oclif/core'
import { ApiCommand } from '../../src/cli/api-command.js'
import type { TestAccepted } from './test.js'

export default class WebhooksResend extends ApiCommand {
  static override description = `Send one delivery to an endpoint again, now: the same webhook-id and body, whether it succeeded or failed before. Its attempts keep counting.

Name the delivery by its MESSAGE (msg_…, the webhook-id header) or by one attempt's id (dlv_…), as \`smm webhooks deliveries\` shows them.`

  static override examples = ['<%= config.bin %> webhooks resend whk_01JD3Q7ZV6YV9M2R8X4T5N6P7A msg_01JD3Q7ZV6YV9M2R8X4T5N6P7B']

  static override args = {
    id: Args.string({ description: 'The webhook id (whk_…)', required: true }),
    delivery: Args.string({ description: 'The delivery: its message id (msg_…) or an attempt id (dlv_…)', required: true }),
  }

  async run(): Promise<TestAccepted> {
    const { args } = await this.parse(WebhooksResend)
    const client = await this.client()
    const accepted = await this.waitFor('Queuing the delivery', client.resendWebhookDelivery({ params: { id: args.id, delivery_id: args.delivery } }))
    if (!this.jsonEnabled()) {
      this.log(`Queued ${accepted.event_id} for ${args.id} again. See how it went: ${this.config.bin} webhooks deliveries ${args.id}${this.profileFlag()}`)
    }
    return accepted
  }
}
