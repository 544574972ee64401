import { Flags } from '@oclif/core'
import { ApiError } from '../../src/errors.js'
import { AdminCommand } from '../../src/cli/admin-command.js'
import { usageError } from '../../src/cli/command-error.js'
import { mediaStore } from '../../src/cli/flags.js'
import { formatSize } from '../../src/numbers.js'

export default class AdminCopy extends AdminCommand {
  static override description = `Copy the data dir's whole SQLite state into an empty PostgreSQL database, to move up to several daemons.

Users, API keys (they stay valid), accounts and their sealed credentials, posts and their targets, uploaded media, the event outbox and webhook deliveries, metrics and rate-limit windows are copied in one transaction; a database that already holds data is refused.

The media's bytes go first, from the data dir's media store (--media-store: media/ in the data dir by default) to --to-media-store, the store every daemon on the database will use (s3://BUCKET[/PREFIX], with SMM_S3_ENDPOINT, SMM_S3_REGION and the AWS credentials, or file:///DIR on a mount all nodes share). It is needed when there are media, unless --media-store already names such a store (then the bytes stay where they are). A copy that stopped halfway may be run again: bytes already there are not sent again. Stop the daemon first, so that nothing changes during the copy. The sealed credentials open only with this data dir's secret key (secret.key, or SMM_SECRET_KEY): start every daemon on the database with that key, as SMM_SECRET_KEY.`

  static override examples = [
    '<%= config.bin %> admin copy --to postgres://smm:secret@db.internal:5432/smm',
    'SMM_S3_ENDPOINT=https://minio.internal:9000 <%= config.bin %> admin copy --to postgres://smm:secret@db.internal:5432/smm --to-media-store s3://smm-media',
    'SMM_DATA_DIR=/var/lib/smm <%= config.bin %> admin copy --to "$SMM_DATABASE_URL"',
  ]

  static override flags = {
    to: Flags.string({ description: 'The empty PostgreSQL database to copy into (postgres://…)', required: true, helpValue: '<url>' }),
    'media-store': mediaStore,
    'to-media-store': Flags.string({
      description: 'The media store the daemons on the database will share, to copy the media’s bytes to: s3://BUCKET[/PREFIX] or file:///DIR',
      helpValue: '<url>',
    }),
  }

  async run(): Promise<{ to: string; rows: Record<string, number>; media: { to: string; objects: number; bytes: number } | null }> {
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
    let media: { to: string; objects: number; bytes: number } | null
    let lock: { release(): void } | undefined
    try {
      // Held for the copy: a daemon running on the data dir would change it meanwhile.
      lock = lockDataDir(dataDir, 'smm admin copy')
      media = await this.copyMedia(dataDir, flags['media-store'], flags['to-media-store'])
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
      if (media) this.log(`Copied the media's bytes, ${media.objects} file${media.objects === 1 ? '' : 's'} (${formatSize(media.bytes)}), to ${media.to}: start every daemon with --media-store ${flags['to-media-store']}.`)
      const key = process.env.SMM_SECRET_KEY ? 'SMM_SECRET_KEY as now' : `SMM_SECRET_KEY="$(base64 < ${dataDir}/secret.key)"`
      this.log(`Start every daemon with SMM_DATABASE_URL and this data dir's secret key: ${key}.`)
    }
    return { to, rows, media }
  }

  /**
   * Copies the media's bytes to the store the daemons on PostgreSQL will share, before the rows
   * (a copy that stops halfway can run again: the database is still empty). None is needed when
   * the data dir's media already live in such a store, or when there are none.
   */
  private async copyMedia(dataDir: string, from: string | undefined, to: string | undefined): Promise<{ to: string; objects: number; bytes: number } | null> {
    const { copyMediaObjects, MediaStoreSpecError, openMediaStore, parseMediaStore, sameMediaStore } = await import('../../daemon/media/index.js')
    const spec = (value: string | undefined, flag: string) => {
      try {
        return parseMediaStore(value, dataDir)
      } catch (error) {
        if (error instanceof MediaStoreSpecError) throw usageError('invalid_flag', error.message.replace(/^--media-store/, flag))
        throw error
      }
    }
    const source = spec(from, '--media-store')
    const target = to === undefined ? undefined : spec(to, '--to-media-store')
    if (target?.kind === 'file' && !target.explicit) throw usageError('invalid_flag', '--to-media-store: name the shared directory, file:///DIR, or a bucket, s3://BUCKET')
    if (target && sameMediaStore(source, target)) return null
    const store = await openMediaStore(source)
    try {
      if (!target) {
        const any = await store.list('media')[Symbol.asyncIterator]().next()
        if (source.kind === 'file' && !source.explicit && !any.done) {
          throw usageError(
            'media_store_required',
            `--to-media-store: the data dir's media (${source.dir}) are this host's alone, and every daemon on PostgreSQL needs them: give the store they will share, s3://BUCKET[/PREFIX] or file:///DIR on a mount every node has. Nothing was copied.`,
          )
        }
        return null
      }
      const into = await openMediaStore(target)
      try {
        const copied = await copyMediaObjects(store, into)
        return { to: into.location, ...copied }
      } finally {
        await into.close()
      }
    } finally {
      await store.close()
    }
  }
}
