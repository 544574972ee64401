// The documentation a user reads: README.md (the front door), docs/ (one topic a page) and each
// SDK's README. What a reader would trip over is checked here: a link that leads nowhere, a page
// that does not say what it is for, the project's development diary where a user reads, a
// front door grown back into a manual.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import GithubSlugger from 'github-slugger'
import { Lexer, type Token, type Tokens } from 'marked'
import { describe, expect, it, onTestFinished } from 'vitest'
import { SCOPES } from '../src/api/common.js'
import { CLIENT_ENVIRONMENT, DAEMON_ENVIRONMENT } from '../src/cli/environment.js'
import { routes } from '../src/contract.js'
import { EVENT_TYPES } from '../src/events.js'
import { buildOpenApi } from '../src/openapi.js'
import { cliHome } from './helpers/cli.js'

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

/** The generators' own check: what `npm run docs` would write is what the pages hold. */
describe('the generated references', () => {
  it('are what `npm run docs` writes from the code', () => {
    const home = cliHome()
    onTestFinished(home.remove)
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/gen-docs.ts', '--check'], { cwd: root, encoding: 'utf8', env: home.env })
    expect(run.stderr, 'run `npm run docs` after changing a command, a flag or an environment variable').toBe('')
    expect(run.status).toBe(0)
  })
})

type Manifest = { commands: Record<string, { hidden?: boolean; examples?: (string | { command: string })[]; flags: Record<string, { env?: string; hidden?: boolean }> }> }
const manifest = () => JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8')) as Manifest
const squash = (text: string) => text.replace(/\s+/g, ' ')

describe('the CLI reference (docs/cli.md)', () => {
  const page = () => readFileSync(join(root, 'docs/cli.md'), 'utf8')
  /** A command's section: from its heading to the next. */
  const section = (id: string) => {
    const text = page()
    const from = text.indexOf(`\n### smm ${id.replaceAll(':', ' ')}\n`)
    if (from < 0) return undefined
    const to = text.indexOf('\n### ', from + 1)
    return text.slice(from, to < 0 ? undefined : to)
  }

  it('has a section for every command, with each of its flags and examples', () => {
    const missing: string[] = []
    for (const [id, command] of Object.entries(manifest().commands)) {
      if (command.hidden) continue
      const text = section(id)
      if (!text) {
        missing.push(`smm ${id.replaceAll(':', ' ')}`)
        continue
      }
      for (const [flag, { hidden }] of Object.entries(command.flags)) if (!hidden && !text.includes(`--${flag}`) && !text.includes(`--[no-]${flag}`)) missing.push(`smm ${id.replaceAll(':', ' ')} --${flag}`)
      for (const example of command.examples ?? []) {
        const line = (typeof example === 'string' ? example : example.command).replaceAll('<%= config.bin %>', 'smm')
        if (!squash(text).includes(squash(line))) missing.push(`an example of smm ${id.replaceAll(':', ' ')}: ${line}`)
      }
    }
    expect(missing, 'missing from docs/cli.md: run `npm run docs`').toEqual([])
  })

  it('shows each command as `smm help COMMAND` prints it', () => {
    // As a user's shell runs it: a home of its own, none of the test runner's environment.
    const home = cliHome()
    onTestFinished(home.remove)
    for (const id of ['posts:create', 'daemon', 'admin:keys:create']) {
      const help = execFileSync(process.execPath, [join(root, 'bin/run.js'), 'help', ...id.split(':')], { encoding: 'utf8', env: { ...home.env, OCLIF_COLUMNS: '100' } })
      // oclif prints the summary, then the sections; the page has the summary as a paragraph (Markdown-escaped), then the sections.
      const [, summary, block] = /\n\n(.*)\n\n```text\n([\s\S]*?)\n```/.exec(section(id)!)!
      const printed = help.trimEnd().replace(/[ \t]+$/gm, '')
      const split = printed.indexOf('\n\n')
      expect(printed.slice(split + 2), `smm help ${id.replaceAll(':', ' ')}`).toBe(block)
      expect(squash(printed.slice(0, split))).toBe(summary!.replace(/\\(.)/g, '$1'))
    }
  })
})

describe('the API guide (docs/api.md)', () => {
  const guide = () => readFileSync(join(root, 'docs/api.md'), 'utf8')

  it('lists every path and method of the OpenAPI document in its endpoint table, and nothing else', () => {
    const documented = new Set<string>()
    for (const line of guide().split('\n')) {
      // | GET, PATCH | /v1/x/{id} | …: a path cell may name siblings by their extension (`/feeds/{id}.rss, .atom`).
      const row = /^\| ([A-Z, ]+) \| (\/[^ |]*(?:, [^ |]+)*) \|/.exec(line)
      if (!row) continue
      const [first, ...others] = row[2]!.split(', ')
      const paths = [first!, ...others.map((other) => (other.startsWith('.') ? first!.replace(/\.[a-z]+$/, other) : other))]
      for (const method of row[1]!.split(', ')) for (const path of paths) documented.add(`${method} ${path}`)
    }
    const doc = buildOpenApi(routes, 'docs') as { paths: Record<string, Record<string, unknown>> }
    const served = Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
    expect(served.filter((op) => !documented.has(op)), 'add a row for each to the endpoint table of docs/api.md').toEqual([])
    // The OAuth callback is a page for a person's browser, not an operation of the API.
    expect([...documented].filter((op) => !served.includes(op) && op !== 'GET /oauth/callback'), 'rows of docs/api.md with no such operation').toEqual([])
  })

  it('names every webhook event type and every scope', () => {
    const text = guide()
    expect([...EVENT_TYPES, ...SCOPES].filter((name) => !text.includes(name)), 'missing from docs/api.md').toEqual([])
  })
})

describe('the configuration reference', () => {
  it('names every flag of `smm daemon` and its environment variable', () => {
    const reference = readFileSync(join(root, 'docs/configuration.md'), 'utf8')
    const missing = Object.entries(manifest().commands.daemon!.flags)
      .filter(([flag]) => flag !== 'help')
      .flatMap(([flag, { env }]) => [`\`--${flag}\``, ...(env ? [`\`${env}\``] : [])])
      .filter((word) => !reference.includes(word))
    expect(missing, 'run `npm run docs`').toEqual([])
  })

  it('names every environment variable the code reads', () => {
    const reference = readFileSync(join(root, 'docs/configuration.md'), 'utf8')
    const documented = [...DAEMON_ENVIRONMENT, ...CLIENT_ENVIRONMENT].flatMap((v) => v.name.split(/, (?:then )?/))
    expect(documented.filter((name) => !reference.includes(`\`${name}\``)), 'run `npm run docs`').toEqual([])
    // Every SMM_… name in the code's sources: a flag's variable, or one of src/cli/environment.ts.
    const flagged = Object.values(manifest().commands).flatMap((c) => Object.values(c.flags).flatMap((f) => (f.env ? [f.env] : [])))
    const known = [...flagged, ...documented].map((name) => new RegExp(`^${name.replace('<NAME>', '[A-Z]+')}$`))
    const read = new Set(['src', 'daemon', 'commands', 'bin', 'packaging'].flatMap((dir) => sources(join(root, dir))).flatMap((file) => readFileSync(file, 'utf8').match(/\bSMM_[A-Z0-9_]*[A-Z0-9]\b/g) ?? []))
    expect([...read].filter((name) => !known.some((pattern) => pattern.test(name))), 'add each to src/cli/environment.ts (or give it to a flag), then run `npm run docs`').toEqual([])
  })
})

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.(ts|tsx|js)$/.test(name) ? [path] : []
  })
}
