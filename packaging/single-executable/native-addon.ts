import { createHash } from 'node:crypto'
import { accessSync, closeSync, constants, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** What a binary was built for: its addon runs only on this platform and CPU. */
export interface Target {
  platform: string
  arch: string
}

function targetName(t: Target): string {
  return `${t.platform}-${t.arch}`
}

/** Why this process cannot load an addon built for `builtFor`, or undefined when it can. */
export function platformMismatch(builtFor: Target, running: Target): string | undefined {
  if (builtFor.platform === running.platform && builtFor.arch === running.arch) return undefined
  return `This smm-daemon was built for ${targetName(builtFor)}, but this machine is ${targetName(running)}: use the ${targetName(running)} build.`
}

/** The sticky bit: in such a directory only a file's owner may rename or delete it. */
const S_ISVTX = 0o1000

export class UnsafeTempDirError extends Error {
  constructor(dir: string, why: string) {
    super(`Cannot load the SQLite addon from ${dir}: ${why}. Set SMM_TMPDIR (or TMPDIR) to a directory only this user can write.`)
    this.name = 'UnsafeTempDirError'
  }
}

function uid(): number {
  return process.getuid?.() ?? -1
}

/**
 * The directory the addon is copied into: `smm-<uid>` inside SMM_TMPDIR, TMPDIR or /tmp, made
 * 0700 and owned by this user. Its parent must be writable and either private to us (or root)
 * or sticky, so no other user can swap the file between our check and `dlopen`.
 */
export function privateTempDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.SMM_TMPDIR || env.TMPDIR || tmpdir()
  // Which setting named it: the one to change when it is wrong.
  const namedBy = env.SMM_TMPDIR ? 'SMM_TMPDIR' : env.TMPDIR ? 'TMPDIR' : undefined
  const source = namedBy ? ` (${namedBy} names it)` : ''
  let parent
  try {
    parent = statSync(base)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new UnsafeTempDirError(base, code === 'ENOENT' ? `the folder does not exist${source}` : `it cannot be used (${code})${source}`)
  }
  if (!parent.isDirectory()) throw new UnsafeTempDirError(base, `it is not a directory${source}`)
  try {
    accessSync(base, constants.W_OK | constants.X_OK)
  } catch {
    throw new UnsafeTempDirError(base, 'it is not writable')
  }
  if (parent.uid !== uid() && parent.uid !== 0) throw new UnsafeTempDirError(base, `it belongs to another user (uid ${parent.uid})`)
  if (parent.mode & 0o022 && !(parent.mode & S_ISVTX)) {
    throw new UnsafeTempDirError(base, 'other users can write it and it has no sticky bit, so they could replace the addon')
  }
  const dir = join(base, `smm-${uid()}`)
  try {
    mkdirSync(dir, { mode: 0o700 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new UnsafeTempDirError(base, `cannot create ${dir} (${(error as NodeJS.ErrnoException).code})`)
  }
  // lstat: a symlink planted under our name must not lead us elsewhere.
  const own = lstatSync(dir)
  if (!own.isDirectory()) throw new UnsafeTempDirError(dir, 'it exists and is not a directory')
  if (own.uid !== uid()) throw new UnsafeTempDirError(dir, `it belongs to another user (uid ${own.uid})`)
  if (own.mode & 0o077) throw new UnsafeTempDirError(dir, `other users may use it (mode ${(own.mode & 0o777).toString(8)})`)
  return dir
}

/**
 * Writes `bytes` into the private directory under a name from their hash (so versions never
 * collide and a second start reuses the copy) and returns its path. A copy that is there but
 * differs is replaced, atomically.
 */
export function privateCopy(dir: string, name: string, bytes: Uint8Array): string {
  const hash = createHash('sha256').update(bytes).digest('hex')
  const file = join(dir, `${hash.slice(0, 16)}-${name}`)
  try {
    if (createHash('sha256').update(readFileSync(file)).digest('hex') === hash) return file
  } catch {
    // Not there yet: written below.
  }
  // Written beside it, then renamed over it: a daemon and an admin command starting at once
  // each see a whole file. A partial left by a crash of a process with our pid goes first.
  const partial = `${file}.${process.pid}.partial`
  rmSync(partial, { force: true })
  const fd = openSync(partial, 'wx', 0o500)
  try {
    writeSync(fd, bytes)
  } finally {
    closeSync(fd)
  }
  renameSync(partial, file)
  return file
}

/** Loads a Node addon from `bytes` through a private copy; its `exports`. */
export function loadAddon(name: string, bytes: Uint8Array, env: NodeJS.ProcessEnv = process.env): unknown {
  const dir = privateTempDir(env)
  const file = privateCopy(dir, name, bytes)
  const module = { exports: {} }
  try {
    process.dlopen(module, file)
  } catch (error) {
    // Most often a temporary directory mounted noexec: the copy is there but cannot be mapped.
    throw new UnsafeTempDirError(dir, `${(error as Error).message.split('\n')[0]} (is it on a noexec mount?)`)
  }
  return module.exports
}
