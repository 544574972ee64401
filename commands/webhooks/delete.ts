import { Args } from '@oclif/core'
import { ApiCommand } from '../../src/cli/api-command.js'
import { yes } from '../../src/cli/flags.js'
import { confirmOrStop } from '../../src/cli/prompt.js'

/** What delete did (the API answers 204 with no body). */
export interface DeleteResult {
  id: string
  deleted: true
}

export default class WebhooksDelete extends ApiCommand {
  static override description = 'Delete a webhook endpoint and its delivery history; events not yet delivered to it are dropped. On a terminal it asks first, unless --yes; from a script it needs --yes.'

  static override examples = ['<%= config.bin %> webhooks delete whk_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '<%= config.bin %> webhooks delete whk_01JD3Q7ZV6YV9M2R8X4T5N6P7A --yes']

  static override args = {
    id: Args.string({ description: 'The webhook id (whk_…)', required: true }),
  }

  static override flags = { yes }

  async run(): Promise<DeleteResult> {
    const { args, flags } = await this.parse(WebhooksDelete)
    const client = await this.client()
    await confirmOrStop(`Delete webhook ${args.id} and its delivery history?`, flags.yes, `Kept webhook ${args.id}.`)
    await this.waitFor('Deleting the webhook', client.deleteWebhook({ params: { id: args.id } }))
    if (!this.jsonEnabled()) this.log(`Deleted webhook ${args.id}.`)
    return { id: args.id, deleted: true }
  }
}
