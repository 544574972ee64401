import { Args } from '@oclif/core'
import type { Account } from '../../src/api/accounts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { accountArg } from '../../src/cli/flags.js'

export default class AccountsRename extends ApiCommand {
  static override description = 'Rename an account. Its id, connections and posts stay as they are; webhooks get account.updated.'

  static override examples = ['<%= config.bin %> accounts rename acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A "Acme Coffee"', '<%= config.bin %> accounts rename Blog "Acme Blog"']

  static override args = {
    account: accountArg,
    name: Args.string({ description: 'The new name (up to 100 characters)', required: true }),
  }

  async run(): Promise<Account> {
    const { args } = await this.parse(AccountsRename)
    const id = await this.accountId('ACCOUNT', args.account)
    const client = await this.client()
    const account = await this.waitFor('Renaming the account', client.updateAccount({ params: { id }, body: { name: args.name } }))
    if (!this.jsonEnabled()) this.log(`Renamed account ${account.id} to "${account.name}".`)
    return account
  }
}
