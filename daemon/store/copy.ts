import type postgres from 'postgres'
import { connectPostgres, describeDatabase } from './postgres/connect.js'
import { migrate } from './postgres/migrate.js'
import { databaseFileOf, openDatabase } from './sqlite/db.js'

/**
 * The tables both stores keep, parents before children. SQLite's own tables (the analytics
 * rollups its triggers keep, the migration record) are not state: PostgreSQL has its own.
 */
const TABLES = [
  'users',
  'media',
  'uploads',
  'workspaces',
  'workspace_members',
  'api_keys',
  'rate_limits',
  'idempotency_keys',
  'events',
  'accounts',
  'connections',
  'queue_slots',
  'feed_items',
  'post_series',
  'posts',
  'post_targets',
  'post_target_parts',
  'post_media',
  'webhooks',
  'webhook_deliveries',
  'webhook_attempts',
  'metric_snapshots',
  'target_metrics',
  'oauth_apps',
  'oauth_grants',
  'oauth_refresh_claims',
] as const

const BATCH = 1_000

/**
 * Columns whose value is kept another way on SQLite: an event is dispatched once it is off the
 * outbox (SQLite migration 17), where PostgreSQL marks it.
 */
const DERIVED: Partial<Record<(typeof TABLES)[number], Record<string, string>>> = {
  events: { dispatched_at: 'CASE WHEN id IN (SELECT event_id FROM outbox) THEN NULL ELSE coalesce(dispatched_at, created_at) END' },
}

export class CopyTargetNotEmptyError extends Error {
  constructor(where: string, table: string) {
    super(`The database ${where} already holds data (its ${table} table is not empty); smm copies only into an empty database.`)
    this.name = 'CopyTargetNotEmptyError'
  }
}

/**
 * Copies a data dir's whole SQLite state into an empty PostgreSQL database, in one transaction:
 * users, keys (still valid: their hashes are copied), accounts and their sealed credentials,
 * posts and targets, the media rows (their bytes are the media store's: copyMediaObjects), the
 * outbox and deliveries, metrics, rate-limit windows. The sealed data
 * opens only with the same secret key: its fingerprint is recorded, so daemons started with
 * another key refuse. Returns the rows copied per table.
 */
export async function copySqliteToPostgres(dataDir: string, url: string, secretKeyFingerprint: string): Promise<Record<string, number>> {
  const sqlite = openDatabase(databaseFileOf(dataDir))
  const sql = await connectPostgres(url, { max: 1 })
  const where = describeDatabase(url)
  try {
    await migrate(sql, where)
    return await sql.begin(async (tx) => {
      for (const table of [...TABLES, 'cluster_settings']) {
        const [row] = await tx.unsafe(`SELECT 1 FROM ${table} LIMIT 1`)
        if (row) throw new CopyTargetNotEmptyError(where, table)
      }
      const copied: Record<string, number> = {}
      for (const table of TABLES) {
        const columns = new Set(
          (await tx<{ column_name: string }[]>`SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table}`).map(
            (c) => c.column_name,
          ),
        )
        // Columns PostgreSQL adds (the claiming node) start empty; the rest carry over as they are.
        const shared = (sqlite.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]).filter((c) => columns.has(c))
        const select = shared.map((c) => (DERIVED[table]?.[c] ? `${DERIVED[table]![c]} AS "${c}"` : `"${c}"`))
        const rows = sqlite.prepare(`SELECT ${select.join(', ')} FROM ${table}`).iterate() as IterableIterator<Record<string, postgres.ParameterOrJSON<number>>>
        let batch: Record<string, postgres.ParameterOrJSON<number>>[] = []
        copied[table] = 0
        const flush = async () => {
          if (batch.length) await tx`INSERT INTO ${tx(table)} ${tx(batch, shared)}`
          copied[table]! += batch.length
          batch = []
        }
        for (const row of rows) {
          batch.push(row)
          if (batch.length === BATCH) await flush()
        }
        await flush()
      }
      await tx`INSERT INTO cluster_settings (name, value) VALUES ('secret_key_fingerprint', ${secretKeyFingerprint})`
      return copied
    })
  } finally {
    sqlite.close()
    await sql.end({ timeout: 5 })
  }
}
