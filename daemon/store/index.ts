import { existsSync } from 'node:fs'
import type { Store } from './port.js'
import { DatabaseUnreachableError } from './postgres/url.js'
import { databaseFileOf } from './sqlite/db.js'
import { openSqliteStore } from './sqlite/index.js'

export * from './port.js'
export { whileUnavailable } from './outage.js'
export { workspaceEventOf } from './rows.js'
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
  /** The publish lease: a shared database's sessions keep their statements and idle transactions well within it. */
  leaseMs?: number
}

/** How a store is opened. */
export interface OpenOptions {
  /**
   * For the operator's commands (`smm admin`), on a location a daemon has already made: a data
   * dir with no database is a StoreNotFoundError that says what to do, not a new empty database,
   * and a database that is there but cannot be opened is a StoreUnopenableError naming it.
   */
  existing?: boolean
  /** For a daemon: SQLite's checkpoints run on a thread of their own and report failures here. */
  onBackgroundError?: (error: Error) => void
}

/** The data dir has no database: no daemon has started on it yet (or it is the wrong dir). */
export class StoreNotFoundError extends Error {
  constructor(readonly file: string, dataDir: string) {
    super(`No smm database at ${file}. Start the daemon once with --data-dir ${dataDir}, or pass the --data-dir it uses.`)
    this.name = 'StoreNotFoundError'
  }
}

/** A database that is there but cannot be opened (unreadable, not a database, a newer schema, a lock): which one, and why. */
export class StoreUnopenableError extends Error {
  constructor(where: string, why: string) {
    super(why.includes(where) ? why : `Cannot open ${where}: ${why}`)
    this.name = 'StoreUnopenableError'
  }
}

/**
 * Opens the store at a location: the one factory the daemon and the operator's commands both
 * use. A daemon's location is created and migrated if need be; see `existing` for the others.
 * A PostgreSQL server that does not answer is a DatabaseUnreachableError either way.
 */
export async function openStore(location: StoreLocation, options: OpenOptions = {}): Promise<Store> {
  if (!options.existing) return open(location, options.onBackgroundError)
  const file = databaseFileOf(location.dataDir)
  if (!location.databaseUrl && !existsSync(file)) throw new StoreNotFoundError(file, location.dataDir)
  try {
    return await open(location)
  } catch (error) {
    if (error instanceof DatabaseUnreachableError) throw error
    throw new StoreUnopenableError(location.databaseUrl ? 'the PostgreSQL database' : file, (error as Error).message)
  }
}

async function open(location: StoreLocation, onBackgroundError?: (error: Error) => void): Promise<Store> {
  if (location.databaseUrl) return (await import('./postgres/index.js')).openPostgresStore(location.databaseUrl, { nodeId: location.nodeId, leaseMs: location.leaseMs })
  return openSqliteStore(databaseFileOf(location.dataDir), { backgroundCheckpoints: onBackgroundError })
}
