// What bin/run.js asks first: can this invocation be answered without loading oclif? The root
// help (`smm`, `smm --help`, `smm help`) and `smm version` / `smm --version` can, from
// dist/root-help.json (written by scripts/build-cli.ts), when oclif would surely print the same:
// no colour forced, no theme file, a platform whose colour decision is the plain TTY one.
// Anything else, or any doubt, returns false and oclif answers as always.
//
// It loads node:fs alone, and by require(): each other built-in module costs milliseconds here,
// where the whole answer should take little more than Node's own start, and importing node:fs
// as ESM builds its ESM facade, which reads every export, loading Node's streams (~3 ms).
import { createRequire } from 'node:module'
import { renderRootHelp, type RootHelpIndex, type Screen } from './root-help.js'

const requireBuiltin = createRequire(import.meta.url)
const { existsSync, fstatSync, readFileSync, writeSync } = requireBuiltin('node:fs') as typeof import('node:fs')

const ROOT_HELP = new Set(['', '--help', 'help'])

/** Answers `argv` (process.argv after the script) from the index at `indexUrl`; false when oclif must. */
export function answerWithoutOclif(argv: string[], indexUrl: URL): boolean {
  const asked = argv.join(' ')
  const kind = ROOT_HELP.has(asked) ? 'help' : asked === 'version' ? 'version' : asked === '--version' ? 'user-agent' : undefined
  if (!kind || process.platform === 'win32') return false
  const screen = oclifScreen()
  if (!screen || themed()) return false
  const index = readIndex(indexUrl)
  if (!index) return false
  const platform = `${process.platform}-${process.arch}`
  const userAgent = `${index.bin}/${index.version} ${platform} node-${process.version}`
  const text =
    kind === 'help'
      ? renderRootHelp(index, userAgent, screen)
      : kind === 'version'
        ? `${index.bin} ${index.version} (Node.js ${process.version}, ${platform})\n`
        : `${userAgent}\n`
  writeOut(text)
  return true
}

/**
 * Writes to standard output without making process.stdout (a stream, which loads Node's stream
 * modules). A pipe that is non-blocking and full gets the rest through process.stdout.
 */
function writeOut(text: string): void {
  const bytes = Buffer.from(text)
  let written = 0
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error
    process.stdout.write(bytes.subarray(written))
  }
}

function readIndex(url: URL): RootHelpIndex | undefined {
  try {
    const index = JSON.parse(readFileSync(url, 'utf8')) as RootHelpIndex
    return index.usable ? index : undefined
  } catch (error) {
    // No index (a build without it, or a broken one): oclif answers, and says what is wrong if anything is.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return undefined
    throw error
  }
}

/**
 * The width and colour oclif's help would use (its screen module and supports-color 8), or
 * undefined where that decision takes more than the plain rules below (forced colour, a CI
 * or TeamCity environment, colour flags), so that oclif decides.
 */
function oclifScreen(): Screen | undefined {
  const { env } = process
  if ('FORCE_COLOR' in env || 'CI' in env || 'TEAMCITY_VERSION' in env || 'TF_BUILD' in env) return undefined
  const tty = isTerminal(1) && isTerminal(2)
  const term = String(env.TERM)
  const bold =
    tty &&
    term !== 'dumb' &&
    (env.COLORTERM === 'truecolor' ||
      env.TERM_PROGRAM === 'iTerm.app' ||
      env.TERM_PROGRAM === 'Apple_Terminal' ||
      /-256(color)?$/i.test(term) ||
      /^screen|^xterm|^vt100|^vt220|^rxvt|color|ansi|cygwin|linux/i.test(term) ||
      'COLORTERM' in env)
  const forced = Number.parseInt(env.OCLIF_COLUMNS ?? '', 10)
  let columns = 80
  if (forced) columns = forced
  else if (isTerminal(1)) {
    const measured = process.stdout.getWindowSize()[0]
    columns = measured < 1 ? 80 : Math.max(measured, 40)
  }
  return { columns, bold }
}

/**
 * Whether a descriptor is a terminal, as process.stdout.isTTY says, without making the stream:
 * only a character device can be one (a pipe or a file, what scripts give, never is).
 */
function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false
  } catch (error) {
    // A closed descriptor is no terminal (and oclif's streams would say the same).
    if ((error as NodeJS.ErrnoException).code === 'EBADF') return false
    throw error
  }
  const tty = requireBuiltin('node:tty') as typeof import('node:tty')
  return tty.isatty(fd)
}

/** Whether oclif would colour its help with a theme (SMM_DISABLE_THEME aside, a theme file). */
function themed(): boolean {
  const { env } = process
  if (env.SMM_CONFIG_DIR) return true
  // oclif's home is $HOME first too; without one, let oclif find it.
  if (!env.XDG_CONFIG_HOME && !env.HOME) return true
  const base = env.XDG_CONFIG_HOME || `${env.HOME}/.config`
  return existsSync(`${base}/smm/theme.json`)
}
