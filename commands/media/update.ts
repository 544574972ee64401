import { Args, Flags } from '@oclif/core'
import type { Media } from '../../src/api/media.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { usageError } from '../../src/cli/command-error.js'
import { alt } from '../../src/cli/flags.js'
import { mediaDetails } from '../../src/cli/media-output.js'

export default class MediaUpdate extends ApiCommand {
  static override description = 'Change the alt text of an uploaded image or video: posts that give no alt text of their own go out with it.'

  static override examples = ['<%= config.bin %> media update med_01JD3Q7ZV6YV9M2R8X4T5N6P7A --alt "Two people at a whiteboard"', '<%= config.bin %> media update med_01JD3Q7ZV6YV9M2R8X4T5N6P7A --no-alt']

  static override args = {
    id: Args.string({ description: 'The media id (med_…)', required: true }),
  }

  static override flags = {
    alt: alt({ description: 'The new alt text', exclusive: ['no-alt'] }),
    'no-alt': Flags.boolean({ description: 'Remove its alt text', exclusive: ['alt'] }),
  }

  async run(): Promise<Media> {
    const { args, flags } = await this.parse(MediaUpdate)
    if (flags.alt === undefined && !flags['no-alt']) throw usageError('nothing_to_change', 'Nothing to change: give --alt TEXT or --no-alt.')
    const client = await this.client()
    const media = await this.waitFor('Updating the media', client.updateMedia({ params: { id: args.id }, body: { alt_text: flags['no-alt'] ? null : flags.alt! } }))
    if (!this.jsonEnabled()) this.log(mediaDetails(media))
    return media
  }
}
