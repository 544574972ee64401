/**
 * `smm --help` (and `smm`, `smm help`) without oclif. Loading oclif costs about three times
 * a bare `node -e 0` on a 2-core machine, and the root help needs none of it: its rows (topics,
 * commands, their one-line summaries) are fixed when the CLI is built. scripts/build-cli.ts asks
 * oclif's own Help class for them and writes them to dist/root-help.json; this lays them out as
 * oclif's HelpFormatter does (sections, a two-column list, wrapping at the terminal's width), and
 * test/cli-root-help.test.ts holds the two outputs equal, byte for byte, at several widths and
 * with and without colour.
 *
 * Only plain text is laid out here: the build marks the index unusable (and oclif answers) if a
 * row has a character whose width is not one column or a template oclif would render again.
 */

/** What the build writes for the root help: oclif's rows, already rendered. */
export interface RootHelpIndex {
  bin: string
  version: string
  /** The first line of package.json's description. */
  summary: string
  topics: [name: string, description: string][]
  commands: [id: string, summary: string][]
  /** False when some text needs more than this module lays out (then oclif answers). */
  usable: boolean
}

/** Text this module can measure by counting code points: printable, one column each. */
const ONE_COLUMN = /^[\x20-\x7e\u00a0-\u02ff\u2010-\u2027\u2030-\u205e]*$/

export function isPlainText(text: string): boolean {
  // Already in NFC, as wrap-ansi would make it: normalizing at run time loads ICU's tables (~20 ms).
  return ONE_COLUMN.test(text) && text === text.normalize() && !text.includes('<%')
}

const width = (text: string) => [...text].length

/**
 * wrap-ansi's layout (oclif's `wrap`, with `hard: true`) for plain text in NFC (isPlainText):
 * words fill a row up to `columns`; a word longer than a row is cut; spaces at a row's edges go.
 */
export function wrap(text: string, columns: number): string {
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => wrapLine(line, columns))
    .join('\n')
}

function wrapLine(line: string, columns: number): string {
  if (line.trim() === '') return ''
  const words = line.split(' ')
  const rows = ['']
  for (const [index, word] of words.entries()) {
    rows[rows.length - 1] = rows.at(-1)!.trimStart()
    let rowLength = width(rows.at(-1)!)
    if (index !== 0 && rowLength > 0) {
      rows[rows.length - 1] += ' '
      rowLength++
    }
    const length = width(word)
    if (length > columns) {
      const breaksStartingThisLine = 1 + Math.floor((length - (columns - rowLength) - 1) / columns)
      const breaksStartingNextLine = Math.floor((length - 1) / columns)
      if (breaksStartingNextLine < breaksStartingThisLine) rows.push('')
      cutWord(rows, word, columns)
      continue
    }
    if (rowLength + length > columns && rowLength > 0 && length > 0) rows.push('')
    rows[rows.length - 1] += word
  }
  return rows.map(trimSpacesRight).join('\n')
}

function cutWord(rows: string[], word: string, columns: number): void {
  const characters = [...word]
  let visible = width(rows.at(-1)!)
  for (const [index, character] of characters.entries()) {
    if (visible + 1 <= columns) rows[rows.length - 1] += character
    else {
      rows.push(character)
      visible = 0
    }
    visible++
    if (visible === columns && index < characters.length - 1) {
      rows.push('')
      visible = 0
    }
  }
  if (!visible && rows.at(-1)!.length > 0 && rows.length > 1) rows[rows.length - 2] += rows.pop()!
}

function trimSpacesRight(row: string): string {
  const words = row.split(' ')
  let last = words.length
  while (last > 0 && width(words[last - 1]!) === 0) last--
  return last === words.length ? row : words.slice(0, last).join(' ') + words.slice(last).join('')
}

const indent = (text: string, spaces: number) => text.replace(/^(?!\s*$)/gm, ' '.repeat(spaces))

/** oclif's HelpFormatter.renderList with indentation 2 and a newline spacer. */
function renderList(rows: [string, string][], maxWidth: number): string {
  if (rows.length === 0) return ''
  const maxLength = Math.max(...rows.map(([left]) => width(left)))
  const multiline = () =>
    rows
      .map(([left, right]) => `${wrap(left.trim(), maxWidth - 2)}${right ? `\n${indent(wrap(right.trim(), maxWidth - 4), 4)}` : ''}`)
      .join('\n\n')
      .trim()
  const entries: string[] = []
  for (const [left, right] of rows) {
    if (!right) {
      entries.push(left.trim())
      continue
    }
    const [first, ...rest] = wrap(right.trim(), maxWidth - (2 + maxLength + 2))
      .split('\n')
      .map((line) => line.trim())
    if (rest.length > 4) return multiline()
    let entry = left + ' '.repeat(maxLength - width(left) + 2) + first
    if (rest.length > 0) entry += '\n' + indent(rest.join('\n'), maxLength + 2)
    entries.push(entry)
  }
  return entries.join('\n').trim()
}

/** Where and how the help is shown: oclif's width and colour, decided as oclif decides them. */
export interface Screen {
  columns: number
  bold: boolean
}

function section(header: string, body: string, screen: Screen): string {
  return `${screen.bold ? `\u001B[1m${header}\u001B[22m` : header}\n${indent(body, 2)}`
}

/** The root help, exactly as oclif's Help#showRootHelp prints it. */
export function renderRootHelp(index: RootHelpIndex, userAgent: string, screen: Screen): string {
  const root = [
    index.summary,
    section('VERSION', wrap(userAgent, screen.columns - 2), screen),
    section('USAGE', wrap(`$ ${index.bin} [COMMAND]`, screen.columns - 2), screen),
  ].join('\n\n')
  const parts = [root, '']
  if (index.topics.length > 0) parts.push(section('TOPICS', renderList(index.topics, screen.columns), screen), '')
  if (index.commands.length > 0) parts.push(section('COMMANDS', renderList(index.commands, screen.columns), screen), '')
  return parts.map((part) => `${part}\n`).join('')
}
