import { Args } from '@oclif/core'
import type { ApiKey } from '../../../src/api/api-keys.js'
import { AdminCommand } from '../../../src/cli/admin-command.js'
import { notFound } from '../../../src/errors.js'

export default class AdminKeysRevoke extends AdminCommand {
  static override description = 'Revoke an API key of any user. Requests with it get 401 from the next one on.'
  static override examples = ['<%= config.bin %> admin keys revoke key_01J…']
  static override args = { key: Args.string({ description: 'Key id (key_…)', required: true }) }

  async run(): Promise<ApiKey> {
    const { args, flags } = await this.parse(AdminKeysRevoke)
    const key = await this.withStore(flags, (store) => store.apiKeys.revoke(null, args.key, Date.now()))
    if (!key) throw notFound('API key', args.key)
    if (!this.jsonEnabled()) this.log(`Revoked ${key.id} (${key.name}) at ${key.revoked_at}.`)
    return key
  }
}
