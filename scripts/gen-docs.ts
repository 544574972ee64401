// Writes the parts of docs/ that the code already knows, so they cannot drift from it:
// - docs/cli.md's command reference, from oclif's manifest through oclif's own Help class: each
//   command's section is what `smm help COMMAND` prints;
// - docs/configuration.md's tables, from `smm daemon`'s flags (their env, default, description:
//   what `smm daemon --help` prints) and src/cli/environment.ts (which that help prints too).
// Each generated part sits between two marker comments in its page; the rest of the page is
// written by hand. `npm run docs` builds (which writes the manifest) and runs this;
// `--check` writes nothing and fails, naming the stale pages, when a run would change them.
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Help } from '@oclif/core'
import { CLIENT_ENVIRONMENT, DAEMON_ENVIRONMENT, type EnvironmentVariable } from '../src/cli/environment.js'

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

async function cliReference(): Promise<string> {
  const config = await Config.load({ root })
  // The help class package.json configures, as `smm help` uses it; formatCommand is protected.
  const HelpClass = (await loadHelpClass(config)) as unknown as new (...args: ConstructorParameters<typeof Help>) => Help
  class ReferenceHelp extends HelpClass {
    commandText(command: Loadable): string {
      return this.formatCommand(command)
    }
  }
  const help = new ReferenceHelp(config, { stripAnsi: true, maxWidth: WIDTH })
  const commands: Loadable[] = [...config.commands].filter((c) => !c.hidden).sort((a, b) => a.id.localeCompare(b.id))
  // The topics package.json describes (a command with subcommands is listed as itself).
  const topics = config.pjson.oclif.topics ?? {}
  const summary = (c: Loadable) => (c.summary ?? help.render(c.description ?? '').split('\n')[0] ?? '').trim()

  const index: string[] = ['| Command | What it does |', '|---|---|']
  const listed = new Set<string>()
  for (const command of commands) {
    const topic = command.id.includes(':') ? command.id.slice(0, command.id.lastIndexOf(':')) : ''
    if (topics[topic]?.description && !listed.has(topic)) index.push(`| **smm ${topic.replaceAll(':', ' ')}** | ${prose(topics[topic].description)} |`)
    listed.add(topic)
    index.push(`| [\`${heading(command.id)}\`](#${anchor(command.id)}) | ${prose(summary(command))} |`)
  }

  const sections = commands.map((command) => {
    // formatCommand writes the id with the topic separator (a space) into the object it is given.
    const text = help.commandText({ ...command }).replace(/[ \t]+$/gm, '')
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

/** Replaces what lies between a page's two markers for `name`. */
function splice(page: string, name: string, content: string, path: string): string {
  const begin = `<!-- BEGIN GENERATED ${name}: written by \`npm run docs\` from the code; edit the code, not this -->`
  const end = `<!-- END GENERATED ${name} -->`
  const from = page.indexOf(begin)
  const to = page.indexOf(end)
  if (from < 0 || to < from) throw new Error(`${path} has lost its markers for ${name}:\n${begin}\n${end}`)
  return `${page.slice(0, from + begin.length)}\n\n${content}\n\n${page.slice(to)}`
}

const parts: { path: string; name: string; content: () => Promise<string> }[] = [
  { path: 'docs/cli.md', name: 'cli-reference', content: cliReference },
  { path: 'docs/configuration.md', name: 'configuration', content: configurationReference },
]

const check = process.argv.includes('--check')
const stale: string[] = []
for (const { path, name, content } of parts) {
  const file = join(root, path)
  const before = readFileSync(file, 'utf8')
  const after = splice(before, name, await content(), path)
  if (after === before) continue
  if (check) stale.push(path)
  else writeFileSync(file, after)
}
if (stale.length > 0) {
  process.stderr.write(`Out of date with the code: ${stale.join(', ')}. Run \`npm run docs\` and commit the result.\n`)
  process.exitCode = 1
}
