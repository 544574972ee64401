import { Args, Flags } from '@oclif/core'
import type { Post } from '../../src/api/posts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { duration, time } from '../../src/cli/flags.js'
import { localTime } from '../../src/cli/output.js'
import { listWords } from '../../src/cli/post-output.js'

export default class PostsSchedule extends ApiCommand {
  static override description = `Schedule a draft: at a time, at its account's next free queue slot, or now.

The daemon checks the draft again as \`posts create\` would (a platform may have been disconnected since it was written). Its planned time is not used unless you give it again with --at. A post that is not a draft cannot be scheduled (exit code 5).`

  static override examples = [
    '<%= config.bin %> posts schedule pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --at "friday 10:00"',
    '<%= config.bin %> posts schedule pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --queue',
    '<%= config.bin %> posts schedule pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A',
  ]

  static override args = {
    id: Args.string({ description: 'The draft’s post id (pst_…)', required: true }),
  }

  static override flags = {
    at: time({ description: 'When to publish: RFC 3339, a local date-time or a phrase ("tomorrow 9am"); default: now', exclusive: ['in', 'queue'] }),
    in: duration({ description: 'Publish after this long: 2h, 45m, 1h30m, 3d', exclusive: ['at', 'queue'] }),
    queue: Flags.boolean({ description: 'Publish at the account’s next free queue slot (see `accounts queue`)', exclusive: ['at', 'in'] }),
  }

  async run(): Promise<Post> {
    const { args, flags } = await this.parse(PostsSchedule)
    const client = await this.client()
    const scheduledAt = await this.scheduledTime(flags.at, flags.in)
    const body = flags.queue ? { queue: true } : scheduledAt ? { scheduled_at: scheduledAt } : {}
    const post = await this.waitFor('Scheduling the draft', client.schedulePost({ params: { id: args.id }, body }))
    if (!this.jsonEnabled()) {
      const on = listWords(post.platforms)
      this.log(scheduledAt || flags.queue ? `Scheduled post ${post.id} for ${localTime(post.scheduled_at)} on ${on}.` : `Post ${post.id} goes out now on ${on}.`)
      this.log(`Follow it with: ${this.config.bin} posts show ${post.id}${this.profileFlag()}`)
    }
    return post
  }
}
