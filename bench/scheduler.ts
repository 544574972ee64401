/**
 * Scheduler at scale: with 100,000 posts scheduled, how late each due post reaches its
 * platform (p50/p99 of the time between `scheduled_at` and the platform call); how long 10,000
 * and then 100,000 posts due in the same millisecond take to be handed to `feed` and recorded
 * published, next to the floor of bare SQLite writes, and how late another account's posts
 * due meanwhile are.
 * Real daemon, real clock, SQLite in a temporary data dir. Standalone:
 * `node --import tsx bench/scheduler.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import Database from 'better-sqlite3'
import pino from 'pino'
import { startDaemon, type RunningDaemon } from '../daemon/main.js'
import { createSecretBox, loadSecretKey } from '../daemon/secret-box.js'
import { openSqliteStore } from '../daemon/store/sqlite/index.js'

// `BENCH_SCHEDULED` and `BENCH_LARGE_BURST` (0: none) cut the run down, to measure the burst of 10,000 alone.
const SCHEDULED = Number(process.env.BENCH_SCHEDULED ?? 100_000)
const PROBES = 1_000
const PROBE_SPREAD_MS = 5_000
const BURST = 10_000
const LARGE_BURST = Number(process.env.BENCH_LARGE_BURST ?? 100_000)

/**
 * The floor: what any scheduler must at least write for a burst, on bare better-sqlite3 in the
 * same run: each post marked published and its feed item inserted, 256 posts per transaction,
 * same WAL settings. Milliseconds of wall time and of CPU for `size` posts.
 */
function bareBurst(size: number): { ms: number; cpuMs: number } {
  const dir = mkdtempSync(join(tmpdir(), 'smm-bench-floor-'))
  const db = new Database(join(dir, 'floor.db'))
  try {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.exec("CREATE TABLE posts (id TEXT PRIMARY KEY, status TEXT NOT NULL, published_at INTEGER); CREATE TABLE feed_items (post_id TEXT PRIMARY KEY, content TEXT NOT NULL, published_at INTEGER NOT NULL)")
    const insert = db.prepare<[string], void>("INSERT INTO posts (id, status) VALUES (?, 'scheduled')")
    const ids = Array.from({ length: size }, (_, i) => `pst_${String(i).padStart(22, '0')}`)
    db.transaction(() => ids.forEach((id) => insert.run(id)))()
    const publish = db.prepare<[number, string], void>("UPDATE posts SET status = 'published', published_at = ? WHERE id = ? AND status = 'scheduled'")
    const item = db.prepare<[string, string, number], void>('INSERT INTO feed_items (post_id, content, published_at) VALUES (?, ?, ?)')
    const started = performance.now()
    const cpu = process.cpuUsage()
    for (let from = 0; from < size; from += 256) {
      db.transaction(() => {
        for (const id of ids.slice(from, from + 256)) {
          item.run(id, `post ${id}`, Date.now())
          publish.run(Date.now(), id)
        }
      })()
    }
    const used = process.cpuUsage(cpu)
    return { ms: Math.max(1, Math.round(performance.now() - started)), cpuMs: Math.max(1, Math.round((used.user + used.system) / 1000)) }
  } finally {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function benchScheduler(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'smm-bench-'))
  let daemon: RunningDaemon | undefined
  try {
    // The real feed platform. A post is handed to it when its item is written: the item's time is
    // the moment the scheduler published it (the platform's call, or the claim that published it).
    daemon = await startDaemon({ dataDir, host: '127.0.0.1', port: 0 }, { log: pino({ level: 'silent' }) })
    const { store, scheduler } = daemon
    const userId = daemon.firstStart!.userId
    const box = createSecretBox(loadSecretKey(dataDir))
    const workspaceId = (await store.workspaces.memberships(userId)).find((m) => m.personal)!.workspaceId
    const account = async (name: string) => {
      const created = await store.accounts.create(workspaceId, userId, name, Date.now())
      await store.accounts.connect([workspaceId], created.id, { platform: 'feed', handle: 'feed', displayName: 'feed', sealedCredentials: box.seal({}, `${created.id}:feed`), settings: {} }, Date.now(), null)
      return created.id
    }
    // Seeding goes through a second SQLite store on the daemon's file, whose units of work nest
    // in one transaction: the benchmark measures publishing, not the setup's separate commits.
    const seed = openSqliteStore(daemon.databaseFile)
    const itemTimes = seed.db.prepare<[string], { post_id: string; published_at: number }>('SELECT post_id, published_at FROM feed_items WHERE account_id = ?')
    const called = new Map<string, number>()
    const handedOff = (accountId: string) => itemTimes.all(accountId).forEach((item) => called.set(item.post_id, item.published_at))
    const create = (accountId: string, scheduledAt: number, i: number) =>
      seed.posts.create({ userId, keyId: null }, { workspaceId, accountId, content: `post ${i}`, mediaUrls: [], platforms: ['feed'], scheduledAt }, Date.now())

    // Seeding goes 1,000 posts per transaction (each create nests as a savepoint): the
    // benchmark measures publishing, not 100,000 separate commits of the setup.
    const seedStarted = performance.now()
    const future = await account('Future')
    const dayAhead = Date.now() + 86_400_000
    for (let chunk = 0; chunk < SCHEDULED - PROBES; chunk += 1_000) {
      seed.db.transaction(() => {
        for (let i = chunk; i < Math.min(chunk + 1_000, SCHEDULED - PROBES); i++) void create(future, dayAhead + i * 1_000, i)
      })()
    }
    const seedMs = performance.now() - seedStarted

    // Lateness: 1,000 posts due one by one over 5 s, among the 99,000 others.
    const probes = await account('Probes')
    const due = new Map<string, number>()
    const first = Date.now() + 1_000
    const probesStarted = performance.now()
    for (let i = 0; i < PROBES; i++) {
      const at = first + Math.floor((i * PROBE_SPREAD_MS) / PROBES)
      due.set((await create(probes, at, i)).post.id, at)
      scheduler.wake()
    }
    const probesMs = performance.now() - probesStarted
    while ((handedOff(probes), [...due.keys()].some((id) => !called.has(id)))) await sleep(50)
    const lateness = [...due].map(([id, at]) => called.get(id)! - at).sort((a, b) => a - b)

    // Bursts: all due in the same millisecond (a campaign at 9:00 sharp), with 200 posts of
    // another account due one by one over the two seconds after it: how late "the rest" are
    // while a burst goes out.
    const burstAccount = await account('Burst')
    const others = await account('Others')
    const remaining = seed.db.prepare<[number, number], { n: number }>(
      `SELECT (SELECT count(*) FROM posts WHERE status = 'scheduled' AND scheduled_at <= ?)
            + (SELECT count(*) FROM post_targets WHERE status = 'pending' AND next_attempt_at <= ?)
            + (SELECT count(*) FROM post_targets WHERE status = 'publishing') AS n`,
    )
    const publishedOf = seed.db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM posts WHERE account_id = ? AND status = 'published'")
    // Whether any of the burst's posts is not yet out: the first entry of a range of the index by account and status.
    const unpublished = seed.db.prepare<[string, string], { n: number }>(
      "SELECT EXISTS (SELECT 1 FROM posts WHERE workspace_id = ? AND account_id = ? AND status IN ('scheduled', 'publishing')) AS n",
    )
    // Posts created per millisecond, to set a burst's due time after its own seeding: the
    // background's rate, or with none (BENCH_SCHEDULED=1000) the probes', one commit each, slower.
    const seedRate = SCHEDULED > PROBES ? (SCHEDULED - PROBES) / seedMs : PROBES / probesMs
    const burst = async (size: number) => {
      // Due once the seeding below has committed, with two seconds to spare.
      const at = Date.now() + Math.ceil((1.5 * size) / seedRate) + 2_000
      const ids: string[] = []
      const during = new Map<string, number>()
      seed.db.transaction(() => {
        for (let i = 0; i < size; i++) void create(burstAccount, at, i).then((r) => ids.push(r.post.id))
        for (let i = 0; i < 200; i++) {
          const due = at + 10 * (i + 1)
          void create(others, due, i).then((r) => during.set(r.post.id, due))
        }
      })()
      // Seeding slower than planned (a busy machine) commits after `at`: the daemon sees the
      // posts only then, so times count from the commit.
      const visible = Math.max(at, Date.now())
      const published = publishedOf.get(burstAccount)!.n
      // The process's CPU while the burst goes out (both its threads: the event loop and the WAL
      // checkpointer): on a shared machine the wall time says how many cores others left us, this
      // what the burst cost.
      const cpu = process.cpuUsage()
      scheduler.wake()
      // The burst is recorded once none of its posts is left scheduled or publishing; the run is
      // done when nothing due by the end of the other account's posts (2 s after the burst) is
      // left to publish: counted through the partial indexes of what is waiting, so the polling
      // costs the daemon next to nothing.
      const end = Math.max(at + 2_010, visible)
      let recorded: number | undefined
      let recordedCpu: NodeJS.CpuUsage | undefined
      for (;;) {
        if (recorded === undefined && unpublished.get(workspaceId, burstAccount)!.n === 0) {
          recorded = Date.now() - visible
          recordedCpu = process.cpuUsage(cpu)
        }
        if (remaining.get(end, end)!.n === 0) break
        await sleep(20)
      }
      recorded ??= Date.now() - visible
      const used = process.cpuUsage(cpu)
      recordedCpu ??= used
      if (publishedOf.get(burstAccount)!.n - published !== size) throw new Error(`Only ${publishedOf.get(burstAccount)!.n - published} of the ${size} burst posts were published.`)
      handedOff(burstAccount)
      handedOff(others)
      const late = [...during].map(([id, due]) => called.get(id)! - Math.max(due, visible)).sort((a, b) => a - b)
      return { handoff: Math.max(...ids.map((id) => called.get(id)!)) - visible, recorded, cpuMs: Math.round((used.user + used.system) / 1000), recordedCpuMs: Math.round((recordedCpu.user + recordedCpu.system) / 1000), lateP50: percentile(late, 50), lateP99: percentile(late, 99) }
    }
    const small = await burst(BURST)
    const large = LARGE_BURST > 0 ? await burst(LARGE_BURST) : undefined
    const floor = bareBurst(BURST)
    await seed.close()

    return {
      scheduled_posts: SCHEDULED,
      seed_posts_per_s: Math.round(((SCHEDULED - PROBES) / seedMs) * 1000),
      lateness_probes: PROBES,
      lateness_p50_ms: percentile(lateness, 50),
      lateness_p99_ms: percentile(lateness, 99),
      lateness_max_ms: lateness[lateness.length - 1]!,
      burst_posts: BURST,
      burst_handoff_ms: small.handoff,
      burst_all_published_ms: small.recorded,
      burst_posts_per_s: Math.round((BURST / small.recorded) * 1000),
      burst_cpu_ms: small.cpuMs,
      burst_cpu_to_recorded_ms: small.recordedCpuMs,
      burst_floor_ms: floor.ms,
      burst_floor_cpu_ms: floor.cpuMs,
      burst_vs_floor: `${(small.recorded / floor.ms).toFixed(1)}x`,
      burst_cpu_vs_floor: `${(small.cpuMs / floor.cpuMs).toFixed(1)}x`,
      burst_others_late_p50_ms: small.lateP50,
      burst_others_late_p99_ms: small.lateP99,
      ...(large && {
        large_burst_posts: LARGE_BURST,
        large_burst_handoff_ms: large.handoff,
        large_burst_all_published_ms: large.recorded,
        large_burst_cpu_ms: large.cpuMs,
        large_burst_others_late_p50_ms: large.lateP50,
        large_burst_others_late_p99_ms: large.lateP99,
      }),
    }
  } finally {
    await daemon?.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await benchScheduler()
  for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(24)} ${value}`)
}
