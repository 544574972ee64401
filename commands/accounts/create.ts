import { Args } from '@oclif/core'
import type { Account } from '../../src/api/accounts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { workspace } from '../../src/cli/flags.js'

export default class AccountsCreate extends ApiCommand {
  static override description = 'Create an account: a brand or person to post as. Connect platforms to it next with `smm accounts connect`.'

  static override examples = ['<%= config.bin %> accounts create "Acme Coffee"', '<%= config.bin %> accounts create Blog --json | jq -r .id', '<%= config.bin %> accounts create "Client brand" --workspace wsp_01JD3Q7ZV6YV9M2R8X4T5N6P7A']

  static override args = {
    name: Args.string({ description: 'What to call it (up to 100 characters)', required: true }),
  }

  static override flags = {
    workspace: workspace({ description: 'The workspace it belongs to (wsp_…; default: your personal one), whose members act on it by their role' }),
  }

  async run(): Promise<Account> {
    const { args, flags } = await this.parse(AccountsCreate)
    const client = await this.client()
    const account = await this.waitFor('Creating the account', client.createAccount({ body: { name: args.name, ...(flags.workspace ? { workspace_id: flags.workspace } : {}) } }))
    if (!this.jsonEnabled()) {
      this.log(`Created account ${account.id} "${account.name}".`)
      this.log(`Connect a platform to it: ${this.config.bin} accounts connect ${account.id} --platform feed${this.profileFlag()}`)
    }
    return account
  }
}
