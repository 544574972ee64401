import type { Queue } from '../../src/api/queue.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { accountArg } from '../../src/cli/flags.js'
import { queueDetails } from '../../src/cli/queue-output.js'

export default class AccountsQueue extends ApiCommand {
  static override description = `Show an account's weekly queue slots and its next free slot times.

Slots are a day and a time in your profile's time zone (smm whoami), kept at that wall-clock time across daylight saving time. \`posts create --queue\` and \`posts schedule --queue\` take the next free one; change them with \`accounts queue set\`.`

  static override examples = ['<%= config.bin %> accounts queue Brand', '<%= config.bin %> accounts queue acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A --json']

  static override args = {
    account: accountArg,
  }

  async run(): Promise<Queue> {
    const { args } = await this.parse(AccountsQueue)
    const id = await this.accountId('ACCOUNT', args.account)
    const client = await this.client()
    const [account, queue] = await this.waitFor('Fetching the queue', Promise.all([client.getAccount({ params: { id } }), client.getQueue({ params: { id } })]))
    if (!this.jsonEnabled()) this.log(queueDetails(queue, account))
    return queue
  }
}
