// Media uploads: a 256 MB video through POST /v1/media and through tus (four PATCHes), against
// the floor of writing the same bytes to the same disk in the same run, and the daemon's peak
// RSS while each runs. Each upload is sent twice a round: by curl, a native client in a process
// of its own, and by Node's https client in this process.
// Standalone: node --import tsx bench/media.ts
import { spawn, spawnSync } from 'node:child_process'
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { pathToFileURL } from 'node:url'
import { mp4 } from '../test/helpers/media-files.js'
import { cpuMs } from './http.js'
import { reapedChildrenCpuMs } from './load.js'
import { startBenchDaemon, stop } from './processes.js'

const MB = 1024 * 1024
const FILE_BYTES = 256 * MB
/** tus PATCHes of a quarter of the file each, as a client with a 64 MB chunk size sends them. */
const TUS_PIECES = 4
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)

/** A field of /proc/PID/status in bytes (VmRSS, VmHWM). */
function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return Number(match![1]) * 1024
}

/** The bytes a process has caused to be written to storage (/proc/PID/io `write_bytes`). */
function writtenBytes(pid: number): number {
  return Number(/^write_bytes: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))![1])
}

/** Forgets the process's peak RSS, so the next VmHWM is the peak from now on (Linux: clear_refs 5). */
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5')

/** Has the disk write a file's bytes, and waits until it has. */
async function flushFile(path: string): Promise<void> {
  const handle = await open(path, 'r')
  await handle.sync()
  await handle.close()
}

/**
 * The floor: the same bytes copied from the same (cached) file to the same disk, flushed, by
 * Node's file streams as the file store writes them, in this process.
 */
async function floor(source: string, dir: string): Promise<number> {
  const target = join(dir, `floor-${Date.now()}`)
  const started = performance.now()
  await pipeline(createReadStream(source, { highWaterMark: 64 * 1024 }), createWriteStream(target))
  await flushFile(target)
  const ms = performance.now() - started
  rmSync(target)
  return ms
}

/**
 * The native floor: the same copy by dd (64 KiB at a time, flushed before it exits) in a process
 * of its own, which costs none of the CPU that Node's streams do in this process (holding every
 * benchmark's modules, where the copy above ran at about half dd's speed). The least the disk
 * write itself costs.
 */
function ddFloor(source: string, dir: string): number {
  const target = join(dir, `floor-dd-${Date.now()}`)
  const started = performance.now()
  const dd = spawnSync('dd', [`if=${source}`, `of=${target}`, 'bs=64K', 'conv=fsync', 'status=none'])
  const ms = performance.now() - started
  rmSync(target, { force: true })
  if (dd.status !== 0) throw new Error(`dd exited ${dd.status}: ${dd.stderr}`)
  return ms
}

interface Answer {
  status: number
  /** The answer's Smm-Media-Id, or the id in its JSON body. */
  mediaId?: string
  location?: string
  body: string
}

/** A byte range of a file (both ends included), and the same bytes as a file of their own for curl's -T. */
interface Piece {
  path: string
  start: number
  end: number
  file: string
}

/** How one client sends requests whose bodies stream from a file. */
interface Client {
  /** One request, its body a piece of the file (or none). */
  send(url: string, method: string, headers: Record<string, string>, piece?: Piece): Promise<Answer>
  /** Requests one after another on one connection (a tus upload's PATCHes); the answers in order. */
  sendAll(url: string, method: string, requests: { headers: Record<string, string>; piece: Piece }[]): Promise<Answer[]>
  /** The client's CPU since `mark()` (ms). */
  mark(): () => number
}

const answerOf = (status: number, body: string, header?: string, location?: string): Answer => {
  let mediaId = header || undefined
  if (!mediaId && status === 201 && body) mediaId = (JSON.parse(body) as { id?: string }).id
  return { status, mediaId, location, body }
}

/**
 * Node's https client in this process, reading the file 1 MiB at a time (in 64 KiB reads it spent
 * about twice the CPU on the same bytes). It shares the two cores with the daemon, and this
 * process holds every benchmark's modules: in `npm run bench` its CPU per 256 MiB was 2-3 times
 * what the same client took in a process of its own (0.34-0.47 s against 0.12-0.25 s).
 */
function nodeClient(ca: string): Client {
  const send = (url: string, method: string, headers: Record<string, string>, piece?: Piece) =>
    new Promise<Answer>((resolve, reject) => {
      const req = https.request(url, { method, ca, headers }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk))
        res.on('end', () => resolve(answerOf(res.statusCode!, body, res.headers['smm-media-id'] as string | undefined, res.headers.location)))
      })
      req.on('error', reject)
      if (!piece) return req.end()
      createReadStream(piece.path, { start: piece.start, end: piece.end, highWaterMark: MB }).on('error', reject).pipe(req)
    })
  return {
    send,
    async sendAll(url, method, requests) {
      const answers: Answer[] = []
      // Node's global agent keeps the connection alive between them.
      for (const { headers, piece } of requests) answers.push(await send(url, method, headers, piece))
      return answers
    },
    mark() {
      const since = process.cpuUsage()
      return () => {
        const used = process.cpuUsage(since)
        return (used.user + used.system) / 1000
      }
    },
  }
}

/**
 * curl, a native client in a process of its own, sending each body from a file (`-T`): what a
 * script or another service uploading to smm would run, and a client that costs less than the
 * daemon beside it (about 0.13 s of CPU per 256 MiB, TLS included), so the figure is the
 * daemon's. Its CPU is read once it has exited.
 */
function curlClient(ca: string, answers: string): Client {
  const options = (method: string, headers: Record<string, string>, piece?: Piece) => [
    '--silent',
    '--show-error',
    '--http1.1',
    '--cacert',
    ca,
    '--request',
    method,
    // Sent at once, as Node's client sends it, not after waiting on 100 Continue.
    '--header',
    'Expect:',
    ...Object.entries(headers).flatMap(([name, value]) => ['--header', `${name}: ${value}`]),
    ...(piece ? ['--upload-file', piece.file] : []),
    '--output',
    answers,
    '--write-out',
    '%{http_code} %header{smm-media-id}\\n',
  ]
  const run = (args: string[]) =>
    new Promise<Answer[]>((resolve, reject) => {
      const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'pipe'] })
      let out = ''
      let err = ''
      child.stdout.on('data', (chunk: Buffer) => (out += chunk))
      child.stderr.on('data', (chunk: Buffer) => (err += chunk))
      child.on('error', reject)
      child.on('close', (code) => {
        if (code !== 0) return reject(new Error(`curl exited ${code}: ${err}`))
        const lines = out.trim().split('\n')
        // --output is rewritten by each transfer: the body read is the last one's.
        const body = readFileSync(answers, 'utf8')
        resolve(lines.map((line, i) => {
          const [status = '0', header] = line.split(' ')
          return answerOf(Number(status), i === lines.length - 1 ? body : '', header)
        }))
      })
    })
  return {
    send: async (url, method, headers, piece) => (await run([...options(method, headers, piece), url]))[0]!,
    // One curl: `--next` starts each request afresh on the same connection.
    sendAll: (url, method, requests) => run(requests.flatMap(({ headers, piece }, i) => [...(i ? ['--next'] : []), ...options(method, headers, piece), url])),
    mark() {
      const since = reapedChildrenCpuMs()!
      return () => reapedChildrenCpuMs()! - since
    },
  }
}

let checked = false
/** curl must be installed; the benchmark says how, rather than fail on a missing executable. */
function requireCurl(): void {
  if (checked) return
  if (spawnSync('curl', ['--version']).error) {
    throw new Error('The media benchmark uploads with curl, a native client, and it is not installed.\nInstall it: `sudo apt-get install curl` (Debian, Ubuntu), `sudo dnf install curl` (Fedora); macOS has it.')
  }
  checked = true
}

/** One upload's figures, beside the floors measured just before it. */
interface Run {
  floor: number
  ddFloor: number
  ms: number
  peak: number
  baseline: number
  daemonCpu: number
  clientCpu: number
  written: number
}

export async function benchMedia(): Promise<Record<string, number | string>> {
  requireCurl()
  const dir = mkdtempSync(join(tmpdir(), 'smm-bench-media-'))
  const dataDir = join(dir, 'data')
  const source = join(dir, 'video.mp4')
  // Made once, then read from the page cache by the floors and the uploads alike; flushed, so
  // that Linux does not write them out in the middle of a round (30 s after, on its own).
  writeFileSync(source, mp4(1920, 1080, 60_000, { padding: FILE_BYTES - 4096 }))
  await flushFile(source)
  const bytes = statSync(source).size
  const whole: Piece = { path: source, start: 0, end: bytes - 1, file: source }
  const pieceBytes = Math.ceil(bytes / TUS_PIECES)
  const pieces: Piece[] = []
  for (let start = 0; start < bytes; start += pieceBytes) {
    const end = Math.min(bytes, start + pieceBytes) - 1
    const file = join(dir, `piece-${start}`)
    await pipeline(createReadStream(source, { start, end }), createWriteStream(file))
    await flushFile(file)
    pieces.push({ path: source, start, end, file })
  }
  // BENCH_BIN: another build's bin/run.js, to measure it the same way.
  const daemon = await startBenchDaemon(dataDir, {}, true, { bin: process.env.BENCH_BIN || undefined })
  const pid = daemon.child.pid!
  const caFile = join(dataDir, 'tls-cert.pem')
  const ca = readFileSync(caFile, 'utf8')
  const auth = { authorization: `Bearer ${daemon.key}` }
  const tus = { ...auth, 'tus-resumable': '1.0.0' }
  // Set-up and clean-up requests go by Node's client; the uploads by each client in turn.
  const control = nodeClient(ca)
  const clients = { curl: curlClient(caFile, join(dir, 'answer')), node: nodeClient(ca) }
  type ClientName = keyof typeof clients

  /** Measures `upload` (it answers the media made) beside the floors just before it: the disk is shared, and its speed drifts. */
  const measure = async (client: Client, upload: () => Promise<string>): Promise<Run> => {
    const ddFloorMs = ddFloor(source, dir)
    const floorMs = await floor(source, dir)
    const baseline = procStatus(pid, 'VmRSS')
    resetPeak(pid)
    const cpu = cpuMs(pid)!
    const written = writtenBytes(pid)
    const clientCpu = client.mark()
    const started = performance.now()
    const mediaId = await upload()
    const ms = performance.now() - started
    const run = { floor: floorMs, ddFloor: ddFloorMs, ms, peak: procStatus(pid, 'VmHWM') - baseline, baseline, daemonCpu: cpuMs(pid)! - cpu, clientCpu: clientCpu(), written: writtenBytes(pid) - written }
    await control.send(`${daemon.url}/v1/media/${mediaId}`, 'DELETE', auth)
    return run
  }
  const post = (client: Client) => async () => {
    const posted = await client.send(`${daemon.url}/v1/media`, 'POST', { ...auth, 'content-type': 'video/mp4', 'content-length': String(bytes) }, whole)
    if (posted.status !== 201 || !posted.mediaId) throw new Error(`POST /v1/media answered ${posted.status}: ${posted.body}`)
    return posted.mediaId
  }
  const tusUpload = (client: Client) => async () => {
    const metadata = `content_type ${Buffer.from('video/mp4').toString('base64')}`
    const created = await control.send(`${daemon.url}/v1/uploads`, 'POST', { ...tus, 'upload-length': String(bytes), 'upload-metadata': metadata })
    if (created.status !== 201) throw new Error(`POST /v1/uploads answered ${created.status}: ${created.body}`)
    const patched = await client.sendAll(
      `${daemon.url}${created.location}`,
      'PATCH',
      pieces.map((piece) => ({
        headers: { ...tus, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(piece.start), 'content-length': String(piece.end - piece.start + 1) },
        piece,
      })),
    )
    for (const [i, res] of patched.entries()) if (res.status !== 204) throw new Error(`PATCH at ${pieces[i]!.start} answered ${res.status}: ${res.body}`)
    const mediaId = patched.at(-1)!.mediaId
    if (!mediaId) throw new Error('the last PATCH named no media')
    return mediaId
  }

  const figures: Record<string, number | string> = {}
  try {
    const runs: Record<ClientName, { post: Run[]; tus: Run[] }> = { curl: { post: [], tus: [] }, node: { post: [], tus: [] } }
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of ['curl', 'node'] as const) {
        runs[name].post.push(await measure(clients[name], post(clients[name])))
        runs[name].tus.push(await measure(clients[name], tusUpload(clients[name])))
      }
    }
    const rate = (ms: number) => (bytes / MB / (ms / 1000)).toFixed(0)
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    const list = (of: Run[], pick: (r: Run) => string) => of.map(pick).join(', ')
    figures['file'] = `${(bytes / MB).toFixed(1)} MiB MP4, ${ROUNDS} rounds (the first just after the daemon started), each a POST and a tus upload (${TUS_PIECES} PATCHes) by curl, then by Node's client in this process`
    figures['floor'] = "a copy of the file to the same disk, flushed, by Node's file streams in this process, just before each upload"
    figures['native floor'] = 'the same copy by dd in a process of its own, just before that'
    for (const name of ['curl', 'node'] as const) {
      for (const kind of ['post', 'tus'] as const) {
        const of = runs[name][kind]
        const what = `${kind === 'post' ? 'POST' : 'tus'} by ${name === 'curl' ? 'curl' : 'Node'}`
        figures[`${what}: floor (MiB/s)`] = list(of, (r) => rate(r.floor))
        figures[`${what} (MiB/s)`] = list(of, (r) => rate(r.ms))
        figures[`${what} / floor, each round`] = list(of, (r) => (r.floor / r.ms).toFixed(2))
        figures[`${what} / floor, median`] = median(of.map((r) => r.floor / r.ms)).toFixed(2)
        figures[`${what}: native floor (MiB/s)`] = list(of, (r) => rate(r.ddFloor))
        figures[`${what} / native floor, each round`] = list(of, (r) => (r.ddFloor / r.ms).toFixed(2))
        figures[`${what} / native floor, median`] = median(of.map((r) => r.ddFloor / r.ms)).toFixed(2)
        figures[`${what}: daemon CPU (s)`] = list(of, (r) => (r.daemonCpu / 1000).toFixed(2))
        figures[`${what}: client CPU, TLS included (s)`] = list(of, (r) => (r.clientCpu / 1000).toFixed(2))
        figures[`${what}: bytes the daemon wrote to storage (MiB)`] = list(of, (r) => (r.written / MB).toFixed(0))
        figures[`${what}: daemon RSS before it (MB)`] = list(of, (r) => (r.baseline / 1e6).toFixed(0))
        figures[`${what}: peak RSS rise during it (MB)`] = list(of, (r) => (r.peak / 1e6).toFixed(1))
      }
    }
  } finally {
    await stop(daemon.child)
    rmSync(dir, { recursive: true, force: true })
  }
  return figures
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [name, value] of Object.entries(await benchMedia())) console.log(`${name}: ${value}`)
}
