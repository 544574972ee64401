import { Args } from '@oclif/core'
import { ApiCommand } from '../../src/cli/api-command.js'
import { yes } from '../../src/cli/flags.js'
import { confirmOrStop } from '../../src/cli/prompt.js'

export default class MediaDelete extends ApiCommand {
  static override description = 'Delete an uploaded image or video: its URL stops answering at once. A draft, scheduled or publishing post that uses it keeps it (exit code 5, naming the posts); published posts keep what the platforms received. On a terminal it asks first, unless --yes; from a script it needs --yes.'

  static override examples = ['<%= config.bin %> media delete med_01JD3Q7ZV6YV9M2R8X4T5N6P7A --yes']

  static override args = {
    id: Args.string({ description: 'The media id (med_…)', required: true }),
  }

  static override flags = { yes }

  async run(): Promise<{ id: string; deleted: true }> {
    const { args, flags } = await this.parse(MediaDelete)
    const client = await this.client()
    await confirmOrStop(`Delete media ${args.id}? Its URL stops answering at once.`, flags.yes, `Kept media ${args.id}.`)
    await this.waitFor('Deleting the media', client.deleteMedia({ params: { id: args.id } }))
    if (!this.jsonEnabled()) this.log(`Deleted media ${args.id}.`)
    return { id: args.id, deleted: true }
  }
}
