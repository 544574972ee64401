import { Args, Flags } from '@oclif/core'
import type { Post } from '../../src/api/posts.js'
import { ApiCommand } from '../../src/cli/api-command.js'

export default class PostsReject extends ApiCommand {
  static override description = `Ask for changes to a post waiting for approval, saying what to change: it is rejected, never published, until someone edits it (then it waits for approval again).

Admins and owners of the post's workspace may reject; an editor or a viewer is refused (exit code 3). A post that is not waiting cannot be rejected (exit code 5).`

  static override examples = ['<%= config.bin %> posts reject pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --comment "Shorter, and add the link"']

  static override args = {
    id: Args.string({ description: 'The post id (pst_…)', required: true }),
  }

  static override flags = {
    comment: Flags.string({ description: 'What to change (kept with the post)', required: true }),
  }

  async run(): Promise<Post> {
    const { args, flags } = await this.parse(PostsReject)
    const client = await this.client()
    const post = await this.waitFor('Rejecting the post', client.rejectPost({ params: { id: args.id }, body: { comment: flags.comment } }))
    if (!this.jsonEnabled()) this.log(`Sent post ${post.id} back for changes. An edit makes it wait for approval again: ${this.config.bin} posts update ${post.id}${this.profileFlag()}`)
    return post
  }
}
