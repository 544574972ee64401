import type { User } from '../../../src/api/users.js'
import { AdminCommand } from '../../../src/cli/admin-command.js'

export default class AdminUsersList extends AdminCommand {
  static override description = 'List every user with their plan and limits.'
  static override examples = ['<%= config.bin %> admin users list', '<%= config.bin %> admin users list --json']

  async run(): Promise<User[]> {
    const { flags } = await this.parse(AdminUsersList)
    const users = await this.withStore(flags, (store) => store.users.list())
    if (!this.jsonEnabled()) {
      for (const u of users) {
        this.log(`${u.id}  ${u.plan.padEnd(10)}  ${u.limits.per_minute}/min ${u.limits.per_hour}/h ${u.limits.per_day}/day  ${u.name}${u.email ? ` <${u.email}>` : ''}`)
      }
    }
    return users
  }
}
