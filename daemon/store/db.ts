import Database from 'better-sqlite3'
import { migrations as defaultMigrations, type Migration } from './migrations/index.js'

export type Db = Database.Database

/** The newest schema version this code knows. */
export function schemaVersion(list: Migration[] = defaultMigrations): number {
  return list.reduce((max, m) => Math.max(max, m.version), 0)
}

export class SchemaTooNewError extends Error {
  constructor(found: number, known: number, file: string) {
    super(
      `The database ${file} has schema version ${found}, but this smm knows versions up to ${known}. ` +
        'It was written by a newer smm: upgrade smm, or restore a backup taken before the upgrade.',
    )
    this.name = 'SchemaTooNewError'
  }
}

/**
 * Opens (creating if need be) the SQLite file in WAL mode and brings its schema up to date,
 * one migration per transaction, so a failed step leaves the previous version intact.
 */
export function openDatabase(file: string, list: Migration[] = defaultMigrations): Db {
  const db = new Database(file)
  try {
    db.pragma('journal_mode = WAL')
    // NORMAL in WAL mode is durable across application crashes; only power loss can drop the
    // last transactions, and never corrupts the file.
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 5000')
    migrate(db, list, file)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

function migrate(db: Db, list: Migration[], file: string): void {
  const known = schemaVersion(list)
  const current = db.pragma('user_version', { simple: true }) as number
  if (current > known) throw new SchemaTooNewError(current, known, file)
  for (const migration of [...list].sort((a, b) => a.version - b.version)) {
    if (migration.version <= current) continue
    db.transaction(() => {
      db.exec(migration.sql)
      db.pragma(`user_version = ${migration.version}`)
    }).immediate()
  }
}
