/**
 * GET /v1/analytics at scale: 100,000 posts (150,000 targets over the last 366 days, most
 * published, some failed) and 1,000,000 metric snapshots, seeded through the store's own
 * functions in a temporary data dir; then the latency of the report over HTTPS (p50/p99 of
 * 20 requests each) for the default range, a 366-day range by day and by week, and filtered.
 * Goal: under 100 ms. Standalone: `node --import tsx bench/analytics.ts`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import pino from 'pino'
import { startDaemon } from '../daemon/main.js'
import type { PlatformName } from '../daemon/platforms/types.js'
import { openSqliteStore, type SqliteStore } from '../daemon/store/sqlite/index.js'
import { metricsStore, type Reading } from '../daemon/store/sqlite/metrics.js'
import { publishingStore } from '../daemon/store/sqlite/publishing.js'
import { ManualClock } from '../src/time.js'

const POSTS = Number(process.env.BENCH_POSTS ?? 100_000)
const SNAPSHOTS = POSTS * 10
const DAYS = 366
const REQUESTS = 20
/** Readings per batch of snapshots: ten of each of a hundred targets. */
const SNAPSHOT_BATCH = 1_000
const DAY = 86_400_000

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

/** A small deterministic generator, so every run seeds the same data. */
function random(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0
    return s / 2 ** 32
  }
}

/**
 * Seeds POSTS posts on ten accounts, publishes them as the scheduler would and writes their
 * snapshots, through the store's own functions, one transaction per phase (the functions nest
 * as savepoints). `metrics` writes the snapshots: the store's own, or the floor's, which keeps
 * no rollups. Returns how long it took, in ms, each phase's wall and CPU time, and the accounts.
 */
async function seedInto(
  seed: SqliteStore,
  metrics: Pick<SqliteStore['metrics'], 'snapshotsSync'>,
  publishing: Pick<SqliteStore['publishing'], 'claimTargets' | 'settleAll'>,
  userId: string, now: number): Promise<{ ms: number; cpuMs: number; phases: string; accounts: string[] }> {
  const rnd = random(42)
  const started = performance.now()
  // Wall and CPU time at the end of each phase: on a busy machine the CPU time says more.
  const cpu = () => {
    const { user, system } = process.cpuUsage()
    return (user + system) / 1000
  }
  const marks: number[] = [started]
  const cpuMarks: number[] = [cpu()]
  const mark = () => {
    marks.push(performance.now())
    cpuMarks.push(cpu())
  }
  const accounts: string[] = []
  const workspaceId = (await seed.workspaces.memberships(userId)).find((m) => m.personal)!.workspaceId
  for (let i = 0; i < 10; i++) accounts.push((await seed.accounts.create(workspaceId, userId, `Brand ${i}`, now)).id)
  // The store's functions do their work synchronously and resolve after: the writes land in
  // the enclosing transaction, the ids are collected once it has committed.
  const created: Promise<{ id: string; at: number; platforms: PlatformName[] }>[] = []
  seed.db.transaction(() => {
    for (let i = 0; i < POSTS; i++) {
      const at = now - Math.floor(rnd() * DAYS * DAY)
      const platforms: PlatformName[] = i % 2 ? ['mastodon'] : ['feed', 'mastodon']
      const input = { workspaceId, accountId: accounts[i % accounts.length]!, content: `post ${i}`, mediaUrls: [], platforms, scheduledAt: at }
      created.push(seed.posts.create({ userId, keyId: null }, input, at - DAY).then((r) => ({ id: r.post.id, at, platforms })))
    }
  })()
  const posts = await Promise.all(created)
  mark()
  // Publish them as the scheduler would: claim, attempt, settle, each target a few seconds late,
  // claims and outcomes in batches of 256 (the scheduler's batches at most); 3% fail.
  while ((await seed.publishing.claimDue(now, 5_000, Number.MAX_SAFE_INTEGER)).claimed > 0);
  const targets = posts.flatMap((post) => post.platforms.map((platform) => ({ post, platform })))
  seed.db.transaction(() => {
    for (let from = 0; from < targets.length; from += 256) {
      const batch = targets.slice(from, from + 256)
      void publishing.claimTargets(batch.map(({ post, platform }) => ({ ref: { postId: post.id, platform, accountId: '', dueAt: post.at }, now: post.at })), 60_000)
      void publishing.settleAll(
        batch.map(({ post, platform }) => ({
          postId: post.id,
          platform,
          // The claim just taken: each target's first.
          claim: 1,
          at: post.at + Math.floor(rnd() * 5_000),
          outcome: rnd() < 0.03 ? { kind: 'failed' as const, code: 'platform_rejected', detail: 'no' } : { kind: 'published' as const, platformPostId: `${post.id}-${platform}`, url: `https://social.example/@brand/${post.id}` },
        })),
      )
    }
  })()
  mark()
  // Ten snapshots per Mastodon target, 15 minutes apart, counts growing: written as an import
  // would, a hundred targets' readings per batch.
  seed.db.transaction(() => {
    let written = 0
    let batch: Reading[] = []
    for (const post of posts) {
      for (let k = 0; k < SNAPSHOTS / POSTS; k++, written++) {
        const likes = Math.floor(rnd() * 50) * (k + 1)
        batch.push({ postId: post.id, platform: 'mastodon', takenAt: post.at + (k + 1) * 900_000, metrics: { impressions: null, likes, reposts: likes >> 2, replies: likes >> 3, quotes: 0, clicks: null } })
      }
      if (batch.length >= SNAPSHOT_BATCH) {
        metrics.snapshotsSync(batch)
        batch = []
      }
    }
    metrics.snapshotsSync(batch)
    if (written !== SNAPSHOTS) throw new Error(`seeded ${written} snapshots, not ${SNAPSHOTS}`)
  })()
  mark()
  const phases = ['posts', 'settles', 'snapshots'].map((name, i) => `${name} ${((marks[i + 1]! - marks[i]!) / 1000).toFixed(1)} s (CPU ${((cpuMarks[i + 1]! - cpuMarks[i]!) / 1000).toFixed(1)} s)`).join(', ')
  return { ms: performance.now() - started, cpuMs: cpuMarks[3]! - cpuMarks[0]!, phases, accounts }
}

export async function benchAnalytics(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'smm-bench-analytics-'))
  const now = Date.UTC(2026, 10, 21, 12)
  const clock = new ManualClock(now)
  const daemon = await startDaemon({ dataDir, host: '127.0.0.1', port: 0 }, { clock, log: pino({ level: 'silent' }), backgroundWorkers: false })
  try {
    const { store } = daemon
    // Seeding goes through a second SQLite store on the daemon's file, whose units of work nest
    // in one transaction: the benchmark measures reports, not 40,000 separate commits.
    const seed = openSqliteStore(daemon.databaseFile)
    const userId = daemon.firstStart!.userId
    await store.users.setPlan(userId, 'enterprise', { per_minute: 1e9, per_hour: 1e9, per_day: 1e9 })
    const { ms: seedMs, cpuMs: seedCpuMs, phases: seedPhases, accounts } = await seedInto(seed, seed.metrics, seed.publishing, userId, now)
    await seed.close()
    // The floor of point 3: the same writes into a fresh database whose analytics triggers are
    // dropped (the rollup journal's fold among them), and whose metrics and publishing stores keep
    // no rollups (migrations 15 and 16 moved that bookkeeping from triggers into the store), so
    // nothing but the posts, targets and snapshots themselves is written.
    const floorDir = mkdtempSync(join(tmpdir(), 'smm-bench-analytics-floor-'))
    const bare = openSqliteStore(join(floorDir, 'smm.db'))
    let floor: { ms: number; cpuMs: number; phases: string }
    try {
      const triggers = bare.db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'analytics_%'").pluck().all()
      for (const name of triggers) bare.db.exec(`DROP TRIGGER ${name}`)
      const floorUser = (await bare.users.create({ name: 'floor', plan: 'enterprise' }, now)).id
      floor = await seedInto(bare, metricsStore(bare.db, bare.accounts, null), publishingStore(bare.db, bare.events, bare.accounts, null), floorUser, now)
    } finally {
      bare.close()
      rmSync(floorDir, { recursive: true, force: true })
    }
    if (process.env.BENCH_SEED_ONLY) return { data_dir: dataDir, user_id: userId }

    const ca = readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8')
    const agent = new https.Agent({ ca, keepAlive: true, maxSockets: 1 })
    const get = (path: string) =>
      new Promise<{ status: number; ms: number }>((resolve, reject) => {
        const started = performance.now()
        https
          .get(new URL(path, daemon.url), { agent, headers: { authorization: `Bearer ${daemon.firstStart!.secret}` } }, (res) => {
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
    const figures: Record<string, number | string> = {
      posts: POSTS,
      snapshots: SNAPSHOTS,
      seed_s: Number((seedMs / 1000).toFixed(1)),
      seed_floor_s: Number((floor.ms / 1000).toFixed(1)),
      seed_phases: seedPhases,
      seed_floor_phases: floor.phases,
      seed_vs_floor: `${(seedMs / floor.ms).toFixed(2)}x (goal 1.2x)`,
      seed_vs_floor_cpu: `${(seedCpuMs / floor.cpuMs).toFixed(2)}x`,
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
    if (!process.env.BENCH_SEED_ONLY) rmSync(dataDir, { recursive: true, force: true })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await benchAnalytics()
  for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(40)} ${value}`)
}
