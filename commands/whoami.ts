import type { ApiKey } from '../src/api/api-keys.js'
import { SCOPES } from '../src/api/common.js'
import type { User } from '../src/api/users.js'
import { apiKeyDisplayPrefix } from '../src/api-key.js'
import { ApiCommand } from '../src/cli/api-command.js'
import { Profiles } from '../src/cli/profiles.js'
import { formatNumber } from '../src/numbers.js'
import { details, localTime } from '../src/cli/output.js'
import { ApiError } from '../src/errors.js'

export default class Whoami extends ApiCommand {
  static override description = `Show the user that the API key in use belongs to, its plan, rate limits and time zone; the daemon it talks to; the key's prefix, scopes and expiry; and the profiles saved on this machine (the one in use marked *).

The key's scopes and expiry are read from the key list, which needs the keys:write scope; a key without it shows its prefix only.`

  static override examples = ['<%= config.bin %> whoami', '<%= config.bin %> whoami --profile work --json']

  async run(): Promise<User> {
    await this.parse(Whoami)
    const client = await this.client()
    const me = await this.waitFor('Asking the daemon', client.getMe())
    if (!this.jsonEnabled()) {
      const { apiKey } = await this.connection()
      const prefix = apiKeyDisplayPrefix(apiKey!)
      const key = await this.keyInUse(prefix)
      const profiles = Object.entries(new Profiles().all()).map(([name, p]) => `${name === this.profileName ? '*' : ' '} ${name}  ${p.url}`)
      const { per_minute, per_hour, per_day } = me.limits
      const pairs: [string, string][] = [
        ['User', `${me.name} (${me.id})`],
        ['Email', me.email ?? '-'],
        ['Plan', `${me.plan}: ${formatNumber(per_minute)}/minute, ${formatNumber(per_hour)}/hour, ${formatNumber(per_day)}/day`],
        ['Time zone', me.timezone],
        ['Since', localTime(me.created_at)],
        ['Daemon', `${client.baseUrl}${this.profileName === 'default' ? '' : ` (profile "${this.profileName}")`}`],
        ['Key', `${prefix}…${key ? ` ${key.id} "${key.name}"` : ''}${process.env.SMM_API_KEY ? ' (from SMM_API_KEY)' : ''}`],
      ]
      if (key) {
        pairs.push(['Scopes', key.scopes.length === SCOPES.length ? 'all' : key.scopes.join(' ')], ['Expires', localTime(key.expires_at, 'never')])
      } else {
        pairs.push(['Scopes', 'not shown: listing keys needs the keys:write scope, which this key does not hold'])
      }
      this.log(details(pairs))
      if (profiles.length) this.log(`\nProfiles on this machine:\n${profiles.join('\n')}`)
    }
    return me
  }

  /** The key this command authenticates with, found by its prefix; undefined when the key may not list keys. */
  private async keyInUse(prefix: string): Promise<ApiKey | undefined> {
    const client = await this.client()
    try {
      for await (const key of client.paginate('listApiKeys', { query: { limit: 100 } })) if (key.prefix === prefix && !key.revoked_at) return key
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) return undefined
      throw error
    }
    return undefined
  }
}
