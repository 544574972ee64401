import { OAUTH_PLATFORM_NAMES } from '../../../src/api/common.js'
import { AdminCommand } from '../../../src/cli/admin-command.js'
import { table } from '../../../src/cli/output.js'
import { publicUrl, redirectUriFor } from '../../../src/cli/platform-apps.js'
import type { AppListing } from '../../../daemon/platforms/oauth-apps.js'

export default class AdminPlatformsList extends AdminCommand {
  static override description = `List the OAuth platforms, whether their app is configured and where from (env: SMM_PLATFORM_<NAME>_CLIENT_ID and _CLIENT_SECRET in this environment, which should be the daemon's; stored: smm admin platforms set), and the redirect URI to register with each. Secrets are never shown. --json prints {"data":[…]}, the shape of every list the API returns.`

  static override examples = ['<%= config.bin %> admin platforms list', '<%= config.bin %> admin platforms list --public-url https://smm.example.com --json']

  static override flags = { 'public-url': publicUrl }

  async run(): Promise<{ data: AppListing[]; has_more: false; next_cursor: null }> {
    const { flags } = await this.parse(AdminPlatformsList)
    const { listApps } = await import('../../../daemon/platforms/oauth-apps.js')
    const redirectUri = redirectUriFor(flags['public-url'])
    const apps = await this.withStore(flags, (store) => listApps(OAUTH_PLATFORM_NAMES, { env: process.env, store: store.oauth, redirectUri }))
    if (!this.jsonEnabled()) {
      this.log(
        table(apps, [
          { header: 'PLATFORM', value: (a) => a.name },
          { header: 'CONFIGURED', value: (a) => (a.configured ? 'yes' : 'no') },
          { header: 'SOURCE', value: (a) => a.source ?? '-' },
          { header: 'CLIENT ID', value: (a) => a.client_id ?? '-' },
          { header: 'REDIRECT URI', value: (a) => a.redirect_uri },
        ]),
      )
    }
    return { data: apps, has_more: false, next_cursor: null }
  }
}
