import { Args, Flags } from '@oclif/core'
import type { WebhookWithSecret } from '../../src/api/webhooks.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { workspace } from '../../src/cli/flags.js'
import { eventFlag, secretNotice, privateReceiverHint } from '../../src/cli/webhook-output.js'

export default class WebhooksCreate extends ApiCommand {
  static override description = `Send events to an HTTPS endpoint of yours, signed the Standard Webhooks way.

Its signing secret is printed once, now, and never again: store it where the receiver can verify with it. Without --event the endpoint gets every event type (*).`

  static override examples = [
    '<%= config.bin %> webhooks create https://hooks.example.com/smm',
    '<%= config.bin %> webhooks create https://hooks.example.com/smm --event post.published --event post.failed --description "Team chat"',
    '<%= config.bin %> webhooks create https://hooks.example.com/smm --json | jq -r .secret',
    '<%= config.bin %> webhooks create https://hooks.example.com/acme --workspace wsp_01JD3Q7ZV6YV9M2R8X4T5N6P7A',
  ]

  static override args = {
    url: Args.string({ description: 'The https:// URL to POST events to', required: true }),
  }

  static override flags = {
    event: eventFlag({ description: 'An event type to send, or * for all (repeatable or comma-separated; default *)' }),
    description: Flags.string({ description: 'A note on what the endpoint is for' }),
    workspace: workspace({ description: 'The workspace whose events it receives (wsp_…; default: your personal one); needs admin or owner there' }),
  }

  async run(): Promise<WebhookWithSecret> {
    const { args, flags } = await this.parse(WebhooksCreate)
    const client = await this.client()
    const webhook = await this.waitFor(
      'Creating the webhook',
      client.createWebhook({
        body: {
          url: args.url,
          events: flags.event ?? ['*'],
          ...(flags.description !== undefined ? { description: flags.description } : {}),
          ...(flags.workspace ? { workspace_id: flags.workspace } : {}),
        },
      }),
    )
    if (!this.jsonEnabled()) {
      const events = webhook.events.includes('*') ? 'every event' : webhook.events.join(', ')
      this.log(`Created webhook ${webhook.id}: ${events} to ${webhook.url}.`)
      this.log(secretNotice(webhook.secret))
    }
    return webhook
  }

  /** A private receiver URL is usually a local test: say how to allow it, after the error. */
  protected override async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<void> {
    await super.catch(error)
    const hint = this.jsonEnabled() ? undefined : privateReceiverHint(error, this.config.bin)
    if (hint) process.stderr.write(`${hint}\n`)
  }
}
