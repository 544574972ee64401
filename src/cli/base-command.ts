import { Command, Errors, toConfiguredId, type Interfaces } from '@oclif/core'
import { ConnectionError } from '../client/errors.js'
import { ApiError } from '../errors.js'
import { CommandError } from './command-error.js'
import { EXIT, exitCodeForStatus } from './exit-codes.js'
import { argumentsFromFlags, unknownFlagsMessage, type UnknownFlagsInput } from './unknown-flags.js'

/**
 * One line for a person: the problem's detail, then each field error. `words` names a request
 * field in the user's terms (scheduled_at is `--at`); a pointer into a field keeps its path
 * (`--platform 2` is the second --platform).
 */
export function describeError(error: ApiError, words: (field: string) => string | undefined = () => undefined): string {
  const place = (pointer: string) => {
    // A field inside another may have a flag of its own (repeat/until is --until).
    const own = words(pointer.replace(/^#\//, ''))
    if (own) return own
    const [field = '', ...rest] = pointer.replace(/^#\//, '').split('/')
    const word = words(field)
    if (!word) return pointer.replace(/^#\//, '') || 'body'
    return [word, ...rest.map((part) => (/^\d+$/.test(part) ? String(Number(part) + 1) : part))].join(' ')
  }
  // The API names fields as it spells them (account_id, cancel_posts=true): each one the command
  // has a word for is said so, and the headline of a validation error lists them the same way.
  const places = [...new Set(error.errors.map((e) => (words(e.pointer.replace(/^#\//, '')) ? place(e.pointer) : place(e.pointer.replace(/^(#\/[^/]*).*$/, '$1')))))]
  const inWords = (text: string) => asCommands(text).replace(/\b([a-z]+_[a-z_]+|[a-z]+(?==true))(=true)?\b/g, (match, field: string) => words(field) ?? match)
  const message = inWords(error.message.replace(/^(The request has \d+ invalid fields?): .*\.$/, (_, head: string) => `${head}: ${places.join(', ')}.`))
  // A detail may name another field too ("unless media_urls has …"): said the same way. One
  // that only repeats the headline (a problem about one field) is not said twice.
  const fields = error.errors.filter((e) => e.detail !== error.message).map((e) => `${place(e.pointer)}: ${inWords(e.detail)}`)
  return [message, ...fields].join(fields.length ? '\n  ' : '')
}

/**
 * The API's hints name its requests ("connect it with POST /v1/accounts/acc_1/connections"); a
 * person at the CLI is told the command instead. Backquoted, as the CLI's other hints are.
 */
const API_HINTS: [RegExp, string][] = [
  [/is not connected to (\w+); connect it with POST \/v1\/accounts\/(acc_\w+)\/connections/g, 'is not connected to $1; connect it with `smm accounts connect $2 --platform $1`'],
  [/(whk_\w+)( is disabled .*); enable it with PATCH \{"enabled": true\} first/g, '$1$2; enable it with `smm webhooks update $1 --enable` first'],
  [/with PUT \/v1\/accounts\/(acc_\w+)\/queue/g, 'with `smm accounts queue set $1 --slot "mon 09:00"`'],
  [/; leave it out for (\w+) with "overrides": \{"\w+": \{"first_comment": null\}\}/g, '; leave out --first-comment, or post to $1 in a post of its own'],
]

function asCommands(text: string): string {
  return API_HINTS.reduce((said, [pattern, command]) => said.replace(pattern, command), text)
}

/** How a failure is shown: its exit code, one line for a person, an object for --json. */
interface Failure {
  exit: number
  line: string
  json: Record<string, unknown>
}

// oclif wraps a flag's own parse error as "Parsing --at \n\t<why>\nSee more help with --help".
const FLAG_PARSE = /^Parsing --([\w-]+) \n\t([\s\S]*?)\nSee more help with --help$/

function failureOf(error: Error, words: (field: string) => string | undefined): Failure | undefined {
  if (error instanceof ApiError) {
    // The daemon's problem again, as it sent it: its `instance` is the request id.
    return { exit: exitCodeForStatus(error.status), line: describeError(error, words), json: { ...error.toProblem(error.headers['x-request-id']) } }
  }
  if (error instanceof ConnectionError || error instanceof CommandError) {
    const exit = error instanceof CommandError ? error.exit : EXIT.error
    let line = error.message
    if (error instanceof ConnectionError && error.code === 'certificate_untrusted') line += ' With smm: --ca FILE at login (or SMM_CA_FILE), or log in again to pin it.'
    return { exit, line, json: { code: error.code, detail: line } }
  }
  const flagParse = FLAG_PARSE.exec(error.message)
  if (flagParse) return { exit: EXIT.usage, line: `--${flagParse[1]}: ${flagParse[2]}`, json: { code: 'invalid_flag', detail: `--${flagParse[1]}: ${flagParse[2]}` } }
  // oclif's own parse errors (a missing argument, an unknown flag, a bad option) are usage errors.
  if (error instanceof Errors.CLIError && 'parse' in error) {
    return { exit: EXIT.usage, line: error.message, json: { code: 'usage_error', detail: error.message.replace(/\nSee more help with --help$/, '') } }
  }
  // Anything else that is not oclif's own (a missing file, a port in use, a newer database):
  // its message on one line, not a stack.
  if (!(error instanceof Errors.CLIError)) return { exit: EXIT.error, line: error.message, json: { code: 'error', detail: error.message } }
  return undefined
}

/**
 * The base of every smm command: it renders an API problem (or any failure it knows) as one
 * clear line on stderr, or as an object with --json, and sets the exit code; commands just throw.
 */
export abstract class BaseCommand extends Command {
  static override enableJsonFlag = true

  /** How this command's user names a request field (a flag, or an argument), if they do. */
  protected wordFor(_field: string): string | undefined {
    return undefined
  }

  /** oclif's parse, after moving arguments given as flags (`--url https://…`) to their places. */
  protected override async parse<F extends Interfaces.OutputFlags<any>, B extends Interfaces.OutputFlags<any>, A extends Interfaces.OutputArgs<any>>(
    options?: Interfaces.Input<F, B, A>,
    argv: string[] = this.argv,
  ): Promise<Interfaces.ParserOutput<F, B, A>> {
    const flags = { ...options?.baseFlags, ...options?.flags }
    return super.parse(options, options?.strict === false ? argv : argumentsFromFlags(argv, flags, options?.args ?? {}))
  }

  protected override async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<void> {
    if (error instanceof Errors.ExitError) throw error
    const failure = this.unknownFlags(error) ?? failureOf(error, (field) => this.wordFor(field))
    if (!failure) return super.catch(error)
    process.exitCode = failure.exit
    // A script reads the result from stdout: a failure is the problem object, on stderr.
    if (this.jsonEnabled()) process.stderr.write(`${JSON.stringify(failure.json, null, 2)}\n`)
    else process.stderr.write(`Error: ${failure.line}\n`)
  }

  /** oclif's "Nonexistent flags: --events" as what to type instead. */
  private unknownFlags(error: Error): Failure | undefined {
    const parse = (error as { parse?: { input?: Pick<UnknownFlagsInput, 'argv' | 'flags' | 'args'> } }).parse?.input
    const unknown = (error as { flags?: unknown }).flags
    if (!(error instanceof Errors.CLIError) || !parse || !Array.isArray(unknown)) return undefined
    const command = `${this.config.bin} ${toConfiguredId(this.id ?? '', this.config)}`
    const line = unknownFlagsMessage({ unknown: unknown as string[], argv: parse.argv, flags: parse.flags, args: parse.args, command })
    return { exit: EXIT.usage, line, json: { code: 'unknown_flag', detail: line } }
  }
}
