import type { Post } from '../api/posts.js'
import type { FieldError } from '../errors.js'
import { CsvSyntaxError, csvText, parseCsv } from './csv.js'

/** The columns `smm posts import` reads: the first four are required. */
export const IMPORT_COLUMNS = ['account', 'platforms', 'content', 'at', 'media_urls', 'first_comment'] as const
const REQUIRED = IMPORT_COLUMNS.slice(0, 4)

/** One line of the CSV, as written (times and account names are resolved later). */
export interface ImportRow {
  line: number
  account: string
  platforms: string[]
  content: string
  at: string
  mediaUrls: string[]
  /** Empty in the file: none. */
  firstComment: string | undefined
}

/** A problem with one line (or the header) of the CSV, said the way a person finds it in the file. */
export interface LineError {
  line: number
  column: string | undefined
  detail: string
}

const words = (text: string) => text.split(/\s+/).filter(Boolean)

/** The rows of an import CSV (its bytes, or its text), or every problem of its header and lines (none is created then). */
export function readImportCsv(file: Uint8Array | string): { rows: ImportRow[]; errors: LineError[] } {
  let records
  try {
    records = parseCsv(typeof file === 'string' ? file : csvText(file))
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { rows: [], errors: [{ line: error.line, column: undefined, detail: error.message.replace(/^line \d+: /, '') }] }
    throw error
  }
  const [header, ...lines] = records
  if (!header) return { rows: [], errors: [{ line: 1, column: undefined, detail: `the file is empty; its first line names the columns: ${IMPORT_COLUMNS.join(',')}` }] }
  const names = header.fields.map((name) => name.trim().toLowerCase())
  const errors: LineError[] = []
  names.forEach((name, i) => {
    if (!(IMPORT_COLUMNS as readonly string[]).includes(name)) errors.push({ line: header.line, column: name, detail: `is not a column smm imports (${IMPORT_COLUMNS.join(', ')})` })
    // Two columns of one name: which one holds the value is a guess, never made.
    else if (names.indexOf(name) === i && names.lastIndexOf(name) !== i) errors.push({ line: header.line, column: name, detail: 'is named more than once in the header line' })
  })
  for (const name of REQUIRED) if (!names.includes(name)) errors.push({ line: header.line, column: name, detail: 'is missing from the header line' })
  if (errors.length) return { rows: [], errors }
  if (lines.length === 0) return { rows: [], errors: [{ line: header.line, column: undefined, detail: 'there is no post after the header line' }] }
  const rows = lines.map(({ line, fields }): ImportRow => {
    if (fields.length !== names.length) errors.push({ line, column: undefined, detail: `has ${fields.length} fields; the header names ${names.length}` })
    const cell = (name: string) => fields[names.indexOf(name)] ?? ''
    const firstComment = cell('first_comment')
    return {
      line,
      account: cell('account').trim(),
      platforms: words(cell('platforms')),
      content: cell('content'),
      at: cell('at').trim(),
      mediaUrls: words(cell('media_urls')),
      firstComment: firstComment.trim() === '' ? undefined : firstComment,
    }
  })
  return { rows, errors }
}

/** The CSV column a field of a post request comes from. */
const COLUMN_OF: Record<string, string> = { account_id: 'account', scheduled_at: 'at' }

/** The daemon's field errors (`#/posts/<i>/<field>…`) as problems of the lines the posts came from. */
export function lineErrorsOf(errors: FieldError[], rows: ImportRow[]): LineError[] {
  return errors.map((error) => {
    const [, index, field] = /^#\/posts\/(\d+)(?:\/([^/]+))?/.exec(error.pointer) ?? []
    const row = index === undefined ? undefined : rows[Number(index)]
    const column = field === undefined ? undefined : (COLUMN_OF[field] ?? field)
    return { line: row?.line ?? 1, column, detail: error.detail }
  })
}

/** A report of line errors, one per line of text, in file order. */
export function lineReport(errors: LineError[]): string {
  return [...errors]
    .sort((a, b) => a.line - b.line)
    .map((e) => `  line ${e.line}${e.column ? `, ${e.column}` : ''}: ${e.detail}`)
    .join('\n')
}

/** A post as one row of the columns `posts import` reads (`IMPORT_COLUMNS`): what `posts export` writes. */
export function importRowOf(post: Post): Record<(typeof IMPORT_COLUMNS)[number], string> {
  return {
    account: post.account_id,
    platforms: post.platforms.join(' '),
    content: post.content,
    at: post.scheduled_at ?? '',
    media_urls: post.media_urls.join(' '),
    first_comment: post.first_comment ?? '',
  }
}
