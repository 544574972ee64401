import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { load, type LoadResult } from './load.js'
import { liftOwnerLimits, spawnUntil, startBenchDaemon, stop } from './processes.js'

const BARE = fileURLToPath(new URL('./bare-server.ts', import.meta.url))

/** CPU time (user + system) a process has used, in ms; Linux only (undefined elsewhere). */
export function cpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100)
  } catch {
    // Not Linux: the CPU-per-request figure is left out.
    return undefined
  }
}

type Measured = LoadResult & { cpuUsPerRequest?: number }

/** Runs the load and also measures the server's CPU per request, which the load generator's own share of the machine does not skew. */
export async function measure(pid: number, url: string, options: Parameters<typeof load>[1]): Promise<Measured> {
  const before = cpuMs(pid)
  const result = await load(url, { ...options, warmupMs: 0 })
  const after = cpuMs(pid)
  return { ...result, cpuUsPerRequest: before === undefined || after === undefined ? undefined : ((after - before) * 1000) / result.requests }
}

const cpuFigures = (r: Measured) =>
  (r.cpuUsPerRequest === undefined ? '' : `, server CPU ${r.cpuUsPerRequest.toFixed(0)} µs/request`) +
  (r.clientCpuUsPerRequest === undefined ? '' : `, wrk ${r.clientCpuUsPerRequest.toFixed(0)} µs/request`)

export const row = (r: Measured) => `${r.perSecond.toFixed(0)} req/s, p50 ${r.p50ms.toFixed(2)} ms, p99 ${r.p99ms.toFixed(2)} ms (${r.requests} requests, ${r.errors} errors)${cpuFigures(r)}`

/** The median of some figures, then their range: `1.21 (1.18–1.30)`. */
function spread(values: number[], digits = 0): string {
  const sorted = [...values].sort((a, b) => a - b)
  const median = sorted.length % 2 ? sorted[sorted.length >> 1]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2
  const f = (v: number) => v.toFixed(digits)
  return sorted.length === 1 ? f(median) : `${f(median)} (${f(sorted[0]!)}–${f(sorted.at(-1)!)})`
}

/** Several rounds of one server: medians and ranges. */
const summary = (runs: Measured[]) =>
  `${spread(runs.map((r) => r.perSecond))} req/s, p50 ${spread(runs.map((r) => r.p50ms), 2)} ms, p99 ${spread(runs.map((r) => r.p99ms), 1)} ms` +
  (runs[0]!.cpuUsPerRequest === undefined ? '' : `, server CPU ${spread(runs.map((r) => r.cpuUsPerRequest!))} µs/request`) +
  (runs[0]!.clientCpuUsPerRequest === undefined ? '' : `, wrk ${spread(runs.map((r) => r.clientCpuUsPerRequest!))} µs/request`) +
  ` (${runs.length} rounds, ${runs.reduce((n, r) => n + r.errors, 0)} errors)`

/** The daemon's throughput at least 0.8× the floor's (issue 35), its CPU per request within 1.25× the floor's (issue 15). */
const CPU_GOAL = 1.25
const THROUGHPUT_GOAL = 0.8
/** Metrics on may cost at most 5 % of the daemon's throughput with them off (issue 34). */
const METRICS_GOAL = 0.95

/**
 * Scrapes a metrics URL every `everyMs` (a second: fifteen times as often as Prometheus's usual
 * 15 s) until stopped; resolves to each scrape's time in ms and the size of the last.
 */
function scraping(url: string, everyMs = 1000): { stop(): Promise<{ ms: number[]; bytes: number }> } {
  const ms: number[] = []
  let bytes = 0
  let last = Promise.resolve()
  const timer = setInterval(() => {
    last = (async () => {
      const started = performance.now()
      const text = await (await fetch(url)).text()
      ms.push(performance.now() - started)
      bytes = text.length
    })()
  }, everyMs)
  return {
    async stop() {
      clearInterval(timer)
      await last
      return { ms, bytes }
    },
  }
}

/**
 * Authenticated GET /v1/me over HTTPS keep-alive at 16 and 32 connections, driven by wrk (see
 * load.ts): the real daemon (key lookup, rate-limit bookkeeping, request log at `info`, routing)
 * next to the bare server doing only the key lookup, measured in turn; then the daemon with its
 * Prometheus metrics off and on, side by side. `BENCH_LOG_LEVEL` sets the
 * daemon's log level. `BENCH_BASELINE=/other/checkout/bin/run.js` adds
 * another build of the daemon (a before, say) to the same run; `BENCH_ROUNDS` repeats the
 * measurements, interleaved, so that a neighbour's load falls on all of them alike.
 */
export async function benchHttp(): Promise<Record<string, number | string>> {
  const dirs: string[] = []
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-bench-'))
    dirs.push(dir)
    return dir
  }
  const durationMs = Number(process.env.BENCH_SECONDS ?? 4) * 1000
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
  const logLevel = process.env.BENCH_LOG_LEVEL ?? 'info'
  const baselineBin = process.env.BENCH_BASELINE ? resolve(process.env.BENCH_BASELINE) : undefined
  const children: Awaited<ReturnType<typeof startBenchDaemon>>['child'][] = []
  try {
    const dataDir = tempDir()
    const daemon = await startBenchDaemon(dataDir, {}, true, { logLevel })
    children.push(daemon.child)
    liftOwnerLimits({ SMM_DATA_DIR: dataDir })
    const bare = await spawnUntil(['--import', 'tsx', BARE, join(dataDir, 'smm.db'), join(dataDir, 'tls-cert.pem'), join(dataDir, 'tls-key.pem')], (out) => {
      const m = /\{"port":(\d+)\}/.exec(out)
      return m ? Number(m[1]) : undefined
    })
    children.push(bare.child)
    const servers: { name: string; pid: number; url: string; key: string }[] = [
      { name: 'bare node:https + better-sqlite3', pid: bare.child.pid!, url: `https://127.0.0.1:${bare.value}/v1/me`, key: daemon.key },
      { name: 'smm daemon', pid: daemon.child.pid!, url: `${daemon.url}/v1/me`, key: daemon.key },
    ]
    if (baselineBin) {
      const baseDir = tempDir()
      const base = await startBenchDaemon(baseDir, {}, true, { bin: baselineBin, logLevel })
      children.push(base.child)
      liftOwnerLimits({ SMM_DATA_DIR: baseDir })
      servers.push({ name: `baseline (${baselineBin})`, pid: base.child.pid!, url: `${base.url}/v1/me`, key: base.key })
    }
    const options = (s: (typeof servers)[number], connections: number, ms: number) => ({ headers: { authorization: `Bearer ${s.key}` }, connections, durationMs: ms })
    // Warm every server up first (JIT, caches: a second was too short on a busy machine, the first
    // measurement still paid for compiling), then measure each in turn.
    for (const s of servers) await load(s.url, { ...options(s, 16, 3000), warmupMs: 0 })
    const figures: Record<string, number | string> = {}
    for (const connections of [16, 32]) {
      const results = new Map<string, Measured[]>(servers.map((s) => [s.name, []]))
      for (let round = 0; round < rounds; round++) {
        for (const s of servers) results.get(s.name)!.push(await measure(s.pid, s.url, options(s, connections, durationMs)))
      }
      const floor = results.get(servers[0]!.name)!
      for (const s of servers) {
        const runs = results.get(s.name)!
        figures[`GET /v1/me, ${connections} connections, ${s.name}`] = rounds === 1 ? row(runs[0]!) : summary(runs)
        if (s === servers[0]) continue
        // Each round's ratio is of two measurements taken one after the other, so a neighbour's
        // load falls on both alike; the median of the rounds, then their range.
        const ratios = (f: (r: Measured, b: Measured) => number) => spread(runs.map((r, i) => f(r, floor[i]!)), 2)
        figures[`  ${connections} connections, ${s.name} / bare, throughput (goal >= ${THROUGHPUT_GOAL})`] = ratios((r, b) => r.perSecond / b.perSecond)
        figures[`  ${connections} connections, ${s.name} / bare, latency p50 / p99`] = `${ratios((r, b) => r.p50ms / b.p50ms)} / ${ratios((r, b) => r.p99ms / b.p99ms)}`
        if (runs[0]!.cpuUsPerRequest !== undefined) {
          figures[`  ${connections} connections, ${s.name} / bare, CPU per request (goal <= ${CPU_GOAL})`] = ratios((r, b) => r.cpuUsPerRequest! / b.cpuUsPerRequest!)
        }
      }
    }
    Object.assign(figures, await metricsCost(durationMs, rounds, logLevel, tempDir, children))
    return figures
  } finally {
    for (const child of children) await stop(child)
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * What Prometheus metrics cost (issue 34, point 4): a daemon with them off and one with
 * `--metrics-port`, scraped every second, under the same load at the same time, round after
 * round: whatever else the machine does (2 cores, shared) falls on both alike, where measured in
 * turn it moved either by more than the 5 % to be seen. Both are started for this comparison and
 * warmed up together, so neither has run (and been optimised by V8) longer than the other, as the
 * daemon of the sections above, with hundreds of thousands of requests behind it, would have.
 */
async function metricsCost(
  durationMs: number,
  rounds: number,
  logLevel: string,
  tempDir: () => string,
  children: Awaited<ReturnType<typeof startBenchDaemon>>['child'][],
): Promise<Record<string, string>> {
  const start = async (env: Record<string, string>) => {
    const dir = tempDir()
    const daemon = await startBenchDaemon(dir, env, true, { logLevel })
    children.push(daemon.child)
    liftOwnerLimits({ SMM_DATA_DIR: dir })
    return daemon
  }
  const off = await start({})
  const on = await start({ SMM_METRICS_PORT: '0' })
  // Both daemons on one CPU, every thread of them, and their load generators on another: the
  // kernel shares that CPU between the two alone, evenly, whatever else runs on the machine
  // (another's test suite, the other's wrk). Unpinned on a shared machine, two daemons with the
  // same build read anywhere between 0.78 and 1.54 times each other's CPU per request; pinned,
  // 0.95-1.15 (median 0.99-1.01).
  const pinned = pin([off.child.pid!, on.child.pid!])
  const pair = [
    { pid: off.child.pid!, url: `${off.url}/v1/me`, key: off.key },
    { pid: on.child.pid!, url: `${on.url}/v1/me`, key: on.key },
  ]
  const options = (s: (typeof pair)[number], connections: number) => ({ headers: { authorization: `Bearer ${s.key}` }, connections, durationMs, cpu: pinned?.load })
  // Scraped through the warm-up too, ten times a second: V8 compiles the scrape's code (prom-client's
  // text format: getMetricsAsString, formatLabels) once in a daemon's life, after its first
  // scrapes. Scraped only in the measured rounds, that compiling (about 250 ms of CPU, --trace-opt)
  // fell inside them, and was counted as what metrics cost each request.
  const warming = scraping(on.metricsUrl!, 100)
  await Promise.all(pair.map((s) => load(s.url, { ...options(s, 16), durationMs: 5000, warmupMs: 0 })))
  await warming.stop()
  const figures: Record<string, string> = {}
  const scrapes: number[] = []
  let bytes = 0
  for (const connections of [16, 32]) {
    const results: [Measured, Measured][] = []
    for (let round = 0; round < rounds; round++) {
      const scraper = scraping(on.metricsUrl!)
      const both = await Promise.all(pair.map((s) => measure(s.pid, s.url, options(s, connections))))
      // wrk's CPU is read from this process's reaped children, which here are both runs at once: left out.
      results.push(both.map((r) => ({ ...r, clientCpuUsPerRequest: undefined })) as [Measured, Measured])
      const scraped = await scraper.stop()
      scrapes.push(...scraped.ms)
      bytes = scraped.bytes
    }
    const versus = (f: (r: Measured) => number) => spread(results.map(([a, b]) => f(b) / f(a)), 3)
    figures[`GET /v1/me, ${connections} connections each, side by side, metrics off`] = summary(results.map(([a]) => a))
    figures[`GET /v1/me, ${connections} connections each, side by side, metrics on`] = summary(results.map(([, b]) => b))
    figures[`  ${connections} connections, metrics on / off, throughput (goal >= ${METRICS_GOAL})`] = versus((r) => r.perSecond)
    if (results[0]![0].cpuUsPerRequest !== undefined) figures[`  ${connections} connections, metrics on / off, CPU per request`] = versus((r) => r.cpuUsPerRequest!)
  }
  figures['metrics on / off, CPUs'] = pinned ? `both daemons on CPU ${pinned.daemons}, their wrk on CPU ${pinned.load}` : 'not pinned (taskset or a second CPU missing)'
  figures['metrics scrape under that load, each second'] = `${spread(scrapes, 1)} ms, ${(bytes / 1024).toFixed(0)} KiB (${scrapes.length} scrapes)`
  return figures
}

/**
 * Pins every thread of these processes to the machine's last CPU, and names another for their
 * load; undefined (nothing pinned) without a second CPU or without `taskset` (Linux's util-linux).
 */
function pin(pids: number[]): { daemons: number; load: number } | undefined {
  const cpus = availableParallelism()
  if (cpus < 2) return undefined
  const daemons = cpus - 1
  for (const pid of pids) {
    if (spawnSync('taskset', ['-a', '-p', '-c', String(daemons), String(pid)], { stdio: 'ignore' }).status !== 0) return undefined
  }
  return { daemons, load: 0 }
}
