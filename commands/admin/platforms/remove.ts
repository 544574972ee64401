import type { PlatformName } from '../../../src/api/common.js'
import { AdminCommand } from '../../../src/cli/admin-command.js'
import { oauthPlatformArg } from '../../../src/cli/platform-apps.js'
import { ApiError } from '../../../src/errors.js'

export default class AdminPlatformsRemove extends AdminCommand {
  static override description = `Forget the app stored for an OAuth platform. Its connections stay, but publishing to it fails with platform_not_configured until an app is configured again (SMM_PLATFORM_<NAME>_CLIENT_ID and _CLIENT_SECRET in the daemon's environment still work).`

  static override examples = ['<%= config.bin %> admin platforms remove x']

  static override args = { platform: oauthPlatformArg }

  async run(): Promise<{ name: PlatformName; removed: true }> {
    const { args, flags } = await this.parse(AdminPlatformsRemove)
    const name = args.platform as PlatformName
    const removed = await this.withStore(flags, (store) => store.oauth.removeApp(name))
    if (!removed) throw new ApiError(404, 'not_found', `No ${name} app is stored (one given by SMM_PLATFORM_${name.toUpperCase()}_* lives in the daemon's environment).`)
    if (!this.jsonEnabled()) this.log(`Removed the stored ${name} app.`)
    return { name, removed: true }
  }
}
