import { Args } from '@oclif/core'
import type { Account } from '../../src/api/accounts.js'
import { ApiCommand } from '../../src/cli/api-command.js'

export default class AccountsCreate extends ApiCommand {
  static override description = 'Create an account: a brand or person to post as. Connect platforms to it next with `smm accounts connect`.'

  static override examples = ['<%= config.bin %> accounts create "Acme Coffee"', '<%= config.bin %> accounts create Blog --json | jq -r .id']

  static override args = {
    name: Args.string({ description: 'What to call it (up to 100 characters)', required: true }),
  }

  async run(): Promise<Account> {
    const { args } = await this.parse(AccountsCreate)
    const client = await this.client()
    const account = await this.waitFor('Creating the account', client.createAccount({ body: { name: args.name } }))
    if (!this.jsonEnabled()) {
      this.log(`Created account ${account.id} "${account.name}".`)
      this.log(`Connect a platform to it: ${this.config.bin} accounts connect ${account.id} --platform feed${this.profileFlag()}`)
    }
    return account
  }
}
