import { spawnSync } from 'node:child_process'
import http from 'node:http'

export interface Scrape {
  status: number
  contentType: string
  text: string
}

/** One GET (or other method) of a metrics URL on a connection of its own, as Prometheus scrapes. */
export function scrape(url: string, method = 'GET'): Promise<Scrape> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, contentType: String(res.headers['content-type']), text }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** A sample of the text format: its name, labels and value. */
export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/** The samples of a scrape (comments left out). */
export function samples(text: string): Sample[] {
  const out: Sample[] = []
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m) throw new Error(`Not a sample line of the text format: ${line}`)
    const labels: Record<string, string> = {}
    for (const [, name, value] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[name!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
    out.push({ name: m[1]!, labels, value: m[3] === 'NaN' ? Number.NaN : Number(m[3]) })
  }
  return out
}

/** The value of the one sample of `name` whose labels include `labels`; undefined if none. */
export function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples(text).filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`)
  return found[0]?.value
}

/** The metric families a scrape declares (its `# TYPE` lines). */
export function families(text: string): Set<string> {
  return new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!))
}

/** Runs promtool (Debian's `prometheus` package; .ci/run installs it): its exit code and what it printed. */
export function promtool(args: string[], options: { input?: string; cwd?: string } = {}): { code: number | null; output: string } {
  const run = spawnSync('promtool', args, { input: options.input, cwd: options.cwd, encoding: 'utf8' })
  if (run.error) throw new Error(`promtool could not be run (${run.error.message}): install Debian's prometheus package, as .ci/run does.`)
  return { code: run.status, output: `${run.stdout}${run.stderr}` }
}
