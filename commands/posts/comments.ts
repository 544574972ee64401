import { Args } from '@oclif/core'
import type { Comment } from '../../src/api/approval.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { cursor, limit } from '../../src/cli/flags.js'
import { nextPageCommand } from '../../src/cli/next-page.js'
import { commentList } from '../../src/cli/team-output.js'
import type { Page } from '../../src/pagination.js'

export default class PostsComments extends ApiCommand {
  static override description = "List a post's comments, oldest first: the team's, reviewers' (through a review link), and those that came with an approval or a rejection."

  static override examples = ['<%= config.bin %> posts comments pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '<%= config.bin %> posts comments pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --json']

  static override args = {
    id: Args.string({ description: 'The post id (pst_…)', required: true }),
  }

  static override flags = { limit, cursor }

  async run(): Promise<Page<Comment>> {
    const { args, flags } = await this.parse(PostsComments)
    const client = await this.client()
    const page = await this.waitFor('Listing comments', client.listComments({ params: { id: args.id }, query: { limit: flags.limit, cursor: flags.cursor } }))
    if (!this.jsonEnabled()) {
      this.log(page.data.length === 0 ? `No comments on post ${args.id}. Add one with: ${this.config.bin} posts comment ${args.id} TEXT${this.profileFlag()}` : commentList(page.data))
      if (page.next_cursor) this.log(`\nMore: ${nextPageCommand(this.config.bin, this.id ?? 'posts:comments', this.argv, page.next_cursor)}`)
    }
    return page
  }
}
