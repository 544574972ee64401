import { Flags } from '@oclif/core'
import { PLATFORM_NAMES } from '../api/common.js'
import { defaultDataDir } from '../config.js'
import { toIso } from '../time.js'
import { parseDurationInput, parseTimeInput } from './time-input.js'

/** `--data-dir`: where the daemon's database, certificate and keys live. */
export const dataDir = Flags.directory({
  description: 'Directory of the SQLite database, TLS certificate and secret key',
  env: 'SMM_DATA_DIR',
  default: async () => defaultDataDir(),
  defaultHelp: async () => '$XDG_DATA_HOME/smm or ~/.local/share/smm',
})

/** `--database-url`: the PostgreSQL database several daemons share, instead of the data dir's SQLite file. */
export const databaseUrl = Flags.string({
  description: 'PostgreSQL database (postgres://user:password@host:5432/smm) to keep state in instead of the data dir\'s SQLite file; several daemons may share one',
  env: 'SMM_DATABASE_URL',
  helpValue: '<url>',
})

/** `--profile`: which daemon (and key) a client command uses; every API command has it. */
export const profile = Flags.string({
  description: 'Which daemon to talk to: a name given at `smm login --profile` (default: "default")',
  env: 'SMM_PROFILE',
  default: 'default',
  helpGroup: 'GLOBAL',
})

/** `--limit` of a list command: one page of at most this many. */
export const limit = Flags.integer({ description: 'Show at most this many (1 to 100)', min: 1, max: 100, default: 20 })

/** `--cursor` of a list command: the page after the one that printed this cursor. */
export const cursor = Flags.string({ description: 'Continue a list where a previous page ended (its next_cursor)' })

/**
 * A time flag (`--at`, `--from`, `--expires`…): RFC 3339, a local date-time or an English
 * phrase ("tomorrow 9am"), parsed to the API's UTC RFC 3339 form.
 */
export const time = Flags.custom<string>({
  helpValue: '<time>',
  parse: async (input) => toIso(await parseTimeInput(input)),
})

/** A duration flag (`--in 2h`, `--expires-in 30d`), parsed to milliseconds. */
export const duration = Flags.custom<number>({
  helpValue: '<duration>',
  parse: async (input) => parseDurationInput(input),
})

/** The time that a pair of flags `--at TIME` / `--in DURATION` names, or undefined for neither. */
export function timeFromFlags(at: string | undefined, inMs: number | undefined, now: number = Date.now()): string | undefined {
  if (at !== undefined) return at
  return inMs === undefined ? undefined : toIso(now + inMs)
}

/**
 * Spread into a flag that may be given several times. Each use takes exactly one value, so a
 * flag never swallows the arguments after it: `smm ai generate --platform feed "text"` and
 * `smm webhooks create --event post.published https://…` read as typed.
 */
export const repeatable = { multiple: true, multipleNonGreedy: true } as const

/**
 * A platform flag (`--platform mastodon`): one of the API's platform names. Call it with the
 * command's own description, and `...repeatable` where several may be named.
 */
export const platform = Flags.option({ options: PLATFORM_NAMES, helpValue: '<platform>' })

/** `--yes`: do what a destructive command does without asking first on a terminal. */
export const yes = Flags.boolean({ char: 'y', description: 'Do not ask for confirmation on a terminal' })
