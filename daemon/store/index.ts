import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Store } from './port.js'
import { openSqliteStore } from './sqlite/index.js'

export * from './port.js'
export { DataDirInUseError, lockDataDir } from './sqlite/data-dir-lock.js'

/** The SQLite file of a data dir. */
export const databaseFileOf = (dataDir: string) => join(dataDir, 'smm.db')

/** Opens (creating and migrating if need be) the store of a data dir. */
export function openStore(dataDir: string): Store {
  return openSqliteStore(databaseFileOf(dataDir))
}

/**
 * Opens the store of a data dir that a daemon has already created, for `smm admin`: a missing
 * database is an error that says what to do, not a new empty one.
 */
export function openExistingStore(dataDir: string): Store {
  const file = databaseFileOf(dataDir)
  if (!existsSync(file)) {
    throw new Error(`No smm database at ${file}. Start the daemon once with --data-dir ${dataDir}, or pass the --data-dir it uses.`)
  }
  return openSqliteStore(file)
}
