import type { PlatformName } from '../../src/api/common.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { accountArg, platform, yes } from '../../src/cli/flags.js'
import { confirmOrStop } from '../../src/cli/prompt.js'

/** What disconnect did (the API answers 204 with no body). */
export interface DisconnectResult {
  account_id: string
  platform: PlatformName
  disconnected: true
}

export default class AccountsDisconnect extends ApiCommand {
  static override description = `Disconnect a platform from an account and forget its credentials.

Posts still scheduled for that platform fail there until it is connected again. On a terminal it asks first, unless --yes; from a script it needs --yes.`

  static override examples = ['<%= config.bin %> accounts disconnect acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A --platform mastodon']

  static override args = {
    account: accountArg,
  }

  static override flags = {
    platform: platform({ description: 'The platform to disconnect', required: true }),
    yes,
  }

  async run(): Promise<DisconnectResult> {
    const { args, flags } = await this.parse(AccountsDisconnect)
    const id = await this.accountId('ACCOUNT', args.account)
    const client = await this.client()
    await confirmOrStop(`Disconnect ${flags.platform} from account ${id} and forget its credentials?`, flags.yes, `Kept ${flags.platform} connected.`)
    await this.waitFor('Disconnecting', client.disconnectAccount({ params: { id, platform: flags.platform } }))
    if (!this.jsonEnabled()) this.log(`Disconnected ${flags.platform} from account ${id}; its credentials are deleted.`)
    return { account_id: id, platform: flags.platform, disconnected: true }
  }
}
