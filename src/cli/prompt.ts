import { createInterface } from 'node:readline/promises'
import { CommandError, usageError } from './command-error.js'

/** Whether a person can answer questions: both standard input and standard error are terminals. */
export function interactive(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY)
}

/** Everything on standard input, until it closes. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** A yes/no question on the terminal; only "y" or "yes" is yes. */
export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim())
  } finally {
    rl.close()
  }
}

/**
 * Asks for a secret on the terminal without echoing it. Raw mode lets us see each key: Enter
 * ends, Backspace erases, Ctrl-C and Ctrl-D abort (an abort is an error, not an empty key).
 */
export function askHidden(question: string): Promise<string> {
  const stdin = process.stdin
  // Echo goes off before the prompt shows: a key pasted the moment it appears is not echoed.
  stdin.setRawMode(true)
  process.stderr.write(question)
  return new Promise((resolve, reject) => {
    let value = ''
    const done = (error?: Error) => {
      stdin.off('data', onData)
      stdin.setRawMode(false)
      stdin.pause()
      process.stderr.write('\n')
      if (error) reject(error)
      else resolve(value)
    }
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return done()
        if (char === '\u0003' || char === '\u0004') return done(new CommandError('cancelled', 'Cancelled.'))
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1)
        else if (char >= ' ') value += char
      }
    }
    stdin.resume()
    stdin.on('data', onData)
  })
}

/**
 * Asks before something that cannot be undone, unless --yes. With no terminal to ask on (a
 * script, a pipe) it refuses as a usage error: a script that deletes says so with --yes, and
 * one that forgot it deletes nothing. A "no" is an error too, so nothing after it runs.
 */
export async function confirmOrStop(question: string, yes: boolean, kept: string): Promise<void> {
  if (yes) return
  if (!interactive()) {
    const action = question.replace(/\?$/, '').replace(/^./, (c) => c.toLowerCase())
    throw usageError('confirmation_required', `Not going to ${action} without --yes: there is no terminal to ask on. Pass --yes to do it; nothing was changed.`)
  }
  if (!(await confirm(`${question} [y/N] `))) throw new CommandError('not_confirmed', kept)
}
