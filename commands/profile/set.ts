import { Flags } from '@oclif/core'
import type { User, UserUpdate } from '../../src/api/users.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { usageError } from '../../src/cli/command-error.js'
import { timeZone } from '../../src/cli/flags.js'

export default class ProfileSet extends ApiCommand {
  static override description = `Change your own name or time zone.

Your time zone is the one the CLI reads and shows times in, the calendar opens in and analytics count days in. The key needs the profile:write scope. Your plan and limits are the operator's (smm admin users set-plan).`

  static override examples = [
    '<%= config.bin %> profile set --timezone Europe/Berlin',
    '<%= config.bin %> profile set --name "Ada Lovelace" --json',
  ]

  static override flags = {
    name: Flags.string({ description: 'Your display name (up to 100 characters)' }),
    timezone: timeZone({ description: 'Your IANA time zone, e.g. Europe/Berlin or America/New_York' }),
  }

  async run(): Promise<User> {
    const { flags } = await this.parse(ProfileSet)
    const changes: UserUpdate = {
      ...(flags.name !== undefined ? { name: flags.name } : {}),
      ...(flags.timezone !== undefined ? { timezone: flags.timezone } : {}),
    }
    if (Object.keys(changes).length === 0) throw usageError('nothing_to_change', 'Nothing to change: give --name, --timezone or both.')
    const client = await this.client()
    const me = await this.waitFor('Saving your profile', client.updateMe({ body: changes }))
    if (!this.jsonEnabled()) this.log(`${me.name} (${me.id}) now sees times in ${me.timezone}.`)
    return me
  }
}
