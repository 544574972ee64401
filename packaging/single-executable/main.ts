// The entry point of `dist/bin/smm-daemon` (`npm run build:binary`): `smm daemon` and
// `smm admin …` as one executable. The commands are the CLI's own oclif classes, run directly:
// their flags, environment variables, defaults, checks and error messages are the same objects.
import { dirname } from 'node:path'
import { Command, CommandHelp, Config, type Interfaces } from '@oclif/core'
import AdminBackup from '../../commands/admin/backup.js'
import AdminCopy from '../../commands/admin/copy.js'
import AdminKeysCreate from '../../commands/admin/keys/create.js'
import AdminKeysList from '../../commands/admin/keys/list.js'
import AdminKeysRevoke from '../../commands/admin/keys/revoke.js'
import AdminUsersCreate from '../../commands/admin/users/create.js'
import AdminUsersList from '../../commands/admin/users/list.js'
import AdminUsersSetPlan from '../../commands/admin/users/set-plan.js'
import AdminUsersSetTimezone from '../../commands/admin/users/set-timezone.js'
import Daemon from '../../commands/daemon.js'
import { VERSION } from '../../src/config.js'
import { checkTarget } from './bundled-addon.js'

const BIN = 'smm-daemon'

const ADMIN: Record<string, Command.Class> = {
  'admin backup': AdminBackup,
  'admin copy': AdminCopy,
  'admin keys create': AdminKeysCreate,
  'admin keys list': AdminKeysList,
  'admin keys revoke': AdminKeysRevoke,
  'admin users create': AdminUsersCreate,
  'admin users list': AdminUsersList,
  'admin users set-plan': AdminUsersSetPlan,
  'admin users set-timezone': AdminUsersSetTimezone,
}

/** The longest command id that `argv` starts with, and the arguments after it. */
function resolve(argv: string[]): { id: string; command: Command.Class; rest: string[] } | undefined {
  for (let words = Math.min(argv.length, 3); words > 0; words--) {
    const id = argv.slice(0, words).join(' ')
    const command = ADMIN[id]
    if (command) return { id, command, rest: argv.slice(words) }
  }
  return undefined
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? ''
}

function adminUsage(): string {
  const width = Math.max(...Object.keys(ADMIN).map((id) => id.length))
  const lines = Object.entries(ADMIN).map(([id, command]) => `  ${BIN} ${id.padEnd(width)}  ${firstLine(command.description)}`)
  return ['Operate the daemon\'s data dir directly, on its host (users, keys, backups):', '', ...lines, '', `Each takes --help.`].join('\n') + '\n'
}

/**
 * oclif's own help text for one command class, as `smm … --help` prints it. oclif renders
 * commands from its manifest's form, where each flag carries its name and a default to show.
 */
async function help(config: Config, id: string, command: Command.Class): Promise<string> {
  const flags: Record<string, unknown> = {}
  for (const [name, flag] of Object.entries({ ...command.baseFlags, ...command.flags })) {
    const shown = ('defaultHelp' in flag ? flag.defaultHelp : undefined) ?? flag.default
    const value = typeof shown === 'function' ? await shown({ options: flag, flags: {} } as never) : shown
    flags[name] = { ...flag, name, default: value }
  }
  const args = Object.fromEntries(Object.entries(command.args ?? {}).map(([name, arg]) => [name, { ...arg, name }]))
  // The daemon is this binary's default command: its examples drop the word `daemon`.
  const examples = command.examples?.map((e) => (typeof e === 'string' ? e.replace(/^<%= config.bin %> daemon\b/, '<%= config.bin %>') : e))
  const cached = { ...command, id, flags, args, examples } as unknown as Command.Loadable
  const text = new CommandHelp(cached, config, { maxWidth: process.stdout.columns || 100, stripAnsi: !process.stdout.isTTY }).generate()
  return text.replace(`$ ${BIN}  `, `$ ${BIN} `) + '\n'
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === '--version' || argv[0] === '-v') {
    process.stdout.write(`${BIN} ${VERSION} (node ${process.version}, ${process.platform}-${process.arch})\n`)
    return
  }
  // Before anything can open the database: an addon for another machine must say so in one line.
  const mismatch = checkTarget()
  if (mismatch) {
    process.stderr.write(`Error: ${mismatch}\n`)
    process.exitCode = 1
    return
  }
  // oclif's configuration, given rather than read from a package.json; no plugins are looked
  // for in the user's data dir. The commands are dispatched here, not found by oclif.
  const config = await Config.load({
    root: dirname(process.execPath),
    pjson: { name: BIN, version: VERSION, oclif: { bin: BIN, topicSeparator: ' ' } },
    userPlugins: false,
    devPlugins: false,
  } as Interfaces.LoadOptions)
  const wantsHelp = argv.includes('--help') || argv.includes('-h')
  if (argv[0] === 'admin') {
    const found = resolve(argv)
    if (!found) {
      if (argv.length === 1 || wantsHelp) return void process.stdout.write(adminUsage())
      process.stderr.write(`Error: ${BIN} ${argv.join(' ')}: no such command.\n\n${adminUsage()}`)
      process.exitCode = 2
      return
    }
    if (wantsHelp) process.stdout.write(await help(config, found.id, found.command))
    else await found.command.run(found.rest, config)
    return
  }
  if (wantsHelp) {
    process.stdout.write(await help(config, '', Daemon))
    process.stdout.write(
      `\nAlso: ${BIN} --version, and ${BIN} admin … for the operator's commands (${BIN} admin --help).\n` +
        `The SQLite addon is loaded from a private copy in $SMM_TMPDIR (else $TMPDIR, else /tmp)/smm-<uid>.\n`,
    )
    return
  }
  await Daemon.run(argv, config)
}

main(process.argv.slice(2)).catch((error: Error & { oclif?: { exit?: number } }) => {
  // What the commands' own catch lets through (oclif's exit, a failure before any command).
  if (error.oclif?.exit !== undefined) {
    process.exitCode = error.oclif.exit
    if (error.oclif.exit !== 0 && error.message) process.stderr.write(`Error: ${error.message}\n`)
    return
  }
  process.stderr.write(`Error: ${error.message}\n`)
  process.exitCode = 1
})
