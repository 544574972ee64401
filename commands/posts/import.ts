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

The first line names the columns: account (an id or a unique name, as --account takes it), platforms (separated by spaces), content, at (as --at takes it, in your time zone; empty: now) and, optionally, media_urls (https:// URLs separated by spaces) and first_comment (published right after the post, as a reply or a comment where the platform has them; empty: none). Quote a field that holds a comma, a quote (doubled: "") or a line break. The file is UTF-8 (a line that is not is reported, as "CSV UTF-8" in spreadsheets avoids), and names each column once.

Every line is checked before any post is created; each problem is reported with its line number and column. With --skip-invalid the valid lines are created and the others reported. --dry-run checks every line the same way and creates nothing (it sends the posts with "dry_run": true to POST /v1/posts/bulk). A file holds at most 500 posts.

Example file:
  account,platforms,content,at,media_urls,first_comment
  Brand,mastodon bluesky,"We launch today, finally",2026-11-21 09:00,,Details: https://example.com/launch
  Brand,feed,"Two lines:
the second",tomorrow 9am,https://example.com/launch.png,`

  static override examples = [
    '<%= config.bin %> posts import november.csv --dry-run',
    '<%= config.bin %> posts import november.csv',
    '<%= config.bin %> posts import november.csv --json',
    '<%= config.bin %> posts import november.csv --skip-invalid',
  ]

  static override args = {
    file: Args.string({ description: 'The CSV file to import (- for standard input)', required: true }),
  }

  static override flags = {
    'dry-run': Flags.boolean({ description: 'Check every line and create nothing' }),
    'skip-invalid': Flags.boolean({ description: 'Create the valid lines and report the others (by default one invalid line means nothing is created)' }),
  }

  async run(): Promise<{ data: Post[] } | { valid: true; count: number }> {
    const { args, flags } = await this.parse(PostsImport)
    const skipInvalid = flags['skip-invalid']
    const { rows, errors } = readImportCsv(readFileSync(args.file === '-' ? 0 : args.file))
    if (errors.length) throw invalidLines(args.file, errors)
    const resolved = await this.requests(rows)
    // Lines left out with --skip-invalid, and why: said on standard error, with their numbers.
    const skipped: LineError[] = []
    let items = resolved.items
    if (resolved.errors.length) {
      if (!skipInvalid) throw invalidLines(args.file, resolved.errors)
      skipped.push(...resolved.errors)
      items = items.filter((item) => !resolved.errors.some((e) => e.line === item.row.line))
    }
    const client = await this.client()
    const send = (kept: typeof items) => {
      const body = { posts: kept.map((item) => item.post), ...(flags['dry-run'] ? { dry_run: true } : {}) }
      return this.waitFor(flags['dry-run'] ? 'Checking the posts' : 'Scheduling the posts', client.createPosts({ body }))
    }
    let answer
    try {
      if (items.length === 0) throw invalidLines(args.file, skipped)
      answer = await send(items)
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 422 && error.errors.some((e) => e.pointer.startsWith('#/posts/')))) throw error
      const lineErrors = lineErrorsOf(error.errors, items.map((item) => item.row))
      // The daemon checks every post before it creates any: without the lines it refused, the
      // rest go again, once.
      if (skipInvalid) {
        skipped.push(...lineErrors)
        items = items.filter((item) => !lineErrors.some((e) => e.line === item.row.line))
        if (items.length === 0) throw invalidLines(args.file, skipped)
        answer = await send(items)
      } else {
        // With --json the daemon's problem is the answer; a person gets it line by line.
        if (this.jsonEnabled()) throw error
        throw invalidLines(args.file, lineErrors)
      }
    }
    if (skipped.length) {
      const count = new Set(skipped.map((e) => e.line)).size
      process.stderr.write(`Skipped ${count} invalid line${count === 1 ? '' : 's'} of ${args.file} (--skip-invalid):\n${lineReport(skipped)}\n`)
    }
    if (!this.jsonEnabled()) {
      if ('valid' in answer) this.log(`All ${answer.count} posts of ${args.file}${skipped.length ? ' left' : ''} are valid; nothing was created (--dry-run).`)
      else {
        const first = answer.data.map((p) => p.scheduled_at).sort()[0]
        this.log(`Imported ${answer.data.length} post${answer.data.length === 1 ? '' : 's'} (first due ${localTime(first)}).`)
      }
    }
    return answer
  }

  /** The post request of each row, with accounts and times resolved, and every line's problems at once. */
  private async requests(rows: ImportRow[]): Promise<{ items: { row: ImportRow; post: PostCreate }[]; errors: LineError[] }> {
    const errors: LineError[] = []
    const accounts = new Map<string, Promise<string>>()
    const items: { row: ImportRow; post: PostCreate }[] = []
    for (const row of rows) {
      const problem = (column: string) => (error: unknown) => {
        if (!(error instanceof CommandError)) throw error
        errors.push({ line: row.line, column, detail: error.message.replace(new RegExp(`^${column}: `), '') })
        return undefined
      }
      if (!accounts.has(row.account)) accounts.set(row.account, this.accountId('account', row.account))
      const accountId = row.account === '' ? problem('account')(usageError('required', 'account: is empty; give an account id or name')) : await accounts.get(row.account)!.catch(problem('account'))
      const at = row.at === '' ? undefined : await this.instant('at', row.at).catch(problem('at'))
      items.push({
        row,
        post: {
          account_id: accountId ?? '',
          content: row.content,
          platforms: row.platforms as PlatformName[],
          ...(row.mediaUrls.length ? { media_urls: row.mediaUrls } : {}),
          ...(row.firstComment !== undefined ? { first_comment: row.firstComment } : {}),
          ...(at ? { scheduled_at: at } : {}),
        },
      })
    }
    return { items, errors }
  }
}

function invalidLines(file: string, errors: LineError[]): CommandError {
  const count = new Set(errors.map((e) => e.line)).size
  return usageError('invalid_csv', `${count} line${count === 1 ? '' : 's'} of ${file} ${count === 1 ? 'is' : 'are'} invalid; nothing was created:\n${lineReport(errors)}`)
}
