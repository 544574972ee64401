import { Args, Flags } from '@oclif/core'
import type { User } from '../../../src/api/users.js'
import { AdminCommand } from '../../../src/cli/admin-command.js'
import { notFound } from '../../../src/errors.js'

export default class AdminUsersSetTimezone extends AdminCommand {
  static override description = `Set a user's time zone: the one their analytics days, weeks and months follow, and the calendar's default.

The owner starts with the daemon host's zone. Takes effect on the next request; a running daemon needs no restart.`

  static override examples = ['<%= config.bin %> admin users set-timezone usr_01J… --timezone Europe/Berlin']

  static override args = { user: Args.string({ description: 'User id (usr_…)', required: true }) }

  static override flags = {
    timezone: Flags.string({ description: 'IANA time zone, e.g. Europe/Berlin or America/New_York', required: true }),
  }

  async run(): Promise<User> {
    const { args, flags } = await this.parse(AdminUsersSetTimezone)
    if (flags.timezone !== 'UTC' && !Intl.supportedValuesOf('timeZone').includes(flags.timezone)) {
      this.error(`--timezone ${flags.timezone} is not an IANA time zone (e.g. Europe/Berlin)`, { exit: 2 })
    }
    const user = await this.withStore(flags, (store) => store.users.setTimezone(args.user, flags.timezone))
    if (!user) throw notFound('user', args.user)
    if (!this.jsonEnabled()) this.log(`${user.id} now sees dates in ${user.timezone}.`)
    return user
  }
}
