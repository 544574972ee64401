import { distance } from 'fastest-levenshtein'

/** What is read here of an oclif flag definition (its name is its key: oclif sets `name` only as it parses). */
interface Flag {
  type: 'option' | 'boolean'
  char?: string
  aliases?: string[]
  charAliases?: string[]
  multiple?: boolean
  multipleNonGreedy?: boolean
  hidden?: boolean
}
type FlagInput = Record<string, Flag>
/** A command's arguments, in their order (oclif's ArgInput; only the names are read). */
type ArgInput = Record<string, unknown>

/** The flag a token names (`--at`, `--at=9am`, `-o`), by name, alias or character. */
function flagNamed(flags: FlagInput, token: string): Flag | undefined {
  if (token.startsWith('--')) {
    const name = token.slice(2).split('=')[0]!
    return flags[name] ?? Object.values(flags).find((flag) => flag.aliases?.includes(name))
  }
  const char = token[1]
  return Object.values(flags).find((flag) => flag.char === char || (char !== undefined && flag.charAliases?.includes(char)))
}

const isFlagToken = (token: string) => token.startsWith('-') && token !== '-' && token !== '--' && !/^-\d/.test(token)

/** Argument names that no flag of the command has: those are the ones `--NAME value` may give. */
function argumentNames(flags: FlagInput, args: ArgInput): string[] {
  return Object.keys(args).filter((name) => !flagNamed(flags, `--${name}`))
}

/**
 * People type every value as a flag (`smm webhooks create --url https://…`): an argument may be
 * given as a flag of its own name, `--url VALUE` or `--url=VALUE`, anywhere on the line. This
 * moves each one to its place among the positional arguments, as oclif reads them, and leaves
 * the line as it is when that place cannot be known (an earlier argument missing), so oclif's
 * own error and unknownFlagsMessage's hint still say what to type.
 */
export function argumentsFromFlags(argv: string[], flags: FlagInput, args: ArgInput): string[] {
  const names = argumentNames(flags, args)
  if (names.length === 0) return argv
  const others: string[] = []
  const positionals: string[] = []
  const given = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!
    if (token === '--') {
      positionals.push(...argv.slice(i + 1))
      break
    }
    if (!isFlagToken(token)) {
      positionals.push(token)
      continue
    }
    const [name = '', inline] = token.startsWith('--') ? [token.slice(2).split('=')[0], token.includes('=') ? token.slice(token.indexOf('=') + 1) : undefined] : []
    if (names.includes(name) && !given.has(name) && (inline !== undefined || i + 1 < argv.length)) {
      given.set(name, inline ?? argv[++i]!)
      continue
    }
    others.push(token)
    const flag = flagNamed(flags, token)
    if (flag?.type !== 'option' || token.includes('=') || (!token.startsWith('--') && token.length > 2)) continue
    // The flag's value, and for a greedy repeatable flag every value after it, as oclif reads them.
    if (i + 1 < argv.length) others.push(argv[++i]!)
    if (flag.multiple && !flag.multipleNonGreedy) while (i + 1 < argv.length && !isFlagToken(argv[i + 1]!) && argv[i + 1] !== '--') others.push(argv[++i]!)
  }
  if (given.size === 0) return argv
  const placed: string[] = []
  for (const name of Object.keys(args)) {
    const value = given.get(name) ?? positionals.shift()
    if (value === undefined) break
    placed.push(value)
    given.delete(name)
  }
  if (given.size > 0) return argv
  const all = [...placed, ...positionals]
  return [...others, ...(all.some(isFlagToken) ? ['--'] : []), ...all]
}

/** The closest of `names` to `typed`, if it is close enough to be what was meant. */
function nearest(typed: string, names: string[]): { name: string; distance: number } | undefined {
  let best: { name: string; distance: number } | undefined
  for (const name of names) {
    // A prefix (--desc for --description) is as near as a one-letter slip.
    const d = name.startsWith(typed) && typed.length >= 3 ? 1 : distance(typed, name)
    if (d <= Math.max(1, Math.floor(name.length / 3)) && (!best || d < best.distance)) best = { name, distance: d }
  }
  return best
}

/** What oclif's parse error knows of the command line that failed. */
export interface UnknownFlagsInput {
  /** The tokens oclif found no flag for: `--events`, `--url=https://…`. */
  unknown: string[]
  argv: string[]
  flags: FlagInput
  args: ArgInput
  /** The command as typed: `smm webhooks create`. */
  command: string
}

/**
 * What to type instead of flags a command does not have, one problem per flag: the nearest
 * flag (`--events`: did you mean --event?), or, for a flag that stands for an argument, the
 * command with that argument where it goes (`the URL is an argument: smm webhooks create https://…`).
 */
export function unknownFlagsMessage({ unknown, argv, flags, args, command }: UnknownFlagsInput): string {
  const flagNames = Object.entries(flags)
    .filter(([, flag]) => !flag.hidden)
    .flatMap(([name, flag]) => [name, ...(flag.aliases ?? [])])
  const argNames = Object.keys(args)
  const hints = unknown.map((token): [flag: string, hint: string | undefined] => {
    const name = token.replace(/^-+/, '').split('=')[0]!
    const flag = token.split('=')[0]!
    const asFlag = nearest(name, flagNames)
    const asArg = nearest(name, argNames)
    if (asArg && (!asFlag || asArg.distance < asFlag.distance)) {
      const at = argv.indexOf(token)
      const next = argv[at + 1]
      const value = token.includes('=') ? token.slice(token.indexOf('=') + 1) : next !== undefined && !isFlagToken(next) ? next : undefined
      const usage = argNames.map((arg) => (arg === asArg.name && value !== undefined ? quoted(value) : arg.toUpperCase()))
      return [flag, `${asArg.name.toUpperCase()} is an argument, not a flag: \`${command} ${usage.join(' ')}\``]
    }
    return [flag, asFlag && `did you mean --${asFlag.name}?`]
  })
  const list = `\`${command} --help\` lists its flags`
  if (hints.length === 1) {
    const [[flag, hint]] = hints as [[string, string | undefined]]
    return `\`${command}\` has no flag ${flag}; ${hint ?? `${list}.`}`
  }
  return `\`${command}\` has no flags ${hints.map(([flag]) => flag).join(', ')} (${list}):\n  ${hints.map(([flag, hint]) => `${flag}: ${hint ?? 'no flag is near it'}`).join('\n  ')}`
}

/** A value as a shell would need it typed again. */
function quoted(value: string): string {
  return /^[\w@%+=:,./~-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`
}
