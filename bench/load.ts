import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const REPORT = fileURLToPath(new URL('./wrk-report.lua', import.meta.url))

export interface LoadResult {
  requests: number
  seconds: number
  perSecond: number
  p50ms: number
  p99ms: number
  /** Connection errors, timeouts and answers other than 2xx/3xx. */
  errors: number
  /** The load generator's own CPU per request (user + system), in µs; Linux only. */
  clientCpuUsPerRequest?: number
}

/** CPU time (user + system) the children this process has waited for have used, in ms; Linux only. */
export function reapedChildrenCpuMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[13]) + Number(fields[14])) * (1000 / 100)
  } catch {
    return undefined
  }
}

let checked = false
/** wrk must be installed; the benchmarks say how, rather than fail on a missing executable. */
function requireWrk(): void {
  if (checked) return
  if (spawnSync('wrk', ['-v']).error) {
    throw new Error(
      'The HTTP benchmarks drive the daemon with wrk, a native load generator, and it is not installed.\n' +
        'Install it: `sudo apt-get install wrk` (Debian, Ubuntu), `sudo dnf install wrk` (Fedora), `brew install wrk` (macOS).',
    )
  }
  checked = true
}

/** One wrk run: its summary, and the CPU it used (counted once it has exited and been reaped). */
function wrk(url: string, headers: Record<string, string>, connections: number, seconds: number, cpu?: number) {
  const args = ['-t', '1', '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '-s', REPORT]
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`)
  const cpuBefore = reapedChildrenCpuMs()
  return new Promise<LoadResult>((resolve, reject) => {
    const command = cpu === undefined ? ['wrk', ...args, url] : ['taskset', '-c', String(cpu), 'wrk', ...args, url]
    const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk))
    child.stderr.on('data', (chunk: Buffer) => (out += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{"requests"'))
      if (code !== 0 || !line) return reject(new Error(`wrk ${args.join(' ')} ${url} exited ${code}:\n${out}`))
      const r = JSON.parse(line) as { requests: number; durationUs: number; errors: number; p50Us: number; p99Us: number }
      const cpuAfter = reapedChildrenCpuMs()
      const ok = r.requests - r.errors
      resolve({
        requests: ok,
        seconds: r.durationUs / 1e6,
        perSecond: ok / (r.durationUs / 1e6),
        p50ms: r.p50Us / 1000,
        p99ms: r.p99Us / 1000,
        errors: r.errors,
        clientCpuUsPerRequest: cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1000) / r.requests,
      })
    })
  })
}

/**
 * Closed-loop load over HTTPS keep-alive with wrk (one thread): `connections` connections each
 * send the next request as soon as the last one is answered, for `durationMs` (whole seconds),
 * after a warm-up run of `warmupMs`. A load generator in Node saturated before the daemon did
 * (each request cost it about what it cost the server), so it measured itself; wrk's cost per
 * request is a fraction of the server's, and is reported beside it to show so. `cpu` runs wrk
 * on that CPU alone (Linux's taskset).
 */
export async function load(url: string, options: { headers: Record<string, string>; connections: number; durationMs: number; warmupMs?: number; cpu?: number }): Promise<LoadResult> {
  requireWrk()
  const warmup = options.warmupMs ?? 1000
  if (warmup > 0) await wrk(url, options.headers, options.connections, Math.max(1, Math.round(warmup / 1000)), options.cpu)
  return wrk(url, options.headers, options.connections, Math.max(1, Math.round(options.durationMs / 1000)), options.cpu)
}
