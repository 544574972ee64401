import type { Account } from '../../src/api/accounts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { accountTable } from '../../src/cli/account-output.js'
import { cursor, limit, platform, workspace } from '../../src/cli/flags.js'
import { nextPageCommand } from '../../src/cli/next-page.js'
import type { Page } from '../../src/pagination.js'

export default class AccountsList extends ApiCommand {
  static override description = 'List your accounts (the brands or people you post as) and the platforms each is connected to.'

  static override examples = ['<%= config.bin %> accounts list', '<%= config.bin %> accounts list --platform mastodon --json', '<%= config.bin %> accounts list --workspace wsp_01JD3Q7ZV6YV9M2R8X4T5N6P7A']

  static override flags = {
    platform: platform({ description: 'Only accounts connected to this platform' }),
    workspace: workspace({ description: 'Only accounts of this workspace (wsp_…; default: every workspace you belong to)' }),
    limit,
    cursor,
  }

  async run(): Promise<Page<Account>> {
    const { flags } = await this.parse(AccountsList)
    const client = await this.client()
    const page = await this.waitFor('Listing accounts', client.listAccounts({ query: { platform: flags.platform, workspace_id: flags.workspace, limit: flags.limit, cursor: flags.cursor } }))
    if (!this.jsonEnabled()) {
      this.log(page.data.length === 0 ? `No accounts. Create one with: ${this.config.bin} accounts create NAME${this.profileFlag()}` : accountTable(page.data))
      if (page.next_cursor) this.log(`\nMore: ${nextPageCommand(this.config.bin, this.id ?? 'accounts:list', this.argv, page.next_cursor)}`)
    }
    return page
  }
}
