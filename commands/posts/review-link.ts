import { Args } from '@oclif/core'
import { ApiCommand } from '../../src/cli/api-command.js'
import { duration } from '../../src/cli/flags.js'
import { localTime } from '../../src/cli/output.js'
import { parseDurationInput } from '../../src/cli/time-input.js'

/** A review link as made: its URL is shown only now. */
export interface ReviewLinkMade {
  id: string
  post_id: string
  url: string
  expires_at: string
}

export default class PostsReviewLink extends ApiCommand {
  static override description = `Make a review link to a post: a URL that lets someone without an account (a client) see the post as each platform will show it, and approve it or ask for changes.

The URL is shown only now: anyone holding it may decide until it expires (a week unless --expires-in says otherwise) or is revoked. Admins and owners of the post's workspace may make one (others: exit code 3).`

  static override examples = ['<%= config.bin %> posts review-link pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '<%= config.bin %> posts review-link pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --expires-in 2d --json | jq -r .url']

  static override args = {
    id: Args.string({ description: 'The post id (pst_…)', required: true }),
  }

  static override flags = {
    'expires-in': duration({ description: 'How long the link works from now: 2d, 12h… (a minute to 90 days; default 7d)' }),
  }

  async run(): Promise<ReviewLinkMade> {
    const { args, flags } = await this.parse(PostsReviewLink)
    const client = await this.client()
    const expiresIn = flags['expires-in'] === undefined ? undefined : Math.round(parseDurationInput(flags['expires-in']) / 1000)
    const link = await this.waitFor('Making the review link', client.createReviewLink({ params: { id: args.id }, body: expiresIn === undefined ? {} : { expires_in: expiresIn } }))
    if (!this.jsonEnabled()) {
      this.log(link.url)
      this.log(`\nSend this link to the reviewer; it works until ${localTime(link.expires_at)} and is shown only now (${link.id}).`)
    }
    return link
  }
}
