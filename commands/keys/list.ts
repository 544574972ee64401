import type { ApiKey } from '../../src/api/api-keys.js'
import { SCOPES } from '../../src/api/common.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { cursor, limit } from '../../src/cli/flags.js'
import { localTime, table, type Style } from '../../src/cli/output.js'

function status(key: ApiKey, now = Date.now()): [string, Style] {
  if (key.revoked_at) return ['revoked', 'red']
  if (key.expires_at && Date.parse(key.expires_at) <= now) return ['expired', 'yellow']
  return ['active', 'green']
}

export default class KeysList extends ApiCommand {
  static override description = 'List your API keys: name, scopes, status and when each was last used. Secrets are never shown again after creation.'

  static override examples = ['<%= config.bin %> keys list', '<%= config.bin %> keys list --limit 100 --json']

  static override flags = { limit, cursor }

  async run() {
    const { flags } = await this.parse(KeysList)
    const client = await this.client()
    const page = await this.waitFor('Listing keys', client.listApiKeys({ query: { limit: flags.limit, cursor: flags.cursor } }))
    if (!this.jsonEnabled()) {
      if (page.data.length === 0) this.log('No API keys.')
      else
        this.log(
          table(page.data, [
            { header: 'ID', value: (k) => k.id },
            { header: 'NAME', value: (k) => k.name },
            { header: 'PREFIX', value: (k) => k.prefix },
            { header: 'STATUS', value: (k) => status(k)[0], style: (k) => status(k)[1] },
            { header: 'CREATED', value: (k) => localTime(k.created_at) },
            { header: 'EXPIRES', value: (k) => localTime(k.expires_at, 'never') },
            { header: 'LAST USED', value: (k) => localTime(k.last_used_at, 'never') },
            { header: 'SCOPES', value: (k) => (k.scopes.length === SCOPES.length ? 'all' : k.scopes.join(' ')) },
          ]),
        )
      if (page.next_cursor) this.log(`\nMore: ${this.config.bin} keys list --cursor ${page.next_cursor}${this.profileFlag()}`)
    }
    return page
  }
}
