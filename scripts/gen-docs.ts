// Writes the parts of docs/ that the code already knows, so they cannot drift from it:
// - docs/cli.md's command reference, from oclif's manifest through oclif's own Help class: each
//   command's section is what `smm help COMMAND` prints;
// - docs/configuration.md's tables, from `smm daemon`'s flags (their env, default, description:
//   what `smm daemon --help` prints) and src/cli/environment.ts (which that help prints too);
// - man/smm.1, `man smm`: every command's help, the variables and the exit codes, from the same.
// Each generated part sits between two marker comments in its page; the rest of the page is
// written by hand. `npm run docs` builds (which writes the manifest) and runs this;
// `--check` writes nothing and fails, naming the stale pages, when a run would change them.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Help } from '@oclif/core'
import { CLIENT_ENVIRONMENT, DAEMON_ENVIRONMENT, type EnvironmentVariable } from '../src/cli/environment.js'
import { EXIT } from '../src/cli/exit-codes.js'

const root = resolve(import.meta.dirname, '..')
/** Help is wrapped at this width whatever the terminal running this, so the output is stable. */
const WIDTH = 100

// oclif reads its width when it is first imported; set it before.
process.env.OCLIF_COLUMNS = String(WIDTH)
const { Config, loadHelpClass } = await import('@oclif/core')

type Loadable = InstanceType<typeof Config>['commands'][number]

/** Text made safe for a Markdown table cell or paragraph: no HTML, no emphasis, no column breaks. */
function inline(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`).replace(/\s*\n\s*/g, ' ')
}

/** Prose whose backticks are code spans, the rest escaped. */
const prose = (text: string) => text.split('`').map((part, i) => (i % 2 ? `\`${part}\`` : inline(part))).join('')

/** The heading of a command's section, and the anchor GitHub gives it. */
const heading = (id: string) => `smm ${id.replaceAll(':', ' ')}`
const anchor = (id: string) => heading(id).replaceAll(' ', '-')

/** oclif's configuration and the help class package.json configures, as `smm help` uses them, at a width. */
async function loadHelp(width: number) {
  const config = await Config.load({ root })
  // formatCommand is protected: a subclass reaches it.
  const HelpClass = (await loadHelpClass(config)) as unknown as new (...args: ConstructorParameters<typeof Help>) => Help
  class ReferenceHelp extends HelpClass {
    /** What `smm help COMMAND` prints after the summary line. */
    commandText(command: Loadable): string {
      // formatCommand writes the id with the topic separator (a space) into the object it is given.
      return this.formatCommand({ ...command }).replace(/[ \t]+$/gm, '')
    }
    summaryOf(command: Loadable): string {
      return (command.summary ?? this.render(command.description ?? '').split('\n')[0] ?? '').trim()
    }
  }
  const help = new ReferenceHelp(config, { stripAnsi: true, maxWidth: width })
  const commands: Loadable[] = [...config.commands].filter((c) => !c.hidden).sort((a, b) => a.id.localeCompare(b.id))
  return { config, help, commands }
}

async function cliReference(): Promise<string> {
  const { config, help, commands } = await loadHelp(WIDTH)
  // The topics package.json describes (a command with subcommands is listed as itself).
  const topics = config.pjson.oclif.topics ?? {}
  const summary = (c: Loadable) => help.summaryOf(c)

  const index: string[] = ['| Command | What it does |', '|---|---|']
  const listed = new Set<string>()
  for (const command of commands) {
    const topic = command.id.includes(':') ? command.id.slice(0, command.id.lastIndexOf(':')) : ''
    if (topics[topic]?.description && !listed.has(topic)) index.push(`| **smm ${topic.replaceAll(':', ' ')}** | ${prose(topics[topic].description)} |`)
    listed.add(topic)
    index.push(`| [\`${heading(command.id)}\`](#${anchor(command.id)}) | ${prose(summary(command))} |`)
  }

  const sections = commands.map((command) => {
    const text = help.commandText(command)
    return [`### ${heading(command.id)}`, '', prose(summary(command)), '', '```text', text, '```'].join('\n')
  })

  return [
    '## Command reference',
    '',
    "Every command, as `smm help COMMAND` (or `smm COMMAND --help`) prints it: both come from the commands' own definitions.",
    '',
    ...index,
    '',
    sections.join('\n\n'),
  ].join('\n')
}

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n')
}

/** A variable's cell: each name in code, `<NAME>` kept as written. */
const names = (v: EnvironmentVariable) => v.name.split(/, (?:then )?/).map((n) => `\`${n}\``).join(v.name.includes(', then ') ? ', then ' : ', ')

async function configurationReference(): Promise<string> {
  const config = await Config.load({ root })
  const daemon = config.findCommand('daemon')!
  const flags = Object.values(daemon.flags).filter((flag) => flag.name !== 'help' && !flag.hidden)
  const defaultOf = (flag: (typeof flags)[number]) => {
    const value = flag.default
    if (value === undefined || value === null || value === false) return flag.type === 'boolean' ? 'off' : '—'
    return `\`${Array.isArray(value) ? value.join(', ') : String(value)}\``
  }
  const meaning = (flag: (typeof flags)[number]) => {
    const parts = [inline(flag.summary ?? flag.description ?? '')]
    if (flag.type === 'option' && flag.options) parts.push(`one of ${flag.options.map((o) => `\`${o}\``).join(', ')}`)
    if (flag.type === 'option' && flag.multiple && flag.env) parts.push(`in \`${flag.env}\`, comma-separated`)
    return parts.filter(Boolean).join('; ')
  }
  return [
    '## Flags of `smm daemon`',
    '',
    'Each flag is also the environment variable beside it; a flag wins over its variable.',
    '',
    table(['Flag', 'Variable', 'Default', 'Meaning'], flags.map((flag) => [`\`--${flag.name}\``, flag.env ? `\`${flag.env}\`` : '—', defaultOf(flag), meaning(flag)])),
    '',
    '## Other variables of the daemon',
    '',
    table(['Variable', 'Default', 'Meaning'], DAEMON_ENVIRONMENT.map((v) => [names(v), prose(v.default), prose(v.meaning)])),
    '',
    '## Variables of the CLI',
    '',
    'Every other `smm` command reads these besides its flags; scripts use them instead of `smm login`.',
    '',
    table(['Variable', 'Default', 'Meaning'], CLIENT_ENVIRONMENT.map((v) => [names(v), prose(v.default), prose(v.meaning)])),
  ].join('\n')
}

/** What each exit code means, for the man page; a code added to EXIT must be explained here. */
const EXIT_MEANINGS: Record<keyof typeof EXIT, string> = {
  ok: 'success',
  error: 'an error: the daemon failed, could not be reached, or a file could not be read',
  usage: 'usage, or input the daemon refused as invalid (400, 413, 415, 422)',
  auth: 'authentication or permission (401, 403)',
  notFound: 'not found (404), or no database in the data dir for smm admin',
  conflict: 'a conflict (409, 412)',
  rateLimited: 'rate limited (429), after one wait when Retry-After was short',
}

/** Text for roff: backslashes and hyphens literal (flags must paste as typed), no line read as a request. */
function roff(text: string): string {
  return text
    .replaceAll('\\', '\\e')
    .replaceAll('-', '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n')
}

/** man/smm.1: every command as `smm help COMMAND` prints it (to fit 80 columns beside its indent), the variables and exit codes. */
async function manPage(): Promise<string> {
  const { config, help, commands } = await loadHelp(72)
  const variables = (list: readonly EnvironmentVariable[]) =>
    list.flatMap((v) => ['.TP', `.B ${roff(v.name.replaceAll('`', ''))}`, `${roff(v.meaning.replaceAll('`', ''))} (default: ${roff(v.default.replaceAll('`', ''))}).`])
  return [
    `.TH SMM 1 "" "smm ${config.version}" "smm manual"`,
    '.SH NAME',
    `smm \\- ${roff(config.pjson.description ?? '')}`,
    '.SH SYNOPSIS',
    '.B smm',
    '.I COMMAND',
    '.RI [ ARGUMENTS ]',
    '.RI [ FLAGS ]',
    '.SH DESCRIPTION',
    roff('smm daemon serves the HTTPS JSON API, publishes scheduled posts and delivers webhooks; every other command is a client of that API, logged in with smm login. smm help COMMAND and smm COMMAND --help print the sections below; the guides are in the docs/ folder of smm\'s repository, and the daemon serves its API\'s reference at /v1/openapi.json.'),
    '.SH COMMANDS',
    ...commands.flatMap((command) => [`.SS ${roff(heading(command.id))}`, roff(help.summaryOf(command)), '.PP', '.nf', roff(help.commandText(command)), '.fi']),
    '.SH ENVIRONMENT',
    "Each flag's variable is named in its help (env: ...). Every command but the daemon's reads:",
    ...variables(CLIENT_ENVIRONMENT),
    '.PP',
    'smm daemon, smm admin and smm\\-daemon read, besides their flags:',
    ...variables(DAEMON_ENVIRONMENT),
    '.SH EXIT STATUS',
    ...Object.entries(EXIT).flatMap(([name, code]) => ['.TP', `.B ${code}`, roff(EXIT_MEANINGS[name as keyof typeof EXIT])]),
  ].join('\n') + '\n'
}

/** Replaces what lies between a page's two markers for `name`. */
function splice(page: string, name: string, content: string, path: string): string {
  const begin = `<!-- BEGIN GENERATED ${name}: written by \`npm run docs\` from the code; edit the code, not this -->`
  const end = `<!-- END GENERATED ${name} -->`
  const from = page.indexOf(begin)
  const to = page.indexOf(end)
  if (from < 0 || to < from) throw new Error(`${path} has lost its markers for ${name}:\n${begin}\n${end}`)
  return `${page.slice(0, from + begin.length)}\n\n${content}\n\n${page.slice(to)}`
}

/** Each generated file: a part between markers of a hand-written page, or the whole file. */
const parts: { path: string; name?: string; content: () => Promise<string> }[] = [
  { path: 'docs/cli.md', name: 'cli-reference', content: cliReference },
  { path: 'docs/configuration.md', name: 'configuration', content: configurationReference },
  { path: 'man/smm.1', content: manPage },
]

const check = process.argv.includes('--check')
const stale: string[] = []
for (const { path, name, content } of parts) {
  const file = join(root, path)
  const before = existsSync(file) ? readFileSync(file, 'utf8') : ''
  const after = name ? splice(before, name, await content(), path) : await content()
  if (after === before) continue
  if (check) stale.push(path)
  else writeFileSync(file, after)
}
if (stale.length > 0) {
  process.stderr.write(`Out of date with the code: ${stale.join(', ')}. Run \`npm run docs\` and commit the result.\n`)
  process.exitCode = 1
}
