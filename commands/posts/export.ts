import { writeFileSync } from 'node:fs'
import { Flags } from '@oclif/core'
import type { Post, PostStatus } from '../../src/api/posts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { formatCsv } from '../../src/cli/csv.js'
import { postFilters } from '../../src/cli/post-filters.js'
import { IMPORT_COLUMNS, importRowOf } from '../../src/cli/post-import.js'

/** What is exported unless told otherwise: what `posts import` would schedule again. */
const SCHEDULED: PostStatus[] = ['scheduled']

export default class PostsExport extends ApiCommand {
  static override description = `Write posts as CSV or JSON with the columns \`posts import\` reads: account, platforms, content, at (RFC 3339, UTC), media_urls and first_comment (empty when the post has none). A thread and per-platform versions have no column (a post's whole request is in \`posts show ID --json\`).

By default the scheduled posts, soonest first; --status (repeatable or comma-separated) or --every-status for others, and the filters of \`posts list\`. The output can be edited and imported again (into another daemon, say: the account column holds ids, which an import there resolves only if they exist; replace them with account names).`

  static override examples = [
    '<%= config.bin %> posts export > scheduled.csv',
    '<%= config.bin %> posts export --every-status --from 2026-11-01 --to 2026-12-01 --output november.csv',
    '<%= config.bin %> posts export --format json --account Brand',
  ]

  static override enableJsonFlag = false

  static override flags = {
    format: Flags.option({ options: ['csv', 'json'] as const, description: 'CSV with a header row, or a JSON array of the same columns', default: 'csv' as const })(),
    output: Flags.string({ char: 'o', description: 'Write to this file instead of standard output', helpValue: '<file>' }),
    ...postFilters('scheduled'),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(PostsExport)
    const client = await this.client()
    const query = {
      ...(await this.postQuery(flags, SCHEDULED)),
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
    const rows = posts.map(importRowOf)
    const text = flags.format === 'json' ? `${JSON.stringify(rows, null, 2)}\n` : formatCsv([[...IMPORT_COLUMNS], ...rows.map((row) => IMPORT_COLUMNS.map((column) => row[column]))])
    if (flags.output) {
      writeFileSync(flags.output, text)
      process.stderr.write(`Wrote ${posts.length} post${posts.length === 1 ? '' : 's'} to ${flags.output}.\n`)
    } else {
      process.stdout.write(text)
    }
  }
}
