import { Args, Flags } from '@oclif/core'
import type { Post } from '../../src/api/posts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { yes } from '../../src/cli/flags.js'
import { localTime } from '../../src/cli/output.js'
import { listWords, oneLine, seriesWords } from '../../src/cli/post-output.js'
import { confirmOrStop, interactive } from '../../src/cli/prompt.js'

export default class PostsCancel extends ApiCommand {
  static override description = `Cancel a scheduled post or a draft, so that it is never published.

On a terminal it shows the post and asks first, unless --yes. A post that has started publishing can no longer be cancelled (exit code 5); cancelling a cancelled post again is fine.

An occurrence of a series (see \`posts show\`): without --series only this occurrence is cancelled and the series goes on with the next one; with --series the series stops: this occurrence and any other scheduled one are cancelled, and no more follow. --series on a post that is not part of a series is refused.`

  static override examples = [
    '<%= config.bin %> posts cancel pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A',
    '<%= config.bin %> posts cancel pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --yes --json',
    '<%= config.bin %> posts cancel pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --series',
  ]

  static override args = {
    id: Args.string({ description: 'The post id (pst_…)', required: true }),
  }

  static override flags = {
    yes,
    series: Flags.boolean({ description: 'Stop the series this occurrence belongs to: cancel it and every scheduled occurrence, and create no more' }),
  }

  async run(): Promise<Post> {
    const { args, flags } = await this.parse(PostsCancel)
    const client = await this.client()
    if (!flags.yes && interactive()) {
      const post = await this.waitFor('Fetching the post', client.getPost({ params: { id: args.id } }))
      const what = `the ${post.status} post for ${localTime(post.scheduled_at)} on ${listWords(post.platforms)}: “${oneLine(post.content, 60)}”`
      const series = flags.series && post.series_id ? ` and stop its series ${post.series_id} (${seriesWords(post.repeat!)})` : ''
      await confirmOrStop(`Cancel ${what}${series}?`, false, `Kept post ${post.id}: nothing was cancelled.`)
    }
    const post = await this.waitFor('Cancelling the post', client.cancelPost({ params: { id: args.id }, query: flags.series ? { series: 'true' } : {} }))
    if (!this.jsonEnabled()) {
      this.log(post.scheduled_at ? `Cancelled post ${post.id} (it was scheduled for ${localTime(post.scheduled_at)}).` : `Cancelled draft ${post.id} (it had no time yet).`)
      if (post.series_id) {
        const see = `${this.config.bin} posts list --series ${post.series_id}${this.profileFlag()}`
        this.log(flags.series ? `Stopped series ${post.series_id}: no more occurrences follow (${see}).` : `Series ${post.series_id} goes on with its next occurrence (${see}); to stop it, add --series.`)
      }
    }
    return post
  }
}
