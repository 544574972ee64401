import { accessSync, chmodSync, closeSync, constants, existsSync, mkdirSync, openSync, statSync } from 'node:fs'
import { userInfo } from 'node:os'
import { join } from 'node:path'

/** Files in the data dir hold credentials and keys: only the daemon's user reads them. */
const OWNER_ONLY = 0o600

/**
 * Creates `file` (empty) if it is absent, and makes it, and the SQLite files beside it, readable
 * by its owner alone whatever the umask. SQLite gives its `-wal` and `-shm` the database file's
 * own mode, so setting the database's before SQLite opens it covers them.
 */
export function ownerOnlyFile(file: string): void {
  closeSync(openSync(file, 'a', OWNER_ONLY))
  for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, OWNER_ONLY)
}

function whoAmI(): string {
  const { username, uid } = userInfo()
  return `user ${username} (uid ${uid})`
}

/** The error a user sees when the daemon cannot write its data: which path, which user, what to do. */
export class NotWritableError extends Error {
  constructor(path: string, dataDir: string, cause: NodeJS.ErrnoException) {
    const why = cause.code === 'EROFS' ? 'it is on a read-only file system' : `it is not writable by ${whoAmI()}, as whom the daemon runs`
    super(`smm cannot write ${path}: ${why} (${cause.code}). Give that user write access (e.g. chown -R ${userInfo().username} ${dataDir}), or choose another --data-dir.`, { cause })
    this.name = 'NotWritableError'
  }
}

/**
 * Makes the data dir (0700) and checks, before anything is opened, that the daemon can write it
 * and its database, so a read-only one fails with its path and the user instead of SQLite's
 * "attempt to write a readonly database". Returns a warning when others may read the dir.
 */
export function prepareDataDir(dataDir: string): { warning?: string } {
  const check = (path: string, mode: number) => {
    try {
      accessSync(path, mode)
    } catch (error) {
      throw new NotWritableError(path, dataDir, error as NodeJS.ErrnoException)
    }
  }
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  } catch (error) {
    throw new NotWritableError(dataDir, dataDir, error as NodeJS.ErrnoException)
  }
  check(dataDir, constants.R_OK | constants.W_OK | constants.X_OK)
  const database = join(dataDir, 'smm.db')
  for (const path of [database, `${database}-wal`, `${database}-shm`]) if (existsSync(path)) check(path, constants.R_OK | constants.W_OK)
  const mode = statSync(dataDir).mode & 0o777
  if (process.platform === 'win32' || (mode & 0o077) === 0) return {}
  return {
    warning: `The data dir ${dataDir} is readable by other users (mode ${mode.toString(8)}); its files are not, but their names and sizes are. Run: chmod 700 ${dataDir}`,
  }
}
