/**
 * One seeding of the analytics benchmark (bench/analytics.ts), in a process of its own:
 * `node --import tsx bench/analytics-seed.ts <database file> <rollups|floor> <now, ms> [user id]` seeds the
 * file and prints what it took as JSON. Each seeding gets a fresh process, so neither inherits the
 * other's heap, compiled code or page cache: run one after the other in one process, the first of
 * two identical floors took 1.03-1.06x the CPU of the second (docs/benchmarks.md).
 *
 * `rollups` seeds through the store as the daemon has it; `floor` does the same writes with every
 * `analytics_%` trigger dropped (the rollup journal's fold among them) and metrics and publishing
 * stores that keep no rollups (migrations 15 and 16 moved that bookkeeping from triggers into the
 * store), so nothing but the posts, targets and snapshots themselves is written. Without a user
 * id, a user is created.
 */
import type { PlatformName } from '../daemon/platforms/types.js'
import { openSqliteStore, type SqliteStore } from '../daemon/store/sqlite/index.js'
import { metricsStore, type Reading } from '../daemon/store/sqlite/metrics.js'
import { publishingStore } from '../daemon/store/sqlite/publishing.js'

const POSTS = Number(process.env.BENCH_POSTS ?? 100_000)
const SNAPSHOTS = POSTS * 10
const DAYS = 366
/** Readings per batch of snapshots: ten of each of a hundred targets. */
const SNAPSHOT_BATCH = 1_000
const DAY = 86_400_000

/** What a seeding took: ms, CPU ms, each phase's wall and CPU time, and the accounts it made. */
export interface Seeding {
  ms: number
  cpuMs: number
  phases: string
  accounts: string[]
}

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
  userId: string, now: number): Promise<Seeding> {
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


const [file, mode, nowArg, givenUser] = process.argv.slice(2)
// The benchmark's clock: the posts fall in the year up to `now`, which its reports ask for.
const now = Number(nowArg)
if (!file || (mode !== 'rollups' && mode !== 'floor') || !Number.isSafeInteger(now)) throw new Error('usage: analytics-seed.ts <database file> <rollups|floor> <now, ms> [user id]')
const store = openSqliteStore(file)
try {
  const userId = givenUser ?? (await store.users.create({ name: 'floor', plan: 'enterprise' }, now)).id
  let seeding: Seeding
  if (mode === 'rollups') seeding = await seedInto(store, store.metrics, store.publishing, userId, now)
  else {
    for (const name of store.db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'analytics_%'").pluck().all()) store.db.exec(`DROP TRIGGER ${name}`)
    seeding = await seedInto(store, metricsStore(store.db, store.accounts, null), publishingStore(store.db, store.events, store.accounts, null), userId, now)
  }
  process.stdout.write(JSON.stringify(seeding))
} finally {
  await store.close()
}
