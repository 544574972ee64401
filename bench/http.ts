import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { load, type LoadResult } from './load.js'
import { BIN, smm, spawnUntil, stop } from './processes.js'

const BARE = fileURLToPath(new URL('./bare-server.ts', import.meta.url))

const row = (r: LoadResult) => `${r.perSecond.toFixed(0)} req/s, p50 ${r.p50ms.toFixed(2)} ms, p99 ${r.p99ms.toFixed(2)} ms (${r.requests} requests, ${r.errors} errors)`

/**
 * Authenticated GET /v1/me over HTTPS keep-alive: the real daemon (key lookup, rate-limit
 * bookkeeping in SQLite, request log) next to the bare server doing only the key lookup.
 */
export async function benchHttp(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'smm-bench-'))
  const durationMs = Number(process.env.BENCH_SECONDS ?? 5) * 1000
  const connections = 16
  try {
    const daemon = await spawnUntil([BIN, 'daemon', '--port', '0', '--data-dir', dataDir, '--log-level', 'silent'], (out) => {
      const url = /listening on (https:\/\/\S+)\/v1/.exec(out)?.[1]
      const key = /\n {2}(smm_[0-9A-Za-z]{36})\n/.exec(out)?.[1]
      return url && key && out.includes('curl') ? { url, key } : undefined
    })
    // Limits high enough not to refuse the benchmark, while every request is still counted.
    const owner = JSON.parse(smm(['admin', 'users', 'list', '--json'], { SMM_DATA_DIR: dataDir }))[0].id
    smm(['admin', 'users', 'set-plan', owner, '--plan', 'enterprise', '--per-minute', '100000000', '--per-hour', '100000000', '--per-day', '100000000'], { SMM_DATA_DIR: dataDir })
    const ca = readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8')
    const headers = { authorization: `Bearer ${daemon.value.key}` }
    const bare = await spawnUntil(['--import', 'tsx', BARE, join(dataDir, 'smm.db'), join(dataDir, 'tls-cert.pem'), join(dataDir, 'tls-key.pem')], (out) => {
      const m = /\{"port":(\d+)\}/.exec(out)
      return m ? Number(m[1]) : undefined
    })
    const bareResult = await load(`https://127.0.0.1:${bare.value}/v1/me`, { ca, headers, connections, durationMs })
    const smmResult = await load(`${daemon.value.url}/v1/me`, { ca, headers, connections, durationMs })
    await stop(bare.child)
    await stop(daemon.child)
    return {
      'GET /v1/me, bare node:https + better-sqlite3': row(bareResult),
      'GET /v1/me, smm daemon': row(smmResult),
      'throughput ratio smm / bare (goal >= 0.70)': Number((smmResult.perSecond / bareResult.perSecond).toFixed(2)),
      'p99 ratio smm / bare': Number((smmResult.p99ms / bareResult.p99ms).toFixed(2)),
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
