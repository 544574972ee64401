import { Flags } from '@oclif/core'
import { Name, PLANS } from '../../../src/api/common.js'
import type { User } from '../../../src/api/users.js'
import { timeZone } from '../../../src/cli/flags.js'
import { AdminCommand } from '../../../src/cli/admin-command.js'

export default class AdminUsersCreate extends AdminCommand {
  static override description = 'Create a user. Give them a key with `smm admin keys create --user <id>`.'

  static override examples = [
    '<%= config.bin %> admin users create --name "Acme Social" --email social@acme.example',
    '<%= config.bin %> admin users create --name Ops --plan business --timezone Europe/Berlin',
  ]

  static override flags = {
    name: Flags.string({ description: 'Display name', required: true }),
    email: Flags.string({ description: 'Email address (unique)' }),
    plan: Flags.option({ options: PLANS, default: 'standard' as const, description: 'Rate-limit plan' })(),
    timezone: timeZone({ description: 'IANA time zone for dates shown to this user', default: 'UTC' }),
  }

  async run(): Promise<User> {
    const { flags } = await this.parse(AdminUsersCreate)
    const name = this.valid(Name, flags.name, '--name')
    const user = await this.withStore(flags, (store) =>
      store.users.create({ name, email: flags.email ?? null, plan: flags.plan, timezone: flags.timezone }, Date.now()),
    )
    if (!this.jsonEnabled()) this.log(`Created user ${user.id} (${user.name}, ${user.plan}).`)
    return user
  }
}
