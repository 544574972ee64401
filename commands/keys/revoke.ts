import { Args } from '@oclif/core'
import { ApiCommand } from '../../src/cli/api-command.js'
import { yes } from '../../src/cli/flags.js'
import { confirmOrStop } from '../../src/cli/prompt.js'

/** What revoke did (the API answers 204 with no body). */
export interface RevokeResult {
  id: string
  revoked: true
}

export default class KeysRevoke extends ApiCommand {
  static override description = 'Revoke one of your API keys: every request with it is refused from now on. This cannot be undone. On a terminal it asks first, unless --yes; from a script it needs --yes.'

  static override examples = ['<%= config.bin %> keys revoke key_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '<%= config.bin %> keys revoke key_01JD3Q7ZV6YV9M2R8X4T5N6P7A --yes --json']

  static override args = {
    id: Args.string({ description: 'The key id (key_…), as `smm keys list` shows it', required: true }),
  }

  static override flags = { yes }

  async run(): Promise<RevokeResult> {
    const { args, flags } = await this.parse(KeysRevoke)
    const client = await this.client()
    await confirmOrStop(`Revoke API key ${args.id}, refusing every request made with it from now on?`, flags.yes, `Kept API key ${args.id}.`)
    await this.waitFor('Revoking the key', client.revokeApiKey({ params: { id: args.id } }))
    if (!this.jsonEnabled()) this.log(`Revoked API key ${args.id}.`)
    return { id: args.id, revoked: true }
  }
}
