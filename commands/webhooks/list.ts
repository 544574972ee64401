import type { Webhook } from '../../src/api/webhooks.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { cursor, limit, workspace } from '../../src/cli/flags.js'
import { nextPageCommand } from '../../src/cli/next-page.js'
import { webhookTable } from '../../src/cli/webhook-output.js'
import type { Page } from '../../src/pagination.js'

export default class WebhooksList extends ApiCommand {
  static override description = 'List your webhook endpoints: where events are sent, which events, and whether delivery is enabled. Secrets are never shown again after creation.'

  static override examples = ['<%= config.bin %> webhooks list', '<%= config.bin %> webhooks list --json']

  static override flags = {
    workspace: workspace({ description: 'Only webhooks of this workspace (wsp_…; default: every workspace you belong to)' }),
    limit,
    cursor,
  }

  async run(): Promise<Page<Webhook>> {
    const { flags } = await this.parse(WebhooksList)
    const client = await this.client()
    const page = await this.waitFor('Listing webhooks', client.listWebhooks({ query: { workspace_id: flags.workspace, limit: flags.limit, cursor: flags.cursor } }))
    if (!this.jsonEnabled()) {
      this.log(page.data.length === 0 ? 'No webhooks.' : webhookTable(page.data))
      if (page.next_cursor) this.log(`\nMore: ${nextPageCommand(this.config.bin, this.id ?? 'webhooks:list', this.argv, page.next_cursor)}`)
    }
    return page
  }
}
