import { existsSync, rmSync, statSync } from 'node:fs'
import { Args, Flags } from '@oclif/core'
import { AdminCommand } from '../../src/cli/admin-command.js'
import { usageError } from '../../src/cli/command-error.js'
import { mediaStore } from '../../src/cli/flags.js'
import { formatSize } from '../../src/numbers.js'

/** What a backup wrote: the database file, and where the media's bytes went (null with --no-media). */
export interface BackupResult {
  file: string
  bytes: number
  media: { directory: string; objects: number; bytes: number } | null
}

export default class AdminBackup extends AdminCommand {
  static override description = `Take an online backup of the database to FILE, and of the uploaded media's bytes to the directory FILE.media: a consistent copy, safe while the daemon runs.

The media's bytes are read from the media store the daemon uses (--media-store, SMM_MEDIA_STORE: media/ in the data dir by default, a shared directory or an S3 bucket) after the database is copied, so FILE.media holds every media FILE names (and any uploaded meanwhile), laid out as a media store. --no-media leaves them out, for a store backed up by its own means (an S3 bucket with versioning, say).

Restore by stopping the daemon and putting FILE in place of smm.db in the data dir, and FILE.media in place of its media/ directory (or its contents into the directory or bucket --media-store names). The backup does not include the data dir's secret key (secret.key) or TLS files: keep those too.`

  static override examples = ['<%= config.bin %> admin backup /var/backups/smm-$(date +%F).db', 'SMM_MEDIA_STORE=s3://smm-media <%= config.bin %> admin backup /var/backups/smm.db']
  static override args = { file: Args.string({ description: 'Where to write the backup (the media go to FILE.media)', required: true }) }
  static override flags = {
    force: Flags.boolean({ description: 'Overwrite FILE and FILE.media if they exist' }),
    'media-store': mediaStore,
    'no-media': Flags.boolean({ description: 'Back up the database only, not the media’s bytes' }),
  }

  async run(): Promise<BackupResult> {
    const { args, flags } = await this.parse(AdminBackup)
    const mediaDir = `${args.file}.media`
    for (const path of flags['no-media'] ? [args.file] : [args.file, mediaDir]) {
      if (existsSync(path) && !flags.force) throw usageError('file_exists', `${path} exists; pass --force to overwrite it`)
    }
    await this.withStore(flags, (store) => store.backup(args.file))
    let media: BackupResult['media'] = null
    if (!flags['no-media']) {
      rmSync(mediaDir, { recursive: true, force: true })
      // Loaded here: only a backup of media needs the media stores (and, for S3, its client).
      const { copyMediaObjects, openMediaStore, parseMediaStore } = await import('../../daemon/media/index.js')
      const from = await openMediaStore(parseMediaStore(flags['media-store'], flags['data-dir']))
      const to = await openMediaStore({ kind: 'file', dir: mediaDir, explicit: true })
      try {
        media = { directory: mediaDir, ...(await copyMediaObjects(from, to)) }
      } finally {
        await Promise.all([from.close(), to.close()])
      }
    }
    const result = { file: args.file, bytes: statSync(args.file).size, media }
    if (!this.jsonEnabled()) {
      this.log(`Backed up to ${result.file} (${result.bytes} bytes).`)
      if (media) this.log(`Media: ${media.objects} file${media.objects === 1 ? '' : 's'} (${formatSize(media.bytes)}) in ${media.directory}.`)
    }
    return result
  }
}
