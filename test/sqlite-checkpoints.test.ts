import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { openSqliteStore, type SqliteStore } from '../daemon/store/sqlite/index.js'
import { startTestDaemon } from './helpers/daemon.js'

// The daemon's SQLite checkpoints run on a thread of their own: its connection copies the log
// into the database, so commits on the event loop never wait for the disk.

const dirs: string[] = []
const stores: SqliteStore[] = []
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function open(errors: Error[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'smm-ckpt-'))
  dirs.push(dir)
  const file = join(dir, 'smm.db')
  const store = openSqliteStore(file, { backgroundCheckpoints: (e) => errors.push(e) })
  stores.push(store)
  return { store, file }
}

/** About 8 MB of rows, in transactions the size of a batch: two thousand pages of log. */
function write(store: SqliteStore): void {
  store.db.exec('CREATE TABLE IF NOT EXISTS filler (n INTEGER, body TEXT)')
  const insert = store.db.prepare('INSERT INTO filler (n, body) VALUES (?, ?)')
  for (let batch = 0; batch < 64; batch++) store.db.transaction(() => { for (let i = 0; i < 64; i++) insert.run(batch * 64 + i, 'x'.repeat(2_000)) })()
}

describe('background WAL checkpoints', () => {
  it('copy the log into the database on their own thread, and the daemon’s connection only past 40 MB of it', async () => {
    const errors: Error[] = []
    const { store, file } = open(errors)
    expect(store.checkpointer).toBeDefined()
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000)
    write(store)
    // Past SQLite's default of 1,000 pages, the daemon's commits did not checkpoint: the log is whole.
    const before = statSync(`${file}-wal`).size
    expect(before).toBeGreaterThan(1_500 * 4_096)
    const result = await store.checkpointer!.checkpoint()
    expect(result.busy).toBe(false)
    expect(result.log).toBeGreaterThan(1_500)
    expect(result.checkpointed).toBe(result.log)
    // What was copied is in the database file itself: a reader that ignores the log sees it.
    const reader = new Database(file, { readonly: true })
    expect(reader.prepare('SELECT count(*) AS n FROM filler').get()).toEqual({ n: 4_096 })
    reader.close()
    // The next write starts the log over instead of growing it.
    store.db.prepare('INSERT INTO filler (n, body) VALUES (?, ?)').run(-1, 'after')
    expect(statSync(`${file}-wal`).size).toBe(before)
    const [after] = store.db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[]
    expect(after!.log).toBeLessThan(10)
    expect(errors).toEqual([])
  })

  it('run by themselves once the log passes 1,000 pages', async () => {
    const { store } = open()
    write(store)
    // The thread looks at the log's size every 200 ms: its checkpoint, not this test's, empties it.
    await vi.waitFor(() => {
      const [state] = store.db.pragma('wal_checkpoint(NOOP)') as { log: number; checkpointed: number }[]
      expect(state!.checkpointed).toBe(state!.log)
    }, { timeout: 10_000, interval: 50 })
  })

  it('stop with the store, which then closes as before', async () => {
    const { store, file } = open()
    write(store)
    await store.close()
    stores.splice(0)
    await expect(store.checkpointer!.checkpoint()).rejects.toThrow(/stopped/)
    // Closed cleanly: the last connection's close checkpointed and removed the log.
    expect(() => statSync(`${file}-wal`)).toThrow()
  })

  it('are what the daemon uses on its SQLite file', async () => {
    const t = await startTestDaemon({ backgroundWorkers: false })
    try {
      expect((t.daemon.store as SqliteStore).checkpointer).toBeDefined()
    } finally {
      await t.stop()
    }
  })
})
