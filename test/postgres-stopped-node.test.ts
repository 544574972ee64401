import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgresStore } from '../daemon/store/postgres/index.js'
import { migrate } from '../daemon/store/postgres/migrate.js'
import { connectPostgres } from '../daemon/store/postgres/connect.js'
import { StoreUnavailableError, type Store } from '../daemon/store/index.js'
import { personalWorkspaceId } from '../src/ids.js'
import { until } from './helpers/cluster.js'
import { freshDatabase, stoppingRelay } from './helpers/postgres.js'

// A node stopped (SIGSTOP, a suspended VM) in the middle of a transaction, at the one point of the
// wire protocol where neither statement_timeout nor idle_in_transaction_session_timeout applies:
// it asked for a new statement's description and stopped before sending its Bind and Execute.
// Its session stays `active`, waiting for it, with the rows its transaction locked.
const LEASE_MS = 2_000
const CATCH_UP_MS = 86_400_000
let db: Awaited<ReturnType<typeof freshDatabase>>
let relay: Awaited<ReturnType<typeof stoppingRelay>>
let stopped: Store
let other: Store
let sql: postgres.Sql

beforeAll(async () => {
  db = await freshDatabase()
  relay = await stoppingRelay(db.url)
  // One connection: every statement of the stopped node goes through the one session watched below.
  stopped = await openPostgresStore(relay.url, { max: 1, leaseMs: LEASE_MS, nodeId: 'node-stopped' })
  other = await openPostgresStore(db.url, { max: 2, leaseMs: LEASE_MS, nodeId: 'node-other' })
  sql = postgres(db.url, { max: 1, onnotice: () => undefined })
})

afterAll(async () => {
  await stopped?.close()
  await other?.close()
  await sql?.end()
  await relay?.close()
  await db?.drop()
})

describe('a node stopped in the middle of a transaction on PostgreSQL', () => {
  it('holds the posts it was claiming no longer than its lease: its session is ended, another node claims them, and it reconnects', async () => {
    const owner = await other.users.create({ name: 'Owner', isOwner: true }, Date.now())
    const account = await other.accounts.create(personalWorkspaceId(owner.id), owner.id, 'Brand', Date.now())
    const due = Date.now() - 1_000
    for (let i = 0; i < 5; i++) {
      await other.posts.create({ userId: owner.id, keyId: null }, { workspaceId: personalWorkspaceId(owner.id), accountId: account.id, content: `due ${i}`, mediaUrls: [], platforms: ['feed'], scheduledAt: due }, Date.now())
    }
    // The claim's first statement takes the posts (locked until the transaction ends); the node stops as it asks for the second's description.
    const stoppedThere = relay.stopAt(/^\s*UPDATE post_targets t SET next_attempt_at/)
    const claiming = stopped.publishing.claimDue(Date.now(), 128, CATCH_UP_MS).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    )
    await stoppedThere
    const stoppedAt = Date.now()
    // Once the server has read what got through, the session waits for the rest of the statement.
    let session: { state: string; wait_event: string } | undefined
    await until('the server to take the stopped node’s last statement', async () => {
      ;[session] = await sql<{ state: string; wait_event: string }[]>`SELECT state, wait_event FROM pg_stat_activity WHERE application_name = 'smm' AND query LIKE '%UPDATE post_targets t SET next_attempt_at%'`
      return session !== undefined
    }, LEASE_MS)
    expect(session).toEqual({ state: 'active', wait_event: 'ClientRead' })

    // Within the lease and a sweep (half a lease), the server has ended the session and another node claims the posts.
    let claimed = 0
    await until('another node to claim the stopped node’s posts', async () => (claimed += (await other.publishing.claimDue(Date.now(), 128, CATCH_UP_MS)).claimed) === 5, LEASE_MS * 1.5)
    expect(Date.now() - stoppedAt).toBeLessThan(LEASE_MS * 1.5)
    expect(await sql`SELECT 1 FROM pg_stat_activity WHERE application_name = 'smm' AND state <> 'idle' AND now() - xact_start > ${`${LEASE_MS} milliseconds`}::interval`).toHaveLength(0)

    // The stopped node learns its claim was not made, as a database that did not do the work (the API's 503), not as a crash.
    const { error } = (await claiming) as { error?: unknown }
    expect(error).toBeInstanceOf(StoreUnavailableError)
    // Its pool drops the ended connection and opens another: it works again, and finds nothing left to claim.
    await until('the stopped node’s store to answer again', async () => (await stopped.publishing.due(Date.now()).catch(() => undefined)) !== undefined, 5_000)
    expect(await stopped.publishing.claimDue(Date.now(), 128, CATCH_UP_MS)).toEqual({ claimed: 0, missed: 0 })
    expect((await sql`SELECT count(*)::int AS n FROM posts WHERE status = 'publishing'`)[0]!.n).toBe(5)
  })

  it('runs a migration past every limit of a session: a schema change is not cut off halfway', async () => {
    // A pool with a lease of 600 ms cuts a statement off at 300 ms and a transaction at 400 ms; the step takes a second.
    const empty = await freshDatabase()
    const pool = await connectPostgres(empty.url, { max: 1, leaseMs: 600 })
    try {
      await expect(pool`SELECT pg_sleep(1)`).rejects.toMatchObject({ code: '57014' })
      await migrate(pool, 'the test database', [{ version: 1, name: 'slow', sql: 'CREATE TABLE slow_step AS SELECT 1 AS done FROM pg_sleep(1)' }])
      expect(await pool`SELECT done FROM slow_step`).toHaveLength(1)
    } finally {
      await pool.end({ timeout: 1 })
      await empty.drop()
    }
  })
})
