import { ApiCommand } from '../src/cli/api-command.js'
import { Credentials } from '../src/cli/credentials.js'
import { Profiles } from '../src/cli/profiles.js'

/** What logout did: the profile, and whether there was anything to forget. */
export interface LogoutResult {
  profile: string
  logged_out: boolean
}

export default class Logout extends ApiCommand {
  static override description = `Forget a profile's API key and daemon on this machine.

Deletes the key from the OS keychain (or the fallback file) and the profile's settings. The key itself stays valid on the daemon: revoke it with \`smm keys revoke\` first if it should stop working everywhere.`

  static override examples = ['<%= config.bin %> logout', '<%= config.bin %> logout --profile work']

  async run(): Promise<LogoutResult> {
    await this.parse(Logout)
    const hadKey = await new Credentials().delete(this.profileName)
    const hadProfile = new Profiles().delete(this.profileName)
    const result = { profile: this.profileName, logged_out: hadKey || hadProfile }
    if (!this.jsonEnabled()) {
      const which = this.profileName === 'default' ? '' : ` on profile "${this.profileName}"`
      this.log(result.logged_out ? `Logged out${which}: its key is no longer stored here.` : `Not logged in${which}: nothing to forget.`)
    }
    return result
  }
}
