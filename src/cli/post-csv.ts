// The posts CSV that `posts export` writes and `posts import` reads. A post is a line of its own;
// the lines under it, named in the `part` column, hold what a flat row cannot: each part of its
// thread (`thread`), each platform's own version (`mastodon`), and the thread of that version
// (`mastodon thread`).
import { PLATFORM_NAMES, type PlatformName } from '../api/common.js'
import type { MediaRef, PlatformOverride, PostCreate, ThreadPart } from '../api/posts.js'
import { formatCsv, parseCsv } from './csv.js'
import type { ImportFile, ImportPost, LineError, Place } from './post-import.js'
import { parseIntervalInput, TimeInputError } from './time-input.js'

/** The columns, in the order export writes them: the post's own settings, then what each line says. */
export const CSV_COLUMNS = ['account', 'platforms', 'at', 'draft', 'every', 'count', 'until', 'part', 'content', 'media_urls', 'first_comment', 'without'] as const
type Column = (typeof CSV_COLUMNS)[number]
/** Without these, a file is not a posts CSV (the columns of its first version). */
const REQUIRED: Column[] = ['account', 'platforms', 'content', 'at']
/** Columns that belong to a post's own line: a part line leaves them empty. */
const POST_ONLY: Column[] = ['account', 'platforms', 'at', 'draft', 'every', 'count', 'until']
/** What a platform's version may go without (its `without` cell): the override's [] or null. */
const DROPPABLE = ['first_comment', 'thread', 'media_urls'] as const
const isDroppable = (name: string): name is (typeof DROPPABLE)[number] => (DROPPABLE as readonly string[]).includes(name)

const words = (text: string) => text.split(/\s+/).filter(Boolean)
const isPlatform = (name: string): name is PlatformName => (PLATFORM_NAMES as readonly string[]).includes(name)

/** Where a post's lines are: its own, its thread parts', and each platform version's. */
interface PostLines {
  post: number
  thread: number[]
  versions: Map<PlatformName, { line: number | undefined; thread: number[] }>
}

/** The CSV column a field of the request is in. */
const COLUMN_OF: Record<string, Column> = { account_id: 'account', scheduled_at: 'at', repeat: 'every', interval: 'every', count: 'count', until: 'until' }

function placer(lines: PostLines): (pointer: string) => Place {
  return (pointer) => {
    const [field = '', ...rest] = pointer.split('/')
    const column = (name: string | undefined) => (name ? (COLUMN_OF[name] ?? name) : undefined)
    if (field === 'thread' && rest[0] !== undefined) return { line: lines.thread[Number(rest[0])] ?? lines.post, column: column(rest[1] ?? 'content') }
    if (field === 'repeat') return { line: lines.post, column: column(rest[0] ?? 'repeat') }
    if (field === 'overrides' && rest[0] !== undefined) {
      const version = lines.versions.get(rest[0] as PlatformName)
      const [inner, index, leaf] = rest.slice(1)
      if (inner === 'thread' && index !== undefined) return { line: version?.thread[Number(index)] ?? version?.line ?? lines.post, column: column(leaf ?? 'content') }
      return { line: version?.line ?? version?.thread[0] ?? lines.post, column: column(inner) ?? 'part' }
    }
    return { line: lines.post, column: column(field) }
  }
}

/**
 * The posts of a CSV import file, or every problem of its header and lines. The first line names
 * the columns (CSV_COLUMNS, in any order; account, platforms, content and at are required). Text
 * that is not CSV at all throws parseCsv's CsvSyntaxError.
 */
export function readImportCsv(text: string): ImportFile {
  const [header, ...lines] = parseCsv(text)
  if (!header) return { posts: [], errors: [{ line: 1, column: undefined, detail: `the file is empty; its first line names the columns: ${CSV_COLUMNS.join(',')}` }] }
  const names = header.fields.map((name) => name.trim().toLowerCase())
  const errors: LineError[] = []
  names.forEach((name, index) => {
    if (!(CSV_COLUMNS as readonly string[]).includes(name)) errors.push({ line: header.line, column: name, detail: `is not a column smm imports (${CSV_COLUMNS.join(', ')})` })
    else if (names.indexOf(name) !== index) errors.push({ line: header.line, column: name, detail: 'is named more than once in the header line' })
  })
  for (const name of REQUIRED) if (!names.includes(name)) errors.push({ line: header.line, column: name, detail: 'is missing from the header line' })
  if (errors.length) return { posts: [], errors }
  if (lines.length === 0) return { posts: [], errors: [{ line: header.line, column: undefined, detail: 'there is no post after the header line' }] }

  const posts: (ImportPost & { lines: PostLines })[] = []
  for (const { line, fields } of lines) {
    const problem = (column: Column | undefined, detail: string) => errors.push({ line, column, detail })
    if (fields.length !== names.length) problem(undefined, `has ${fields.length} fields; the header names ${names.length}`)
    const cell = (name: Column) => fields[names.indexOf(name)] ?? ''
    const part = words(cell('part').toLowerCase())
    if (part.length === 0) {
      posts.push(postLine(line, cell, problem))
      continue
    }
    partLine(posts.at(-1), line, part, cell, problem)
  }
  return { posts: posts.map(({ line, request, place }) => ({ line, request, place })), errors }
}

/** A line that adds to the post above it (its `part` names what), into that post's request. */
function partLine(post: (ImportPost & { lines: PostLines }) | undefined, line: number, part: string[], cell: (name: Column) => string, problem: (column: Column, detail: string) => void): void {
  const media = words(cell('media_urls'))
  const comment = cell('first_comment').trim() === '' ? undefined : cell('first_comment')
  const platform = part[0] !== 'thread' && isPlatform(part[0]!) ? part[0] : undefined
  const kind = part.length === 1 && part[0] === 'thread' ? 'thread' : part.length === 1 && platform ? 'version' : part.length === 2 && platform && part[1] === 'thread' ? 'version thread' : undefined
  if (!kind) {
    problem('part', `"${cell('part')}" is not a part: leave it empty for a post, or write thread, a platform (${PLATFORM_NAMES.join(', ')}) or PLATFORM thread`)
    return
  }
  if (!post) {
    problem('part', `a ${kind === 'thread' ? 'thread part' : `version for ${platform}`} without its post: it belongs under the line of the post it is part of`)
    return
  }
  for (const name of POST_ONLY) if (cell(name).trim() !== '') problem(name, `belongs on the post's own line (line ${post.line}); a ${cell('part').trim()} line leaves it empty`)
  const without = words(cell('without').toLowerCase())
  if (kind !== 'version' && without.length) problem('without', `is for a platform's version line; a ${cell('part').trim()} line leaves it empty`)
  if (kind !== 'version' && comment !== undefined) problem('first_comment', `a thread part has no first comment of its own: put it on the line of the post${kind === 'version thread' ? ` or of its ${platform} version` : ''}`)
  const threadPart: ThreadPart = { ...(cell('content') !== '' ? { content: cell('content') } : {}), ...(media.length ? { media_urls: media } : {}) }
  // Only a thread line names no platform.
  if (kind === 'thread' || platform === undefined) {
    post.request.thread = [...(post.request.thread ?? []), threadPart]
    post.lines.thread.push(line)
    return
  }
  const overrides = (post.request.overrides ??= {})
  const override: PlatformOverride = (overrides[platform] ??= {})
  const lines = post.lines.versions.get(platform) ?? { line: undefined, thread: [] }
  post.lines.versions.set(platform, lines)
  if (kind === 'version thread') {
    if (override.thread?.length === 0 && lines.thread.length === 0) problem('part', `the ${platform} version of the post on line ${post.line} goes without a thread (its line's without): it cannot have thread parts too`)
    override.thread = [...(override.thread ?? []), threadPart]
    lines.thread.push(line)
    return
  }
  if (lines.line !== undefined) {
    problem('part', `the post on line ${post.line} already has its ${platform} version on line ${lines.line}; give each platform one line`)
    return
  }
  lines.line = line
  if (cell('content') !== '') override.content = cell('content')
  if (media.length) override.media_urls = media
  if (comment !== undefined) override.first_comment = comment
  for (const dropped of without) {
    if (!isDroppable(dropped)) problem('without', `"${dropped}" is not something a version can go without (${DROPPABLE.join(', ')})`)
    else if (dropped === 'thread' && override.thread?.length) problem('without', `the ${platform} version has thread parts (line ${lines.thread[0]}): it cannot go without a thread too`)
    else if (dropped !== 'thread' && override[dropped] !== undefined) problem('without', `the ${platform} version has its own ${dropped} on this line: it cannot go without one too`)
    else if (dropped === 'first_comment') override.first_comment = null
    else override[dropped] = []
  }
}

/** A post's own line: the request as far as the file says it (account and times still as typed). */
function postLine(line: number, cell: (name: Column) => string, problem: (column: Column, detail: string) => void): ImportPost & { lines: PostLines } {
  const media = words(cell('media_urls'))
  const comment = cell('first_comment')
  if (cell('without').trim() !== '') problem('without', "is for a platform's version line; a post's own line leaves it empty")
  const draft = cell('draft').trim().toLowerCase()
  if (!['', 'true', 'false', 'yes', 'no'].includes(draft)) problem('draft', `"${cell('draft')}" is not true or false (empty: false)`)
  let interval: string | undefined
  if (cell('every').trim() !== '') {
    try {
      interval = parseIntervalInput(cell('every'))
    } catch (error) {
      if (!(error instanceof TimeInputError)) throw error
      problem('every', error.message)
    }
  }
  const count = cell('count').trim()
  if (count !== '' && !/^\d+$/.test(count)) problem('count', `"${count}" is not a whole number`)
  for (const name of ['count', 'until'] as const) if (cell(name).trim() !== '' && cell('every').trim() === '') problem(name, 'is for a post that repeats: give every too (1w, P1W, …)')
  const until = cell('until').trim()
  const lines: PostLines = { post: line, thread: [], versions: new Map() }
  return {
    line,
    lines,
    place: placer(lines),
    request: {
      account_id: cell('account').trim(),
      platforms: words(cell('platforms')) as PlatformName[],
      content: cell('content'),
      ...(media.length ? { media_urls: media } : {}),
      ...(cell('at').trim() !== '' ? { scheduled_at: cell('at').trim() } : {}),
      ...(draft === 'true' || draft === 'yes' ? { draft: true } : {}),
      ...(interval ? { repeat: { interval, ...(/^\d+$/.test(count) ? { count: Number(count) } : {}), ...(until !== '' ? { until } : {}) } } : {}),
      ...(comment.trim() !== '' ? { first_comment: comment } : {}),
    },
  }
}

/** The fields of a request the CSV's columns and part lines hold. */
const HELD = new Set(['account_id', 'platforms', 'content', 'media_urls', 'media', 'scheduled_at', 'draft', 'repeat', 'thread', 'first_comment', 'overrides'])

/**
 * Posts as the lines of the CSV, header first, or why CSV cannot hold one of them exactly (then
 * `posts export --format json` can): a field it has no column for, a platform's version with an
 * empty text (the CSV's empty cell means "the post's text"), or a media URL with a space in it
 * (URLs are separated by spaces).
 */
export function csvOf(requests: { id: string; request: PostCreate }[]): { csv: string } | { cannot: string } {
  const records: string[][] = [[...CSV_COLUMNS]]
  const record = (cells: Partial<Record<Column, string>>) => records.push(CSV_COLUMNS.map((name) => cells[name] ?? ''))
  // Uploaded media go in the media_urls cell by id, after the URLs, as import reads them.
  const mediaCell = (holder: { media_urls?: string[]; media?: MediaRef[] }) => [...(holder.media_urls ?? []), ...(holder.media ?? []).map((m) => m.id)].join(' ')
  const partCells = (part: ThreadPart) => ({ content: part.content ?? '', media_urls: mediaCell(part) })
  for (const { id, request } of requests) {
    const unheld = Object.keys(request).find((field) => !HELD.has(field))
    if (unheld) return { cannot: `post ${id} has ${unheld}, which has no column` }
    const urls = [...(request.media_urls ?? []), ...(request.thread ?? []).flatMap((part) => part.media_urls ?? [])]
    for (const [name, override] of Object.entries(request.overrides ?? {})) {
      if (override?.content === '') return { cannot: `post ${id} has no text on ${name} (its ${name} version's content is ""), and an empty content cell means the post's own text` }
      urls.push(...(override?.media_urls ?? []), ...(override?.thread ?? []).flatMap((part) => part.media_urls ?? []))
    }
    const described = [request, ...(request.thread ?? []), ...Object.values(request.overrides ?? {}).flatMap((o) => (o ? [o, ...(o.thread ?? [])] : []))].some((holder) => holder.media?.some((m) => m.alt_text != null))
    if (described) return { cannot: `post ${id} gives its uploaded media alt text, and no column holds alt text` }
    const spaced = urls.find((url) => /\s/.test(url))
    if (spaced) return { cannot: `post ${id} has a media URL with a space in it ("${spaced}"), and the media_urls cell separates URLs by spaces` }
    record({
      account: request.account_id,
      platforms: request.platforms.join(' '),
      at: request.scheduled_at ?? '',
      draft: request.draft ? 'true' : '',
      every: request.repeat?.interval ?? '',
      count: request.repeat?.count === undefined ? '' : String(request.repeat.count),
      until: request.repeat?.until ?? '',
      content: request.content ?? '',
      media_urls: mediaCell(request),
      first_comment: request.first_comment ?? '',
    })
    for (const part of request.thread ?? []) record({ part: 'thread', ...partCells(part) })
    for (const [name, override] of Object.entries(request.overrides ?? {}) as [PlatformName, PlatformOverride][]) {
      const without = DROPPABLE.filter((field) => (field === 'first_comment' ? override.first_comment === null : field === 'media_urls' ? override.media_urls?.length === 0 && !override.media?.length : override[field]?.length === 0))
      record({ part: name, content: override.content ?? '', media_urls: mediaCell(override), first_comment: override.first_comment ?? '', without: without.join(' ') })
      for (const part of override.thread ?? []) record({ part: `${name} thread`, ...partCells(part) })
    }
  }
  return { csv: formatCsv(records) }
}
