import { Args } from '@oclif/core'
import { ApiCommand } from '../../src/cli/api-command.js'

/** The API's answer: the id of the test event, the `webhook-id` its delivery carries. */
export interface TestAccepted {
  event_id: string
}

export default class WebhooksTest extends ApiCommand {
  static override description = 'Send a webhook.test event to one endpoint, to check that it receives and verifies deliveries. See the outcome with `smm webhooks deliveries`.'

  static override examples = ['<%= config.bin %> webhooks test whk_01JD3Q7ZV6YV9M2R8X4T5N6P7A']

  static override args = {
    id: Args.string({ description: 'The webhook id (whk_…)', required: true }),
  }

  async run(): Promise<TestAccepted> {
    const { args } = await this.parse(WebhooksTest)
    const client = await this.client()
    const accepted = await this.waitFor('Queuing a test event', client.testWebhook({ params: { id: args.id } }))
    if (!this.jsonEnabled()) {
      this.log(`Queued webhook.test ${accepted.event_id} for ${args.id}. See how it went: ${this.config.bin} webhooks deliveries ${args.id}${this.profileFlag()}`)
    }
    return accepted
  }
}
