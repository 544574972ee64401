import { Args } from '@oclif/core'
import { ApiCommand } from '../../src/cli/api-command.js'

/** What revoke did (the API answers 204 with no body). */
export interface RevokeResult {
  id: string
  revoked: true
}

export default class KeysRevoke extends ApiCommand {
  static override description = 'Revoke one of your API keys: every request with it is refused from now on. This cannot be undone.'

  static override examples = ['<%= config.bin %> keys revoke key_01JD3Q7ZV6YV9M2R8X4T5N6P7A']

  static override args = {
    id: Args.string({ description: 'The key id (key_…), as `smm keys list` shows it', required: true }),
  }

  async run(): Promise<RevokeResult> {
    const { args } = await this.parse(KeysRevoke)
    const client = await this.client()
    await this.waitFor('Revoking the key', client.revokeApiKey({ params: { id: args.id } }))
    if (!this.jsonEnabled()) this.log(`Revoked API key ${args.id}.`)
    return { id: args.id, revoked: true }
  }
}
