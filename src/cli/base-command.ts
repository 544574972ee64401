import { Command, Errors } from '@oclif/core'
import { ApiError } from '../errors.js'
import { EXIT, exitCodeForStatus } from './exit-codes.js'

/** One line for a person: the problem's detail, then each field error. */
export function describeError(error: ApiError): string {
  const fields = error.errors.map((e) => `${e.pointer.replace(/^#\//, '') || 'body'}: ${e.detail}`)
  return [error.message, ...fields].join(fields.length ? '\n  ' : '')
}

/**
 * The base of every smm command: it renders an API problem (or any error) as one clear line on
 * stderr, or as the problem object with --json, and sets the exit code; commands just throw.
 */
export abstract class BaseCommand extends Command {
  static override enableJsonFlag = true

  protected override async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<void> {
    if (error instanceof ApiError) {
      process.exitCode = exitCodeForStatus(error.status)
      if (this.jsonEnabled()) this.logJson(error.toProblem())
      else process.stderr.write(`Error: ${describeError(error)}\n`)
      return
    }
    if (error instanceof Errors.CLIError || error instanceof Errors.ExitError) {
      // oclif's own parse errors (a missing argument, an unknown flag) are usage errors.
      if (/flag|argument|Unexpected/i.test(error.message)) error.oclif = { ...error.oclif, exit: EXIT.usage }
      return super.catch(error)
    }
    // Anything else (a file that is missing, a port in use): its message, on one line.
    process.exitCode = EXIT.error
    if (this.jsonEnabled()) this.logJson({ error: error.message })
    else process.stderr.write(`Error: ${error.message}\n`)
  }
}
