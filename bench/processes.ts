import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const BIN = fileURLToPath(new URL('../bin/run.js', import.meta.url))

/**
 * Spawns a process (Node by default) and resolves when `ready` finds what it waits for in its
 * output; `stdout`, when given, is a file descriptor its standard output goes to instead (then
 * only standard error is searched).
 */
export function spawnUntil<T>(
  args: string[],
  ready: (output: string) => T | undefined,
  env: Record<string, string> = {},
  command: string = process.execPath,
  stdout?: number,
): Promise<{ child: ChildProcess; value: T }> {
  return new Promise((resolve, reject) => {
    // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the daemons a benchmark starts.
    const nodeArgs = command === process.execPath ? (process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []) : []
    const child = spawn(command, [...nodeArgs, ...args], { stdio: ['ignore', stdout ?? 'pipe', 'pipe'], env: { ...process.env, ...env } })
    const streams = [child.stdout, child.stderr].filter((s) => s !== null)
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk
      const value = ready(output)
      if (value === undefined) return
      // What follows is read and dropped, not kept and searched again on every chunk.
      for (const s of streams) s.off('data', onData).on('data', () => undefined)
      resolve({ child, value })
    }
    for (const s of streams) s.on('data', onData)
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}:\n${output}`)))
  })
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.removeAllListeners('exit')
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

/** Runs the built `smm` to completion (for admin commands in a benchmark's set-up). */
export function smm(args: string[], env: Record<string, string> = {}): string {
  const res = spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' })
  if (res.status !== 0) throw new Error(`smm ${args.join(' ')}: ${res.stderr}`)
  return res.stdout
}

/**
 * `smm daemon` on port 0 in `dataDir`; resolves once its banner is out, with its URL and, when
 * `firstStart` (the default), the API key it printed once. Its log is silent unless `logLevel`
 * says otherwise; then it goes to `daemon.log` in the data dir, as an operator's
 * `smm daemon >> smm.log` would (a pipe read by the benchmark would make the log's cost that of
 * waking the load generator on every write). `bin` runs another build's `bin/run.js`, to compare
 * two builds in one run.
 */
export async function startBenchDaemon(
  dataDir: string,
  env: Record<string, string> = {},
  firstStart = true,
  { bin = BIN, logLevel = 'silent' }: { bin?: string; logLevel?: string } = {},
): Promise<{ child: ChildProcess; url: string; key: string; metricsUrl?: string }> {
  const log = logLevel === 'silent' ? undefined : openSync(join(dataDir, 'daemon.log'), 'a')
  const args = [bin, 'daemon', '--port', '0', '--data-dir', dataDir, '--log-level', logLevel]
  const { child, value } = await spawnUntil(args, (out) => {
    const url = /listening on (https:\/\/\S+)\/v1/.exec(out)?.[1]
    const key = /\n {2}(smm_[0-9A-Za-z]{36})\n/.exec(out)?.[1] ?? ''
    // A first start's banner ends with the curl line; any other, with the certificate's fingerprint.
    const done = firstStart ? key !== '' && out.includes('curl') : /SHA-256 fingerprint/.test(out)
    // With SMM_METRICS_PORT in `env`, the banner also says where its metrics are.
    const metricsUrl = /Prometheus metrics: (http:\/\/\S+)/.exec(out)?.[1]
    return url && done ? { url, key, metricsUrl } : undefined
  }, env, process.execPath, log).finally(() => log !== undefined && closeSync(log))
  return { child, ...value }
}

/** Limits high enough never to refuse a benchmark, while every request is still counted. */
export function liftOwnerLimits(env: Record<string, string>): void {
  const owner = JSON.parse(smm(['admin', 'users', 'list', '--json'], env)).data[0].id
  smm(['admin', 'users', 'set-plan', owner, '--plan', 'enterprise', '--per-minute', '100000000', '--per-hour', '100000000', '--per-day', '100000000'], env)
}
