// The documentation a user reads: README.md (the front door), docs/ (one topic a page) and each
// SDK's README. What a reader would trip over is checked here: a link that leads nowhere, a page
// that does not say what it is for, the project's development diary where a user reads, a
// front door grown back into a manual.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import GithubSlugger from 'github-slugger'
import { Lexer, type Token, type Tokens } from 'marked'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')

function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return markdownUnder(path)
    return name.endsWith('.md') ? [path] : []
  })
}

const docs = markdownUnder(join(root, 'docs'))
const sdkReadmes = readdirSync(join(root, 'sdks')).map((sdk) => join(root, 'sdks', sdk, 'README.md')).filter((path) => existsSync(path))
const pages = [join(root, 'README.md'), ...docs, ...sdkReadmes]

/** Every token of a document, nested ones included (links sit inside paragraphs, lists, tables). */
function walk(tokens: Token[], visit: (token: Token) => void): void {
  for (const token of tokens) {
    visit(token)
    const nested = token as Token & { tokens?: Token[]; items?: Token[]; header?: Tokens.TableCell[]; rows?: Tokens.TableCell[][] }
    if (nested.tokens) walk(nested.tokens, visit)
    if (nested.items) walk(nested.items, visit)
    if (nested.header) for (const cell of nested.header) walk(cell.tokens, visit)
    if (nested.rows) for (const row of nested.rows) for (const cell of row) walk(cell.tokens, visit)
  }
}

/** A heading's text as GitHub renders it (code spans without their backticks), for its anchor. */
function plainText(tokens: Token[]): string {
  return tokens.map((token) => ('tokens' in token && token.tokens ? plainText(token.tokens) : 'text' in token ? String(token.text) : '')).join('')
}

const parsed = new Map<string, { links: string[]; anchors: Set<string>; tokens: Token[] }>()
function parse(path: string) {
  let page = parsed.get(path)
  if (!page) {
    const tokens = new Lexer({ gfm: true }).lex(readFileSync(path, 'utf8'))
    const slugger = new GithubSlugger()
    const links: string[] = []
    const anchors = new Set<string>()
    walk(tokens, (token) => {
      if (token.type === 'link') links.push((token as Tokens.Link).href)
      if (token.type === 'heading') anchors.add(slugger.slug(plainText((token as Tokens.Heading).tokens)))
    })
    page = { links, anchors, tokens }
    parsed.set(path, page)
  }
  return page
}

const name = (path: string) => relative(root, path)

describe('the documentation', () => {
  it('has the pages the README maps', () => {
    expect(docs.map(name)).toEqual(expect.arrayContaining([
      'docs/getting-started.md', 'docs/cli.md', 'docs/api.md', 'docs/configuration.md', 'docs/operations.md',
      'docs/several-daemons.md', 'docs/sdks.md', 'docs/benchmarks.md', 'docs/development.md',
      ...['feed', 'mastodon', 'bluesky', 'telegram', 'discord', 'slack', 'x', 'linkedin', 'threads', 'facebook', 'instagram'].map((p) => `docs/platforms/${p}.md`),
    ]))
  })

  it('links only to files and headings that exist', () => {
    const broken: string[] = []
    for (const page of pages) {
      for (const href of parse(page).links) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue // https:, mailto:: not ours to check
        const [file, anchor] = href.split('#') as [string, string | undefined]
        const target = file === '' ? page : resolve(dirname(page), decodeURIComponent(file))
        if (!existsSync(target)) broken.push(`${name(page)}: ${href} (no such file)`)
        else if (anchor !== undefined && target.endsWith('.md') && !parse(target).anchors.has(anchor)) broken.push(`${name(page)}: ${href} (no heading #${anchor} in ${name(target)})`)
      }
    }
    expect(broken).toEqual([])
  })

  it('says at the top of each page what it is for', () => {
    const untitled = docs.filter((page) => {
      const [first, second] = parse(page).tokens.filter((token) => token.type !== 'space')
      return first?.type !== 'heading' || (first as Tokens.Heading).depth !== 1 || second?.type !== 'paragraph'
    })
    expect(untitled.map(name)).toEqual([])
  })

  it('keeps the development diary out: history is in the commit messages', () => {
    const diary = /\b(stop \d+|stop-\d+ build|this stop|earlier this stop|this session|before the fix|until stop)\b/i
    const found = [join(root, 'README.md'), ...docs].flatMap((page) =>
      readFileSync(page, 'utf8').split('\n').flatMap((line, index) => (diary.test(line) ? [`${name(page)}:${index + 1}: ${line.trim()}`] : [])))
    expect(found).toEqual([])
  })

  it('keeps the README a front door of at most 300 lines, its first screen two commands', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    expect(readme.split('\n').length).toBeLessThanOrEqual(300)
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)![1]!.trim().split('\n')
    expect(firstBlock).toEqual([
      expect.stringMatching(/^npm ci && npm link && smm daemon +# .*API key/),
      expect.stringMatching(/^npm test +# for contributors/),
    ])
  })
})

describe('the configuration reference', () => {
  it('names every flag of `smm daemon` and its environment variable', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, { flags: Record<string, { env?: string }> }> }
    const reference = readFileSync(join(root, 'docs/configuration.md'), 'utf8')
    const missing = Object.entries(manifest.commands.daemon!.flags)
      .filter(([flag]) => flag !== 'help')
      .flatMap(([flag, { env }]) => [`\`--${flag}\``, ...(env ? [`\`${env}\``] : [])])
      .filter((word) => !reference.includes(word))
    expect(missing).toEqual([])
  })
})
