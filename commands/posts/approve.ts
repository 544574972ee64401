import { Args, Flags } from '@oclif/core'
import type { Post } from '../../src/api/posts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { localTime } from '../../src/cli/output.js'

export default class PostsApprove extends ApiCommand {
  static override description = `Approve a post waiting for approval: it is scheduled, or goes out at once if its time has passed.

Admins and owners of the post's workspace may approve; an editor or a viewer is refused (exit code 3). A post that is not waiting cannot be approved (exit code 5).`

  static override examples = ['<%= config.bin %> posts approve pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '<%= config.bin %> posts approve pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --comment "Good to go"']

  static override args = {
    id: Args.string({ description: 'The post id (pst_…)', required: true }),
  }

  static override flags = {
    comment: Flags.string({ description: 'A comment kept with the post, as the approval’s' }),
  }

  async run(): Promise<Post> {
    const { args, flags } = await this.parse(PostsApprove)
    const client = await this.client()
    const body = flags.comment === undefined ? {} : { comment: flags.comment }
    const post = await this.waitFor('Approving the post', client.approvePost({ params: { id: args.id }, body }))
    if (!this.jsonEnabled()) this.log(`Approved post ${post.id}: scheduled for ${localTime(post.scheduled_at)}.`)
    return post
  }
}
