import { EXIT } from './exit-codes.js'

/**
 * A failure the CLI finds itself, before or without an API answer (not logged in, no key on
 * standard input…): a stable code, a message that says what to do, and the exit code.
 */
export class CommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exit: number = EXIT.error,
  ) {
    super(message)
    this.name = 'CommandError'
  }
}

export const notLoggedIn = (detail: string) => new CommandError('not_logged_in', detail, EXIT.auth)
export const usageError = (code: string, detail: string) => new CommandError(code, detail, EXIT.usage)
