import type { Post, PostStatus, Repeat, Target, TargetStatus } from '../api/posts.js'
import { clipToWidth, printable } from '../display-width.js'
import { partsOf, versionFor } from '../post-parts.js'
import { describeInterval } from '../recurrence.js'
import { attachmentLines } from './media-output.js'
import { details, localTime, paint, table, type Column, type Detail, type Style } from './output.js'

const POST_STYLES: Record<PostStatus, Style> = {
  draft: 'dim',
  pending_approval: 'yellow',
  rejected: 'red',
  scheduled: 'cyan',
  publishing: 'yellow',
  published: 'green',
  partially_published: 'yellow',
  failed: 'red',
  cancelled: 'dim',
}

const TARGET_STYLES: Record<TargetStatus, Style | undefined> = {
  pending: undefined,
  publishing: 'yellow',
  published: 'green',
  failed: 'red',
  unconfirmed: 'yellow',
}

/** Text on one line of at most `max` terminal columns: newlines as ↵, the cut marked with …. */
export function oneLine(text: string, max: number): string {
  return clipToWidth(printable(text.replace(/\r?\n/g, ' ↵ ').replace(/\s+/g, ' ').trim()), max)
}

/** How many media a post or a part carries: linked and uploaded. */
const mediaCount = (p: { media_urls: readonly string[]; media?: readonly unknown[] }) => p.media_urls.length + (p.media?.length ?? 0)

/** Posts as an aligned table: what `posts list` prints. */
export function postTable(posts: readonly Post[]): string {
  const columns: Column<Post>[] = [
    { header: 'ID', value: (p) => p.id },
    // Which occurrence of its series each post is, when any of them is one.
    ...(posts.some((p) => p.occurrence !== null) ? [{ header: 'OCCURRENCE', value: (p: Post) => (p.occurrence === null ? '' : `#${p.occurrence}`) }] : []),
    { header: 'SCHEDULED', value: (p) => (p.scheduled_at === null ? '-' : localTime(p.scheduled_at)) },
    { header: 'STATUS', value: (p) => p.status, style: (p) => POST_STYLES[p.status] },
    { header: 'PLATFORMS', value: (p) => p.platforms.join(',') },
    { header: 'CONTENT', value: (p) => oneLine(p.content || (mediaCount(p) ? `(${mediaCount(p)} media)` : ''), 50) },
  ]
  return table(posts, columns)
}

function targetOutcome(target: Target): string {
  // A failed part's detail starts with which part it was ("Part 2 of 3 (a thread part): …").
  if (target.error) return `${target.error.code}: ${target.error.detail}`
  return target.url ?? ''
}

/** One post in full: its fields, its text, and how each platform fared. */
export function postDetails(post: Post): string {
  const pairs: Detail[] = [
    ['Post', post.id],
    ['Account', post.account_id],
    ['Status', post.status, POST_STYLES[post.status]],
    ['Scheduled', post.scheduled_at === null ? '- (a draft with no time yet)' : localTime(post.scheduled_at)],
    ['Platforms', post.platforms.join(', ')],
  ]
  if (post.repeat) pairs.push(['Series', `${post.series_id}, occurrence ${post.occurrence}${post.repeat.count === null ? '' : ` of ${post.repeat.count}`}: repeats ${seriesWords(post.repeat)}`])
  if (post.published_at) pairs.push(['Published', localTime(post.published_at)])
  if (post.cancelled_at) pairs.push(['Cancelled', localTime(post.cancelled_at)])
  pairs.push(['Updated', localTime(post.updated_at)])
  // How many parts each target publishes (its version: the post, a first comment, thread parts).
  const partCount = (t: Target) => partsOf(versionFor({ ...post, first_comment: post.first_comment ?? null, thread: post.thread ?? [], overrides: post.overrides ?? {} }, t.platform)).length
  const several = post.targets.some((t) => partCount(t) > 1)
  const targets = table(post.targets, [
    { header: 'PLATFORM', value: (t) => t.platform },
    { header: 'STATUS', value: (t) => t.status, style: (t) => TARGET_STYLES[t.status] },
    { header: 'ATTEMPTS', value: (t) => String(t.attempts) },
    ...(several ? [{ header: 'PARTS OUT', value: (t: Target) => `${(t.parts ?? []).length}/${partCount(t)}` }] : []),
    { header: 'PUBLISHED', value: (t) => localTime(t.published_at) },
    { header: 'URL OR ERROR', value: targetOutcome },
  ])
  const indent = (text: string) => printable(text, { lines: true }).replace(/^(?=.)/gm, '  ')
  const content = post.content ? indent(post.content) : paint('dim', '  (no text)')
  const sections = [details(pairs), content]
  const attachments = attachmentLines(post.media_urls, post.media)
  if (attachments.length) sections.push(`Media:\n${attachments.map((line, i) => `  ${i + 1}. ${line}`).join('\n')}`)
  if (post.first_comment) sections.push(`First comment:\n${indent(post.first_comment)}`)
  if (post.thread?.length) {
    const partLines = (part: (typeof post.thread)[number], i: number) => [
      `  ${i + 1}. ${oneLine(part.content || `(${mediaCount(part)} media)`, 70)}`,
      ...attachmentLines(part.media_urls, part.media).map((line) => `     ${paint('dim', 'media')} ${line}`),
    ]
    sections.push(`Thread:\n${post.thread.flatMap(partLines).join('\n')}`)
  }
  for (const [platform, override] of Object.entries(post.overrides ?? {})) {
    if (!override) continue
    const changed = Object.keys(override).map((field) => field.replace('_', ' ')).join(', ')
    sections.push(`Version for ${platform} (its own ${changed})${override.content !== undefined ? `:\n${indent(override.content)}` : ''}`)
  }
  sections.push(targets)
  // Each part out, where there are several: what a retry will not send again.
  const out = post.targets.filter((t) => partCount(t) > 1 && (t.parts ?? []).length > 0)
  if (out.length) {
    const rows = out.flatMap((t) => t.parts.map((part) => ({ platform: t.platform, ...part })))
    sections.push(
      table(rows, [
        { header: 'PLATFORM', value: (r) => r.platform },
        { header: 'PART', value: (r) => String(r.index) },
        { header: 'KIND', value: (r) => r.kind.replace('_', ' ') },
        { header: 'PUBLISHED', value: (r) => localTime(r.published_at) },
        { header: 'URL', value: (r) => r.url ?? r.platform_post_id ?? '' },
      ]),
    )
  }
  return sections.join('\n\n')
}

/** "feed, mastodon and bluesky" */
export function listWords(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** How a series repeats, in words: "every week until 2027-03-01 23:59 EST", "every day, 10 times". */
export function seriesWords(repeat: Repeat): string {
  const times = repeat.count === null ? '' : `, ${repeat.count} times`
  const until = repeat.until === null ? '' : `${times ? ' or' : ''} until ${localTime(repeat.until)}`
  return `${describeInterval(repeat.interval)}${times}${until}`
}
