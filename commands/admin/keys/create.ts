import { Args, Flags } from '@oclif/core'
import type { ApiKeyWithSecret } from '../../../src/api/api-keys.js'
import { SCOPES } from '../../../src/api/common.js'
import { AdminCommand } from '../../../src/cli/admin-command.js'
import { repeatable } from '../../../src/cli/flags.js'
import { invalidField, notFound } from '../../../src/errors.js'
import { parseRfc3339 } from '../../../src/time.js'

export default class AdminKeysCreate extends AdminCommand {
  static override description = `Create an API key for a user (the owner by default). The key is printed once: it is stored only as a SHA-256 hash.`

  static override examples = [
    '<%= config.bin %> admin keys create laptop',
    '<%= config.bin %> admin keys create ci --user usr_01J… --scope profile:read,accounts:read,posts:read,posts:write --expires 2027-01-01T00:00:00Z',
  ]

  // The name is an argument, as in `smm keys create NAME`: one way to name a key.
  static override args = {
    name: Args.string({ description: 'A name to recognise the key by (up to 100 characters)', required: true }),
  }

  static override flags = {
    user: Flags.string({ description: 'Owner of the key (usr_…); default: the owner created at first start' }),
    scope: Flags.option({ options: SCOPES, ...repeatable, delimiter: ',', description: 'A scope the key holds (repeatable or comma-separated; default: all)' })(),
    expires: Flags.string({ description: 'Expiry, RFC 3339 (e.g. 2027-01-01T00:00:00Z); default: never' }),
  }

  async run(): Promise<ApiKeyWithSecret> {
    const { args, flags } = await this.parse(AdminKeysCreate)
    const expiresAt = flags.expires === undefined ? null : parseRfc3339(flags.expires)
    if (expiresAt === undefined) throw invalidField('#/expires', 'must be an RFC 3339 date-time with a zone, e.g. 2027-01-01T00:00:00Z')
    const key = await this.withStore(flags, async (store) => {
      const user = flags.user ? await store.users.get(flags.user) : await store.users.owner()
      if (!user) throw notFound('user', flags.user)
      return store.apiKeys.create(user.id, { name: args.name, scopes: flags.scope ?? SCOPES, expiresAt }, Date.now())
    })
    if (!this.jsonEnabled()) {
      this.log(`Created ${key.id} (${key.scopes.length === SCOPES.length ? 'all scopes' : key.scopes.join(' ')}). The key, shown only now:\n\n  ${key.secret}\n`)
    }
    return key
  }
}
