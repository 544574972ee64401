/**
 * Scheduler at scale: with 100,000 posts scheduled, how late each due post reaches its
 * platform (p50/p99 of the time between `scheduled_at` and the platform call), and how long
 * 10,000 posts due in the same millisecond take to be handed to `feed` and recorded published.
 * Real daemon, real clock, SQLite in a temporary data dir. Standalone:
 * `node --import tsx bench/scheduler.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import pino from 'pino'
import { startDaemon, type RunningDaemon } from '../daemon/main.js'
import { feedPlatform } from '../daemon/platforms/feed.js'
import type { Platform } from '../daemon/platforms/types.js'
import { createSecretBox, loadSecretKey } from '../daemon/secret-box.js'
import type { FeedStore } from '../daemon/store/index.js'
import { openSqliteStore } from '../daemon/store/sqlite/index.js'

const SCHEDULED = 100_000
const PROBES = 1_000
const PROBE_SPREAD_MS = 5_000
const BURST = 10_000

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function benchScheduler(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'smm-bench-'))
  let daemon: RunningDaemon | undefined
  // The real feed platform, timed at the moment the scheduler calls it.
  const called = new Map<string, number>()
  const items = {
    publish: (...args: Parameters<FeedStore['publish']>) => daemon!.store.feed.publish(...args),
    recent: (...args: Parameters<FeedStore['recent']>) => daemon!.store.feed.recent(...args),
  }
  const feed = feedPlatform(items, () => daemon!.url)
  const timedFeed: Platform = {
    ...feed,
    async publish(connection, request, ctx) {
      called.set(request.postId, Date.now())
      return feed.publish(connection, request, ctx)
    },
  }
  try {
    daemon = await startDaemon({ dataDir, host: '127.0.0.1', port: 0 }, { log: pino({ level: 'silent' }), platforms: [timedFeed] })
    const { store, scheduler } = daemon
    const userId = daemon.firstStart!.userId
    const box = createSecretBox(loadSecretKey(dataDir))
    const account = async (name: string) => {
      const created = await store.accounts.create(userId, name, Date.now())
      await store.accounts.connect(userId, created.id, { platform: 'feed', handle: 'feed', displayName: 'feed', sealedCredentials: box.seal({}, `${created.id}:feed`), settings: {} }, Date.now())
      return created.id
    }
    // Seeding goes through a second SQLite store on the daemon's file, whose units of work nest
    // in one transaction: the benchmark measures publishing, not the setup's separate commits.
    const seed = openSqliteStore(daemon.databaseFile)
    const create = (accountId: string, scheduledAt: number, i: number) =>
      seed.posts.create(userId, { accountId, content: `post ${i}`, mediaUrls: [], platforms: ['feed'], scheduledAt }, Date.now())

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
    for (let i = 0; i < PROBES; i++) {
      const at = first + Math.floor((i * PROBE_SPREAD_MS) / PROBES)
      due.set((await create(probes, at, i)).post.id, at)
      scheduler.wake()
    }
    while ([...due.keys()].some((id) => !called.has(id))) await sleep(50)
    const lateness = [...due].map(([id, at]) => called.get(id)! - at).sort((a, b) => a - b)

    // Burst: 10,000 posts due in the same millisecond.
    const burstAccount = await account('Burst')
    const burstAt = Date.now() + 2_000
    const burstIds: string[] = []
    seed.db.transaction(() => {
      for (let i = 0; i < BURST; i++) void create(burstAccount, burstAt, i).then((r) => burstIds.push(r.post.id))
    })()
    scheduler.wake()
    const published = seed.db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM posts WHERE account_id = ? AND status = 'published'")
    // Counting 10,000 rows is work too: often enough for the figure, not so often that it slows the burst.
    while (published.get(burstAccount)!.n < BURST) await sleep(50)
    const allPublished = Date.now() - burstAt
    const handedOff = Math.max(...burstIds.map((id) => called.get(id)!)) - burstAt
    await seed.close()

    return {
      scheduled_posts: SCHEDULED + BURST,
      seed_posts_per_s: Math.round(((SCHEDULED - PROBES) / seedMs) * 1000),
      lateness_probes: PROBES,
      lateness_p50_ms: percentile(lateness, 50),
      lateness_p99_ms: percentile(lateness, 99),
      lateness_max_ms: lateness[lateness.length - 1]!,
      burst_posts: BURST,
      burst_handoff_ms: handedOff,
      burst_all_published_ms: allPublished,
      burst_posts_per_s: Math.round((BURST / allPublished) * 1000),
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
