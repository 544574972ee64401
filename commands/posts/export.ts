import { writeFileSync } from 'node:fs'
import { Flags } from '@oclif/core'
import type { Post, PostStatus } from '../../src/api/posts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { usageError } from '../../src/cli/command-error.js'
import { csvOf } from '../../src/cli/post-csv.js'
import { postFilters } from '../../src/cli/post-filters.js'
import { requestOf } from '../../src/cli/post-import.js'

/** What is exported unless told otherwise: what `posts import` makes again. */
const PLANNED: PostStatus[] = ['draft', 'scheduled']

export default class PostsExport extends ApiCommand {
  static override description = `Write posts as a file \`posts import\` reads, to make them again: edited, or on another daemon.

Each post is exported whole: its text, platforms, time, media, first comment, thread, each platform's own version, whether it is a draft, and how it repeats (a series from this occurrence on: every, and count as the occurrences still to come). As CSV (the default) a post is one line, with a line under it for each part of its thread (part "thread") and each platform's version (part "mastodon", and "mastodon thread" for that version's thread); \`posts import --help\` describes the columns. A cell that starts with =, +, -, @, a tab or a carriage return starts with ' so that spreadsheets show it as text; import takes the ' off again. The rare post CSV cannot hold exactly (a platform's version with no text, a field with no column) is refused, naming it: --format json writes each post as the request POST /v1/posts takes, exactly.

By default the drafts and scheduled posts, soonest first; --status (repeatable or comma-separated) or --every-status for others, and the filters of \`posts list\`. The account column holds ids: on another daemon, replace them with account names there. With --output the file is created readable by you alone (0600).`

  static override examples = [
    '<%= config.bin %> posts export > planned.csv',
    '<%= config.bin %> posts export --every-status --from 2026-11-01 --to 2026-12-01 --output november.csv',
    '<%= config.bin %> posts export --format json --account Brand --output brand.json',
  ]

  static override enableJsonFlag = false

  static override flags = {
    format: Flags.option({ options: ['csv', 'json'] as const, description: 'CSV, a line per post and per part; or JSON, an array of POST /v1/posts requests', default: 'csv' as const })(),
    output: Flags.string({ char: 'o', description: 'Write to this file (created 0600) instead of standard output', helpValue: '<file>' }),
    ...postFilters('draft,scheduled'),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(PostsExport)
    const client = await this.client()
    const query = {
      ...(await this.postQuery(flags, PLANNED)),
      order: 'asc' as const,
      limit: 100,
    }
    const posts: Post[] = []
    await this.waitFor(
      'Reading posts',
      (async () => {
        for await (const post of client.paginate('listPosts', { query })) posts.push(post)
      })(),
    )
    const requests = posts.map((post) => ({ id: post.id, request: requestOf(post) }))
    let text: string
    if (flags.format === 'json') text = `${JSON.stringify(requests.map((r) => r.request), null, 2)}\n`
    else {
      const written = csvOf(requests)
      if ('cannot' in written) throw usageError('csv_cannot_hold', `CSV cannot hold every post exactly: ${written.cannot}. Export with --format json, which holds every field; nothing was written.`)
      text = written.csv
    }
    if (flags.output) {
      // The file holds what is not yet public: readable by its owner alone, as every file smm makes.
      writeFileSync(flags.output, text, { mode: 0o600 })
      process.stderr.write(`Wrote ${posts.length} post${posts.length === 1 ? '' : 's'} to ${flags.output}.\n`)
    } else {
      process.stdout.write(text)
    }
  }
}
