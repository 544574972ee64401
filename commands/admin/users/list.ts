import type { User } from '../../../src/api/users.js'
import { AdminCommand } from '../../../src/cli/admin-command.js'
import { formatNumber } from '../../../src/numbers.js'
import { localTime, table } from '../../../src/cli/output.js'

export default class AdminUsersList extends AdminCommand {
  static override description = 'List every user with their plan and limits. --json prints {"data":[…]}, the shape of every list the API returns.'
  static override examples = ['<%= config.bin %> admin users list', '<%= config.bin %> admin users list --json']

  async run(): Promise<{ data: User[]; has_more: false; next_cursor: null }> {
    const { flags } = await this.parse(AdminUsersList)
    const users = await this.withStore(flags, (store) => store.users.list())
    if (!this.jsonEnabled()) {
      if (users.length === 0) this.log('No users.')
      else
        this.log(
          table(users, [
            { header: 'ID', value: (u) => u.id },
            { header: 'NAME', value: (u) => u.name },
            { header: 'EMAIL', value: (u) => u.email ?? '-' },
            { header: 'PLAN', value: (u) => u.plan },
            { header: 'PER MINUTE', value: (u) => formatNumber(u.limits.per_minute) },
            { header: 'PER HOUR', value: (u) => formatNumber(u.limits.per_hour) },
            { header: 'PER DAY', value: (u) => formatNumber(u.limits.per_day) },
            { header: 'TIME ZONE', value: (u) => u.timezone },
            { header: 'SINCE', value: (u) => localTime(u.created_at) },
          ]),
        )
    }
    // The whole list in one page: the data dir is read directly, with nothing to page through.
    return { data: users, has_more: false, next_cursor: null }
  }
}
