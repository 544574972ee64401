import { readFileSync } from 'node:fs'
import { Args, Flags } from '@oclif/core'
import type { PlatformName } from '../../src/api/common.js'
import type { Post, PostCreate } from '../../src/api/posts.js'
import { ApiError } from '../../src/errors.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { CommandError, usageError } from '../../src/cli/command-error.js'
import { localTime } from '../../src/cli/output.js'
import { lineErrorsOf, lineReport, readImportCsv, type ImportRow, type LineError } from '../../src/cli/post-import.js'

export default class PostsImport extends ApiCommand {
  static override description = `Schedule many posts from a CSV file: all of them, or none if any line is invalid.

The first line names the columns: account (an id or a unique name, as --account takes it), platforms (separated by spaces), content, at (as --at takes it, in your time zone; empty: now) and, optionally, media_urls (https:// URLs separated by spaces). Quote a field that holds a comma, a quote (doubled: "") or a line break.

Every line is checked before any post is created; each problem is reported with its line number and column. --dry-run checks every line the same way and creates nothing (it sends the posts with "dry_run": true to POST /v1/posts/bulk). A file holds at most 500 posts.

Example file:
  account,platforms,content,at,media_urls
  Brand,mastodon bluesky,"We launch today, finally",2026-11-21 09:00,
  Brand,feed,"Two lines:
the second",tomorrow 9am,https://example.com/launch.png`

  static override examples = [
    '<%= config.bin %> posts import november.csv --dry-run',
    '<%= config.bin %> posts import november.csv',
    '<%= config.bin %> posts import november.csv --json',
  ]

  static override args = {
    file: Args.string({ description: 'The CSV file to import (- for standard input)', required: true }),
  }

  static override flags = {
    'dry-run': Flags.boolean({ description: 'Check every line and create nothing' }),
  }

  async run(): Promise<{ data: Post[] } | { valid: true; count: number }> {
    const { args, flags } = await this.parse(PostsImport)
    const text = readFileSync(args.file === '-' ? 0 : args.file, 'utf8')
    const { rows, errors } = readImportCsv(text)
    if (errors.length) throw invalidLines(args.file, errors)
    const posts = await this.requests(args.file, rows)
    const client = await this.client()
    const body = { posts, ...(flags['dry-run'] ? { dry_run: true } : {}) }
    let answer
    try {
      answer = await this.waitFor(flags['dry-run'] ? 'Checking the posts' : 'Scheduling the posts', client.createPosts({ body }))
    } catch (error) {
      // With --json the daemon's problem is the answer; a person gets it line by line.
      if (error instanceof ApiError && error.status === 422 && error.errors.some((e) => e.pointer.startsWith('#/posts/')) && !this.jsonEnabled()) {
        throw invalidLines(args.file, lineErrorsOf(error.errors, rows))
      }
      throw error
    }
    if (!this.jsonEnabled()) {
      if ('valid' in answer) this.log(`All ${answer.count} posts of ${args.file} are valid; nothing was created (--dry-run).`)
      else {
        const first = answer.data.map((p) => p.scheduled_at).sort()[0]
        this.log(`Imported ${answer.data.length} post${answer.data.length === 1 ? '' : 's'} (first due ${localTime(first)}).`)
      }
    }
    return answer
  }

  /** The post requests of the rows, with accounts and times resolved; every line's problems at once. */
  private async requests(file: string, rows: ImportRow[]): Promise<PostCreate[]> {
    const errors: LineError[] = []
    const accounts = new Map<string, Promise<string>>()
    const posts: PostCreate[] = []
    for (const row of rows) {
      const problem = (column: string) => (error: unknown) => {
        if (!(error instanceof CommandError)) throw error
        errors.push({ line: row.line, column, detail: error.message.replace(new RegExp(`^${column}: `), '') })
        return undefined
      }
      if (!accounts.has(row.account)) accounts.set(row.account, this.accountId('account', row.account))
      const accountId = row.account === '' ? problem('account')(usageError('required', 'account: is empty; give an account id or name')) : await accounts.get(row.account)!.catch(problem('account'))
      const at = row.at === '' ? undefined : await this.instant('at', row.at).catch(problem('at'))
      posts.push({
        account_id: accountId ?? '',
        content: row.content,
        platforms: row.platforms as PlatformName[],
        ...(row.mediaUrls.length ? { media_urls: row.mediaUrls } : {}),
        ...(at ? { scheduled_at: at } : {}),
      })
    }
    if (errors.length) throw invalidLines(file, errors)
    return posts
  }
}

function invalidLines(file: string, errors: LineError[]): CommandError {
  const count = new Set(errors.map((e) => e.line)).size
  return usageError('invalid_csv', `${count} line${count === 1 ? '' : 's'} of ${file} ${count === 1 ? 'is' : 'are'} invalid; nothing was created:\n${lineReport(errors)}`)
}
