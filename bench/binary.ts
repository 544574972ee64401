import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { BIN, spawnUntil, stop } from './processes.js'

const root = resolve(import.meta.dirname, '..')
const BINARY = join(root, 'dist/bin/smm-daemon')

function healthy(url: string, ca: string): Promise<number> {
  return new Promise((resolve, reject) => {
    https.get(`${url}/healthz`, { ca }, (res) => res.resume().on('end', () => resolve(res.statusCode!))).on('error', reject)
  })
}

/** From spawning the daemon to its first answer over TLS, in ms (the data dir is already set up). */
async function startToServing(command: string, args: string[], ca: string): Promise<number> {
  const started = performance.now()
  const { child, value: url } = await spawnUntil(args, (out) => /listening on (https:\/\/\S+)\/v1/.exec(out)?.[1], {}, command)
  if ((await healthy(url, ca)) !== 200) throw new Error(`${command}: /healthz did not answer 200`)
  const elapsed = performance.now() - started
  await stop(child)
  return elapsed
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/**
 * dist/bin/smm-daemon (`npm run build:binary`) next to `node bin/run.js daemon`: its size, and
 * start to serving on the same data dir, each run in turn so load on the machine hits both alike.
 */
export async function benchBinary(): Promise<Record<string, number | string>> {
  const buildStarted = performance.now()
  execFileSync('npm', ['run', '--silent', 'build:binary'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
  const buildMs = performance.now() - buildStarted
  const dataDir = mkdtempSync(join(tmpdir(), 'smm-bench-binary-'))
  try {
    const flags = ['--port', '0', '--data-dir', dataDir, '--log-level', 'silent']
    // The first start (key, certificate, migrations) is not what is measured: later starts are.
    const first = await spawnUntil([...flags], (out) => (out.includes('curl') ? true : undefined), {}, BINARY)
    await stop(first.child)
    const ca = readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8')
    const node: number[] = []
    const binary: number[] = []
    for (let i = 0; i < 7; i++) {
      node.push(await startToServing(process.execPath, [BIN, 'daemon', ...flags], ca))
      binary.push(await startToServing(BINARY, flags, ca))
    }
    return {
      'smm-daemon size, MB (goal < 120)': Number((statSync(BINARY).size / 1e6).toFixed(1)),
      'npm run build:binary (cached when unchanged), s': Number((buildMs / 1000).toFixed(1)),
      'node bin/run.js daemon, start to serving, median ms': Number(median(node).toFixed(0)),
      'smm-daemon, start to serving, median ms': Number(median(binary).toFixed(0)),
      'ratio smm-daemon / node bin/run.js (goal <= 1.5)': Number((median(binary) / median(node)).toFixed(2)),
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
