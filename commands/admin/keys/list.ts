import { Flags } from '@oclif/core'
import type { ApiKey } from '../../../src/api/api-keys.js'
import { SCOPES } from '../../../src/api/common.js'
import { AdminCommand } from '../../../src/cli/admin-command.js'
import { localTime, table, type Style } from '../../../src/cli/output.js'

type AdminKey = ApiKey & { user_id: string }

function status(key: ApiKey, now = Date.now()): [string, Style] {
  if (key.revoked_at) return ['revoked', 'red']
  if (key.expires_at && Date.parse(key.expires_at) <= now) return ['expired', 'yellow']
  return ['active', 'green']
}

export default class AdminKeysList extends AdminCommand {
  static override description = 'List API keys (never their secrets), of every user or of one. --json prints {"data":[…]}, the shape of every list the API returns.'
  static override examples = ['<%= config.bin %> admin keys list', '<%= config.bin %> admin keys list --user usr_01J… --json']
  static override flags = { user: Flags.string({ description: 'Only the keys of this user (usr_…)' }) }

  async run(): Promise<{ data: AdminKey[]; has_more: false; next_cursor: null }> {
    const { flags } = await this.parse(AdminKeysList)
    const keys = (await this.withStore(flags, (store) => store.apiKeys.listAll())).filter((k) => !flags.user || k.user_id === flags.user)
    if (!this.jsonEnabled()) {
      if (keys.length === 0) this.log(flags.user ? `No API keys of ${flags.user}.` : 'No API keys.')
      else
        this.log(
          table(keys, [
            { header: 'ID', value: (k) => k.id },
            { header: 'USER', value: (k) => k.user_id },
            { header: 'NAME', value: (k) => k.name },
            { header: 'PREFIX', value: (k) => k.prefix },
            { header: 'STATUS', value: (k) => status(k)[0], style: (k) => status(k)[1] },
            { header: 'EXPIRES', value: (k) => localTime(k.expires_at, 'never') },
            { header: 'LAST USED', value: (k) => localTime(k.last_used_at, 'never') },
            { header: 'SCOPES', value: (k) => (k.scopes.length === SCOPES.length ? 'all' : k.scopes.join(' ')) },
          ]),
        )
    }
    // The whole list in one page: the data dir is read directly, with nothing to page through.
    return { data: keys, has_more: false, next_cursor: null }
  }
}
