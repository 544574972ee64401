import { Args } from '@oclif/core'
import type { Media } from '../../src/api/media.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { alt } from '../../src/cli/flags.js'
import { localMedia, uploadMedia } from '../../src/cli/media-input.js'
import { mediaDetails } from '../../src/cli/media-output.js'

export default class MediaUpload extends ApiCommand {
  static override description = `Upload an image or a video from this disk, to attach to posts by its id (med_…).

The file's type is read from its first bytes: JPEG, PNG, GIF and WebP images, MP4 and QuickTime (.mov) videos. It is streamed to the daemon as it is read, with a progress bar on a terminal for a large file. Media no post uses are removed 24 hours after their upload. \`posts create --media FILE\` uploads a file itself; this is for a file several posts share.`

  static override examples = [
    '<%= config.bin %> media upload ./launch.jpg --alt "Our team on the launch stage"',
    '<%= config.bin %> posts create --platform mastodon --text "Launch day" --media "$(<%= config.bin %> media upload ./launch.jpg --json | jq -r .id)"',
  ]

  static override args = {
    file: Args.string({ description: 'The image or video file to upload', required: true }),
  }

  static override flags = {
    alt: alt({ description: 'Its alt text: a description read to people who cannot see it (posts may give their own)' }),
  }

  async run(): Promise<Media> {
    const { args, flags } = await this.parse(MediaUpload)
    const file = await localMedia(args.file, 'FILE')
    const media = await uploadMedia(await this.client(), file, { altText: flags.alt, progress: this.showsProgress() })
    if (!this.jsonEnabled()) {
      this.log(mediaDetails(media))
      this.log(`\nAttach it with: ${this.config.bin} posts create --media ${media.id} …${this.profileFlag()}`)
    }
    return media
  }
}
