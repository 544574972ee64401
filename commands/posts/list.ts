import { Flags } from '@oclif/core'
import { POST_STATUSES, type Post } from '../../src/api/posts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { cursor, limit, platform, time } from '../../src/cli/flags.js'
import { nextPageCommand } from '../../src/cli/next-page.js'
import { postTable } from '../../src/cli/post-output.js'
import type { Page } from '../../src/pagination.js'

export default class PostsList extends ApiCommand {
  static override description = `List posts by scheduled time, with their status and platforms.

Filters combine: a status, an account, a platform, and a time range (--from inclusive, --to exclusive; RFC 3339, a local date or date-time, or a phrase). One page at a time (--limit, then the --cursor it prints), or every page with --all.`

  static override examples = [
    '<%= config.bin %> posts list --status scheduled',
    '<%= config.bin %> posts list --from 2026-11-01 --to 2026-12-01 --all',
    '<%= config.bin %> posts list --account acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A --platform mastodon --order desc --limit 5',
    '<%= config.bin %> posts list --status failed --all --json | jq -r ".data[].id"',
  ]

  static override flags = {
    status: Flags.option({ options: POST_STATUSES, description: 'Only posts in this state' })(),
    account: Flags.string({ description: 'Only posts of this account (acc_…)', helpValue: '<acc_…>' }),
    platform: platform({ description: 'Only posts that target this platform' }),
    from: time({ description: 'Only posts scheduled at or after this time' }),
    to: time({ description: 'Only posts scheduled before this time' }),
    order: Flags.option({ options: ['asc', 'desc'] as const, description: 'By scheduled time: earliest first (asc) or latest first', default: 'asc' as const })(),
    limit,
    cursor,
    all: Flags.boolean({ description: 'Every matching post, fetching page after page' }),
  }

  async run(): Promise<Page<Post>> {
    const { flags } = await this.parse(PostsList)
    const client = await this.client()
    const query = {
      status: flags.status,
      account_id: flags.account,
      platform: flags.platform,
      from: await this.instant('--from', flags.from, true),
      to: await this.instant('--to', flags.to, true),
      order: flags.order,
      cursor: flags.cursor,
    }
    const page: Page<Post> = flags.all
      ? { data: await this.waitFor('Listing posts', this.everyPost(client.paginate('listPosts', { query: { ...query, limit: 100 } }))), has_more: false, next_cursor: null }
      : await this.waitFor('Listing posts', client.listPosts({ query: { ...query, limit: flags.limit } }))
    if (!this.jsonEnabled()) {
      this.log(page.data.length === 0 ? 'No posts.' : postTable(page.data))
      if (page.next_cursor) this.log(`\nMore: ${nextPageCommand(this.config.bin, this.id ?? 'posts:list', this.argv, page.next_cursor)}`)
    }
    return page
  }

  private async everyPost(items: AsyncIterable<Post>): Promise<Post[]> {
    const all: Post[] = []
    for await (const post of items) all.push(post)
    return all
  }
}
