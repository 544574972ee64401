import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { ownerOnlyFile } from '../../files.js'

/** Who holds a data dir: written beside the lock for the next daemon's error message. */
export interface LockHolder {
  pid: number
  started_at: string
  listen: string
}

export class DataDirInUseError extends Error {
  constructor(dataDir: string, holder: LockHolder | undefined) {
    const who = holder ? `smm daemon pid ${holder.pid} (started ${holder.started_at}, listening on ${holder.listen})` : 'another smm daemon'
    super(
      `The data dir ${dataDir} is in use by ${who}. Two daemons on one SQLite file would publish posts twice: ` +
        'stop that one first, or give this one its own --data-dir (several daemons share work only on PostgreSQL). ' +
        '`smm admin` commands work beside a running daemon.',
    )
    this.name = 'DataDirInUseError'
  }
}

export interface DataDirLock {
  release(): void
}

/**
 * Takes the data dir for this process alone. The lock is SQLite's own exclusive lock on a small
 * `daemon.lock` database: an OS file lock, so it dies with the process that held it (a crash or
 * SIGKILL never leaves a stale lock to clean up, and a reused pid cannot hold it). `smm admin`
 * does not take it, so it keeps working beside the daemon.
 */
export function lockDataDir(dataDir: string, listen: string): DataDirLock {
  const file = join(dataDir, 'daemon.lock')
  const holderFile = join(dataDir, 'daemon.pid')
  ownerOnlyFile(file)
  const lock = new Database(file, { timeout: 0 })
  try {
    lock.pragma('locking_mode = EXCLUSIVE')
    // The first write takes the exclusive lock; locking_mode keeps it until the connection closes.
    lock.exec('BEGIN EXCLUSIVE')
  } catch (error) {
    lock.close()
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error
    throw new DataDirInUseError(dataDir, readHolder(holderFile))
  }
  const holder: LockHolder = { pid: process.pid, started_at: new Date().toISOString(), listen }
  writeFileSync(holderFile, `${JSON.stringify(holder)}\n`, { mode: 0o600 })
  return {
    release() {
      if (!lock.open) return
      rmSync(holderFile, { force: true })
      lock.close()
    },
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LockHolder
  } catch {
    return undefined // written a moment after the lock is taken: the message then names no pid
  }
}
