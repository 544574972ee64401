import type { Account } from '../../src/api/accounts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { accountArg } from '../../src/cli/flags.js'
import { accountDetails } from '../../src/cli/account-output.js'

export default class AccountsShow extends ApiCommand {
  static override description = 'Show an account and each platform connection: its handle there, and whether it needs reconnecting; with feed connected, the URL its feed is read at.'

  static override examples = ['<%= config.bin %> accounts show acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A']

  static override args = {
    account: accountArg,
  }

  async run(): Promise<Account> {
    const { args } = await this.parse(AccountsShow)
    const id = await this.accountId('ACCOUNT', args.account)
    const client = await this.client()
    const account = await this.waitFor('Fetching the account', client.getAccount({ params: { id } }))
    if (!this.jsonEnabled()) this.log(accountDetails(account, client.baseUrl))
    return account
  }
}
