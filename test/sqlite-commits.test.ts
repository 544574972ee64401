import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { commitSignal } from '../daemon/store/sqlite/commits.js'
import { openDatabase } from '../daemon/store/sqlite/db.js'

const dir = mkdtempSync(join(tmpdir(), 'smm-commits-'))
mkdirSync(join(dir, 'link'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the commit signal the key cache asks on every request', () => {
  it('sees every commit, by this connection, another, another process, after the log starts over; not a read', () => {
    const file = join(dir, 'smm.db')
    const db = openDatabase(file)
    const signal = commitSignal(db)
    const other = new Database(file)
    try {
      expect(signal.changed()).toBe(true)
      db.prepare('SELECT count(*) FROM users').get()
      other.prepare('SELECT count(*) FROM users').get()
      expect(signal.changed()).toBe(false)

      db.prepare("UPDATE users SET name = 'own' WHERE 0").run()
      expect(signal.changed(), 'a statement that changed nothing').toBe(false)
      db.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('own')")
      expect(signal.changed(), "this connection's commit").toBe(true)
      expect(signal.changed()).toBe(false)

      other.prepare("INSERT INTO t VALUES ('other')").run()
      expect(signal.changed(), "another connection's commit").toBe(true)

      const driver = createRequire(import.meta.url).resolve('better-sqlite3')
      execFileSync(process.execPath, ['-e', `new (require(${JSON.stringify(driver)}))(${JSON.stringify(file)}).prepare("INSERT INTO t VALUES ('process')").run()`])
      expect(signal.changed(), "another process's commit").toBe(true)

      // The log starts over from its first frame: same frame count as before, another salt.
      db.pragma('wal_checkpoint(TRUNCATE)')
      signal.changed()
      other.prepare("INSERT INTO t VALUES ('restarted')").run()
      expect(signal.changed(), 'a commit after the log restarted').toBe(true)
      expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 4 })
    } finally {
      other.close()
      db.close()
      signal.close()
    }
  })

  it('shares one descriptor among the stores on a file, by any path to it, and keeps reading until the last closes', () => {
    const file = join(dir, 'shared.db')
    const first = openDatabase(file)
    const second = openDatabase(join(dir, '.', 'link', '..', 'shared.db'))
    const a = commitSignal(first)
    const b = commitSignal(second)
    a.changed()
    b.changed()
    second.exec('CREATE TABLE t (v TEXT)')
    expect(a.changed(), "the other store's commit").toBe(true)
    expect(b.changed(), "its own commit").toBe(true)
    second.close()
    b.close()
    first.exec("INSERT INTO t VALUES ('after')")
    expect(a.changed(), 'a commit after the other store closed').toBe(true)
    first.close()
    a.close()

    // A restart: the file's descriptor was let go with the last store; a new store reads afresh.
    const reopened = openDatabase(file)
    const c = commitSignal(reopened)
    const other = new Database(file)
    try {
      c.changed()
      other.prepare("INSERT INTO t VALUES ('after restart')").run()
      expect(c.changed(), "another connection's commit after a restart").toBe(true)
    } finally {
      other.close()
      reopened.close()
      c.close()
    }
  })

  it('asks SQLite when there is no wal-index (a database in memory)', () => {
    const db = openDatabase(':memory:')
    db.exec('CREATE TABLE t (v TEXT)')
    const signal = commitSignal(db)
    signal.changed()
    expect(signal.changed()).toBe(false)
    db.exec("INSERT INTO t VALUES ('own')")
    expect(signal.changed()).toBe(true)
    db.close()
    signal.close()
  })
})
