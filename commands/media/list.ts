import type { Media } from '../../src/api/media.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { cursor, limit } from '../../src/cli/flags.js'
import { mediaTable } from '../../src/cli/media-output.js'
import { nextPageCommand } from '../../src/cli/next-page.js'
import type { Page } from '../../src/pagination.js'

export default class MediaList extends ApiCommand {
  static override description = 'List the images and videos you uploaded, newest first: their ids, types, sizes and alt text.'

  static override examples = ['<%= config.bin %> media list', '<%= config.bin %> media list --json | jq -r ".data[].url"']

  static override flags = { limit, cursor }

  async run(): Promise<Page<Media>> {
    const { flags } = await this.parse(MediaList)
    const client = await this.client()
    const page = await this.waitFor('Listing media', client.listMedia({ query: { limit: flags.limit, cursor: flags.cursor } }))
    if (!this.jsonEnabled()) {
      this.log(page.data.length === 0 ? `No media: upload a file with \`${this.config.bin} media upload FILE${this.profileFlag()}\`.` : mediaTable(page.data))
      if (page.next_cursor) this.log(`\nMore: ${nextPageCommand(this.config.bin, this.id ?? 'media:list', this.argv, page.next_cursor)}`)
    }
    return page
  }
}
