import { isUtf8 } from 'node:buffer'

/**
 * A small RFC 4180 reader and writer: no CSV library is among smm's dependencies, and the format
 * is small enough that two functions hold it. Fields are separated by commas, records by CRLF or
 * LF; a field in double quotes may hold commas, line breaks and doubled quotes (`""` for `"`).
 *
 * Files are opened in spreadsheets, which run a cell that starts with `=`, `+`, `-`, `@`, a tab or
 * a carriage return as a formula (OWASP's CSV injection): formatCsv writes such a field with a
 * leading `'`, which spreadsheets show as text, and parseCsv takes that `'` off again, so the
 * texts come back exactly. A field that already starts with quotes before such a character gets
 * one more, so a text of its own like `'=x` comes back too.
 */

/** One record of a CSV file, with the line of the file it starts on (1 for the first). */
export interface CsvRecord {
  line: number
  fields: string[]
}

/** A CSV file that cannot be read: where, and why. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    detail: string,
  ) {
    super(`line ${line}: ${detail}`)
    this.name = 'CsvSyntaxError'
  }
}

/** A field a spreadsheet would run as a formula, after any quotes formatCsv put before it. */
const FORMULA = /^'*[=+\-@\t\r]/

/**
 * A CSV file's bytes as text, refusing any that are not UTF-8 (a file saved as Latin-1 or
 * Windows-1252, say) with the line of the first bad byte, instead of reading U+FFFD in their place.
 */
export function csvText(bytes: Uint8Array): string {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (isUtf8(data)) return data.toString('utf8')
  // A line break's byte is never inside a UTF-8 sequence, so each line can be judged alone.
  let line = 1
  for (let start = 0; start <= data.length; line++) {
    const end = data.indexOf(0x0a, start)
    const stop = end < 0 ? data.length : end
    if (!isUtf8(data.subarray(start, stop))) break
    start = stop + 1
  }
  throw new CsvSyntaxError(line, 'is not UTF-8 text; save the file as UTF-8 (CSV UTF-8 in spreadsheets) and import it again')
}

/** Every record of a CSV text; a blank line between records is skipped, not read as an empty record. */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = []
  let fields: string[] = []
  let field = ''
  let line = 1
  let start = 1
  let quoted = false
  // Whether the current field began with a quote (and so is closed by one), and whether the record has begun.
  let inQuotes = false
  let begun = false
  const endField = () => {
    fields.push(FORMULA.test(field) && field.startsWith("'") ? field.slice(1) : field)
    field = ''
    quoted = false
  }
  const endRecord = () => {
    endField()
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: start, fields })
    fields = []
    begun = false
  }
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (!begun) {
      begun = true
      start = line
    }
    if (inQuotes) {
      if (c === '"') {
        if (body[i + 1] === '"') {
          field += '"'
          i++
        } else inQuotes = false
      } else {
        if (c === '\n') line++
        field += c
      }
      continue
    }
    if (c === '"') {
      if (field !== '' || quoted) throw new CsvSyntaxError(line, 'a quote inside a field that does not start with one; quote the whole field and double the quote ("")')
      inQuotes = quoted = true
    } else if (c === ',') endField()
    else if (c === '\r' && body[i + 1] === '\n') {
      i++
      endRecord()
      line++
    } else if (c === '\n') {
      endRecord()
      line++
    } else {
      if (quoted) throw new CsvSyntaxError(line, 'text after a closing quote; a quote inside a quoted field is written twice ("")')
      field += c
    }
  }
  if (inQuotes) throw new CsvSyntaxError(start, 'a quoted field is never closed')
  if (begun) endRecord()
  return records
}

/**
 * Records as CSV text that `parseCsv` (and any RFC 4180 reader) reads back: a field with a comma,
 * a quote or a line break is quoted, its quotes doubled; records end with CRLF, as the RFC says.
 * A field a spreadsheet would run as a formula starts with `'`.
 */
export function formatCsv(records: readonly (readonly string[])[]): string {
  const field = (text: string) => {
    const value = FORMULA.test(text) ? `'${text}` : text
    return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
  }
  return records.map((record) => `${record.map(field).join(',')}\r\n`).join('')
}
