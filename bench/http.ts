import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

/** Runs the load and also measures the server's CPU per request, which the load generator's own share of the machine does not skew. */
export async function measure(pid: number, url: string, options: Parameters<typeof load>[1]): Promise<LoadResult & { cpuUsPerRequest?: number }> {
  const before = cpuMs(pid)
  const result = await load(url, { ...options, warmupMs: 0 })
  const after = cpuMs(pid)
  return { ...result, cpuUsPerRequest: before === undefined || after === undefined ? undefined : ((after - before) * 1000) / result.requests }
}

export const row = (r: LoadResult & { cpuUsPerRequest?: number }) => `${r.perSecond.toFixed(0)} req/s, p50 ${r.p50ms.toFixed(2)} ms, p99 ${r.p99ms.toFixed(2)} ms (${r.requests} requests, ${r.errors} errors)${r.cpuUsPerRequest === undefined ? '' : `, server CPU ${r.cpuUsPerRequest.toFixed(0)} µs/request`}`

/**
 * Authenticated GET /v1/me over HTTPS keep-alive: the real daemon (key lookup, rate-limit
 * bookkeeping in SQLite, request log) next to the bare server doing only the key lookup.
 */
export async function benchHttp(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'smm-bench-'))
  const durationMs = Number(process.env.BENCH_SECONDS ?? 5) * 1000
  const connections = 16
  try {
    const daemon = await startBenchDaemon(dataDir)
    liftOwnerLimits({ SMM_DATA_DIR: dataDir })
    const ca = readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8')
    const headers = { authorization: `Bearer ${daemon.key}` }
    const bare = await spawnUntil(['--import', 'tsx', BARE, join(dataDir, 'smm.db'), join(dataDir, 'tls-cert.pem'), join(dataDir, 'tls-key.pem')], (out) => {
      const m = /\{"port":(\d+)\}/.exec(out)
      return m ? Number(m[1]) : undefined
    })
    // Warm both up first (JIT, caches), then measure each.
    await load(`https://127.0.0.1:${bare.value}/v1/me`, { ca, headers, connections, durationMs: 1000, warmupMs: 0 })
    await load(`${daemon.url}/v1/me`, { ca, headers, connections, durationMs: 1000, warmupMs: 0 })
    const bareResult = await measure(bare.child.pid!, `https://127.0.0.1:${bare.value}/v1/me`, { ca, headers, connections, durationMs })
    const smmResult = await measure(daemon.child.pid!, `${daemon.url}/v1/me`, { ca, headers, connections, durationMs })
    await stop(bare.child)
    await stop(daemon.child)
    return {
      'GET /v1/me, bare node:https + better-sqlite3': row(bareResult),
      'GET /v1/me, smm daemon': row(smmResult),
      'throughput ratio smm / bare (goal >= 0.70)': Number((smmResult.perSecond / bareResult.perSecond).toFixed(2)),
      'p99 ratio smm / bare': Number((smmResult.p99ms / bareResult.p99ms).toFixed(2)),
      ...(smmResult.cpuUsPerRequest && bareResult.cpuUsPerRequest
        ? { 'CPU-per-request ratio bare / smm (capacity on a free core)': Number((bareResult.cpuUsPerRequest / smmResult.cpuUsPerRequest).toFixed(2)) }
        : {}),
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
