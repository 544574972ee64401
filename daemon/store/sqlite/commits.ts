import { closeSync, openSync, readSync, statSync } from 'node:fs'
import type { Db } from './db.js'

/**
 * The first copy of the wal-index header: the first 48 bytes of the `-shm` file, which every
 * commit rewrites (its last frame, that frame's checksum and the change counter; a new salt when
 * the log starts over). SQLite's own documentation of the unix VFS gives its layout
 * (https://sqlite.org/walformat.html, "The WAL-Index Header").
 */
const HEADER_BYTES = 48

/**
 * `-shm` files this process reads, one descriptor each, shared by the stores open on it. Closing
 * any descriptor of a file drops every POSIX lock the process holds on it, SQLite's among them
 * (its lock that tells other processes the wal-index is in use), so a descriptor is closed only
 * when the last store reading it has closed its database.
 */
const open = new Map<string, { fd: number; users: number }>()

/**
 * The shared descriptor of a `-shm` file, keyed by the file itself (device and inode), not by its
 * path: two paths to one file (relative and absolute, a symlink) must still share one.
 */
function share(file: string) {
  let id: string
  try {
    const stat = statSync(file)
    id = `${stat.dev}:${stat.ino}`
  } catch {
    return undefined
  }
  const held = open.get(id)
  if (held) {
    held.users += 1
    return { id, held }
  }
  const fresh = { fd: openSync(file, 'r'), users: 1 }
  open.set(id, fresh)
  return { id, held: fresh }
}

export interface CommitSignal {
  /** True when anything was committed since the last call, by this connection or any other. */
  changed(): boolean
  /** Lets go of the `-shm` file; call after the database is closed. */
  close(): void
}

/**
 * Tells whether anything was committed to the database since it was last asked: by this
 * connection, the checkpointer's, or another process's (`smm admin` revoking a key, changing a
 * plan). It reads the wal-index header, the same bytes SQLite compares to learn this when a read
 * begins (`PRAGMA data_version` is made from them): one pread, where asking SQLite is a statement
 * whose read transaction takes and drops two file locks. A database without a wal-index (in
 * memory) is asked instead: its count of changes by this connection, and its data version for
 * any other's.
 */
export function commitSignal(db: Db): CommitSignal {
  const shared = db.memory ? undefined : share(`${db.name}-shm`)
  if (!shared) {
    // Two statements: the pragma's table-valued form, which could be one with the count, costs 15x more.
    const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck()
    const ownChanges = db.prepare<[], number>('SELECT total_changes()').pluck()
    let seen = [-1, -1]
    return {
      changed() {
        const now = [dataVersion.get()!, ownChanges.get()!]
        if (now[0] === seen[0] && now[1] === seen[1]) return false
        seen = now
        return true
      },
      close() {},
    }
  }
  const { id, held: shm } = shared
  const header = Buffer.alloc(HEADER_BYTES)
  const seen = Buffer.alloc(HEADER_BYTES)
  let first = true
  let closed = false
  return {
    changed() {
      readSync(shm.fd, header, 0, HEADER_BYTES, 0)
      if (!first && header.equals(seen)) return false
      first = false
      header.copy(seen)
      return true
    },
    close() {
      if (closed) return
      closed = true
      shm.users -= 1
      if (shm.users > 0) return
      open.delete(id)
      closeSync(shm.fd)
    },
  }
}
