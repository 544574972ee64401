import { join } from 'node:path'
import Database from 'better-sqlite3'
import { ownerOnlyFile } from '../../files.js'
import { migrationChecksum, migrationPlan, type Migration } from '../migrations.js'
import { migrations as defaultMigrations } from './schema.js'

export type Db = Database.Database

/** The SQLite file of a data dir. */
export const databaseFileOf = (dataDir: string) => join(dataDir, 'smm.db')

/**
 * Opens (creating if need be) the SQLite file in WAL mode and brings its schema up to date,
 * one migration per transaction, so a failed step leaves the previous version intact.
 */
export function openDatabase(file: string, list: Migration[] = defaultMigrations): Db {
  if (file !== ':memory:') ownerOnlyFile(file)
  const db = new Database(file)
  try {
    db.pragma('journal_mode = WAL')
    // NORMAL in WAL mode is durable across application crashes; only power loss can drop the
    // last transactions, and never corrupts the file.
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 5000')
    // SQLite's own default page cache, 2 MB, rather than the 16 MB better-sqlite3 compiles in:
    // a burst of publishes filled those 16 MB, 15 MB of the daemon's peak memory, and a page not
    // in the cache is read again from the log or the kernel's file cache, not from the disk.
    db.pragma('cache_size = -2000')
    migrate(db, list, file)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

function migrate(db: Db, list: Migration[], file: string): void {
  const current = db.pragma('user_version', { simple: true }) as number
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  )
  const recorded = new Map(
    db
      .prepare<[], { version: number; checksum: string }>('SELECT version, checksum FROM schema_migrations')
      .all()
      .map((r) => [r.version, r.checksum]),
  )
  const record = db.prepare<[number, string, string, number], void>(
    'INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)',
  )
  const { baseline, pending } = migrationPlan(list, current, recorded, file)
  if (baseline.length) {
    db.transaction(() => baseline.forEach((m) => record.run(m.version, m.name, migrationChecksum(m), Date.now())))()
  }
  for (const migration of pending) {
    // The pragma is a no-op inside a transaction, so it is set around it (SQLite's own recipe
    // for a table rebuild), and the keys are checked before the commit instead.
    if (migration.rebuildsTables) db.pragma('foreign_keys = OFF')
    try {
      db.transaction(() => {
        db.exec(migration.sql)
        if (migration.rebuildsTables) {
          const broken = db.pragma('foreign_key_check') as { table: string; parent: string }[]
          if (broken.length > 0) {
            throw new Error(`Migration ${migration.version} (${migration.name}) would leave ${broken.length} rows of ${broken[0]!.table} without their ${broken[0]!.parent}; nothing was changed.`)
          }
        }
        record.run(migration.version, migration.name, migrationChecksum(migration), Date.now())
        db.pragma(`user_version = ${migration.version}`)
      }).immediate()
    } finally {
      if (migration.rebuildsTables) db.pragma('foreign_keys = ON')
    }
  }
}
