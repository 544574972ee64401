import { createHash } from 'node:crypto'

/**
 * One step of a schema. A landed step is never edited: a change is a new numbered step.
 * Times are integer milliseconds since the epoch (UTC); the store maps them to RFC 3339.
 */
export interface Migration {
  version: number
  name: string
  sql: string
  /**
   * SQLite only: the step rebuilds a table (create, copy, drop, rename), so it runs with
   * foreign keys off, or dropping a parent table would cascade-delete its children; the keys
   * are checked before the step commits.
   */
  rebuildsTables?: boolean
}

/** The newest schema version a list of migrations reaches. */
export function schemaVersion(list: readonly Migration[]): number {
  return list.reduce((max, m) => Math.max(max, m.version), 0)
}

/** What a migration's text hashes to: recorded when it is applied, compared at every start. */
export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex')
}

export class SchemaTooNewError extends Error {
  constructor(found: number, known: number, where: string) {
    super(
      `The database ${where} has schema version ${found}, but this smm knows versions up to ${known}. ` +
        'It was written by a newer smm: upgrade smm, or restore a backup taken before the upgrade.',
    )
    this.name = 'SchemaTooNewError'
  }
}

export class MigrationChangedError extends Error {
  constructor(migration: Migration, recorded: string, where: string) {
    super(
      `Migration ${String(migration.version).padStart(4, '0')} (${migration.name}) is not the one applied to ${where}: ` +
        `its text hashed to ${recorded.slice(0, 12)}… then and to ${migrationChecksum(migration).slice(0, 12)}… now. ` +
        'A landed migration must never change; this build of smm is broken: install a released version.',
    )
    this.name = 'MigrationChangedError'
  }
}

/**
 * What to do with a database at schema `current` whose applied migrations recorded these
 * checksums (as Flyway and sqlx do): refuses a newer schema and any landed migration whose text
 * has changed; `baseline` are landed migrations applied before checksums were recorded (record
 * them as they are), `pending` the ones to apply, in order.
 */
export function migrationPlan(list: readonly Migration[], current: number, recorded: ReadonlyMap<number, string>, where: string) {
  const known = schemaVersion(list)
  if (current > known) throw new SchemaTooNewError(current, known, where)
  const sorted = [...list].sort((a, b) => a.version - b.version)
  const landed = sorted.filter((m) => m.version <= current)
  for (const migration of landed) {
    const sum = recorded.get(migration.version)
    if (sum !== undefined && sum !== migrationChecksum(migration)) throw new MigrationChangedError(migration, sum, where)
  }
  return { baseline: landed.filter((m) => !recorded.has(m.version)), pending: sorted.filter((m) => m.version > current) }
}
