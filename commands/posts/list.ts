import { Flags } from '@oclif/core'
import type { Post, PostListQuery, PostStatus } from '../../src/api/posts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import type { SmmClient } from '../../src/client/smm-client.js'
import { cursor, limit } from '../../src/cli/flags.js'
import { postFilters } from '../../src/cli/post-filters.js'
import { paint } from '../../src/cli/output.js'
import { nextPageCommand } from '../../src/cli/next-page.js'
import { postTable } from '../../src/cli/post-output.js'
import type { Page } from '../../src/pagination.js'

/** What `posts list` shows unless told otherwise: what is still to come. */
const UPCOMING: PostStatus[] = ['scheduled', 'publishing']

export default class PostsList extends ApiCommand {
  static override description = `List posts by scheduled time, with their status and platforms.

With no --status it shows what is still to come: scheduled and publishing posts, soonest first, and how many more there are; posts that failed, were published or were cancelled are listed with --status (repeatable or comma-separated) or --every-status. Filters combine: an account, a platform, a series (--series ser_…: its occurrences in every state, unless --status), and a time range (--from inclusive, --to exclusive; RFC 3339, a date or date-time in your zone, or a phrase; a bare day is its midnight). One page at a time (--limit, then the --cursor it prints), or every page with --all.`

  static override examples = [
    '<%= config.bin %> posts list',
    '<%= config.bin %> posts list --status failed --status partially_published',
    '<%= config.bin %> posts list --from 2026-11-01 --to 2026-12-01 --all',
    '<%= config.bin %> posts list --account acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A --platform mastodon --order desc --limit 5',
    '<%= config.bin %> posts list --series ser_01JD3Q7ZV6YV9M2R8X4T5N6P7A',
    '<%= config.bin %> posts list --status failed --all --json | jq -r ".data[].id"',
  ]

  static override flags = {
    ...postFilters('scheduled,publishing'),
    order: Flags.option({ options: ['asc', 'desc'] as const, description: 'By scheduled time: earliest first (asc) or latest first', default: 'asc' as const })(),
    limit,
    cursor,
    all: Flags.boolean({ description: 'Every matching post, fetching page after page' }),
  }

  async run(): Promise<Page<Post> & { total?: number }> {
    const { flags } = await this.parse(PostsList)
    const client = await this.client()
    const query = {
      ...(await this.postQuery(flags, UPCOMING)),
      order: flags.order,
      cursor: flags.cursor,
    }
    const page: Page<Post> & { total?: number } = flags.all
      ? { data: await this.waitFor('Listing posts', this.everyPost(client.paginate('listPosts', { query: { ...query, limit: 100 } }))), has_more: false, next_cursor: null }
      : await this.waitFor('Listing posts', client.listPosts({ query: { ...query, limit: flags.limit, ...(this.jsonEnabled() ? {} : { count: 'true' as const }) } }))
    if (!this.jsonEnabled()) {
      const upcoming = !flags.status && !flags['every-status'] && flags.series === undefined
      const what = upcoming ? 'upcoming posts' : flags.series ? 'occurrences' : 'posts'
      this.log(page.data.length === 0 ? `No ${what}.` : postTable(page.data))
      const more = (page.total ?? page.data.length) - page.data.length
      if (page.next_cursor) this.log(`\n${more} more ${more === 1 ? what.replace(/s$/, '') : what}: ${nextPageCommand(this.config.bin, this.id ?? 'posts:list', this.argv, page.next_cursor)}`)
      if (upcoming) await this.sayWhatFailed(client, query)
    }
    return page
  }

  /** Failed posts need a person: the default list counts them, and says how to see them. */
  private async sayWhatFailed(client: SmmClient, query: Omit<PostListQuery, 'status' | 'order' | 'limit' | 'cursor'>): Promise<void> {
    const failed = await client.listPosts({ query: { ...query, status: 'failed,partially_published', limit: 1, count: 'true' } })
    const n = failed.total ?? failed.data.length
    const see = `${this.config.bin} posts list --status failed,partially_published${this.profileFlag()}`
    if (n > 0) this.log(paint('yellow', `\n${n} ${n === 1 ? 'post' : 'posts'} failed on some platform: ${see}`))
    this.log(paint('dim', 'Published and cancelled posts are not shown: add --status published (or any state), or --every-status.'))
  }

  private async everyPost(items: AsyncIterable<Post>): Promise<Post[]> {
    const all: Post[] = []
    for await (const post of items) all.push(post)
    return all
  }
}
