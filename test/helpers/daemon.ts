import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import Database from 'better-sqlite3'
import pino from 'pino'
import { ManualClock } from '../../src/time.js'
import { startDaemon, type DaemonOptions, type DaemonOverrides, type RunningDaemon } from '../../daemon/main.js'
import { httpsClient, type HttpsClient } from './http.js'
import { contractCheck } from './openapi-check.js'
import { freshDatabase } from './postgres.js'

export interface TestDaemon {
  daemon: RunningDaemon
  clock: ManualClock
  dataDir: string
  url: string
  /** The CA to trust: the daemon's self-signed certificate. */
  ca: string
  /** The owner's key, printed at first start. */
  key: string
  http: HttpsClient
  /** Every log line the daemon wrote, as text. */
  logs: string[]
  /** Stops the daemon and starts it again on the same data dir (and clock). */
  restart(): Promise<void>
  /** Stops the daemon and deletes its data dir. */
  stop(): Promise<void>
}

/**
 * The real daemon over real TLS on port 0, with a temporary data dir and a manual clock: what
 * every integration test talks to.
 */
export async function startTestDaemon(
  options: Partial<DaemonOptions> & { clock?: ManualClock; overrides?: Omit<DaemonOverrides, 'clock' | 'log'> } & Pick<DaemonOverrides, 'authFailuresPerMinute' | 'egress' | 'backgroundWorkers'> = {},
): Promise<TestDaemon> {
  const { clock = new ManualClock(), authFailuresPerMinute, egress, backgroundWorkers, overrides, ...rest } = options
  const dataDir = rest.dataDir ?? mkdtempSync(join(tmpdir(), 'smm-test-'))
  // SMM_TEST_STORE=postgres runs a suite's daemons on PostgreSQL, each on a database of its own.
  const postgres = !rest.databaseUrl && process.env.SMM_TEST_STORE === 'postgres' ? await freshDatabase() : undefined
  if (postgres) rest.databaseUrl = postgres.url
  // A daemon on PostgreSQL names its media store: here the data dir's, as a mount nodes would share.
  if (rest.databaseUrl) rest.mediaStore ??= `file://${join(dataDir, 'media')}`
  const logs: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean))
      done()
    },
  })
  const log = pino({ level: 'debug' }, sink)
  const start = () =>
    startDaemon({ dataDir, host: '127.0.0.1', port: 0, shutdownGraceMs: 2_000, ...rest }, { authFailuresPerMinute, egress, backgroundWorkers, ...overrides, clock, log })
  const first = await start()
  const state = {
    daemon: first,
    key: first.firstStart?.secret ?? '',
    ca: first.tls ? readFileSync(first.tls.certPath, 'utf8') : '',
  }
  const t: TestDaemon = {
    get daemon() {
      return state.daemon
    },
    clock,
    dataDir,
    get url() {
      return state.daemon.url
    },
    ca: state.ca,
    key: state.key,
    http: httpsClient(first.url, state.ca, contractCheck()),
    logs,
    async restart() {
      t.http.close()
      await state.daemon.close()
      state.daemon = await start()
      t.http = httpsClient(state.daemon.url, state.ca, contractCheck())
    },
    async stop() {
      rawConnections.get(t)?.close()
      t.http.close()
      await state.daemon.close()
      await postgres?.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return t
}

const rawConnections = new WeakMap<TestDaemon, Database.Database>()

/**
 * A second connection to the test daemon's SQLite file, for a test that looks at (or breaks)
 * the database underneath the daemon; the daemon itself sees only the store port.
 */
export function sql(t: TestDaemon): Database.Database {
  let db = rawConnections.get(t)
  if (!db?.open) {
    db = new Database(t.daemon.databaseFile)
    rawConnections.set(t, db)
  }
  return db
}
