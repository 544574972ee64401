import { Flags } from '@oclif/core'
import type { ApiKey } from '../../../src/api/api-keys.js'
import { AdminCommand } from '../../../src/cli/admin-command.js'

export default class AdminKeysList extends AdminCommand {
  static override description = 'List API keys (never their secrets), of every user or of one.'
  static override examples = ['<%= config.bin %> admin keys list', '<%= config.bin %> admin keys list --user usr_01J… --json']
  static override flags = { user: Flags.string({ description: 'Only the keys of this user (usr_…)' }) }

  async run(): Promise<(ApiKey & { user_id: string })[]> {
    const { flags } = await this.parse(AdminKeysList)
    const keys = (await this.withStore(flags, (store) => store.apiKeys.listAll())).filter((k) => !flags.user || k.user_id === flags.user)
    if (!this.jsonEnabled()) {
      for (const k of keys) {
        const state = k.revoked_at ? `revoked ${k.revoked_at}` : k.expires_at ? `expires ${k.expires_at}` : 'active'
        this.log(`${k.id}  ${k.prefix}…  ${k.user_id}  ${state.padEnd(20)}  last used ${k.last_used_at ?? 'never'}  ${k.name}`)
      }
    }
    return keys
  }
}
