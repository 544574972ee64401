import { migrationChecksum, migrationPlan, type Migration } from '../migrations.js'
import type { Sql } from './connect.js'
import { migrations as defaultMigrations } from './schema.js'

// Any constant: the advisory lock that makes nodes starting together migrate one at a time.
const MIGRATION_LOCK = 0x736d6d // "smm"

/**
 * Brings the database's schema up to date with the same rules as SQLite's (a newer schema
 * refused, a landed migration's text never changed), in one transaction: PostgreSQL's DDL is
 * transactional, so a failed step leaves the schema as it was. Several daemons starting at once
 * take turns under an advisory lock, so each step runs once.
 */
export async function migrate(sql: Sql, where: string, list: readonly Migration[] = defaultMigrations): Promise<void> {
  await sql.begin(async (tx) => {
    // A step may rewrite a large table, and a node waits here while another migrates: neither is
    // held to the limits a node's everyday statements keep within its lease.
    await tx`SET LOCAL statement_timeout = 0`
    await tx`SET LOCAL idle_in_transaction_session_timeout = 0`
    // PostgreSQL 17 and newer: the transaction's own limit too (set as it began, ended here).
    await tx`SELECT set_config('transaction_timeout', '0', true) WHERE current_setting('transaction_timeout', true) IS NOT NULL`
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at BIGINT NOT NULL)`
    const rows = await tx<{ version: number; checksum: string }[]>`SELECT version, checksum FROM schema_migrations`
    const recorded = new Map(rows.map((r) => [r.version, r.checksum]))
    const current = rows.reduce((max, r) => Math.max(max, r.version), 0)
    const { pending } = migrationPlan(list, current, recorded, where)
    for (const migration of pending) {
      await tx.unsafe(migration.sql)
      await tx`INSERT INTO schema_migrations (version, name, checksum, applied_at)
               VALUES (${migration.version}, ${migration.name}, ${migrationChecksum(migration)}, ${Date.now()})`
    }
  })
}
