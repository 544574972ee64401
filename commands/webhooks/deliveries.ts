import { Args } from '@oclif/core'
import type { WebhookDeliveryAttempt } from '../../src/api/webhooks.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { cursor, limit } from '../../src/cli/flags.js'
import { nextPageCommand } from '../../src/cli/next-page.js'
import { deliveryTable } from '../../src/cli/webhook-output.js'
import type { Page } from '../../src/pagination.js'

export default class WebhooksDeliveries extends ApiCommand {
  static override description = 'List the delivery attempts to a webhook endpoint, newest first: the event, the HTTP status it answered, how long it took, the error, and when the next retry is due.'

  static override examples = ['<%= config.bin %> webhooks deliveries whk_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '<%= config.bin %> webhooks deliveries whk_01JD3Q7ZV6YV9M2R8X4T5N6P7A --limit 100 --json']

  static override args = {
    id: Args.string({ description: 'The webhook id (whk_…)', required: true }),
  }

  static override flags = { limit, cursor }

  async run(): Promise<Page<WebhookDeliveryAttempt>> {
    const { args, flags } = await this.parse(WebhooksDeliveries)
    const client = await this.client()
    const page = await this.waitFor('Listing deliveries', client.listWebhookDeliveries({ params: { id: args.id }, query: { limit: flags.limit, cursor: flags.cursor } }))
    if (!this.jsonEnabled()) {
      this.log(page.data.length === 0 ? `No deliveries to ${args.id} yet.` : deliveryTable(page.data))
      if (page.next_cursor) this.log(`\nMore: ${nextPageCommand(this.config.bin, this.id ?? 'webhooks:deliveries', this.argv, page.next_cursor)}`)
    }
    return page
  }
}
