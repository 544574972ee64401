import { Flags } from '@oclif/core'
import { ApiError } from '../../src/errors.js'
import { AdminCommand } from '../../src/cli/admin-command.js'

export default class AdminCopy extends AdminCommand {
  static override description = `Copy the data dir's whole SQLite state into an empty PostgreSQL database, to move up to several daemons.

Users, API keys (they stay valid), accounts and their sealed credentials, posts and their targets, the event outbox and webhook deliveries, metrics and rate-limit windows are copied in one transaction; a database that already holds data is refused. Stop the daemon first, so that nothing changes during the copy. The sealed credentials open only with this data dir's secret key (secret.key, or SMM_SECRET_KEY): start every daemon on the database with that key, as SMM_SECRET_KEY.`

  static override examples = [
    '<%= config.bin %> admin copy --to postgres://smm:secret@db.internal:5432/smm',
    'SMM_DATA_DIR=/var/lib/smm <%= config.bin %> admin copy --to "$SMM_DATABASE_URL"',
  ]

  static override flags = {
    to: Flags.string({ description: 'The empty PostgreSQL database to copy into (postgres://…)', required: true, helpValue: '<url>' }),
  }

  async run(): Promise<{ to: string; rows: Record<string, number> }> {
    const { flags } = await this.parse(AdminCopy)
    // Loaded here: only this command needs both stores and the secret key.
    const { databaseFileOf, DataDirInUseError, DatabaseUnreachableError, describeDatabase, lockDataDir } = await import('../../daemon/store/index.js')
    const { copySqliteToPostgres, CopyTargetNotEmptyError } = await import('../../daemon/store/copy.js')
    const { keyFingerprint, loadSecretKey } = await import('../../daemon/secret-box.js')
    const { existsSync } = await import('node:fs')
    const dataDir = flags['data-dir']
    if (!existsSync(databaseFileOf(dataDir))) throw new ApiError(404, 'not_found', `No smm database at ${databaseFileOf(dataDir)}: pass the --data-dir the daemon uses.`)
    const fingerprint = keyFingerprint(loadSecretKey(dataDir, process.env.SMM_SECRET_KEY))
    let rows: Record<string, number>
    let lock: { release(): void } | undefined
    try {
      // Held for the copy: a daemon running on the data dir would change it meanwhile.
      lock = lockDataDir(dataDir, 'smm admin copy')
      rows = await copySqliteToPostgres(dataDir, flags.to, fingerprint)
    } catch (error) {
      if (error instanceof DataDirInUseError) throw new ApiError(409, 'data_dir_in_use', `${error.message.split('. ')[0]}. Stop it before copying: nothing may change while it is copied.`)
      if (error instanceof CopyTargetNotEmptyError) throw new ApiError(409, 'database_not_empty', error.message)
      if (error instanceof DatabaseUnreachableError) throw new ApiError(503, 'store_unavailable', error.message)
      throw error
    } finally {
      lock?.release()
    }
    const to = describeDatabase(flags.to)
    if (!this.jsonEnabled()) {
      this.log(`Copied ${databaseFileOf(dataDir)} into ${to}:`)
      for (const [table, n] of Object.entries(rows)) this.log(`  ${table.padEnd(20)} ${n}`)
      const key = process.env.SMM_SECRET_KEY ? 'SMM_SECRET_KEY as now' : `SMM_SECRET_KEY="$(base64 < ${dataDir}/secret.key)"`
      this.log(`Start every daemon with SMM_DATABASE_URL and this data dir's secret key: ${key}.`)
    }
    return { to, rows }
  }
}
