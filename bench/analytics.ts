/**
 * GET /v1/analytics at scale: 100,000 posts (150,000 targets over the last 366 days, most
 * published, some failed) and 1,000,000 metric snapshots, seeded through the store's own
 * functions into a daemon's data dir, and the same writes with no analytics bookkeeping into
 * another file (the floor), each in a process of its own (bench/analytics-seed.ts); then the
 * latency of the report over HTTPS (p50/p99 of 20 requests each) for the default range, a
 * 366-day range by day and by week, and filtered. Goals: seeding at most 1.2x its floor, reports
 * under 100 ms. Standalone: `node --import tsx bench/analytics.ts`.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import pino from 'pino'
import { startDaemon } from '../daemon/main.js'
import { ManualClock } from '../src/time.js'
import type { Seeding } from './analytics-seed.js'

const SEED = fileURLToPath(new URL('./analytics-seed.ts', import.meta.url))
const POSTS = Number(process.env.BENCH_POSTS ?? 100_000)
const REQUESTS = 20
const DAY = 86_400_000

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

/** Seeds `file` in a process of its own (bench/analytics-seed.ts) and returns what it took. */
function seedIn(file: string, mode: 'rollups' | 'floor', now: number, userId?: string): Seeding {
  const res = spawnSync(process.execPath, ['--import', 'tsx', SEED, file, mode, String(now), ...(userId ? [userId] : [])], { encoding: 'utf8', maxBuffer: 1 << 20 })
  if (res.status !== 0) throw new Error(`seeding ${mode} exited ${res.status}: ${res.stderr}`)
  return JSON.parse(res.stdout) as Seeding
}

export async function benchAnalytics(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'smm-bench-analytics-'))
  const floorDir = mkdtempSync(join(tmpdir(), 'smm-bench-analytics-floor-'))
  const now = Date.UTC(2026, 10, 21, 12)
  const clock = new ManualClock(now)
  const start = () => startDaemon({ dataDir, host: '127.0.0.1', port: 0 }, { clock, log: pino({ level: 'silent' }), backgroundWorkers: false })
  let daemon = await start()
  try {
    // The first start makes the owner and its key; the daemon then stops while its file is seeded.
    const { userId, secret } = daemon.firstStart!
    await daemon.store.users.setPlan(userId, 'enterprise', { per_minute: 1e9, per_hour: 1e9, per_day: 1e9 })
    await daemon.close()
    // BENCH_ANALYTICS_AA=1 seeds the floor in both places, to check the benchmark itself: the two
    // should then take the same time. It has no reports to measure.
    const aa = Boolean(process.env.BENCH_ANALYTICS_AA)
    const seeded = seedIn(daemon.databaseFile, aa ? 'floor' : 'rollups', now, userId)
    const floor = seedIn(join(floorDir, 'smm.db'), 'floor', now)
    const seedFigures = {
      posts: POSTS,
      snapshots: POSTS * 10,
      seed_s: Number((seeded.ms / 1000).toFixed(1)),
      seed_floor_s: Number((floor.ms / 1000).toFixed(1)),
      seed_phases: seeded.phases,
      seed_floor_phases: floor.phases,
      seed_vs_floor: `${(seeded.ms / floor.ms).toFixed(2)}x (goal 1.2x)`,
      seed_vs_floor_cpu: `${(seeded.cpuMs / floor.cpuMs).toFixed(2)}x`,
    }
    if (aa) return seedFigures
    if (process.env.BENCH_SEED_ONLY) return { data_dir: dataDir, user_id: userId }
    daemon = await start()

    const ca = readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8')
    const agent = new https.Agent({ ca, keepAlive: true, maxSockets: 1 })
    const get = (path: string) =>
      new Promise<{ status: number; ms: number }>((resolve, reject) => {
        const started = performance.now()
        https
          .get(new URL(path, daemon.url), { agent, headers: { authorization: `Bearer ${secret}` } }, (res) => {
            res.resume()
            res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - started }))
          })
          .on('error', reject)
      })
    const measure = async (path: string) => {
      const times: number[] = []
      for (let i = 0; i < REQUESTS + 2; i++) {
        const { status, ms } = await get(path)
        if (status !== 200) throw new Error(`${path} answered ${status}`)
        // The first two warm the connection and the prepared statements.
        if (i >= 2) times.push(ms)
      }
      times.sort((a, b) => a - b)
      return `p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`
    }
    const year = `from=${new Date(now - 365 * DAY).toISOString().slice(0, 10)}&to=${new Date(now).toISOString().slice(0, 10)}`
    const accounts = seeded.accounts
    const figures: Record<string, number | string> = {
      ...seedFigures,
      'default (30 days, daily)': await measure('/v1/analytics'),
      '366 days, daily': await measure(`/v1/analytics?${year}`),
      '366 days, weekly': await measure(`/v1/analytics?${year}&interval=week`),
      '366 days, platform=mastodon, account': await measure(`/v1/analytics?${year}&platform=mastodon&account_id=${accounts[3]}`),
      goal: 'p99 < 100 ms',
    }
    agent.destroy()
    return figures
  } finally {
    await daemon.close()
    rmSync(floorDir, { recursive: true, force: true })
    if (!process.env.BENCH_SEED_ONLY) rmSync(dataDir, { recursive: true, force: true })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await benchAnalytics()
  for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(40)} ${value}`)
}
