import { PostCreate, type Post, type PostMedia } from '../api/posts.js'
import type { FieldError } from '../errors.js'

/** Where a field of an imported post is in its file: a line and, said the file's way, a column. */
export interface Place {
  line: number
  column: string | undefined
}

/**
 * A post read from an import file (CSV or JSON): the request POST /v1/posts takes, but with
 * `account_id`, `scheduled_at` and `repeat.until` as the file has them (an account name, a time
 * as --at takes it), for the command to resolve, and where each of its fields is in the file.
 */
export interface ImportPost {
  /** The line the post starts on. */
  line: number
  request: PostCreate
  /** Where the field at a JSON pointer below the post (`thread/1/content`, `repeat/until`) is in the file. */
  place(pointer: string): Place
}

/** A problem with one line (or the header) of an import file, said the way a person finds it in the file. */
export interface LineError extends Place {
  detail: string
  /** The post it is a problem of (none for the file's header or syntax). */
  post?: ImportPost
}

/** What an import file holds: its posts, or every problem of its lines (none is created then). */
export interface ImportFile {
  posts: ImportPost[]
  errors: LineError[]
}

/** The daemon's field errors (`#/posts/<i>/<field>…`) as problems of the lines the posts came from. */
export function lineErrorsOf(errors: FieldError[], posts: ImportPost[]): LineError[] {
  return errors.map((error) => {
    const [, index, rest = ''] = /^#\/posts\/(\d+)(?:\/(.*))?$/.exec(error.pointer) ?? []
    const post = index === undefined ? undefined : posts[Number(index)]
    return { ...(post ? post.place(rest) : { line: 1, column: undefined }), detail: error.detail, post }
  })
}

/** A report of line errors, one per line of text, in file order. */
export function lineReport(errors: LineError[]): string {
  return [...errors]
    .sort((a, b) => a.line - b.line)
    .map((e) => `  line ${e.line}${e.column ? `, ${e.column}` : ''}: ${e.detail}`)
    .join('\n')
}

/** Whether a field of a post says something a request must carry: not null, [] or {}. */
const said = (value: unknown) => value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0) && !(typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0)

/**
 * The request that makes a post again: what `posts export` writes (as JSON exactly; as CSV
 * lines). Every field POST /v1/posts takes that the post has is carried as it is, so a field the
 * API gains is exported without a change here (and CSV, which has no column for it, refuses the
 * post: csvOf). A draft is `draft: true`; a series is exported from this occurrence on: its
 * `repeat` counts the occurrences still to come, this one included, and an occurrence that is
 * the last is a post of its own.
 */
export function requestOf(post: Post): PostCreate {
  const request: Record<string, unknown> = {}
  for (const field of Object.keys(PostCreate.entries)) {
    const value = (post as Record<string, unknown>)[field]
    if (field !== 'repeat' && said(value)) request[field] = value
  }
  // Uploaded media as a request names them: by id, with the alt text they go out with.
  const refs = (media: PostMedia[] | undefined) => media?.map((m) => ({ id: m.id, ...(m.alt_text !== null ? { alt_text: m.alt_text } : {}) }))
  if (post.media.length) request.media = refs(post.media)
  if (request.thread) request.thread = post.thread.map(({ media, ...part }) => ({ ...part, ...(media?.length ? { media: refs(media) } : {}) }))
  if (post.status === 'draft') request.draft = true
  const left = post.repeat?.count == null ? undefined : post.repeat.count - (post.occurrence ?? 1) + 1
  if (post.repeat && (post.repeat.until !== null || (left !== undefined && left >= 2))) {
    request.repeat = { interval: post.repeat.interval, ...(left !== undefined && left >= 2 ? { count: left } : {}), ...(post.repeat.until !== null ? { until: post.repeat.until } : {}) }
  }
  return request as PostCreate
}

/** The line each element of a top-level JSON array starts on, in order. */
function elementLines(text: string): number[] {
  const lines: number[] = []
  let line = 1
  let depth = 0
  let inString = false
  let expectValue = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '\n') line++
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
      continue
    }
    if (depth === 1 && expectValue && !/[\s,\]]/.test(c)) {
      lines.push(line)
      expectValue = false
    }
    if (c === '"') inString = true
    else if (c === '[' || c === '{') {
      depth++
      if (depth === 1) expectValue = true
    } else if (c === ']' || c === '}') depth--
    else if (c === ',' && depth === 1) expectValue = true
  }
  return lines
}

/**
 * The posts of a JSON import file: an array of what POST /v1/posts takes (what `posts export
 * --format json` writes), where `account_id` may also be an account's name and `scheduled_at`
 * and `repeat.until` any time --at takes. The daemon checks every field; a problem is said at
 * the line its post starts on, with the field's path.
 */
export function readImportJson(text: string): ImportFile {
  let parsed: unknown
  try {
    parsed = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text)
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error
    return { posts: [], errors: [{ line: 1, column: undefined, detail: `is not JSON: ${error.message}` }] }
  }
  if (!Array.isArray(parsed)) return { posts: [], errors: [{ line: 1, column: undefined, detail: 'must be a JSON array of posts, each what POST /v1/posts takes' }] }
  if (parsed.length === 0) return { posts: [], errors: [{ line: 1, column: undefined, detail: 'holds no post' }] }
  const lines = elementLines(text)
  const errors: LineError[] = []
  const posts = parsed.flatMap((element: unknown, index): ImportPost[] => {
    const line = lines[index] ?? 1
    // thread/1/content is said as a path in the file: thread[1].content (post 2).
    const path = (pointer: string) => pointer.split('/').reduce((said, key) => (/^\d+$/.test(key) ? `${said}[${key}]` : said ? `${said}.${key}` : key), '')
    const place = (pointer: string): Place => ({ line, column: pointer === '' ? `post ${index + 1}` : `${path(pointer)} (post ${index + 1})` })
    if (typeof element !== 'object' || element === null || Array.isArray(element)) {
      errors.push({ ...place(''), detail: 'must be an object, what POST /v1/posts takes' })
      return []
    }
    const request = element as PostCreate
    for (const [field, value] of [
      ['account_id', request.account_id],
      ['scheduled_at', request.scheduled_at],
      ['repeat/until', request.repeat?.until],
    ] as const) {
      if (value !== undefined && typeof value !== 'string') errors.push({ ...place(field), detail: 'must be a string' })
    }
    return [{ line, request, place }]
  })
  return { posts, errors }
}

