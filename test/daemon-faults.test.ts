import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgresStore } from '../daemon/store/postgres/index.js'
import type { Store } from '../daemon/store/index.js'
import { seedBurst, startCluster, stopCluster, until, type ClusterNode } from './helpers/cluster.js'
import { startEmbeddedPostgres, type PrivateServer } from './helpers/embedded-postgres.js'
import { exited } from './helpers/smm-process.js'

// Faults an operator meets with several daemons: the database server stopping under them, and a
// daemon stopped (SIGSTOP, a suspended VM) with work claimed. The server is this file's own, so
// stopping it leaves every other test's database alone.
const POSTS = 600
const LEASE_S = 5
let server: PrivateServer
let store: Store
let sql: postgres.Sql
let nodes: ClusterNode[]
let key: string
let ownerId: string

beforeAll(async () => {
  // Without the driver's fix (patches/, applied by `npm install`), a stopped server crashes the daemons: say so plainly.
  const driver = readFileSync(fileURLToPath(new URL('../node_modules/postgres/src/connection.js', import.meta.url)), 'utf8')
  if (!driver.includes('chunk = nextWriteTimer = null\n    socket.removeListener')) throw new Error('node_modules/postgres lacks patches/postgres+3.4.9.patch: run `npm install` (its postinstall applies it)')
  server = await startEmbeddedPostgres({ crashSafe: true })
  ;({ nodes, key } = await startCluster(server.url, 3, { SMM_PUBLISH_LEASE: String(LEASE_S) }))
  store = await openPostgresStore(server.url, { max: 2 })
  ownerId = (await store.users.owner())!.id
  await store.users.setPlan(ownerId, 'enterprise', { per_minute: 1e6, per_hour: 1e6, per_day: 1e6 })
  sql = postgres(server.url, { max: 1, onnotice: () => undefined })
}, 120_000)

afterAll(async () => {
  await stopCluster(nodes ?? [])
  await sql?.end()
  await store?.close()
  await server?.stop()
})

/** A feed account with `POSTS` posts falling due over two seconds, four seconds from now. */
async function burst(name: string): Promise<string> {
  const account = (await nodes[0]!.http.post('/v1/accounts', { name }, { key })).body.id
  await nodes[0]!.http.post(`/v1/accounts/${account}/connections`, { platform: 'feed' }, { key })
  await seedBurst(store, ownerId, key, nodes, account, POSTS, Date.now() + 4_000, 2_000)
  return account
}

const published = async (account: string) => Number((await sql`SELECT count(*) AS n FROM posts WHERE account_id = ${account} AND status = 'published'`)[0]!.n)

/** Every post of the account went out once: one `post.published` each, one feed item each, no target attempted more than twice. */
async function expectEachOnce(account: string): Promise<void> {
  const events = await sql<{ n: string }[]>`
    SELECT count(*) AS n FROM events WHERE type = 'post.published' AND data::jsonb ->> 'account_id' = ${account} GROUP BY data::jsonb ->> 'id'`
  expect(events).toHaveLength(POSTS)
  expect(events.every((e) => Number(e.n) === 1)).toBe(true)
  expect(await sql`SELECT post_id FROM feed_items WHERE account_id = ${account}`).toHaveLength(POSTS)
  const [most] = await sql<{ n: number }[]>`SELECT max(t.attempts) AS n FROM post_targets t JOIN posts p ON p.id = t.post_id WHERE p.account_id = ${account}`
  expect(most!.n).toBeLessThanOrEqual(2)
}

/** An answer within 2 s, or the test fails saying so. */
async function within2s<T>(what: string, request: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within 2 s`)), 2_000)))
  try {
    return await Promise.race([request, late])
  } finally {
    clearTimeout(timer)
  }
}

describe('several daemons and their faults', () => {
  it('warns that a lease shorter than a platform request may take risks a second attempt, and says what to set', async () => {
    await until('the lease warning', async () => nodes[0]!.logs.some((l) => l.includes('Set --publish-lease (SMM_PUBLISH_LEASE) to 15 or more')), 5_000)
    expect(JSON.parse(nodes[0]!.logs.find((l) => l.includes('--publish-lease'))!)).toMatchObject({ level: 40, publish_lease_s: LEASE_S })
  })

  it('survives the database stopping mid-burst: 503 store_unavailable within 2 s meanwhile, then each node resumes and each post goes out once', async () => {
    const account = await burst('Outage')
    await until('the burst to be under way', async () => (await published(account)) >= 100, 60_000)
    await server.halt('immediate')
    const haltedAt = performance.now()
    // While it is away, for two seconds and more: every node answers at once, and stays alive.
    while (performance.now() - haltedAt < 3_000) {
      for (const node of nodes) {
        const lost = await within2s('GET /v1/accounts/{id}', node.http.get(`/v1/accounts/${account}`, { key }))
        expect([lost.status, lost.body.code, lost.headers['retry-after']]).toEqual([503, 'store_unavailable', '5'])
        expect((await within2s('GET /healthz', node.http.get('/healthz'))).status).toBe(200)
        const ready = await within2s('GET /readyz', node.http.get('/readyz'))
        expect([ready.status, ready.body.code]).toEqual([503, 'store_unavailable'])
      }
    }
    await server.resume()
    for (const node of nodes) await until('every node to be ready again', async () => (await node.http.get('/readyz')).status === 200, 10_000)
    await until('every post to be published', async () => (await published(account)) === POSTS, 60_000)
    await expectEachOnce(account)
    for (const node of nodes) {
      expect(node.child.exitCode).toBeNull()
      expect(node.logs.join('\n')).not.toMatch(/TypeError|uncaught/i)
    }
  }, 180_000)

  it("hands a stopped daemon's claimed work to the others within its lease, holds no lock meanwhile, and drops its stale outcomes when it wakes", async () => {
    const account = await burst('Frozen')
    const [frozen] = nodes.splice(1, 1) as [ClusterNode]
    await until('the burst to be under way', async () => (await published(account)) >= 100, 60_000)
    frozen.child.kill('SIGSTOP')
    try {
      // What it had reserved or was attempting lapses with its lease, and the others publish it.
      await until('every post to be published by the other two', async () => (await published(account)) === POSTS, (LEASE_S + 15) * 1_000)
      // Nor does it hold a transaction open: its sessions' idle ones were ended within the lease.
      const [idle] = await sql<{ n: string }[]>`
        SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'smm' AND state LIKE 'idle in transaction%' AND now() - state_change > interval '2 seconds'`
      expect(Number(idle!.n)).toBe(0)
      // Nor one waiting for the rest of a statement (it stopped between asking for a statement's description and sending its values).
      const [open] = await sql<{ n: string }[]>`
        SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'smm' AND state <> 'idle' AND now() - xact_start > ${`${LEASE_S} seconds`}::interval`
      expect(Number(open!.n)).toBe(0)
    } finally {
      frozen.child.kill('SIGCONT')
    }
    // Awake, it finishes what it was doing (its outcomes, now stale, are dropped), and stops cleanly.
    // (Its idle keep-alive connections, past their timeout as it wakes, may be reset under the first request.)
    await until('the woken daemon to answer', async () => (await frozen.http.get('/healthz').catch(() => undefined))?.status === 200, 10_000)
    frozen.child.kill('SIGTERM')
    expect(await exited(frozen.child)).toBe(0)
    await expectEachOnce(account)
    expect(await published(account)).toBe(POSTS)
    nodes.push(frozen)
  }, 180_000)
})
