/**
 * Memory and start at scale (issue 15, point 5): with a million posts in the database (and their
 * targets, feed items, metrics and outbox events; bench/scale-seed.ts), how long the daemon takes
 * from being spawned to answering `GET /healthz` over TLS, and how much memory it holds (peak
 * RSS, /proc's VmHWM, and VmRSS sampled every 25 ms) while 10,000 posts due in the same
 * millisecond go out on the built-in feed platform and a client pages through the posts list.
 *
 * Each figure beside its floor, measured in the same run: the same daemon on a data dir with no
 * history (the same accounts and the same burst, no other post), which shows what the million
 * rows cost; and a bare Node process (bench/scale-floor.js) that opens the million-post file
 * with better-sqlite3 and serves the list client's page over HTTPS, which shows what any Node
 * server on that file costs. Starts and bursts alternate between the data dirs, so load from
 * other work on the machine falls on both alike. The real daemon is spawned as `smm daemon`
 * from dist/ (`npm run build` first), as a user runs it. Linux only (/proc).
 *
 * Standalone: `node --import tsx bench/scale.ts`. BENCH_SCALE_POSTS (default 1,000,000),
 * BENCH_SCALE_BURST (10,000), BENCH_SCALE_STARTS (5), BENCH_SCALE_BURSTS (2); BENCH_SCALE_KEEP=1
 * keeps the data dirs.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import https from 'node:https'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import Database from 'better-sqlite3'
import { BIN, liftOwnerLimits, startBenchDaemon, stop } from './processes.js'
import { armBurst, seedScale, type ScaleSeed } from './scale-seed.js'

const POSTS = Number(process.env.BENCH_SCALE_POSTS ?? 1_000_000)
const BURST = Number(process.env.BENCH_SCALE_BURST ?? 10_000)
const STARTS = Number(process.env.BENCH_SCALE_STARTS ?? 5)
const BURSTS = Number(process.env.BENCH_SCALE_BURSTS ?? 2)
/** How far ahead of arming a burst falls due: after the daemon is serving (under a second when all is well). */
const BURST_LEAD_MS = 5_000
const FLOOR = fileURLToPath(new URL('./scale-floor.js', import.meta.url))

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const range = (xs: number[], unit: string, digits = 0) =>
  `${median(xs).toFixed(digits)} ${unit} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}, ${xs.length} runs)`

/** VmRSS and VmHWM (the peak) of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

/** One GET over TLS on a fresh connection; resolves with the status and how long it took. */
function get(url: string, ca: string, agent?: https.Agent, headers: Record<string, string> = {}): Promise<{ status: number; ms: number; body: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    https
      .get(url, { ca, agent: agent ?? false, headers }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - started, body }))
      })
      .on('error', reject)
  })
}

/** Spawns a server and polls it every 5 ms until it answers 200 over TLS; how long that took. */
async function startServing(args: string[], port: number, ca: string): Promise<{ child: ChildProcess; ms: number }> {
  const started = performance.now()
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  let exit: number | null = null
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  child.on('exit', (code) => (exit = code ?? -1))
  for (;;) {
    if (exit !== null) throw new Error(`${args.join(' ')} exited ${exit}:\n${stderr}`)
    try {
      if ((await get(`https://127.0.0.1:${port}/healthz`, ca)).status === 200) return { child, ms: performance.now() - started }
    } catch {
      // Not listening yet.
    }
    await sleep(5)
  }
}

const daemonArgs = (dataDir: string, port: number) => [BIN, 'daemon', '--port', String(port), '--data-dir', dataDir, '--log-level', 'silent']

/**
 * A client paging through the posts list until stopped: the newest pages (five, by cursor), then
 * one account's newest, then the scheduled posts. Every answer must be 200.
 */
function listClient(base: string, ca: string, key: string, accountId: string) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1 })
  const headers = { authorization: `Bearer ${key}` }
  const times: number[] = []
  let running = true
  const done = (async () => {
    while (running) {
      let next: string | undefined = '/v1/posts?limit=100'
      for (let page = 0; page < 5 && next && running; page++) {
        const res = await get(`${base}${next}`, ca, agent, headers)
        if (res.status !== 200) throw new Error(`GET ${next} answered ${res.status}: ${res.body.slice(0, 300)}`)
        times.push(res.ms)
        const cursor = (JSON.parse(res.body) as { next_cursor?: string | null }).next_cursor
        next = cursor ? `/v1/posts?limit=100&cursor=${encodeURIComponent(cursor)}` : undefined
      }
      for (const path of [`/v1/posts?limit=100&account_id=${accountId}`, '/v1/posts?limit=100&status=scheduled']) {
        if (!running) break
        const res = await get(`${base}${path}`, ca, agent, headers)
        if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body.slice(0, 300)}`)
        times.push(res.ms)
      }
    }
  })()
  return {
    async stop() {
      running = false
      await done
      agent.destroy()
      return times.sort((a, b) => a - b)
    },
  }
}

/** Samples a process's VmRSS every 25 ms; the highest seen. */
function rssSampler(pid: number) {
  let highest = 0
  const timer = setInterval(() => {
    try {
      highest = Math.max(highest, memoryOf(pid).rss)
    } catch {
      // The process has just exited.
    }
  }, 25)
  return {
    stop() {
      clearInterval(timer)
      return highest
    },
  }
}

interface DataDir {
  name: string
  dir: string
  key: string
  seed: ScaleSeed
  ca: string
}

/**
 * One burst: armed to fall due BURST_LEAD_MS from now, the daemon started, the list client
 * paging meanwhile, until every post of the burst is published. Peak RSS over the daemon's life.
 */
async function burst(d: DataDir, index: number) {
  const accountId = d.seed.burstAccounts[index]!
  const dueAt = Date.now() + BURST_LEAD_MS
  const armed = armBurst(d.dir, accountId, dueAt)
  if (armed !== BURST) throw new Error(`${d.name}: armed ${armed} posts, not ${BURST}`)
  const port = await freePort()
  const { child, ms: startMs } = await startServing(daemonArgs(d.dir, port), port, d.ca)
  const sampler = rssSampler(child.pid!)
  const client = listClient(`https://127.0.0.1:${port}`, d.ca, d.key, accountId)
  const watch = new Database(join(d.dir, 'smm.db'), { readonly: true })
  const published = watch.prepare<[string], number>("SELECT count(*) FROM posts WHERE account_id = ? AND status = 'published'").pluck()
  try {
    const deadline = Date.now() + 180_000
    while (published.get(accountId)! < BURST) {
      if (Date.now() > deadline) throw new Error(`${d.name}: the burst did not finish within 3 minutes`)
      await sleep(100)
    }
    const allOutMs = Date.now() - dueAt
    const list = await client.stop()
    const sampled = sampler.stop()
    const { peak } = memoryOf(child.pid!)
    return { startMs, peak, sampled, allOutMs, list }
  } finally {
    watch.close()
    await client.stop().catch(() => [])
    sampler.stop()
    await stop(child)
  }
}

export async function benchScale(): Promise<Record<string, number | string>> {
  const base = mkdtempSync(join(tmpdir(), 'smm-bench-scale-'))
  try {
    const dirs: DataDir[] = []
    for (const [name, posts] of [['empty', 0], ['million', POSTS]] as const) {
      const dir = join(base, name)
      // The first start (owner, key, certificate, migrations) is not what is measured.
      const first = await startBenchDaemon(dir)
      await stop(first.child)
      liftOwnerLimits({ SMM_DATA_DIR: dir })
      const seed = await seedScale(dir, { posts, bursts: BURSTS, burstPosts: BURST })
      dirs.push({ name, dir, key: first.key, seed, ca: readFileSync(join(dir, 'tls-cert.pem'), 'utf8') })
    }
    const [empty, million] = dirs as [DataDir, DataDir]
    const millionFile = join(million.dir, 'smm.db')
    const floorArgs = (port: number) => [FLOOR, millionFile, join(million.dir, 'tls-cert.pem'), join(million.dir, 'tls-key.pem'), String(port)]

    // Start to serving, alternating: the empty data dir, the million posts, the bare floor.
    const starts = { empty: [] as number[], million: [] as number[], floor: [] as number[] }
    const startRss = { empty: [] as number[], million: [] as number[], floor: [] as number[] }
    for (let i = 0; i < STARTS; i++) {
      for (const [name, args, ca] of [
        ['empty', (port: number) => daemonArgs(empty.dir, port), empty.ca],
        ['million', (port: number) => daemonArgs(million.dir, port), million.ca],
        ['floor', floorArgs, million.ca],
      ] as const) {
        const port = await freePort()
        const { child, ms } = await startServing(args(port), port, ca)
        starts[name].push(ms)
        startRss[name].push(memoryOf(child.pid!).rss)
        await stop(child)
      }
    }

    // Bursts, alternating between the data dirs.
    const bursts = { empty: [] as Awaited<ReturnType<typeof burst>>[], million: [] as Awaited<ReturnType<typeof burst>>[] }
    for (let i = 0; i < BURSTS; i++) {
      bursts.empty.push(await burst(empty, i))
      bursts.million.push(await burst(million, i))
    }

    // The floor's memory: the bare server answering the list client's page as often, for as long.
    const floorPeak: number[] = []
    for (let i = 0; i < BURSTS; i++) {
      const port = await freePort()
      const { child } = await startServing(floorArgs(port), port, million.ca)
      const client = listClient(`https://127.0.0.1:${port}`, million.ca, million.key, million.seed.burstAccounts[0]!)
      await sleep(Math.max(...bursts.million.map((b) => b.allOutMs)))
      await client.stop()
      floorPeak.push(memoryOf(child.pid!).peak)
      await stop(child)
    }

    const peaks = (name: 'empty' | 'million') => bursts[name].map((b) => b.peak)
    const lists = bursts.million.flatMap((b) => b.list).sort((a, b) => a - b)
    const seed = million.seed
    return {
      posts: POSTS,
      'rows: targets, metrics, feed items, events': `${seed.rows.post_targets}, ${seed.rows.target_metrics}, ${seed.rows.feed_items}, ${seed.rows.events}`,
      'rows: rollup hours, delays, ranked': `${seed.rows.analytics_counts}, ${seed.rows.publish_delays}, ${seed.rows.top_targets}`,
      'database file, MB': Math.round(statSync(millionFile).size / 1e6),
      'seed, s (CPU s)': `${(seed.ms / 1000).toFixed(1)} (${(seed.cpuMs / 1000).toFixed(1)})`,
      'start to serving, empty data dir': range(starts.empty, 'ms'),
      'start to serving, million posts': range(starts.million, 'ms'),
      'start to serving, bare node + better-sqlite3 + https': range(starts.floor, 'ms'),
      'start ratio million / empty (goal: million < 1,000 ms)': Number((median(starts.million) / median(starts.empty)).toFixed(2)),
      'RSS once serving, empty / million / bare': `${median(startRss.empty).toFixed(0)} / ${median(startRss.million).toFixed(0)} / ${median(startRss.floor).toFixed(0)} MB`,
      [`peak RSS, burst of ${BURST} + list client, empty data dir`]: range(peaks('empty'), 'MB'),
      [`peak RSS, burst of ${BURST} + list client, million posts`]: range(peaks('million'), 'MB'),
      'peak RSS, bare server answering the list client': range(floorPeak, 'MB'),
      'peak RSS ratio million / empty (goal: million < 150 MB)': Number((median(peaks('million')) / median(peaks('empty'))).toFixed(2)),
      'highest sampled RSS, empty / million': `${median(bursts.empty.map((b) => b.sampled)).toFixed(0)} / ${median(bursts.million.map((b) => b.sampled)).toFixed(0)} MB`,
      [`burst all published (from due), empty / million`]: `${range(bursts.empty.map((b) => b.allOutMs / 1000), 's', 1)} / ${range(bursts.million.map((b) => b.allOutMs / 1000), 's', 1)}`,
      'list requests during the bursts (million): p50 / p99': `${percentile(lists, 50).toFixed(1)} / ${percentile(lists, 99).toFixed(1)} ms (${lists.length} requests)`,
    }
  } finally {
    if (process.env.BENCH_SCALE_KEEP) process.stderr.write(`data dirs kept in ${base}\n`)
    else rmSync(base, { recursive: true, force: true })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await benchScale()
  const width = Math.max(...Object.keys(figures).map((k) => k.length))
  for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(width)}  ${value}`)
}
