import { Flags } from '@oclif/core'
import type { Queue } from '../../../src/api/queue.js'
import { ApiCommand } from '../../../src/cli/api-command.js'
import { usageError } from '../../../src/cli/command-error.js'
import { accountArg, repeatable } from '../../../src/cli/flags.js'
import { parseSlot, queueDetails, SLOT_HINT } from '../../../src/cli/queue-output.js'
import type { Slot } from '../../../src/queue-slots.js'

export default class AccountsQueueSet extends ApiCommand {
  static override description = `Replace an account's weekly queue slots, or empty the queue with --clear.

Each --slot is ${SLOT_HINT}, in your profile's time zone (smm whoami); it stays at that wall-clock time across daylight saving time (a time a spring-forward day skips is taken at the end of the gap). Posts already scheduled keep their times.`

  static override examples = [
    '<%= config.bin %> accounts queue set Brand --slot "mon 09:00" --slot "wed 13:30" --slot "fri 9am"',
    '<%= config.bin %> accounts queue set acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A --clear',
  ]

  static override args = {
    account: accountArg,
  }

  static override flags = {
    slot: Flags.custom<Slot>({
      description: `A weekly slot: ${SLOT_HINT} (repeatable)`,
      helpValue: '<day time>',
      parse: async (input) => parseSlot(input),
    })({ ...repeatable, exclusive: ['clear'] }),
    clear: Flags.boolean({ description: 'Remove every slot', exclusive: ['slot'] }),
  }

  async run(): Promise<Queue> {
    const { args, flags } = await this.parse(AccountsQueueSet)
    if (!flags.slot?.length && !flags.clear) throw usageError('nothing_to_change', 'Give the slots with --slot "mon 09:00" (repeatable), or --clear to remove them all.')
    const id = await this.accountId('ACCOUNT', args.account)
    const client = await this.client()
    const queue = await this.waitFor('Saving the queue', client.setQueue({ params: { id }, body: { slots: flags.slot ?? [] } }))
    if (!this.jsonEnabled()) {
      const account = await client.getAccount({ params: { id } })
      this.log(queueDetails(queue, account))
    }
    return queue
  }
}
