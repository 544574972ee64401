// CLI start (issue 15, point 4): `smm --help`, `smm version` and `smm posts list` against a local
// daemon, each next to a bare `node -e 0` measured in the same run, and a guard that fails the
// benchmark when a module that path must not load (Ink, React, chrono-node, daemon code) is
// loaded by it.
import { spawnSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BIN, liftOwnerLimits, smm, startBenchDaemon, stop } from './processes.js'

const root = resolve(import.meta.dirname, '..')
const TRACE = join(import.meta.dirname, 'module-trace.js')
const RUNS = 21

// What any Node.js HTTPS client pays for `posts list`'s request: start, TLS (Node 20 parses its
// ~140 root certificates for the first secure context given a CA, ~30 ms here), one GET.
const HTTPS_GET = `const fs = require('node:fs')
require('node:https').get(process.env.SMM_URL + '/v1/posts', { ca: fs.readFileSync(process.env.SMM_CA_FILE), headers: { authorization: 'Bearer ' + process.env.SMM_API_KEY } }, (res) => res.resume())`

/** A start path, what it may not load, and its goal. */
interface StartPath {
  name: string
  args: string[]
  /** Logged in as `smm login` leaves a user (the daemon's certificate pinned), else SMM_URL, SMM_API_KEY and SMM_CA_FILE. */
  loggedIn?: boolean
  /** Sources (as the bundles name them, or files under node_modules) this path must not load. */
  forbidden: RegExp[]
  goal: { ratio: number } | { ms: number }
}

// Whatever a command needs, none of these belongs on these three paths: the calendar's UI and its
// layout engine, natural-language time parsing, and any of the daemon's code (platforms above all).
const NEVER = [/node_modules\/(ink|react|react-reconciler|yoga-layout|chrono-node)\//, /(^|\/)daemon\//]
// Cutting Latin text to its column needs no grapheme segmenter (src/display-width.ts).
const NO_SEGMENTER = [/^intl:Segmenter$/]
// The root help and the version are answered without oclif at all (src/cli/fast-path.ts).
const NO_OCLIF = [/node_modules\/@oclif\//]

const PATHS: StartPath[] = [
  { name: 'smm --help', args: ['--help'], forbidden: [...NEVER, ...NO_OCLIF], goal: { ratio: 1.6 } },
  { name: 'smm version', args: ['version'], forbidden: [...NEVER, ...NO_OCLIF], goal: { ratio: 1.6 } },
  { name: 'smm posts list (local daemon, 10 posts; logged in, certificate pinned)', args: ['posts', 'list'], loggedIn: true, forbidden: [...NEVER, ...NO_SEGMENTER], goal: { ms: 250 } },
  { name: 'smm posts list (the same through SMM_URL, SMM_API_KEY and SMM_CA_FILE)', args: ['posts', 'list'], forbidden: [...NEVER, ...NO_SEGMENTER], goal: { ms: 250 } },
]

/**
 * The modules a run of `smm args` loaded: files outside dist/ as they are, and for each bundle
 * under dist/ the sources it holds (dist/bundle-inputs.json, written by scripts/build-cli.ts).
 */
function modulesLoaded(args: string[], env: NodeJS.ProcessEnv): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'smm-bench-trace-'))
  try {
    const out = join(dir, 'modules')
    writeFileSync(out, '')
    const res = spawnSync(process.execPath, ['--import', TRACE, BIN, ...args], { env: { ...env, SMM_TRACE_MODULES: out }, encoding: 'utf8' })
    if (res.status !== 0) throw new Error(`smm ${args.join(' ')} exited ${res.status}: ${res.stderr}`)
    const bundles = JSON.parse(readFileSync(join(root, 'dist/bundle-inputs.json'), 'utf8')) as Record<string, string[]>
    const lines = readFileSync(out, 'utf8').split('\n')
    const files = new Set(lines.filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url)))
    const built = lines.filter((line) => line.startsWith('intl:'))
    return [...[...files].filter((file) => file !== TRACE).flatMap((file) => bundles[relative(root, file)] ?? [file]), ...new Set(built)]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Median wall time of each command, run in turn so that load on the machine falls on all alike.
 * Output goes to a pipe that is read, as when a script calls `smm`.
 */
function medians(commands: { args: string[]; env: NodeJS.ProcessEnv }[]): number[] {
  const times = commands.map((): number[] => [])
  for (let i = 0; i < RUNS; i++) {
    for (const [j, { args, env }] of commands.entries()) {
      const started = performance.now()
      const res = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
      times[j]!.push(performance.now() - started)
      if (res.status !== 0) throw new Error(`node ${args.join(' ')} exited ${res.status}`)
    }
  }
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]!)
}

/**
 * A daemon in a temp dir, with one account on `feed` and ten scheduled posts; `env` points `smm`
 * at it through SMM_URL, SMM_API_KEY and SMM_CA_FILE, `loggedIn` through the profile and
 * credentials `smm login --fingerprint` wrote (no keychain here: the credentials file).
 */
async function daemonWithPosts(home: string): Promise<{ stop(): Promise<void>; env: Record<string, string>; loggedIn: Record<string, string> }> {
  const dataDir = join(home, 'data-dir')
  const daemon = await startBenchDaemon(dataDir)
  // A clean environment: no keychain, no profile, no user theme. NODE_EXTRA_CA_CERTS (set on
  // some machines) makes Node parse every root certificate before the first line of any
  // script, the floor's included; it would hide what a command itself costs.
  const inherited = Object.entries(process.env).filter(([name, value]) => name !== 'NODE_EXTRA_CA_CERTS' && value !== undefined)
  const env: Record<string, string> = {
    ...(Object.fromEntries(inherited) as Record<string, string>),
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CACHE_HOME: join(home, 'cache'),
    DBUS_SESSION_BUS_ADDRESS: '',
    SMM_URL: daemon.url,
    SMM_API_KEY: daemon.key,
    SMM_CA_FILE: join(dataDir, 'tls-cert.pem'),
    TZ: 'UTC',
  }
  liftOwnerLimits({ SMM_DATA_DIR: dataDir })
  const account = JSON.parse(smm(['accounts', 'create', 'Bench', '--json'], env)).id as string
  smm(['accounts', 'connect', account, '--platform', 'feed', '--json'], env)
  const csv = join(home, 'posts.csv')
  const year = new Date().getUTCFullYear() + 1
  // Posts as people write them: longer than the table's column, so that cutting them is measured too.
  const content = (i: number) => `"Post ${i + 1}: our autumn menu is here — pumpkin soup, chestnut risotto and crème brûlée. Book a table for Friday!"`
  const lines = Array.from({ length: 10 }, (_, i) => `${account},feed,${content(i)},${year}-01-${String(i + 1).padStart(2, '0')} 09:00,`)
  writeFileSync(csv, ['account,platforms,content,at,media_urls', ...lines].join('\n') + '\n')
  smm(['posts', 'import', csv, '--json'], env)
  const { SMM_URL: _url, SMM_API_KEY: key, SMM_CA_FILE: ca, ...loggedIn } = env
  const fingerprint = new X509Certificate(readFileSync(ca!)).fingerprint256
  const login = spawnSync(process.execPath, [BIN, 'login', '--url', daemon.url, '--fingerprint', fingerprint, '--key-stdin'], { env: loggedIn, input: key, encoding: 'utf8' })
  if (login.status !== 0) throw new Error(`smm login exited ${login.status}: ${login.stderr}`)
  return { stop: () => stop(daemon.child), env, loggedIn }
}

/**
 * `smm --help`, `smm version` and `smm posts list` against a local daemon: each one's median
 * against `node -e 0` in the same run, the ratio and the goal. Throws (the benchmark fails) when
 * a path loads a module it must not, naming the module.
 */
export async function benchCliStart(): Promise<Record<string, number | string>> {
  const home = mkdtempSync(join(tmpdir(), 'smm-bench-cli-'))
  const daemon = await daemonWithPosts(home)
  try {
    const sneaked = PATHS.flatMap((path) =>
      modulesLoaded(path.args, path.loggedIn ? daemon.loggedIn : daemon.env)
        .filter((module) => path.forbidden.some((pattern) => pattern.test(module)))
        .map((module) => `${path.name} loaded ${module}`),
    )
    if (sneaked.length > 0) throw new Error(`CLI start: modules on a start path that must not load them:\n  ${sneaked.join('\n  ')}`)

    const [floor, httpsGet, ...figures] = medians([
      { args: ['-e', '0'], env: daemon.env },
      { args: ['-e', HTTPS_GET], env: daemon.env },
      ...PATHS.map((path) => ({ args: [BIN, ...path.args], env: path.loggedIn ? daemon.loggedIn : daemon.env })),
    ])
    const result: Record<string, number | string> = {
      'node -e 0 (floor), median ms': Number(floor!.toFixed(1)),
      'node -e: one HTTPS GET /v1/posts with the CA file (any HTTPS client), median ms': Number(httpsGet!.toFixed(1)),
    }
    for (const [i, path] of PATHS.entries()) {
      const ms = figures[i]!
      const ratio = ms / floor!
      const goal = 'ratio' in path.goal ? `goal <= ${path.goal.ratio}x` : `goal < ${path.goal.ms} ms`
      const met = 'ratio' in path.goal ? ratio <= path.goal.ratio : ms < path.goal.ms
      result[`${path.name}, median ms / ratio to floor (${goal})`] = `${ms.toFixed(1)} / ${ratio.toFixed(2)}x${met ? '' : '  NOT MET'}`
    }
    result['forbidden modules on these paths (ink, react, chrono-node, daemon/, oclif for help and version, a grapheme segmenter for posts list)'] = 'none'
    return result
  } finally {
    await daemon.stop()
    rmSync(home, { recursive: true, force: true })
  }
}
