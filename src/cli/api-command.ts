import { readFileSync } from 'node:fs'
import { ux } from '@oclif/core'
import { ConnectionError } from '../client/errors.js'
import { SmmClient, type RetryEvent } from '../client/smm-client.js'
import type { TlsTrust } from '../client/tls.js'
import type { Account } from '../api/accounts.js'
import type { PlatformName } from '../api/common.js'
import type { PostListQuery, PostStatus } from '../api/posts.js'
import { ApiError } from '../errors.js'
import { toIso } from '../time.js'
import { addDays, canonicalTimeZone, isCivilDate, startOfDayInstant, systemTimeZone } from '../zoned-time.js'
import { BaseCommand } from './base-command.js'
import { CommandError, notLoggedIn, usageError } from './command-error.js'
import { EXIT } from './exit-codes.js'
import { Credentials } from './credentials.js'
import { profile, tz } from './flags.js'
import { setDisplayZone } from './output.js'
import { Profiles } from './profiles.js'
import { parseDurationInput, parseTimeInput, TimeInputError } from './time-input.js'

// The request fields that commands fill from flags or arguments of a different name. A field
// is said as the flag only by a command that has that flag: `url` is the URL argument of
// `webhooks create`, and stays `url` for a command that has no such thing.
const FIELD_WORDS: Record<string, string> = {
  account_id: '--account',
  scheduled_at: '--at',
  queue: '--queue',
  draft: '--draft',
  slots: '--slot',
  platforms: '--platform',
  platform: '--platform',
  content: '--text',
  media_urls: '--media',
  expires_at: '--expires',
  scopes: '--scope',
  events: '--event',
  cancel_posts: '--cancel-posts',
  repeat: '--every',
  first_comment: '--first-comment',
  thread: '--thread',
  overrides: '--text-for',
  'repeat/interval': '--every',
  'repeat/count': '--count',
  'repeat/until': '--until',
  series: '--series',
  series_id: '--series',
  workspace_id: '--workspace',
  timezone: '--timezone',
  post_id: '--post',
  credentials: '--credential',
  variants: '--variants',
  tone: '--tone',
  url: 'URL',
  name: 'NAME',
  prompt: 'PROMPT',
}

/** Where a command sends its requests, and with which key. */
export interface Connection {
  profile: string
  url: string
  trust: TlsTrust
  apiKey?: string
}

function sameOrigin(a: string, b: string): boolean {
  const origin = (url: string) => new URL(url).origin
  try {
    return origin(a) === origin(b)
  } catch {
    return false // an unparsable SMM_URL is reported when the client is built from it
  }
}

function readCa(file: string, source: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    throw new CommandError('ca_file_unreadable', `${source} ${file}: ${(error as Error).message}`)
  }
}

/**
 * The base of every command that calls the API: it adds `--profile`, finds the daemon, its
 * certificate and the key (environment first, then the profile and the keychain), and hands
 * the command a ready client. `SMM_URL`, `SMM_API_KEY` and `SMM_CA_FILE` override the profile;
 * a profile's pinned certificate and key are used only for its own URL.
 *
 * A command is then a few lines (commands/keys/create.ts is the model):
 * ```ts
 * async run(): Promise<Post> {
 *   const { flags } = await this.parse(PostsShow)
 *   const post = await this.waitFor('Fetching', (await this.client()).getPost({ params: { id: flags.id } }))
 *   if (!this.jsonEnabled()) this.log(details([['Status', post.status]]))
 *   return post // what --json prints
 * }
 * ```
 */
export abstract class ApiCommand extends BaseCommand {
  static override baseFlags = { profile, tz }

  protected profileName = 'default'
  #tz: string | undefined
  #url: string | undefined
  #client: SmmClient | undefined
  #zone: Promise<string> | undefined

  override async init(): Promise<void> {
    await super.init()
    // The command parses again in run(); parsing here gives every command its profile first.
    const { flags } = await this.parse(this.ctor as typeof ApiCommand)
    this.profileName = (flags as { profile: string }).profile
    this.#tz = (flags as { tz?: string }).tz
  }

  /** A refused connection is a daemon that is not running: say so, and how to start it. */
  protected override async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<void> {
    const cause = (error as { cause?: { code?: string } }).cause
    if (error instanceof ConnectionError && cause?.code === 'ECONNREFUSED' && this.#url) {
      const where = this.profileName === 'default' ? 'smm login --url …' : `smm login --profile ${this.profileName} --url …`
      return super.catch(
        new CommandError(
          'daemon_not_running',
          `No daemon is running at ${this.#url} (the connection was refused). Start it there with \`${this.config.bin} daemon\`, or point this profile at the right one with \`${where}\` (or SMM_URL).`,
        ),
      )
    }
    return super.catch(error)
  }

  protected override wordFor(field: string): string | undefined {
    const word = FIELD_WORDS[field]
    if (!word) return undefined
    const own = word.startsWith('--') ? this.ctor.flags?.[word.slice(2)] : this.ctor.args?.[word.toLowerCase()]
    return own ? word : undefined
  }

  /** ` --profile NAME` for a command line this command suggests, when the profile is not the default. */
  protected profileFlag(): string {
    return this.profileName === 'default' ? '' : ` --profile ${this.profileName}`
  }

  /** The connection settings of the selected profile, with the environment's overrides. */
  protected async connection(): Promise<Connection> {
    const env = process.env
    const name = this.profileName
    const saved = new Profiles().get(name)
    const url = env.SMM_URL || saved?.url
    const where = name === 'default' ? '' : ` on profile "${name}"`
    if (!url) throw notLoggedIn(`Not logged in${where}: run \`smm login --url https://HOST:8443${this.profileFlag()}\`, or set SMM_URL and SMM_API_KEY.`)
    const own = saved && sameOrigin(url, saved.url) ? saved : undefined
    const trust: TlsTrust = env.SMM_CA_FILE
      ? { ca: readCa(env.SMM_CA_FILE, 'SMM_CA_FILE') }
      : own?.fingerprint
        ? { fingerprint: own.fingerprint }
        : own?.ca_file
          ? { ca: readCa(own.ca_file, `The CA file of profile "${name}",`) }
          : {}
    let apiKey = env.SMM_API_KEY || undefined
    if (!apiKey && own) {
      const stored = await new Credentials().get(name)
      apiKey = stored.key
      if (!apiKey) {
        const why = stored.keychainError ? ` (the OS keychain could not be read: ${stored.keychainError})` : ''
        throw notLoggedIn(`No API key for ${url}${where}${why}: run \`smm login --url ${url}${this.profileFlag()}\` again, or set SMM_API_KEY.`)
      }
    }
    if (!apiKey) throw notLoggedIn(`No API key for ${url}: set SMM_API_KEY, or run \`smm login --url ${url}${this.profileFlag()}\`.`)
    return { profile: name, url, trust, apiKey }
  }

  /** The API client of this command's profile. */
  protected async client(): Promise<SmmClient> {
    if (this.#client) return this.#client
    const client = await this.#connected()
    // Human output shows times in the user's zone: learn it before anything is printed.
    if (!this.jsonEnabled()) setDisplayZone(await this.timeZone())
    return client
  }

  async #connected(): Promise<SmmClient> {
    return (this.#client ??= this.createClient(await this.connection()))
  }

  /**
   * The zone this command reads and shows times in: --tz, else the user's profile zone (GET
   * /v1/me, as the calendar and analytics use), else the system's when the key may not read
   * the profile.
   */
  protected timeZone(): Promise<string> {
    this.#zone ??= (async () => {
      if (this.#tz) return this.#tz
      try {
        const me = await (await this.#connected()).getMe()
        return canonicalTimeZone(me.timezone) ?? systemTimeZone()
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) return systemTimeZone()
        throw error
      }
    })()
    return this.#zone
  }

  /** The list query of `postFilters` flags: the states named (else `defaults`; none with --every-status or --series), the account resolved, the range read in the user's zone. */
  protected async postQuery(
    flags: { status?: PostStatus[]; 'every-status'?: boolean; account?: string; platform?: PlatformName; series?: string; workspace?: string; from?: string; to?: string },
    defaults: readonly PostStatus[],
  ): Promise<Pick<PostListQuery, 'status' | 'account_id' | 'platform' | 'series_id' | 'workspace_id' | 'from' | 'to'>> {
    // A series is listed whole (what was published, what comes) unless states are named.
    const statuses = flags['every-status'] || (flags.series !== undefined && !flags.status) ? undefined : (flags.status ?? defaults)
    return {
      status: statuses?.join(','),
      account_id: flags.account && (await this.accountId('--account', flags.account)),
      platform: flags.platform,
      series_id: flags.series,
      workspace_id: flags.workspace,
      from: await this.instant('--from', flags.from, true),
      to: await this.instant('--to', flags.to, true),
    }
  }

  /**
   * The instant a time flag names, as the API writes it, read in the user's zone; a bad one is a
   * usage error that names the flag. `dayStart`: a bare day ("today") is its start, for ranges.
   */
  protected async instant(flag: string, text: string | undefined, dayStart = false): Promise<string | undefined> {
    if (text === undefined) return undefined
    try {
      return toIso(await parseTimeInput(text, { timeZone: await this.timeZone(), dayStart }))
    } catch (error) {
      if (error instanceof TimeInputError) throw usageError('invalid_flag', `${flag}: ${error.message}`)
      throw error
    }
  }

  /**
   * The account a person named (`--account`, or an argument): its id (acc_…), or its name,
   * unique among their accounts (case does not matter). A name that fits none or several is a
   * usage error that names the flag and what to type instead.
   */
  protected async accountId(what: string, value: string): Promise<string> {
    if (value.startsWith('acc_')) return value
    const client = await this.client()
    const all: Account[] = []
    for await (const account of client.paginate('listAccounts', { query: { limit: 100 } })) all.push(account)
    const wanted = value.trim().toLowerCase()
    const matches = all.filter((a) => a.name.toLowerCase() === wanted)
    if (matches.length === 1) return matches[0]!.id
    const named = (accounts: Account[]) => accounts.map((a) => `${a.id} (${a.name})`).join(', ')
    if (matches.length > 1) throw usageError('ambiguous_account', `${what}: ${matches.length} accounts are named "${value}": ${named(matches)}; give the id.`)
    const yours = all.length ? `your accounts are ${named(all)}` : `you have none yet (\`${this.config.bin} accounts create NAME${this.profileFlag()}\`)`
    throw new CommandError('unknown_account', `${what}: no account is named "${value}"; ${yours}.`, EXIT.notFound)
  }

  /** A series' end as --until reads it: as --at does, except that a bare date includes its day (until its last moment). */
  protected async untilInstant(what: string, text: string): Promise<string | undefined> {
    if (!isCivilDate(text.trim())) return this.instant(what, text)
    return toIso(startOfDayInstant(addDays(text.trim(), 1), await this.timeZone()) - 1)
  }

  /** The time that a pair of flags `--at TIME` / `--in DURATION` names, or undefined for neither. */
  protected async scheduledTime(at: string | undefined, after: string | undefined, flags = { at: '--at', in: '--in' }): Promise<string | undefined> {
    if (at !== undefined) return this.instant(flags.at, at)
    return after === undefined ? undefined : toIso(Date.now() + parseDurationInput(after))
  }

  /** A client for explicit settings (login has no profile yet); closed when the command ends. */
  protected createClient(connection: Omit<Connection, 'profile'>): SmmClient {
    this.#url = connection.url
    let client: SmmClient
    try {
      client = new SmmClient({
        url: connection.url,
        apiKey: connection.apiKey,
        ...connection.trust,
        onRetry: (event) => this.retryNotice(event),
      })
    } catch (error) {
      throw new CommandError('invalid_url', `The daemon URL ${(error as Error).message.replace(/^url: /, '')}`, EXIT.usage)
    }
    this.#client?.close()
    this.#client = client
    return client
  }

  /** Says why nothing seems to happen while a short Retry-After is waited out. */
  protected retryNotice({ error, waitSeconds }: RetryEvent): void {
    process.stderr.write(`${error.message.replace(/\s*Retry after.*$/, '')} Waiting ${waitSeconds} s, then retrying once.\n`)
  }

  /**
   * Runs work behind a spinner on an interactive terminal. The spinner shows only once the
   * wait is long enough to notice, so quick answers print nothing extra.
   */
  protected async waitFor<T>(label: string, work: Promise<T>): Promise<T> {
    if (!process.stderr.isTTY || this.jsonEnabled()) return work
    const timer = setTimeout(() => ux.action.start(label), 200)
    try {
      return await work
    } finally {
      clearTimeout(timer)
      if (ux.action.running) ux.action.stop()
    }
  }

  /** Whether a long transfer may draw its progress: on a terminal, for a person (not --json). */
  protected showsProgress(): boolean {
    return process.stderr.isTTY === true && !this.jsonEnabled()
  }

  override async finally(error: Error | undefined): Promise<unknown> {
    this.#client?.close()
    return super.finally(error)
  }
}
