import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import postgres from 'postgres'
import { hashApiKey } from '../src/api-key.js'
import { SCOPES } from '../src/api/common.js'
import { openPostgresStore } from '../daemon/store/postgres/index.js'
import { startEmbeddedPostgres } from '../test/helpers/embedded-postgres.js'
import { httpsClient } from '../test/helpers/http.js'
import { cpuMs, measure, row } from './http.js'
import { load } from './load.js'
import { liftOwnerLimits, startBenchDaemon, stop } from './processes.js'

const CONCURRENCY = 16

export async function createDatabase(admin: string, name: string): Promise<string> {
  const sql = postgres(admin, { max: 1, onnotice: () => undefined })
  await sql.unsafe(`CREATE DATABASE ${name}`)
  await sql.end()
  const url = new URL(admin)
  url.pathname = `/${name}`
  return url.toString()
}

/** Runs `op` `total` times, `CONCURRENCY` at once; operations per second. */
async function rate(total: number, op: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) await op(next++)
    }),
  )
  return Math.round(total / ((performance.now() - started) / 1000))
}

/**
 * The API hot path's two statements (the key and its owner by hash; the rate-limit upsert) with
 * each maintained driver, same pool size, same server, same statements.
 */
async function drivers(url: string): Promise<Record<string, number | string>> {
  const store = await openPostgresStore(url)
  const user = await store.users.create({ name: 'bench', plan: 'enterprise' }, Date.now())
  const key = await store.apiKeys.create(user.id, { name: 'bench', scopes: SCOPES }, Date.now(), null)
  await store.close()
  const hash = hashApiKey(key.secret)
  const AUTH = `SELECT k.*, u.plan AS u_plan FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.hash = $1`
  const COUNT = `INSERT INTO rate_limits AS r (key_id, minute_start, minute_count, hour_start, hour_count, day_start, day_count)
    VALUES ($1, $2, 1, $2, 1, $2, 1)
    ON CONFLICT (key_id) DO UPDATE SET minute_count = r.minute_count + 1, hour_count = r.hour_count + 1, day_count = r.day_count + 1
    RETURNING minute_count`
  const total = 20_000
  const js = postgres(url, { max: 10, onnotice: () => undefined })
  const viaPostgres = await rate(total, async () => {
    await js.unsafe(AUTH, [hash], { prepare: true })
    await js.unsafe(COUNT, [key.id, 0], { prepare: true })
  })
  await js.end()
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  const viaPg = await rate(total, async () => {
    await pool.query({ name: 'auth', text: AUTH, values: [hash] })
    await pool.query({ name: 'count', text: COUNT, values: [key.id, 0] })
  })
  await pool.end()
  return {
    'hot path (key by hash + rate-limit upsert), postgres': `${viaPostgres} requests/s`,
    'hot path (key by hash + rate-limit upsert), pg': `${viaPg} requests/s`,
    'driver ratio postgres / pg': Number((viaPostgres / viaPg).toFixed(2)),
  }
}

/** The same daemon build, once on a SQLite data dir and once on PostgreSQL: authenticated GET /v1/me. */
export async function apiThroughput(url: string): Promise<Record<string, number | string>> {
  const durationMs = Number(process.env.BENCH_SECONDS ?? 5) * 1000
  const results: Record<string, Awaited<ReturnType<typeof measure>>> = {}
  for (const [name, env] of [
    ['SQLite', {}],
    ['PostgreSQL', { SMM_DATABASE_URL: url, SMM_SECRET_KEY: randomBytes(32).toString('base64') }],
  ] as const) {
    const dataDir = mkdtempSync(join(tmpdir(), 'smm-bench-'))
    try {
      const daemon = await startBenchDaemon(dataDir, env)
      liftOwnerLimits({ SMM_DATA_DIR: dataDir, ...env })
      const options = { headers: { authorization: `Bearer ${daemon.key}` }, connections: CONCURRENCY }
      await load(`${daemon.url}/v1/me`, { ...options, durationMs: 1_000, warmupMs: 0 })
      results[name] = await measure(daemon.child.pid!, `${daemon.url}/v1/me`, { ...options, durationMs })
      await stop(daemon.child)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  return {
    'GET /v1/me, SQLite': row(results.SQLite!),
    'GET /v1/me, PostgreSQL': row(results.PostgreSQL!),
    'throughput ratio PostgreSQL / SQLite (goal >= 0.50)': Number((results.PostgreSQL!.perSecond / results.SQLite!.perSecond).toFixed(2)),
  }
}

/** Runs `count` tasks, `CONCURRENCY` at once. */
async function pool(count: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await task(next++)
  }))
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

/** CPU time used so far by the daemons and by every PostgreSQL process on the machine. */
function cpuOf(daemons: { child: import('node:child_process').ChildProcess }[]): { daemons: number; postgres: number } {
  const daemonMs = daemons.reduce((sum, d) => sum + (cpuMs(d.child.pid!) ?? 0), 0)
  let postgresMs = 0
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') postgresMs += cpuMs(Number(pid)) ?? 0
    } catch {
      // The process ended while we looked.
    }
  }
  return { daemons: daemonMs, postgres: postgresMs }
}

/** Accounts the published posts are spread over: an agency's, each its own feed connection. */
const ACCOUNTS = Number(process.env.BENCH_PG_ACCOUNTS ?? 50)

/**
 * `nodes` daemon processes on one fresh database, and `posts` posts to the feed due in one
 * second, spread over `ACCOUNTS` accounts: how long until every one is published, and how late
 * each was (the feed item's time against the post's), with `waiting` more posts scheduled for
 * tomorrow in the tables. A post that fails fails the run, with its error.
 */
export async function publishRun(admin: string, name: string, nodes: number, posts: number, waiting = 0): Promise<{ seconds: number; p50: number; p99: number; cpu: { daemons: number; postgres: number } }> {
  const url = await createDatabase(admin, name)
  const env = { SMM_DATABASE_URL: url, SMM_SECRET_KEY: randomBytes(32).toString('base64') }
  const daemons: { child: import('node:child_process').ChildProcess; http: ReturnType<typeof httpsClient>; dir: string }[] = []
  const store = await openPostgresStore(url, { max: CONCURRENCY })
  const sql = postgres(url, { max: 1, onnotice: () => undefined })
  try {
    let key = ''
    for (let i = 0; i < nodes; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'smm-bench-node-'))
      // Only the first node to start on the fresh database creates the owner and prints a key.
      const started = await startBenchDaemon(dir, env, i === 0)
      if (i === 0) key = started.key
      daemons.push({ child: started.child, http: httpsClient(started.url, readFileSync(join(dir, 'tls-cert.pem'), 'utf8')), dir })
    }
    const owner = (await store.users.owner())!
    await store.users.setPlan(owner.id, 'enterprise', { per_minute: 1e9, per_hour: 1e9, per_day: 1e9 })
    // Connected through the API, as a user does (the connection's credentials sealed by the daemon).
    const accounts: string[] = []
    for (let i = 0; i <= ACCOUNTS; i++) {
      const account = (await daemons[0]!.http.post('/v1/accounts', { name: `Bench ${i}` }, { key })).body.id as string
      await daemons[0]!.http.post(`/v1/accounts/${account}/connections`, { platform: 'feed' }, { key })
      accounts.push(account)
    }
    const later = accounts.pop()!
    const workspaceId = (await store.workspaces.memberships(owner.id)).find((m) => m.personal)!.workspaceId
    await pool(waiting, (i) => store.posts.create({ userId: owner.id, keyId: null }, { workspaceId, accountId: later, content: `later ${i}`, mediaUrls: [], platforms: ['feed'], scheduledAt: Date.now() + 86_400_000 + i }, Date.now()))
    // Written while no daemon looks (an hour ahead), then moved to one second a few seconds from now.
    await pool(posts, (i) => store.posts.create({ userId: owner.id, keyId: null }, { workspaceId, accountId: accounts[i % accounts.length]!, content: `post ${i}`, mediaUrls: [], platforms: ['feed'], scheduledAt: Date.now() + 3_600_000 + i }, Date.now()))
    const due = Date.now() + 3_000
    await sql`UPDATE posts SET scheduled_at = ${due} + (scheduled_at % 1000) WHERE account_id = ANY(${accounts})`
    // Each daemon arms for it when a post is created through it.
    for (const d of daemons) {
      await d.http.post('/v1/posts', { account_id: accounts[0], content: `armed ${d.dir}`, platforms: ['feed'], scheduled_at: new Date(due).toISOString() }, { key })
    }
    const total = posts + nodes
    const before = cpuOf(daemons)
    for (;;) {
      const [row] = await sql<{ published: number; failed: number }[]>`
        SELECT count(*) FILTER (WHERE status = 'published')::int AS published, count(*) FILTER (WHERE status IN ('failed', 'unconfirmed'))::int AS failed
          FROM post_targets t WHERE t.post_id IN (SELECT id FROM posts WHERE account_id = ANY(${accounts}))`
      if (row!.failed > 0) {
        const [error] = await sql<{ error_code: string; error_detail: string }[]>`SELECT error_code, error_detail FROM post_targets WHERE status IN ('failed', 'unconfirmed') LIMIT 1`
        throw new Error(`${row!.failed} posts failed: ${error!.error_code}: ${error!.error_detail}`)
      }
      if (row!.published >= total) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const after = cpuOf(daemons)
    // Per post: what each side spends (the PostgreSQL figure includes its share of this loop's polling).
    const cpu = { daemons: (after.daemons - before.daemons) / total, postgres: (after.postgres - before.postgres) / total }
    const lateness = (await sql<{ ms: number }[]>`
      SELECT f.published_at - p.scheduled_at AS ms FROM feed_items f JOIN posts p ON p.id = f.post_id WHERE f.account_id = ANY(${accounts})`).map((r) => Number(r.ms)).sort((a, b) => a - b)
    const [finished] = await sql<{ last: number }[]>`SELECT max(published_at)::bigint AS last FROM feed_items WHERE account_id = ANY(${accounts})`
    return { seconds: (finished!.last - due) / 1000, p50: percentile(lateness, 50), p99: percentile(lateness, 99), cpu }
  } finally {
    await sql.end()
    for (const d of daemons) {
      d.http.close()
      await stop(d.child)
      rmSync(d.dir, { recursive: true, force: true })
    }
    await store.close()
  }
}

/** Publish throughput with one, two and three daemons; lateness with 100,000 posts scheduled. */
async function publishing(admin: string): Promise<Record<string, number | string>> {
  const POSTS = Number(process.env.BENCH_PG_POSTS ?? 10_000)
  const figures: Record<string, number | string> = {}
  const rates: number[] = []
  for (const nodes of [1, 2, 3]) {
    const run = await publishRun(admin, `bench_publish_${nodes}`, nodes, POSTS)
    rates.push(POSTS / run.seconds)
    figures[`${POSTS} posts on ${ACCOUNTS} accounts due in one second, ${nodes} daemon${nodes > 1 ? 's' : ''}`] =
      `${(POSTS / run.seconds).toFixed(0)} posts/s (all out ${run.seconds.toFixed(1)} s after the due second began); CPU per post: daemons ${run.cpu.daemons.toFixed(2)} ms, PostgreSQL ${run.cpu.postgres.toFixed(2)} ms; cores busy ${(((run.cpu.daemons + run.cpu.postgres) * POSTS) / 1000 / run.seconds).toFixed(2)}`
  }
  figures['publish throughput ratio 3 daemons / 1 (goal >= 2)'] = Number((rates[2]! / rates[0]!).toFixed(2))
  const WAITING = Number(process.env.BENCH_PG_WAITING ?? 99_000)
  const lateness = await publishRun(admin, 'bench_lateness', 1, 1_000, WAITING)
  figures[`lateness of 1,000 posts due in one second among ${WAITING + 1_000} scheduled, 1 daemon`] = `p50 ${lateness.p50} ms, p99 ${lateness.p99} ms`
  return figures
}

/** The PostgreSQL store against a private server started for the run (embedded-postgres). */
export async function benchPostgres(): Promise<Record<string, number | string>> {
  const server = await startEmbeddedPostgres()
  try {
    return {
      ...(await drivers(await createDatabase(server.url, 'bench_drivers'))),
      ...(await apiThroughput(await createDatabase(server.url, 'bench_api'))),
      ...(await publishing(server.url)),
      server: 'PostgreSQL 18 (embedded-postgres, fsync off), on this machine beside the daemon and the load',
    }
  } finally {
    await server.stop()
  }
}
