import { Args } from '@oclif/core'
import type { Media } from '../../src/api/media.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { mediaDetails } from '../../src/cli/media-output.js'

export default class MediaShow extends ApiCommand {
  static override description = 'Show an uploaded image or video: its type, size, dimensions, alt text and public URL (anyone with the URL can fetch it).'

  static override examples = ['<%= config.bin %> media show med_01JD3Q7ZV6YV9M2R8X4T5N6P7A']

  static override args = {
    id: Args.string({ description: 'The media id (med_…)', required: true }),
  }

  async run(): Promise<Media> {
    const { args } = await this.parse(MediaShow)
    const client = await this.client()
    const media = await this.waitFor('Fetching the media', client.getMedia({ params: { id: args.id } }))
    if (!this.jsonEnabled()) this.log(mediaDetails(media))
    return media
  }
}
