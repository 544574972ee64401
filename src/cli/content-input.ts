import { readFileSync } from 'node:fs'
import { usageError } from './command-error.js'
import { readStdin } from './prompt.js'

/** Where a post's text may come from, and what to say when it is missing. */
export interface ContentSources {
  text?: string
  /** A file to read; `-` is standard input. */
  file?: string
  /** Read standard input when neither is given and it is not a terminal (a pipe or a file). */
  stdinWhenPiped: boolean
  /** The error for a person at a terminal who gave no text, or undefined when text is optional. */
  missing?: string
}

// `echo "…" | smm posts create` and files saved by editors end with a newline nobody meant to post.
const withoutFinalNewline = (text: string) => text.replace(/\r?\n$/, '')

/**
 * A post's text from --text, --file or standard input. Standard input on a terminal is never
 * waited on: a person who forgot --text would see a command that hangs.
 */
export async function readContent(sources: ContentSources): Promise<string | undefined> {
  if (sources.text !== undefined) return sources.text
  if (sources.file === '-') return withoutFinalNewline(await readStdin())
  if (sources.file !== undefined) {
    try {
      return withoutFinalNewline(readFileSync(sources.file, 'utf8'))
    } catch (error) {
      throw usageError('file_unreadable', `--file ${sources.file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`)
    }
  }
  if (!sources.stdinWhenPiped) return undefined
  if (process.stdin.isTTY) {
    if (sources.missing) throw usageError('content_missing', sources.missing)
    return undefined
  }
  const piped = withoutFinalNewline(await readStdin())
  return piped === '' ? undefined : piped
}
