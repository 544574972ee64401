import type { User } from '../src/api/users.js'
import { apiKeyDisplayPrefix } from '../src/api-key.js'
import { ApiCommand } from '../src/cli/api-command.js'
import { Profiles } from '../src/cli/profiles.js'
import { details, localTime } from '../src/cli/output.js'

export default class Whoami extends ApiCommand {
  static override description = 'Show the user that the API key in use belongs to, its plan, rate limits and time zone, the key\'s prefix, the daemon it talks to, and the profiles saved on this machine (the one in use marked *).'

  static override examples = ['<%= config.bin %> whoami', '<%= config.bin %> whoami --profile work --json']

  async run(): Promise<User> {
    await this.parse(Whoami)
    const client = await this.client()
    const me = await this.waitFor('Asking the daemon', client.getMe())
    if (!this.jsonEnabled()) {
      const { apiKey } = await this.connection()
      const profiles = Object.entries(new Profiles().all()).map(([name, p]) => `${name === this.profileName ? '*' : ' '} ${name}  ${p.url}`)
      const { per_minute, per_hour, per_day } = me.limits
      this.log(
        details([
          ['User', `${me.name} (${me.id})`],
          ['Email', me.email ?? '-'],
          ['Plan', `${me.plan}: ${per_minute}/minute, ${per_hour}/hour, ${per_day}/day`],
          ['Time zone', me.timezone],
          ['Since', localTime(me.created_at)],
          ['Daemon', `${client.baseUrl}${this.profileName === 'default' ? '' : ` (profile "${this.profileName}")`}`],
          ['Key', `${apiKeyDisplayPrefix(apiKey!)}…${process.env.SMM_API_KEY ? ' (from SMM_API_KEY)' : ''}`],
        ]),
      )
      if (profiles.length) this.log(`\nProfiles on this machine:\n${profiles.join('\n')}`)
    }
    return me
  }
}
