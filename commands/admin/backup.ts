import { existsSync, statSync } from 'node:fs'
import { Args, Flags } from '@oclif/core'
import { AdminCommand } from '../../src/cli/admin-command.js'
import { usageError } from '../../src/cli/command-error.js'

export default class AdminBackup extends AdminCommand {
  static override description = `Take an online backup of the database to FILE: a consistent copy, safe while the daemon runs.

Restore by stopping the daemon and putting the copy in place of smm.db in the data dir. The backup does not include the data dir's secret key (secret.key) or TLS files: keep those too.`

  static override examples = ['<%= config.bin %> admin backup /var/backups/smm-$(date +%F).db']
  static override args = { file: Args.string({ description: 'Where to write the backup', required: true }) }
  static override flags = { force: Flags.boolean({ description: 'Overwrite FILE if it exists' }) }

  async run(): Promise<{ file: string; bytes: number }> {
    const { args, flags } = await this.parse(AdminBackup)
    if (existsSync(args.file) && !flags.force) throw usageError('file_exists', `${args.file} exists; pass --force to overwrite it`)
    await this.withStore(flags, (store) => store.backup(args.file))
    const result = { file: args.file, bytes: statSync(args.file).size }
    if (!this.jsonEnabled()) this.log(`Backed up to ${result.file} (${result.bytes} bytes).`)
    return result
  }
}
