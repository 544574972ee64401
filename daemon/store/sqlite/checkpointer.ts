import { createRequire } from 'node:module'
import type { Worker } from 'node:worker_threads'
import { startWorker } from '../../heap.js'
import type { Db } from './db.js'

/** WAL size (pages) at which the background thread copies the log into the database. SQLite's own default. */
const CHECKPOINT_PAGES = 1_000
/**
 * While the background thread runs, the daemon's own connection checkpoints only past this many
 * pages (about 40 MB): the backstop that lets the log start over in a long burst, where the
 * thread's checkpoints never find a moment with nothing left to copy.
 */
const BACKSTOP_PAGES = 10_000
const INTERVAL_MS = 200

// The thread's code: its own connection on the file, checkpointing PASSIVE (never waiting for
// a lock, never blocking a writer) whenever the log has grown past `pages`, and on request.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const { statSync } = require('node:fs')
const Database = require(workerData.driver)
const db = new Database(workerData.file, { fileMustExist: true })
db.pragma('busy_timeout = 0')
const pageSize = db.pragma('page_size', { simple: true })
const run = () => {
  const [r] = db.pragma('wal_checkpoint(PASSIVE)')
  return { busy: r.busy === 1, log: r.log, checkpointed: r.checkpointed }
}
const report = (id, work) => {
  try { parentPort.postMessage({ id, result: work() }) } catch (error) { parentPort.postMessage({ id, error: String(error && error.message || error) }) }
}
const timer = setInterval(() => {
  let size = 0
  try { size = statSync(workerData.file + '-wal').size } catch { return }
  if (size >= workerData.pages * pageSize) report(undefined, run)
}, workerData.intervalMs)
parentPort.on('message', (m) => {
  if (m.stop) { clearInterval(timer); db.close(); parentPort.close(); return }
  report(m.id, run)
})
`

export interface CheckpointResult {
  /** Another connection held the checkpoint lock: nothing was copied this time. */
  busy: boolean
  /** Frames in the log, and how many of them are now in the database. */
  log: number
  checkpointed: number
}

/**
 * WAL checkpoints on a thread of their own. A checkpoint copies the log into the database file
 * and waits for the disk (fsync); on the daemon's connection SQLite runs it inside a commit, on
 * the event loop: in a burst of outcomes that was a fifth of the daemon's time, and a request's
 * latency whenever it landed on one. The daemon's connection keeps a backstop (a checkpoint past
 * 40 MB of log) and takes the whole job back if the thread fails.
 */
export class BackgroundCheckpointer {
  private readonly worker: Worker
  private readonly pending = new Map<number, { resolve: (r: CheckpointResult) => void; reject: (e: Error) => void }>()
  private next = 0
  private stopped = false

  private constructor(
    private readonly db: Db,
    file: string,
    private readonly onError: (error: Error) => void,
    driver: string,
  ) {
    // Through startWorker: making the thread's isolate sets one of the daemon's heap settings back (daemon/heap.ts).
    this.worker = startWorker(WORKER, { workerData: { file, driver, pages: CHECKPOINT_PAGES, intervalMs: INTERVAL_MS } })
    this.worker.unref()
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`)
    this.worker.on('message', (m: { id?: number; result?: CheckpointResult; error?: string }) => {
      const waiting = m.id === undefined ? undefined : this.pending.get(m.id)
      if (m.id !== undefined) this.pending.delete(m.id)
      if (m.error !== undefined) {
        const error = new Error(`Background WAL checkpoint failed: ${m.error}`)
        if (waiting) waiting.reject(error)
        else onError(error)
      } else if (waiting) waiting.resolve(m.result!)
    })
    this.worker.on('error', (error) => this.fail(error))
    this.worker.on('exit', (code) => {
      if (!this.stopped) this.fail(new Error(`The WAL checkpoint thread exited (code ${code}); checkpoints are back on the daemon's connection.`))
    })
  }

  /**
   * Starts the thread for the store on `file`, or returns undefined where the SQLite driver is
   * not a file a thread can load (the single executable carries it inside its own bundle): the
   * daemon's connection then checkpoints as SQLite does by default.
   */
  static start(db: Db, file: string, onError: (error: Error) => void): BackgroundCheckpointer | undefined {
    let driver: string
    try {
      driver = createRequire(import.meta.url).resolve('better-sqlite3')
    } catch {
      return undefined
    }
    return new BackgroundCheckpointer(db, file, onError, driver)
  }

  /** A checkpoint now, on the thread: what tests and `close` use; the thread also runs them as the log grows. */
  checkpoint(): Promise<CheckpointResult> {
    if (this.stopped) return Promise.reject(new Error('The WAL checkpoint thread has stopped.'))
    const id = this.next++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.worker.postMessage({ id })
    })
  }

  /** Stops the thread (its connection closed), before the daemon's own connection closes. */
  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    const exited = new Promise((resolve) => this.worker.once('exit', resolve))
    // Held until it has closed its connection: an unreferenced thread would let a process whose
    // last work is this stop end before it, with the stop never done.
    this.worker.ref()
    this.worker.postMessage({ stop: true })
    await exited
  }

  private fail(error: Error): void {
    if (this.stopped) return
    this.stopped = true
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`)
    for (const { reject } of this.pending.values()) reject(error)
    this.pending.clear()
    this.onError(error)
  }
}
