import { Flags } from '@oclif/core'
import type { ApiKeyWithSecret } from '../../../src/api/api-keys.js'
import { SCOPES } from '../../../src/api/common.js'
import { AdminCommand } from '../../../src/cli/admin-command.js'
import { repeatable } from '../../../src/cli/flags.js'
import { invalidField, notFound } from '../../../src/errors.js'
import { parseRfc3339 } from '../../../src/time.js'

export default class AdminKeysCreate extends AdminCommand {
  static override description = `Create an API key for a user (the owner by default). The key is printed once: it is stored only as a SHA-256 hash.`

  static override examples = [
    '<%= config.bin %> admin keys create --name laptop',
    '<%= config.bin %> admin keys create --user usr_01J… --name ci --scope posts:read --scope posts:write --expires 2027-01-01T00:00:00Z',
  ]

  static override flags = {
    user: Flags.string({ description: 'Owner of the key (usr_…); default: the owner created at first start' }),
    name: Flags.string({ description: 'A name to recognise the key by', required: true }),
    scope: Flags.option({ options: SCOPES, ...repeatable, description: 'A scope to grant (repeatable); default: all' })(),
    expires: Flags.string({ description: 'Expiry, RFC 3339 (e.g. 2027-01-01T00:00:00Z); default: never' }),
  }

  async run(): Promise<ApiKeyWithSecret> {
    const { flags } = await this.parse(AdminKeysCreate)
    const expiresAt = flags.expires === undefined ? null : parseRfc3339(flags.expires)
    if (expiresAt === undefined) throw invalidField('#/expires', 'must be an RFC 3339 date-time with a zone, e.g. 2027-01-01T00:00:00Z')
    const key = await this.withStore(flags, async (store) => {
      const user = flags.user ? await store.users.get(flags.user) : await store.users.owner()
      if (!user) throw notFound('user', flags.user)
      return store.apiKeys.create(user.id, { name: flags.name, scopes: flags.scope ?? SCOPES, expiresAt }, Date.now())
    })
    if (!this.jsonEnabled()) {
      this.log(`Created ${key.id} (${key.scopes.length === SCOPES.length ? 'all scopes' : key.scopes.join(' ')}). The key, shown only now:\n\n  ${key.secret}\n`)
    }
    return key
  }
}
