import { existsSync } from 'node:fs'
import type { Store } from './port.js'
import { databaseFileOf } from './sqlite/db.js'
import { openSqliteStore } from './sqlite/index.js'

export * from './port.js'
export { databaseFileOf } from './sqlite/db.js'
export { DataDirInUseError, lockDataDir } from './sqlite/data-dir-lock.js'
// The PostgreSQL driver is loaded only for a database URL: a daemon on SQLite never pays for it.
export { DatabaseUnreachableError, describeDatabase } from './postgres/url.js'


/** Where a daemon keeps its state: its data dir's SQLite file, or a PostgreSQL database several daemons share. */
export interface StoreLocation {
  dataDir: string
  /** `postgres://…`: the PostgreSQL database instead of the data dir's SQLite file. */
  databaseUrl?: string
  /** This daemon's id among those sharing a database: what its claims carry. */
  nodeId?: string
}

/**
 * Opens (creating and migrating if need be) the store at a location. `onBackgroundError` is for
 * a daemon: SQLite's checkpoints then run on a thread of their own, and report failures there.
 */
export async function openStore(location: StoreLocation, onBackgroundError?: (error: Error) => void): Promise<Store> {
  if (location.databaseUrl) return (await import('./postgres/index.js')).openPostgresStore(location.databaseUrl, { nodeId: location.nodeId })
  return openSqliteStore(databaseFileOf(location.dataDir), { backgroundCheckpoints: onBackgroundError })
}

/** The data dir has no database: no daemon has started on it yet (or it is the wrong dir). */
export class StoreNotFoundError extends Error {
  constructor(readonly file: string, dataDir: string) {
    super(`No smm database at ${file}. Start the daemon once with --data-dir ${dataDir}, or pass the --data-dir it uses.`)
    this.name = 'StoreNotFoundError'
  }
}

/**
 * Opens the store of a data dir that a daemon has already created, for `smm admin`: a missing
 * database is an error that says what to do, not a new empty one.
 */
export async function openExistingStore(location: StoreLocation): Promise<Store> {
  if (location.databaseUrl) return (await import('./postgres/index.js')).openPostgresStore(location.databaseUrl)
  const dataDir = location.dataDir
  const file = databaseFileOf(dataDir)
  if (!existsSync(file)) {
    throw new StoreNotFoundError(file, dataDir)
  }
  return openSqliteStore(file)
}
