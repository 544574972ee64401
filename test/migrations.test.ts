import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { MigrationChangedError, migrationChecksum } from '../daemon/store/migrations.js'
import { openDatabase } from '../daemon/store/sqlite/db.js'
import { migrations } from '../daemon/store/sqlite/schema.js'

let dir = ''
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})
const file = () => {
  dir = mkdtempSync(join(tmpdir(), 'smm-migrations-'))
  return join(dir, 'smm.db')
}

describe('migrations are history', () => {
  // A landed migration is never edited: a new one is a new numbered file, and its checksum a new
  // line here. Changing a line below means an operator's database and this code disagree.
  it('every landed migration still has the text it landed with', () => {
    expect(Object.fromEntries(migrations.map((m) => [m.version, migrationChecksum(m)]))).toEqual({
      1: '18aeed2e79db10e6805db52a7ca2369a3882dea9faf7b6523dc275d7d072cc80', // users, api keys, rate limits, idempotency
      2: 'e685c8f7da8dadc465a9695e71fde6397d3e123972b0a365bbb1108792f29343', // event outbox
      3: '53ba0909b1a9fc9b0c281e71d647683adaad39614b4a4e397a802680c75aa155', // accounts, connections, posts, targets, feed items
      4: '6df3961bc40adc2890b412814ecea97989e208090c459ea00a160bbc933a55f9', // webhook endpoints, deliveries and attempts
      5: '09eea3f26ed891b3e88648466b01d7bf5e3e5ff6b5b57c92e7588e444289f62c', // metric snapshots, latest metrics per target, collection schedule
      6: 'db78856d406e62de839632f3239369d23b36fcdeaeb22925318a1fb70fb65287', // analytics rollups by UTC hour and publish delays, kept by triggers
      7: '71c6cfc576b64b34f71b090a95d3c88fe22f69b103c8f5fb7f5ddbc626525b98', // attempt counts kept across retries
      8: 'a2622c5cf6fd52b09fec5292dc0898a51d307ef5b100c64023993efd9647d38f', // when an attempt of unknown outcome was first sent
      9: '774bda8c6ab43c2a0d3f2c7a8a80b4f42249fc51499111395a7799839484e1e8', // OAuth apps, pending grants and refresh claims
      11: 'eb7694ce05c8cc8bd8928e126f3e2384239d5616a3e94d375fb0a8983ac567ed', // threads, first comments and per-platform versions
    })
  })

  it('records each migration when it applies it, and refuses to start when one applied has since changed', () => {
    const path = file()
    openDatabase(path).close()
    const raw = new Database(path)
    const rows = raw.prepare('SELECT version, checksum FROM schema_migrations ORDER BY version').all()
    raw.close()
    expect(rows).toEqual(migrations.map((m) => ({ version: m.version, checksum: migrationChecksum(m) })))

    const edited = migrations.map((m) => (m.version === 3 ? { ...m, sql: `${m.sql}\n-- an edit after landing` } : m))
    expect(() => openDatabase(path, edited)).toThrow(MigrationChangedError)
    expect(() => openDatabase(path, edited)).toThrow(/^Migration 0003 \(accounts, connections, posts, targets, feed items\) is not the one applied to .*smm\.db/)
    // The untouched list still opens it.
    openDatabase(path).close()
  })

  it('adopts a database from before checksums as it is, then guards it', () => {
    const path = file()
    openDatabase(path).close()
    const raw = new Database(path)
    raw.exec('DROP TABLE schema_migrations')
    raw.close()
    openDatabase(path).close()
    const edited = migrations.map((m) => (m.version === 1 ? { ...m, sql: `${m.sql} ` } : m))
    expect(() => openDatabase(path, edited)).toThrow(MigrationChangedError)
  })

  it('applies only the migrations a database lacks, recording each', () => {
    const path = file()
    openDatabase(path, migrations.filter((m) => m.version < 4)).close()
    const db = openDatabase(path)
    expect(db.prepare('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: migrations.length })
    db.close()
  })
})
