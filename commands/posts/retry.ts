import { Args } from '@oclif/core'
import type { Post } from '../../src/api/posts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { listWords } from '../../src/cli/post-output.js'

export default class PostsRetry extends ApiCommand {
  static override description = `Publish a failed or partially published post again, now, on the platforms where it failed.

Platforms where it was published are left alone, so nothing is posted twice. A post in any other state cannot be retried (exit code 5).`

  static override examples = ['<%= config.bin %> posts retry pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A']

  static override args = {
    id: Args.string({ description: 'The post id (pst_…)', required: true }),
  }

  async run(): Promise<Post> {
    const { args } = await this.parse(PostsRetry)
    const client = await this.client()
    const post = await this.waitFor('Re-queuing the post', client.retryPost({ params: { id: args.id } }))
    if (!this.jsonEnabled()) {
      const again = post.targets.filter((t) => t.status === 'pending').map((t) => t.platform)
      this.log(`Post ${post.id} goes out again now on ${listWords(again)}. Follow it with: ${this.config.bin} posts show ${post.id}${this.profileFlag()}`)
    }
    return post
  }
}
