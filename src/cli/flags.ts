import { Args, Flags } from '@oclif/core'
import { PLATFORM_NAMES } from '../api/common.js'
import { ROLES } from '../api/workspaces.js'
import { defaultDataDir } from '../config.js'
import { canonicalTimeZone, TIME_ZONE_HINT } from '../zoned-time.js'
import { parseDurationInput, parseIntervalInput } from './time-input.js'

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

/** `--account`: an account by id or by name; ApiCommand.accountId resolves it. Call it with the command's description. */
export const account = Flags.custom<string>({ helpValue: '<acc_…|name>' })

/** An account argument: an id (acc_…) or a name, resolved as `--account` is. */
export const accountArg = Args.string({ description: 'The account: its id (acc_…) or its name', required: true })

/** `--workspace` of a list or a create: one workspace by id (`smm workspaces list` shows them). */
export const workspace = Flags.custom<string>({ helpValue: '<wsp_…>' })

/** A workspace argument: its id. */
export const workspaceArg = Args.string({ description: 'The workspace id (wsp_…; see smm workspaces list)', required: true })

/** `--role`: a member's role in a workspace. */
export const role = Flags.option({ options: ROLES, helpValue: '<role>' })

/** `--limit` of a list command: one page of at most this many. */
export const limit = Flags.integer({ description: 'Show at most this many (1 to 100)', min: 1, max: 100, default: 20 })

/** `--cursor` of a list command: the page after the one that printed this cursor. */
export const cursor = Flags.string({ description: 'Continue a list where a previous page ended (its next_cursor)' })

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

/**
 * A per-platform text (`--text-for bluesky="Shorter, for Bluesky"`): a platform name, `=`, the
 * text that platform gets instead of the post's own (the request's `overrides.<platform>.content`).
 */
export const platformText = Flags.custom<{ platform: (typeof PLATFORM_NAMES)[number]; text: string }>({
  helpValue: '<platform>=<text>',
  parse: async (input) => {
    const at = input.indexOf('=')
    const name = at < 0 ? '' : input.slice(0, at).trim()
    if (at < 0) throw new Error(`"${input}" must be PLATFORM=TEXT, e.g. --text-for bluesky="A shorter version"`)
    if (!(PLATFORM_NAMES as readonly string[]).includes(name)) throw new Error(`"${name}" is not a platform (${PLATFORM_NAMES.join(', ')}); write PLATFORM=TEXT`)
    return { platform: name as (typeof PLATFORM_NAMES)[number], text: input.slice(at + 1) }
  },
})

/** `--yes`: do what a destructive command does without asking first on a terminal. */
export const yes = Flags.boolean({ char: 'y', description: 'Do not ask for confirmation on a terminal' })

/** A time zone flag (`--timezone Europe/Berlin`): an IANA name, spelled as the tz database does. */
export const timeZone = Flags.custom<string>({
  helpValue: '<zone>',
  parse: async (input) => {
    const zone = canonicalTimeZone(input.trim())
    if (zone === undefined) throw new Error(`"${input}" ${TIME_ZONE_HINT}`)
    return zone
  },
})

/**
 * A time flag (`--at`, `--from`, `--expires`…): RFC 3339, a local date-time or an English
 * phrase ("tomorrow 9am"). It keeps the text as typed: what it means depends on the user's zone,
 * which the command learns from the daemon (ApiCommand.instant reads it).
 */
export const time = Flags.custom<string>({
  helpValue: '<time>',
  parse: async (input) => input,
})

/**
 * A duration flag (`--in 2h`, `--expires-in 30d`), checked here and kept as typed, so every
 * message about it (oclif's "cannot also be provided" included) shows the user's words.
 */
export const duration = Flags.custom<string>({
  helpValue: '<duration>',
  parse: async (input) => {
    parseDurationInput(input)
    return input
  },
})

/** `--tz`: the zone times are read and shown in, instead of the user's profile zone. */
export const tz = timeZone({
  description: "IANA time zone to read and show times in (default: your profile's, see smm whoami)",
  helpGroup: 'GLOBAL',
})

/** `--every 1w`: how often a series repeats, checked here and sent as an ISO 8601 duration (P1W). */
export const every = Flags.custom<string>({
  helpValue: '<interval>',
  parse: async (input) => parseIntervalInput(input),
})

/**
 * `--media`: a local file (uploaded first), an uploaded media (med_…) or an https:// URL, read by
 * src/cli/media-input.ts. Call it with `...repeatable` and, where it differs, a description.
 */
export const media = Flags.custom<string>({
  description: 'A file to upload and attach (JPEG, PNG, GIF, WebP, MP4, MOV), an uploaded media (med_…) or an https:// URL (repeatable, in order)',
  helpValue: '<file|med_…|url>',
})

/** `--alt`: the alt text of the `--media` before it (media-input.ts pairs them). Call it with `...repeatable`. */
export const alt = Flags.custom<string>({
  description: 'Alt text of the --media right before it, read to people who cannot see it (repeatable)',
  helpValue: '<text>',
})

/** `--media-store`: where uploaded media's bytes are kept (the daemon's, and the admin commands that carry them). */
export const mediaStore = Flags.string({
  description:
    'Where uploaded media are kept: file:///DIR (a directory; on a mount every daemon shares, for several) or s3://BUCKET[/PREFIX] (any S3-compatible store, with SMM_S3_ENDPOINT, SMM_S3_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY); default: media/ in the data dir, which a daemon on PostgreSQL cannot use',
  env: 'SMM_MEDIA_STORE',
  helpValue: '<url>',
})
