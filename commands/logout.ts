import { Flags } from '@oclif/core'
import { ApiCommand } from '../src/cli/api-command.js'
import { Credentials } from '../src/cli/credentials.js'
import { Profiles } from '../src/cli/profiles.js'

/** What logout did: the profile, and whether there was anything to forget. */
export interface LogoutResult {
  profile: string
  logged_out: boolean
  /** Whether the profile's daemon URL and certificate were forgotten too (--forget). */
  forgotten: boolean
}

export default class Logout extends ApiCommand {
  static override description = `Forget a profile's API key on this machine.

Deletes the key from the OS keychain (or the fallback file). The profile keeps its daemon URL and pinned certificate, so logging in again needs only the key; --forget removes the profile too. The key itself stays valid on the daemon: revoke it with \`smm keys revoke\` first if it should stop working everywhere.`

  static override examples = ['<%= config.bin %> logout', '<%= config.bin %> logout --profile work --forget']

  static override flags = {
    forget: Flags.boolean({ description: 'Also forget the profile: its daemon URL and pinned certificate' }),
  }

  async run(): Promise<LogoutResult> {
    const { flags } = await this.parse(Logout)
    const profiles = new Profiles()
    const url = profiles.get(this.profileName)?.url ?? 'https://HOST:8443'
    const hadKey = await new Credentials().delete(this.profileName)
    const forgotten = flags.forget && profiles.delete(this.profileName)
    const result = { profile: this.profileName, logged_out: hadKey, forgotten }
    if (!this.jsonEnabled()) {
      const which = this.profileName === 'default' ? '' : ` on profile "${this.profileName}"`
      const said = hadKey ? `Logged out${which}: its key is no longer stored here` : `No key was stored${which}`
      this.log(forgotten ? `${said}, and the profile is forgotten.` : hadKey ? `${said}; log in again with \`${this.config.bin} login --url ${url}${this.profileFlag()}\`.` : `${said}: nothing to forget.`)
    }
    return result
  }
}
