import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import postgres from 'postgres'
import { hashApiKey } from '../src/api-key.js'
import { SCOPES } from '../src/api/common.js'
import { openPostgresStore } from '../daemon/store/postgres/index.js'
import { startEmbeddedPostgres } from '../test/helpers/embedded-postgres.js'
import { measure, row } from './http.js'
import { load } from './load.js'
import { BIN, smm, spawnUntil, stop } from './processes.js'

const CONCURRENCY = 16

async function createDatabase(admin: string, name: string): Promise<string> {
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
  const key = await store.apiKeys.create(user.id, { name: 'bench', scopes: SCOPES }, Date.now())
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
async function apiThroughput(url: string): Promise<Record<string, number | string>> {
  const durationMs = Number(process.env.BENCH_SECONDS ?? 5) * 1000
  const results: Record<string, Awaited<ReturnType<typeof measure>>> = {}
  for (const [name, env] of [
    ['SQLite', {}],
    ['PostgreSQL', { SMM_DATABASE_URL: url, SMM_SECRET_KEY: randomBytes(32).toString('base64') }],
  ] as const) {
    const dataDir = mkdtempSync(join(tmpdir(), 'smm-bench-'))
    try {
      const daemon = await spawnUntil(
        [BIN, 'daemon', '--port', '0', '--data-dir', dataDir, '--log-level', 'silent'],
        (out) => {
          const found = /listening on (https:\/\/\S+)\/v1/.exec(out)?.[1]
          const key = /\n {2}(smm_[0-9A-Za-z]{36})\n/.exec(out)?.[1]
          return found && key && out.includes('curl') ? { url: found, key } : undefined
        },
        env,
      )
      const adminEnv = { SMM_DATA_DIR: dataDir, ...env }
      const owner = JSON.parse(smm(['admin', 'users', 'list', '--json'], adminEnv))[0].id
      smm(['admin', 'users', 'set-plan', owner, '--plan', 'enterprise', '--per-minute', '100000000', '--per-hour', '100000000', '--per-day', '100000000'], adminEnv)
      const options = { ca: readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8'), headers: { authorization: `Bearer ${daemon.value.key}` }, connections: CONCURRENCY }
      await load(`${daemon.value.url}/v1/me`, { ...options, durationMs: 1_000, warmupMs: 0 })
      results[name] = await measure(daemon.child.pid!, `${daemon.value.url}/v1/me`, { ...options, durationMs })
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

/** The PostgreSQL store against a private server started for the run (embedded-postgres). */
export async function benchPostgres(): Promise<Record<string, number | string>> {
  const server = await startEmbeddedPostgres()
  try {
    return {
      ...(await drivers(await createDatabase(server.url, 'bench_drivers'))),
      ...(await apiThroughput(await createDatabase(server.url, 'bench_api'))),
      server: 'PostgreSQL 18 (embedded-postgres, fsync off), on this machine beside the daemon and the load',
    }
  } finally {
    await server.stop()
  }
}
