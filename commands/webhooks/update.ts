import { Args, Flags } from '@oclif/core'
import type { Webhook, WebhookUpdate } from '../../src/api/webhooks.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { usageError } from '../../src/cli/command-error.js'
import { eventFlag, webhookDetails, privateReceiverHint } from '../../src/cli/webhook-output.js'

export default class WebhooksUpdate extends ApiCommand {
  static override description = `Change a webhook endpoint: its URL, events or description, or turn its delivery off and on.

Only what you name changes. --enable also clears why it was disabled (410 Gone, days of failures), so delivery starts again.`

  static override examples = [
    '<%= config.bin %> webhooks update whk_01JD3Q7ZV6YV9M2R8X4T5N6P7A --event post.failed',
    '<%= config.bin %> webhooks update whk_01JD3Q7ZV6YV9M2R8X4T5N6P7A --enable',
    '<%= config.bin %> webhooks update whk_01JD3Q7ZV6YV9M2R8X4T5N6P7A --url https://hooks.example.com/v2 --no-description',
  ]

  static override args = {
    id: Args.string({ description: 'The webhook id (whk_…)', required: true }),
  }

  static override flags = {
    url: Flags.string({ description: 'Send to this https:// URL instead' }),
    event: eventFlag({ description: 'Send these event types instead (repeatable or comma-separated; * for all)' }),
    description: Flags.string({ description: 'A new note on what the endpoint is for', exclusive: ['no-description'] }),
    'no-description': Flags.boolean({ description: 'Remove the description', exclusive: ['description'] }),
    enable: Flags.boolean({ description: 'Deliver events to it again', exclusive: ['disable'] }),
    disable: Flags.boolean({ description: 'Stop delivering events to it, keeping it', exclusive: ['enable'] }),
  }

  async run(): Promise<Webhook> {
    const { args, flags } = await this.parse(WebhooksUpdate)
    const changes: WebhookUpdate = {
      ...(flags.url !== undefined ? { url: flags.url } : {}),
      ...(flags.event ? { events: flags.event } : {}),
      ...(flags.description !== undefined ? { description: flags.description } : flags['no-description'] ? { description: null } : {}),
      ...(flags.enable ? { enabled: true } : flags.disable ? { enabled: false } : {}),
    }
    if (Object.keys(changes).length === 0) {
      throw usageError('nothing_to_change', 'Nothing to change: give --url, --event, --description, --no-description, --enable or --disable.')
    }
    const client = await this.client()
    const webhook = await this.waitFor('Updating the webhook', client.updateWebhook({ params: { id: args.id }, body: changes }))
    if (!this.jsonEnabled()) this.log(`Updated webhook ${webhook.id}.\n\n${webhookDetails(webhook)}`)
    return webhook
  }

  /** A private receiver URL is usually a local test: say how to allow it, after the error. */
  protected override async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<void> {
    await super.catch(error)
    const hint = this.jsonEnabled() ? undefined : privateReceiverHint(error, this.config.bin)
    if (hint) process.stderr.write(`${hint}\n`)
  }
}
