import type { User } from '../src/api/users.js'
import { ApiCommand } from '../src/cli/api-command.js'
import { details, localTime } from '../src/cli/output.js'

export default class Whoami extends ApiCommand {
  static override description = 'Show the user that the stored API key belongs to, its plan and rate limits, and the daemon it talks to.'

  static override examples = ['<%= config.bin %> whoami', '<%= config.bin %> whoami --profile work --json']

  async run(): Promise<User> {
    await this.parse(Whoami)
    const client = await this.client()
    const me = await this.waitFor('Asking the daemon', client.getMe())
    if (!this.jsonEnabled()) {
      const { per_minute, per_hour, per_day } = me.limits
      this.log(
        details([
          ['User', `${me.name} (${me.id})`],
          ['Email', me.email ?? '-'],
          ['Plan', `${me.plan}: ${per_minute}/minute, ${per_hour}/hour, ${per_day}/day`],
          ['Time zone', me.timezone],
          ['Since', localTime(me.created_at)],
          ['Daemon', `${client.baseUrl}${this.profileName === 'default' ? '' : ` (profile "${this.profileName}")`}`],
        ]),
      )
    }
    return me
  }
}
