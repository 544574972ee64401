import { Args, Flags } from '@oclif/core'
import type { ApiKeyWithSecret } from '../../../src/api/api-keys.js'
import { Name, SCOPES } from '../../../src/api/common.js'
import { AdminCommand } from '../../../src/cli/admin-command.js'
import { usageError } from '../../../src/cli/command-error.js'
import { duration, repeatable, time } from '../../../src/cli/flags.js'
import { localTime } from '../../../src/cli/output.js'
import { parseDurationInput, parseTimeInput, TimeInputError } from '../../../src/cli/time-input.js'
import { notFound } from '../../../src/errors.js'

export default class AdminKeysCreate extends AdminCommand {
  static override description = `Create an API key for a user (the owner by default). The key is printed once: it is stored only as a SHA-256 hash.

It takes its name, --scope, --expires and --expires-in as \`smm keys create\` does; --expires is read in the key owner's time zone.`

  static override examples = [
    '<%= config.bin %> admin keys create laptop',
    '<%= config.bin %> admin keys create ci --user usr_01J… --scope profile:read,accounts:read,posts:read,posts:write --expires-in 90d',
    '<%= config.bin %> admin keys create reporting --scope profile:read,accounts:read,analytics:read --expires 2027-01-01T00:00:00Z',
  ]

  // The name is an argument, as in `smm keys create NAME`: one way to name a key.
  static override args = {
    name: Args.string({ description: 'A name to recognise the key by (up to 100 characters)', required: true }),
  }

  static override flags = {
    user: Flags.string({ description: 'Owner of the key (usr_…); default: the owner created at first start' }),
    scope: Flags.option({ options: SCOPES, ...repeatable, delimiter: ',', description: 'A scope the key holds (repeatable or comma-separated; default: all)' })(),
    expires: time({ description: 'When the key stops working: RFC 3339, a local date-time or a phrase ("in 30 days"), in the owner\'s time zone; default: never', exclusive: ['expires-in'] }),
    'expires-in': duration({ description: 'How long the key works from now: 30d, 12h…', exclusive: ['expires'] }),
  }

  async run(): Promise<ApiKeyWithSecret> {
    const { args, flags } = await this.parse(AdminKeysCreate)
    const name = this.valid(Name, args.name, 'NAME')
    const key = await this.withStore(flags, async (store) => {
      const user = flags.user ? await store.users.get(flags.user) : await store.users.owner()
      if (!user) throw notFound('user', flags.user)
      const expiresAt = await this.expiry(flags.expires, flags['expires-in'], user.timezone)
      // Made by the operator on the daemon's host, not through the API: the audit log says smm made it (a null actor).
      return store.apiKeys.create(user.id, { name, scopes: flags.scope ?? SCOPES, expiresAt }, Date.now(), null)
    })
    if (!this.jsonEnabled()) {
      const scopes = key.scopes.length === SCOPES.length ? 'every scope' : `scopes ${key.scopes.join(', ')}`
      this.log(`Created API key ${key.id} "${key.name}" with ${scopes}, expiring ${localTime(key.expires_at, 'never')}. The key, shown only now:\n\n  ${key.secret}\n`)
    }
    return key
  }

  /** The instant --expires or --expires-in names (null: never); a bad or past one is a usage error naming the flag. */
  private async expiry(at: string | undefined, after: string | undefined, timeZone: string): Promise<number | null> {
    const now = Date.now()
    try {
      if (after !== undefined) return now + parseDurationInput(after)
      if (at === undefined) return null
      const expiresAt = await parseTimeInput(at, { timeZone, now })
      if (expiresAt <= now) throw usageError('invalid_flag', `--expires ${at}: that is ${localTime(new Date(expiresAt).toISOString(), '', timeZone)}, already past; give a time in the future, or --expires-in 30d.`)
      return expiresAt
    } catch (error) {
      if (error instanceof TimeInputError) throw usageError('invalid_flag', `${after !== undefined ? '--expires-in' : '--expires'}: ${error.message}`)
      throw error
    }
  }
}
