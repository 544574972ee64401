import { createHash } from 'node:crypto'
import Database from 'better-sqlite3'
import { ownerOnlyFile } from '../files.js'
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

/** What a migration's text hashes to: recorded when it is applied, compared at every start. */
export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex')
}

export class MigrationChangedError extends Error {
  constructor(migration: Migration, recorded: string, file: string) {
    super(
      `Migration ${String(migration.version).padStart(4, '0')} (${migration.name}) is not the one applied to ${file}: ` +
        `its text hashed to ${recorded.slice(0, 12)}… then and to ${migrationChecksum(migration).slice(0, 12)}… now. ` +
        'A landed migration must never change; this build of smm is broken: install a released version.',
    )
    this.name = 'MigrationChangedError'
  }
}

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
  // As Flyway and sqlx do: each migration's checksum is recorded when it is applied (or, for a
  // database from before checksums, when this code first sees it) and compared at every start.
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
  const sorted = [...list].sort((a, b) => a.version - b.version)
  const landed = sorted.filter((m) => m.version <= current)
  for (const migration of landed) {
    const sum = recorded.get(migration.version)
    if (sum !== undefined && sum !== migrationChecksum(migration)) throw new MigrationChangedError(migration, sum, file)
  }
  const baseline = landed.filter((m) => !recorded.has(m.version))
  if (baseline.length) {
    db.transaction(() => baseline.forEach((m) => record.run(m.version, m.name, migrationChecksum(m), Date.now())))()
  }
  for (const migration of sorted) {
    if (migration.version <= current) continue
    db.transaction(() => {
      db.exec(migration.sql)
      record.run(migration.version, migration.name, migrationChecksum(migration), Date.now())
      db.pragma(`user_version = ${migration.version}`)
    }).immediate()
  }
}
