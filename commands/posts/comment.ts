import { Args } from '@oclif/core'
import type { Comment } from '../../src/api/approval.js'
import { ApiCommand } from '../../src/cli/api-command.js'

export default class PostsComment extends ApiCommand {
  static override description = 'Comment on a post. Any member of its workspace may, viewers too; the comment is plain text, kept as written.'

  static override examples = ['<%= config.bin %> posts comment pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A "Is the link right?"']

  static override args = {
    id: Args.string({ description: 'The post id (pst_…)', required: true }),
    text: Args.string({ description: 'The comment (up to 10,000 characters)', required: true }),
  }

  async run(): Promise<Comment> {
    const { args } = await this.parse(PostsComment)
    const client = await this.client()
    const comment = await this.waitFor('Commenting', client.addComment({ params: { id: args.id }, body: { body: args.text } }))
    if (!this.jsonEnabled()) this.log(`Commented on post ${args.id} (${comment.id}).`)
    return comment
  }
}
