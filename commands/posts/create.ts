import { Flags } from '@oclif/core'
import type { Account } from '../../src/api/accounts.js'
import type { PlatformName } from '../../src/api/common.js'
import type { Post, PostValidation } from '../../src/api/posts.js'
import type { SmmClient } from '../../src/client/smm-client.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { usageError } from '../../src/cli/command-error.js'
import { readContent } from '../../src/cli/content-input.js'
import { account, alt, every, repeatable, duration, media, platform, platformText, time } from '../../src/cli/flags.js'
import { mediaArg, mediaWithAlt, postMedia } from '../../src/cli/media-input.js'
import { localTime } from '../../src/cli/output.js'
import { listWords, seriesWords } from '../../src/cli/post-output.js'
import { formatNumber } from '../../src/numbers.js'
import { describeInterval } from '../../src/recurrence.js'

export default class PostsCreate extends ApiCommand {
  static override description = `Schedule a post on one or more platforms of an account, publish it now, or keep it as a draft.

The text comes from --text, from --file, or from standard input when it is piped in. --at takes RFC 3339, a local date-time ("2026-11-21 09:00") or a phrase ("tomorrow 9am"), in your local time zone unless the time names one; --in takes a delay (2h, 1h30m). With neither, the post is published now; with --queue, at the account's next free queue slot (see \`accounts queue\`).

With --draft the post is kept as a draft: checked as any post, published never, until \`posts schedule\`; --at or --in then give its planned time, which may be left out.

Without --account, your only account is used; without --platform, that account's only connected platform. The daemon checks the text and media against each platform's rules and names every problem.

With --every the post repeats: it is the first occurrence of a series, and each time one is published (or fails), the next is scheduled as a new post. --every takes 1h, 12h, 2d, 1w, 1mo (a month; 1m is refused: minutes or months?), 1y, or an ISO 8601 duration (P1W). Days, weeks, months and years keep the wall-clock time in your time zone across DST; a month keeps the day of the month (the 31st falls on the 30th or 28th in shorter months). The series must end: --count N (every occurrence, the first included) or --until TIME (read as --at; a bare date includes that day), at most a year after the first.

--media attaches a file from this disk (uploaded first, as \`media upload\` does, with a progress bar on a terminal for large ones), a media uploaded before (med_…) or an https:// URL of media hosted elsewhere; give it once per item. --alt right after a --media gives its alt text (a file's becomes the media's own; an uploaded media's is this post's). Links come before uploaded media in the post.

--first-comment is published right after the post, as a reply to it (Mastodon, Bluesky, X, Threads, Telegram) or a comment on it (Facebook, Instagram, LinkedIn); the feed, Discord and Slack have neither and refuse it. Each --thread is one more part after the post, in order: a chain of replies where the platform has replies, consecutive posts elsewhere. --text-for PLATFORM=TEXT gives one platform its own text; it is checked against that platform's rules.

With --dry-run the daemon runs the very same checks and creates nothing: it says when the post would go out and how long the text is on each platform against its limit, or names the same problems.`

  static override examples = [
    '<%= config.bin %> posts create --account acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A --platform mastodon --platform bluesky --text "We launch today" --at "tomorrow 9am"',
    '<%= config.bin %> posts create --platform feed --text "Back in 2 hours" --in 2h',
    '<%= config.bin %> posts create --platform telegram --file notes.md --media https://example.com/launch.png --at "2026-11-21 09:00"',
    '<%= config.bin %> posts create --platform mastodon --text "Our new office" --media ./office.jpg --alt "A bright room with six desks" --media ./team.png --alt "The team on the stairs"',
    'echo "Shipped" | <%= config.bin %> posts create --platform feed --json',
    '<%= config.bin %> posts create --platform feed --platform x --file launch.txt --at "tomorrow 9am" --dry-run',
    '<%= config.bin %> posts create --platform mastodon --text "Office hours are open" --at "monday 9am" --every 1w --until 2027-03-01',
    '<%= config.bin %> posts create --platform feed --file tip.md --at "2026-12-01 08:00" --every 1mo --count 12',
    '<%= config.bin %> posts create --account Brand --platform mastodon --text "Tip of the week" --queue',
    '<%= config.bin %> posts create --account Brand --platform bluesky --text "Half an idea" --draft',
    '<%= config.bin %> posts create --platform x --platform bluesky --text "1/3 Why we built smm" --thread "2/3 Scheduling from the terminal" --thread "3/3 Try it today" --at "tomorrow 9am"',
    '<%= config.bin %> posts create --platform mastodon --platform linkedin --text "We are hiring" --first-comment "Apply here: https://example.com/jobs"',
    '<%= config.bin %> posts create --platform x --platform linkedin --text "A longer announcement for LinkedIn…" --text-for x="The short version"',
  ]

  static override flags = {
    account: account({ description: 'The account to post as: its id (acc_…) or name; default: your only account' }),
    platform: platform({ description: 'A platform to publish on (repeatable); default: the account’s only connected one', ...repeatable }),
    text: Flags.string({ description: 'The text of the post', exclusive: ['file'] }),
    file: Flags.string({ description: 'Read the text from this file (- for standard input)', helpValue: '<file>', exclusive: ['text'] }),
    media: media({ ...repeatable }),
    alt: alt({ ...repeatable }),
    at: time({ description: 'When to publish: RFC 3339, a local date-time or a phrase ("tomorrow 9am"); default: now', exclusive: ['in', 'queue'] }),
    in: duration({ description: 'Publish after this long: 2h, 45m, 1h30m, 3d', exclusive: ['at', 'queue'] }),
    queue: Flags.boolean({ description: 'Publish at the account’s next free queue slot (see `accounts queue`)', exclusive: ['at', 'in', 'draft', 'every'] }),
    draft: Flags.boolean({ description: 'Keep it as a draft, published only once `posts schedule` schedules it (--at/--in: its planned time)', exclusive: ['queue', 'every'] }),
    every: every({ description: 'Repeat the post: 1h, 2d, 1w, 1mo, 1y or an ISO 8601 duration (P1W); needs --count or --until', exclusive: ['queue', 'draft'] }),
    count: Flags.integer({ description: 'With --every: how many occurrences in all, the first included (at least 2)', dependsOn: ['every'], helpValue: '<n>' }),
    until: time({ description: 'With --every: no occurrence after this time (as --at; a bare date includes that day)', dependsOn: ['every'] }),
    'first-comment': Flags.string({ description: 'Publish this right after the post, as a reply or a comment (platforms without either refuse it)', helpValue: '<text>' }),
    thread: Flags.string({ description: 'One more part after the post (repeatable, in order): replies where the platform chains them, consecutive posts elsewhere', helpValue: '<text>', ...repeatable }),
    'text-for': platformText({ description: 'This platform gets this text instead of the post’s own (repeatable): --text-for bluesky="Shorter"', ...repeatable }),
    'dry-run': Flags.boolean({ description: 'Check the post as the daemon would, and create nothing: each platform’s length and limit, or every problem' }),
  }

  async run(): Promise<Post | PostValidation> {
    const { flags, raw } = await this.parse(PostsCreate)
    const mediaValues = flags.media ?? []
    const content = await readContent({
      text: flags.text,
      file: flags.file,
      stdinWhenPiped: true,
      missing: mediaValues.length
        ? undefined
        : `No text: give --text "…", --file FILE, or pipe it in (echo "…" | ${this.config.bin} posts create …${this.profileFlag()}).`,
    })
    const client = await this.client()
    const scheduledAt = await this.scheduledTime(flags.at, flags.in)
    const { accountId, platforms } = await this.target(client, flags.account && (await this.accountId('--account', flags.account)), flags.platform)
    const until = flags.until === undefined ? undefined : await this.untilInstant('--until', flags.until)
    const repeat = flags.every === undefined ? undefined : { interval: flags.every, ...(flags.count !== undefined ? { count: flags.count } : {}), ...(until ? { until } : {}) }
    const overrides: Record<string, { content: string }> = {}
    for (const { platform: name, text } of flags['text-for'] ?? []) {
      if (overrides[name]) throw usageError('duplicate_flag', `--text-for: ${name} is given twice; give each platform one text.`)
      overrides[name] = { content: text }
    }
    // A dry run uploads nothing: it checks the files here, and the post without them.
    const attached = await postMedia(mediaWithAlt(raw), flags['dry-run'] ? 'check only' : { client: () => this.client(), progress: this.showsProgress() })
    const body = {
      account_id: accountId,
      platforms,
      ...(content !== undefined ? { content } : {}),
      ...(attached.media_urls.length ? { media_urls: attached.media_urls } : {}),
      ...(attached.media.length ? { media: attached.media } : {}),
      ...(scheduledAt ? { scheduled_at: scheduledAt } : {}),
      ...(repeat ? { repeat } : {}),
      ...(flags.queue ? { queue: true } : {}),
      ...(flags.draft ? { draft: true } : {}),
      ...(flags.thread?.length ? { thread: flags.thread.map((part) => ({ content: part })) } : {}),
      ...(flags['first-comment'] !== undefined ? { first_comment: flags['first-comment'] } : {}),
      ...(Object.keys(overrides).length ? { overrides } : {}),
    }
    if (flags['dry-run']) {
      const checked = await this.waitFor('Checking the post', client.validatePost({ body }))
      if (!this.jsonEnabled()) {
        const more = (n: number) => (n ? `, then ${n} more part${n === 1 ? '' : 's'}` : '')
        const on = listWords(checked.targets.map((target) => `${target.platform} (${formatNumber(target.length)}/${formatNumber(target.limit)}${more(target.parts.length)})`))
        const when = flags.draft ? 'would be kept as a draft' : scheduledAt || flags.queue ? `would be scheduled for ${localTime(checked.scheduled_at)}` : 'would go out now'
        this.log(`Valid: ${when} on ${on}.`)
        // Not errors: what a platform would publish otherwise than given (alt text it has no place for).
        for (const target of checked.targets) for (const note of target.warnings) this.log(`Note: on ${target.platform}, ${note.pointer} ${note.detail}.`)
        const files = mediaValues.filter((value) => mediaArg(value).kind === 'file').length
        if (files) this.log(`${files === 1 ? 'The file is' : `The ${files} files are`} fine here; uploaded when the post is created, ${files === 1 ? 'it is' : 'they are'} checked against each platform's media rules then.`)
        if (repeat) this.log(`It would repeat ${describeInterval(repeat.interval)}${repeat.count === undefined ? '' : `, ${repeat.count} times`}${repeat.until ? `${repeat.count === undefined ? '' : ' or'} until ${localTime(repeat.until)}` : ''}.`)
      }
      return checked
    }
    const post = await this.waitFor(flags.draft ? 'Saving the draft' : 'Scheduling the post', client.createPost({ body }))
    if (!this.jsonEnabled()) {
      const on = listWords(post.platforms)
      if (flags.draft) {
        this.log(`Saved draft ${post.id} for ${on}${post.scheduled_at ? `, planned for ${localTime(post.scheduled_at)}` : ''}.`)
        this.log(`Schedule it with: ${this.config.bin} posts schedule ${post.id} --at …${this.profileFlag()} (or --queue)`)
        return post
      }
      this.log(scheduledAt || flags.queue ? `Scheduled post ${post.id} for ${localTime(post.scheduled_at)} on ${on}.` : `Post ${post.id} goes out now on ${on}.`)
      if (post.repeat) this.log(`It repeats ${seriesWords(post.repeat)}: series ${post.series_id}; see it with ${this.config.bin} posts list --series ${post.series_id}${this.profileFlag()}`)
      this.log(`Follow it with: ${this.config.bin} posts show ${post.id}${this.profileFlag()}`)
    }
    return post
  }

  /** The account and platforms to post to: as given, or the only ones there are. */
  private async target(client: SmmClient, accountId: string | undefined, platforms: PlatformName[] | undefined): Promise<{ accountId: string; platforms: PlatformName[] }> {
    if (accountId && platforms?.length) return { accountId, platforms }
    let account: Account
    if (accountId) account = await this.waitFor('Reading the account', client.getAccount({ params: { id: accountId } }))
    else {
      const { data } = await this.waitFor('Reading your accounts', client.listAccounts({ query: { limit: 100 } }))
      if (data.length === 0) throw usageError('no_account', `You have no account yet: create one with \`${this.config.bin} accounts create NAME${this.profileFlag()}\`, then connect a platform to it.`)
      if (data.length > 1) {
        throw usageError('account_required', `--account: you have several accounts; name one of: ${data.map((a) => `${a.id} (${a.name})`).join(', ')}.`)
      }
      account = data[0]!
    }
    if (platforms?.length) return { accountId: account.id, platforms }
    const active = account.connections.filter((c) => c.status === 'active').map((c) => c.platform)
    if (active.length === 1) return { accountId: account.id, platforms: active }
    if (active.length === 0) {
      throw usageError('platform_required', `Account ${account.id} (${account.name}) has no active platform: connect one with \`${this.config.bin} accounts connect ${account.id} --platform feed${this.profileFlag()}\`.`)
    }
    throw usageError('platform_required', `--platform: account ${account.id} is connected to ${listWords(active)}; name the ones to publish on.`)
  }
}
