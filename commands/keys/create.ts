import { Args, Flags } from '@oclif/core'
import type { ApiKeyWithSecret } from '../../src/api/api-keys.js'
import { SCOPES } from '../../src/api/common.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { repeatable, duration, time } from '../../src/cli/flags.js'
import { localTime, paint, shownOnceGone } from '../../src/cli/output.js'

export default class KeysCreate extends ApiCommand {
  static override description = `Create an API key for yourself, for a script or another machine.

Its secret is printed once, now, and never again: store it (or pipe --json into your secret store). Without --scope the key holds every scope.

A key needs the scope of every request its commands make: posts:write to create posts, analytics:read for smm analytics, accounts:read to name an account by name (or to let posts create pick your only one), profile:read for smm login and whoami (and to read times in your profile's zone rather than the machine's).`

  static override examples = [
    '<%= config.bin %> keys create laptop',
    '<%= config.bin %> keys create ci --scope profile:read,accounts:read,posts:read,posts:write --expires-in 90d',
    '<%= config.bin %> keys create reporting --scope profile:read --scope accounts:read --scope analytics:read --expires "2027-01-01 00:00"',
    '<%= config.bin %> keys create deploy --json | jq -r .secret',
  ]

  static override args = {
    name: Args.string({ description: 'A name to recognise the key by (up to 100 characters)', required: true }),
  }

  static override flags = {
    scope: Flags.option({ options: SCOPES, description: 'A scope the key holds (repeatable or comma-separated; default: all)', ...repeatable, delimiter: ',' })(),
    expires: time({ description: 'When the key stops working: RFC 3339, a local date-time or a phrase ("in 30 days")', exclusive: ['expires-in'] }),
    'expires-in': duration({ description: 'How long the key works from now: 30d, 12h…', exclusive: ['expires'] }),
  }

  async run(): Promise<ApiKeyWithSecret> {
    const { args, flags } = await this.parse(KeysCreate)
    const client = await this.client()
    const expiresAt = await this.scheduledTime(flags.expires, flags['expires-in'], { at: '--expires', in: '--expires-in' })
    const key = await this.waitFor(
      'Creating the key',
      client.createApiKey({ body: { name: args.name, ...(flags.scope ? { scopes: flags.scope } : {}), ...(expiresAt ? { expires_at: expiresAt } : {}) } }),
    )
    if (!this.jsonEnabled()) {
      const scopes = key.scopes.length === SCOPES.length ? 'every scope' : `scopes ${key.scopes.join(', ')}`
      this.log(`Created API key ${key.id} "${key.name}" with ${scopes}, expiring ${localTime(key.expires_at, 'never')}.`)
      this.log(key.secret === undefined ? shownOnceGone('secret') : `Its secret is shown only this once; store it now:\n\n  ${paint('bold', key.secret)}\n`)
    }
    return key
  }
}
