import { describe, expect, it } from 'vitest'
import { CsvSyntaxError, csvText, formatCsv, parseCsv } from '../src/cli/csv.js'

describe('parseCsv', () => {
  it('reads plain and quoted fields, doubled quotes, CRLF and line breaks inside quotes, with the line each record starts on', () => {
    const text = 'a,b,c\r\n1,"two, with a comma","say ""hi"""\r\n"multi\nline",,x\n\nlast,"",\n'
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', 'two, with a comma', 'say "hi"'] },
      { line: 3, fields: ['multi\nline', '', 'x'] },
      { line: 6, fields: ['last', '', ''] },
    ])
  })

  it('reads a last record without a line break, and skips a byte order mark', () => {
    expect(parseCsv('\uFEFFx,y\n1,2')).toEqual([
      { line: 1, fields: ['x', 'y'] },
      { line: 2, fields: ['1', '2'] },
    ])
  })

  it('refuses a quote that is never closed, or stray text around quotes, naming the line', () => {
    expect(() => parseCsv('a\n"open\nstill open')).toThrow(new CsvSyntaxError(2, 'a quoted field is never closed'))
    expect(() => parseCsv('a\nab"c')).toThrow(/^line 2: a quote inside a field/)
    expect(() => parseCsv('a\n"ab"c')).toThrow(/^line 2: text after a closing quote/)
  })

  it('reads UTF-8 bytes as text, and names the line of the first byte that is not UTF-8', () => {
    expect(csvText(Buffer.from('a,b\n1,ü😀\n'))).toBe('a,b\n1,ü😀\n')
    const bad = (bytes: number[]) => Buffer.concat([Buffer.from('a,b\r\n"x\ny",1\n'), Buffer.from(bytes), Buffer.from('\n')])
    // Lone continuation, overlong, surrogate, truncated at the end of the line.
    for (const bytes of [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0x41, 0xe2, 0x82]]) {
      expect(() => csvText(bad(bytes)), bytes.join()).toThrow(new CsvSyntaxError(4, 'is not UTF-8 text; save the file as UTF-8 (CSV UTF-8 in spreadsheets) and import it again'))
    }
    expect(() => csvText(Buffer.from([0xff]))).toThrow(/^line 1: /)
  })
})

describe('formatCsv', () => {
  it("starts a field a spreadsheet would run as a formula with ', and parseCsv reads every text back exactly", () => {
    const texts = ['=SUM(A1:A9)', '+1', '-2', '@here', '\tTab', '\rReturn', "'=quoted already", "''+twice", "'plain quote", 'plain', '', 'a, "b"\nc']
    const csv = formatCsv([texts])
    expect(csv).toBe(`'=SUM(A1:A9),'+1,'-2,'@here,'\tTab,"'\rReturn",''=quoted already,'''+twice,'plain quote,plain,,"a, ""b""\nc"\r\n`)
    expect(parseCsv(csv)).toEqual([{ line: 1, fields: texts }])
  })
})

