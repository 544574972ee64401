import { readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { Args, Flags } from '@oclif/core'
import type { Post, PostCreate } from '../../src/api/posts.js'
import { ApiError } from '../../src/errors.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { CommandError, usageError } from '../../src/cli/command-error.js'
import { localTime } from '../../src/cli/output.js'
import { CsvSyntaxError, csvText } from '../../src/cli/csv.js'
import { attachImportMedia, checkImportMedia } from '../../src/cli/import-media.js'
import { readImportCsv } from '../../src/cli/post-csv.js'
import { lineErrorsOf, lineReport, readImportJson, type ImportFile, type ImportPost, type LineError } from '../../src/cli/post-import.js'

export default class PostsImport extends ApiCommand {
  static override description = `Schedule many posts from a CSV or JSON file (what \`posts export\` writes): all of them, or none if any line is invalid.

A CSV file's first line names its columns, in any order: account (an id or a unique name, as --account takes it), platforms (separated by spaces), content and at (as --at takes it, in your time zone; empty: now) are required; media_urls (separated by spaces: https:// URLs, media uploaded before (med_…), or image and video files, named relative to the CSV file's folder, which they may not leave, and uploaded when the posts are created), first_comment (published right after the post, as a reply or a comment where the platform has them), draft (true: keep it as a draft), every, count and until (the post repeats, as --every, --count and --until take them), part and without are optional. Quote a field that holds a comma, a quote (doubled: "") or a line break. The file is UTF-8 (a line that is not is reported, as "CSV UTF-8" in spreadsheets avoids), and names each column once.

Each line is a post, unless its part column names what it adds to the post above it: "thread" (the next part of its thread: content and media_urls), a platform ("bluesky": that platform's own version: its content, media_urls and first_comment replace the post's where given, and without lists what it goes without: first_comment, thread, media_urls) or "bluesky thread" (the next part of that version's own thread). Such a line leaves the post's own columns (account to until) empty.

A CSV has no column for alt text: give a file its alt text with \`media upload --alt\` and name it by its id (med_…), or import JSON.

A file whose first character is [ is JSON: an array of what POST /v1/posts takes (what \`posts export --format json\` writes), with account_id as an id or a name and scheduled_at and repeat.until as --at takes them.

Every line is checked before any post is created; each problem is reported with its line number and column. With --skip-invalid the valid posts are created and the others reported. --dry-run checks every line the same way and creates nothing (it sends the posts with "dry_run": true to POST /v1/posts/bulk). A file holds at most 500 posts.

Example file:
  account,platforms,content,at,first_comment,part
  Brand,mastodon bluesky,"We launch today, finally",2026-11-21 09:00,Details: https://example.com/launch,
  ,,"How it works, in two lines",,,thread
  ,,Shorter for Bluesky,,,bluesky
  Brand,feed,"Two lines:
the second",tomorrow 9am,,`

  static override examples = [
    '<%= config.bin %> posts import november.csv --dry-run',
    '<%= config.bin %> posts import november.csv',
    '<%= config.bin %> posts import brand.json --json',
    '<%= config.bin %> posts import november.csv --skip-invalid',
  ]

  static override args = {
    file: Args.string({ description: 'The CSV or JSON file to import (- for standard input)', required: true }),
  }

  static override flags = {
    'dry-run': Flags.boolean({ description: 'Check every line and create nothing' }),
    'skip-invalid': Flags.boolean({ description: 'Create the valid posts and report the others (by default one invalid line means nothing is created)' }),
  }

  async run(): Promise<{ data: Post[] } | { valid: true; count: number }> {
    const { args, flags } = await this.parse(PostsImport)
    const skipInvalid = flags['skip-invalid']
    const { posts, errors } = readImportFile(readFileSync(args.file === '-' ? 0 : args.file))
    if (errors.length) throw invalidLines(args.file, errors)
    // Files are named relative to the import file (standard input: the current directory).
    const media = await checkImportMedia(posts, args.file === '-' ? '.' : dirname(args.file))
    const resolved = await this.requests(posts)
    resolved.errors.push(...media.errors)
    // Posts left out with --skip-invalid, and why: said on standard error, with their lines.
    const skipped: LineError[] = []
    const failing = (found: LineError[]) => (item: { post: ImportPost }) => found.some((e) => e.post === item.post)
    let items = resolved.items
    if (resolved.errors.length) {
      if (!skipInvalid) throw invalidLines(args.file, resolved.errors)
      skipped.push(...resolved.errors)
      items = items.filter((item) => !failing(resolved.errors)(item))
    }
    const client = await this.client()
    const send = (kept: typeof items) => {
      const body = { posts: kept.map((item) => item.request), ...(flags['dry-run'] ? { dry_run: true } : {}) }
      return this.waitFor(flags['dry-run'] ? 'Checking the posts' : 'Scheduling the posts', client.createPosts({ body }))
    }
    let answer
    try {
      if (items.length === 0) throw invalidLines(args.file, skipped)
      // Only once every line is known good: files are uploaded (a dry run uploads none).
      await attachImportMedia(
        items.map((item) => item.request),
        media.files,
        flags['dry-run'] ? 'check only' : { client: () => this.client(), progress: this.showsProgress() },
      )
      answer = await send(items)
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 422 && error.errors.some((e) => e.pointer.startsWith('#/posts/')))) throw error
      const lineErrors = lineErrorsOf(
        error.errors,
        items.map((item) => item.post),
      )
      // The daemon checks every post before it creates any: without the posts it refused, the
      // rest go again, once.
      if (skipInvalid) {
        skipped.push(...lineErrors)
        items = items.filter((item) => !failing(lineErrors)(item))
        if (items.length === 0) throw invalidLines(args.file, skipped)
        answer = await send(items)
      } else {
        // With --json the daemon's problem is the answer; a person gets it line by line.
        if (this.jsonEnabled()) throw error
        throw invalidLines(args.file, lineErrors)
      }
    }
    if (skipped.length) {
      const count = new Set(skipped.map((e) => e.post)).size
      process.stderr.write(`Skipped ${count} invalid post${count === 1 ? '' : 's'} of ${args.file} (--skip-invalid):\n${lineReport(skipped)}\n`)
    }
    if (!this.jsonEnabled()) {
      if ('valid' in answer) this.log(`All ${answer.count} posts of ${args.file}${skipped.length ? ' left' : ''} are valid; nothing was created (--dry-run).`)
      else {
        const first = answer.data.flatMap((p) => (p.status === 'draft' || p.scheduled_at === null ? [] : [p.scheduled_at])).sort()[0]
        const drafts = answer.data.filter((p) => p.status === 'draft').length
        const scheduled = answer.data.length - drafts
        const said = [scheduled ? `${scheduled} post${scheduled === 1 ? '' : 's'}${first ? ` (first due ${localTime(first)})` : ''}` : '', drafts ? `${drafts} draft${drafts === 1 ? '' : 's'}` : '']
        this.log(`Imported ${said.filter(Boolean).join(' and ')}.`)
      }
    }
    return answer
  }

  /** Each post's request with its account and times resolved, and every post's problems at once. */
  private async requests(posts: ImportPost[]): Promise<{ items: { post: ImportPost; request: PostCreate }[]; errors: LineError[] }> {
    const errors: LineError[] = []
    const accounts = new Map<string, Promise<string>>()
    const items: { post: ImportPost; request: PostCreate }[] = []
    for (const post of posts) {
      const { request } = post
      const problem = (pointer: string) => (error: unknown) => {
        if (!(error instanceof CommandError)) throw error
        const place = post.place(pointer)
        errors.push({ ...place, detail: error.message.replace(/^[^:]*: /, ''), post })
        return undefined
      }
      const account = request.account_id
      if (typeof account === 'string' && !accounts.has(account)) accounts.set(account, this.accountId('account', account))
      const accountId =
        account === '' ? problem('account_id')(usageError('required', 'account: is empty; give an account id or name')) : typeof account === 'string' ? await accounts.get(account)!.catch(problem('account_id')) : account
      const at = typeof request.scheduled_at === 'string' ? await this.instant('at', request.scheduled_at).catch(problem('scheduled_at')) : request.scheduled_at
      const until = typeof request.repeat?.until === 'string' ? await this.untilInstant('until', request.repeat.until).catch(problem('repeat/until')) : undefined
      items.push({
        post,
        request: {
          ...request,
          account_id: accountId ?? '',
          ...(at !== undefined ? { scheduled_at: at } : {}),
          ...(request.repeat ? { repeat: { ...request.repeat, ...(until !== undefined ? { until } : {}) } } : {}),
        },
      })
    }
    return { items, errors }
  }
}

/** An import file's posts: JSON when its first character is [, else CSV; UTF-8 either way. */
function readImportFile(bytes: Uint8Array): ImportFile {
  try {
    const text = csvText(bytes)
    return text.replace(/^\uFEFF/, '').trimStart().startsWith('[') ? readImportJson(text) : readImportCsv(text)
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { posts: [], errors: [{ line: error.line, column: undefined, detail: error.message.replace(/^line \d+: /, '') }] }
    throw error
  }
}

function invalidLines(file: string, errors: LineError[]): CommandError {
  const count = new Set(errors.map((e) => e.line)).size
  return usageError('invalid_csv', `${count} line${count === 1 ? '' : 's'} of ${file} ${count === 1 ? 'is' : 'are'} invalid; nothing was created:\n${lineReport(errors)}`)
}
