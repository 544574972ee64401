import { Flags } from '@oclif/core'
import { ApiCommand } from '../../src/cli/api-command.js'
import { accountArg, yes } from '../../src/cli/flags.js'
import { confirmOrStop } from '../../src/cli/prompt.js'

/** What delete did (the API answers 204 with no body). */
export interface DeleteAccountResult {
  account_id: string
  deleted: true
}

export default class AccountsDelete extends ApiCommand {
  static override description = `Delete an account with its connections, posts and feed. This cannot be undone.

It is refused while posts of the account are scheduled, so nothing you planned disappears unnoticed: cancel them first, or pass --cancel-posts to cancel them with it. On a terminal it asks first, unless --yes; from a script it needs --yes.`

  static override examples = [
    '<%= config.bin %> accounts delete acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A',
    '<%= config.bin %> accounts delete "Old brand" --cancel-posts --yes',
  ]

  static override args = { account: accountArg }

  static override flags = {
    'cancel-posts': Flags.boolean({ description: 'Cancel the account’s scheduled posts and drafts too, instead of refusing' }),
    yes,
  }

  async run(): Promise<DeleteAccountResult> {
    const { args, flags } = await this.parse(AccountsDelete)
    const id = await this.accountId('ACCOUNT', args.account)
    const client = await this.client()
    const what = flags['cancel-posts'] ? ', cancel its scheduled posts and drafts' : ''
    await confirmOrStop(`Delete account ${id}${what} and every post and connection of it?`, flags.yes, `Kept account ${id}.`)
    await this.waitFor(
      'Deleting the account',
      client.deleteAccount({ params: { id }, query: flags['cancel-posts'] ? { cancel_posts: 'true' } : {} }),
    )
    if (!this.jsonEnabled()) this.log(`Deleted account ${id}.`)
    return { account_id: id, deleted: true }
  }
}
