import { Args } from '@oclif/core'
import type { Post } from '../../src/api/posts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { postDetails } from '../../src/cli/post-output.js'

export default class PostsShow extends ApiCommand {
  static override description = 'Show a post: its text, when it is scheduled, its status, and how each platform fared (its URL there, or why it failed). An occurrence of a series also shows its series (ser_…), which occurrence it is, and how the series repeats; `posts list --series ser_…` lists them all.'

  static override examples = ['<%= config.bin %> posts show pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '<%= config.bin %> posts show pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --json | jq .targets']

  static override args = {
    id: Args.string({ description: 'The post id (pst_…)', required: true }),
  }

  async run(): Promise<Post> {
    const { args } = await this.parse(PostsShow)
    const client = await this.client()
    const post = await this.waitFor('Fetching the post', client.getPost({ params: { id: args.id } }))
    if (!this.jsonEnabled()) this.log(postDetails(post))
    return post
  }
}
