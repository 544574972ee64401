import { Args } from '@oclif/core'
import type { Post } from '../../src/api/posts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { yes } from '../../src/cli/flags.js'
import { localTime } from '../../src/cli/output.js'
import { listWords, oneLine } from '../../src/cli/post-output.js'
import { confirmOrStop, interactive } from '../../src/cli/prompt.js'

export default class PostsCancel extends ApiCommand {
  static override description = `Cancel a scheduled post or a draft, so that it is never published.

On a terminal it shows the post and asks first, unless --yes. A post that has started publishing can no longer be cancelled (exit code 5); cancelling a cancelled post again is fine.`

  static override examples = ['<%= config.bin %> posts cancel pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '<%= config.bin %> posts cancel pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --yes --json']

  static override args = {
    id: Args.string({ description: 'The post id (pst_…)', required: true }),
  }

  static override flags = { yes }

  async run(): Promise<Post> {
    const { args, flags } = await this.parse(PostsCancel)
    const client = await this.client()
    if (!flags.yes && interactive()) {
      const post = await this.waitFor('Fetching the post', client.getPost({ params: { id: args.id } }))
      const what = `the ${post.status} post for ${localTime(post.scheduled_at)} on ${listWords(post.platforms)}: “${oneLine(post.content, 60)}”`
      await confirmOrStop(`Cancel ${what}?`, false, `Kept post ${post.id}: nothing was cancelled.`)
    }
    const post = await this.waitFor('Cancelling the post', client.cancelPost({ params: { id: args.id } }))
    if (!this.jsonEnabled()) this.log(post.scheduled_at ? `Cancelled post ${post.id} (it was scheduled for ${localTime(post.scheduled_at)}).` : `Cancelled draft ${post.id} (it had no time yet).`)
    return post
  }
}
