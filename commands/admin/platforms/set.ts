import { Flags } from '@oclif/core'
import type { PlatformName } from '../../../src/api/common.js'
import { AdminCommand } from '../../../src/cli/admin-command.js'
import { CommandError, usageError } from '../../../src/cli/command-error.js'
import { EXIT } from '../../../src/cli/exit-codes.js'
import { oauthPlatformArg } from '../../../src/cli/platform-apps.js'
import { askHidden, interactive, readStdin } from '../../../src/cli/prompt.js'

export default class AdminPlatformsSet extends AdminCommand {
  static override description = `Store the app you registered with an OAuth platform: its client id and secret. The secret is sealed with the data dir's secret key (as platform credentials are) and never shown again.

Give the secret with --client-secret-stdin (or, on a terminal, be asked for it without echo), which keeps it out of your shell history; --client-secret works too. SMM_PLATFORM_<NAME>_CLIENT_ID and _CLIENT_SECRET in the daemon's environment win over what is stored here. Running daemons use the new app from their next connect or publish.`

  static override examples = [
    '<%= config.bin %> admin platforms set x --client-id Vk1hbGx…',
    'pass show smm/linkedin-secret | <%= config.bin %> admin platforms set linkedin --client-id 86abc… --client-secret-stdin',
  ]

  static override args = { platform: oauthPlatformArg }

  static override flags = {
    'client-id': Flags.string({ description: "The app's client id, as the platform shows it", required: true, helpValue: '<id>' }),
    'client-secret': Flags.string({ description: "The app's client secret (prefer --client-secret-stdin: a flag stays in shell history)", helpValue: '<secret>', exclusive: ['client-secret-stdin'] }),
    'client-secret-stdin': Flags.boolean({ description: 'Read the client secret from standard input', exclusive: ['client-secret'] }),
  }

  async run(): Promise<{ name: PlatformName; configured: true; source: 'stored'; client_id: string }> {
    const { args, flags } = await this.parse(AdminPlatformsSet)
    const name = args.platform as PlatformName
    const secret = await this.clientSecret(flags['client-secret'], flags['client-secret-stdin'])
    const clientId = flags['client-id'].trim()
    if (!clientId) throw usageError('no_client_id', '--client-id is empty.')
    const { loadSecretKey, keyFingerprint, createSecretBox } = await import('../../../daemon/secret-box.js')
    const { appSecretContext } = await import('../../../daemon/platforms/oauth-apps.js')
    const key = loadSecretKey(flags['data-dir'], process.env.SMM_SECRET_KEY)
    await this.withStore(flags, async (store) => {
      // Sealed with another key than the daemons', the secret could never be opened.
      if (!(await store.acceptsSecretKey(keyFingerprint(key)))) {
        throw new CommandError('secret_key_mismatch', 'This secret key is not the one the database was written with: set SMM_SECRET_KEY to the daemons\' key.', EXIT.error)
      }
      await store.oauth.setApp(name, clientId, createSecretBox(key).seal(secret, appSecretContext(name)), Date.now())
    })
    if (!this.jsonEnabled()) this.log(`Stored the ${name} app (client id ${clientId}). Its secret is sealed and will not be shown again.`)
    return { name, configured: true, source: 'stored', client_id: clientId }
  }

  private async clientSecret(flag: string | undefined, fromStdin: boolean): Promise<string> {
    let secret: string
    if (flag !== undefined) secret = flag
    else if (fromStdin) secret = await readStdin()
    else if (interactive()) secret = await askHidden('Client secret: ')
    else throw usageError('no_client_secret', 'No client secret: pipe it in with --client-secret-stdin, or run this in a terminal to be asked for it.')
    secret = secret.trim()
    if (!secret) throw usageError('no_client_secret', 'The client secret is empty.')
    return secret
  }
}
