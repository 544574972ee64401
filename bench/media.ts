// Media uploads: a 256 MB video through POST /v1/media and through tus (four PATCHes), against
// the floor of writing the same bytes to the same disk in the same run, and the daemon's peak
// RSS while each runs.
// Standalone: node --import tsx bench/media.ts
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { pathToFileURL } from 'node:url'
import { mp4 } from '../test/helpers/media-files.js'
import { cpuMs } from './http.js'
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

/** This process's CPU (the client's: the benchmark's own requests) since `since`, in ms. */
function clientCpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}

/** Forgets the process's peak RSS, so the next VmHWM is the peak from now on (Linux: clear_refs 5). */
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5')

/** The floor: the same bytes copied from the same (cached) file to the same disk, flushed, as the file store writes them. */
async function floor(source: string, dir: string): Promise<number> {
  const target = join(dir, `floor-${Date.now()}`)
  const started = performance.now()
  await pipeline(createReadStream(source, { highWaterMark: 64 * 1024 }), createWriteStream(target))
  const handle = await open(target, 'r')
  await handle.sync()
  await handle.close()
  const ms = performance.now() - started
  rmSync(target)
  return ms
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * One request whose body streams from `source` (a byte range of it, or none), read 1 MiB at a
 * time: the client shares the two cores with the daemon, and in 64 KiB reads it spent about
 * twice the CPU (0.23-0.59 s against 0.13-0.27 s per 256 MiB, TLS included) on the same bytes.
 */
function send(url: string, ca: string, method: string, headers: Record<string, string>, source?: { path: string; start: number; end: number }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method, ca, headers }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    })
    req.on('error', reject)
    if (!source) return req.end()
    createReadStream(source.path, { start: source.start, end: source.end, highWaterMark: MB }).on('error', reject).pipe(req)
  })
}

export async function benchMedia(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'smm-bench-media-'))
  const dataDir = join(dir, 'data')
  const source = join(dir, 'video.mp4')
  // Made once, then read from the page cache by the floor and the uploads alike.
  writeFileSync(source, mp4(1920, 1080, 60_000, { padding: FILE_BYTES - 4096 }))
  const bytes = statSync(source).size
  // BENCH_BIN: another build's bin/run.js, to measure it the same way.
  const daemon = await startBenchDaemon(dataDir, {}, true, { bin: process.env.BENCH_BIN || undefined })
  const pid = daemon.child.pid!
  const ca = readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8')
  const auth = { authorization: `Bearer ${daemon.key}` }
  const tus = { ...auth, 'tus-resumable': '1.0.0' }
  const figures: Record<string, number | string> = {}
  try {
    const runs: { floorPost: number; post: number; floorTus: number; tus: number; postPeak: number; tusPeak: number; baseline: number; postCpu: number; tusCpu: number; postClientCpu: number; tusClientCpu: number; postWritten: number; tusWritten: number }[] = []
    for (let round = 0; round < ROUNDS; round++) {
      // Each upload beside a floor measured just before it: the disk is shared, and its speed drifts.
      const floorPost = await floor(source, dir)
      const baseline = procStatus(pid, 'VmRSS')
      resetPeak(pid)
      let cpu = cpuMs(pid)!
      let written = writtenBytes(pid)
      let client = process.cpuUsage()
      let started = performance.now()
      const posted = await send(`${daemon.url}/v1/media`, ca, 'POST', { ...auth, 'content-type': 'video/mp4', 'content-length': String(bytes) }, { path: source, start: 0, end: bytes - 1 })
      const post = performance.now() - started
      if (posted.status !== 201) throw new Error(`POST /v1/media answered ${posted.status}: ${posted.body}`)
      const postPeak = procStatus(pid, 'VmHWM') - baseline
      const postCpu = cpuMs(pid)! - cpu
      const postWritten = writtenBytes(pid) - written
      const postClientCpu = clientCpuMs(client)
      await send(`${daemon.url}/v1/media/${JSON.parse(posted.body).id}`, ca, 'DELETE', auth)

      const floorTus = await floor(source, dir)
      const tusBaseline = procStatus(pid, 'VmRSS')
      resetPeak(pid)
      cpu = cpuMs(pid)!
      written = writtenBytes(pid)
      client = process.cpuUsage()
      started = performance.now()
      const metadata = `content_type ${Buffer.from('video/mp4').toString('base64')}`
      const created = await send(`${daemon.url}/v1/uploads`, ca, 'POST', { ...tus, 'upload-length': String(bytes), 'upload-metadata': metadata })
      if (created.status !== 201) throw new Error(`POST /v1/uploads answered ${created.status}: ${created.body}`)
      const upload = `${daemon.url}${created.headers.location}`
      const piece = Math.ceil(bytes / TUS_PIECES)
      let mediaId: string | undefined
      for (let offset = 0; offset < bytes; offset += piece) {
        const end = Math.min(bytes, offset + piece)
        const res = await send(upload, ca, 'PATCH', { ...tus, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset), 'content-length': String(end - offset) }, { path: source, start: offset, end: end - 1 })
        if (res.status !== 204) throw new Error(`PATCH at ${offset} answered ${res.status}: ${res.body}`)
        mediaId = res.headers['smm-media-id'] as string | undefined
      }
      const tusMs = performance.now() - started
      const tusPeak = procStatus(pid, 'VmHWM') - tusBaseline
      const tusCpu = cpuMs(pid)! - cpu
      const tusWritten = writtenBytes(pid) - written
      const tusClientCpu = clientCpuMs(client)
      if (!mediaId) throw new Error('the last PATCH named no media')
      await send(`${daemon.url}/v1/media/${mediaId}`, ca, 'DELETE', auth)
      runs.push({ floorPost, post, floorTus, tus: tusMs, postPeak, tusPeak, baseline, postCpu, tusCpu, postClientCpu, tusClientCpu, postWritten, tusWritten })
    }
    const rate = (ms: number) => (bytes / MB / (ms / 1000)).toFixed(0)
    const list = (pick: (r: (typeof runs)[number]) => string) => runs.map(pick).join(', ')
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    figures['file'] = `${(bytes / MB).toFixed(1)} MiB MP4, ${ROUNDS} rounds (the first just after the daemon started)`
    figures['floor before POST: copy to the same disk, flushed (MiB/s)'] = list((r) => rate(r.floorPost))
    figures['POST /v1/media (MiB/s)'] = list((r) => rate(r.post))
    figures['POST / floor, each round'] = list((r) => (r.floorPost / r.post).toFixed(2))
    figures['POST / floor, median'] = median(runs.map((r) => r.floorPost / r.post)).toFixed(2)
    figures['floor before tus (MiB/s)'] = list((r) => rate(r.floorTus))
    figures[`tus, ${TUS_PIECES} PATCHes (MiB/s)`] = list((r) => rate(r.tus))
    figures['tus / floor, each round'] = list((r) => (r.floorTus / r.tus).toFixed(2))
    figures['tus / floor, median'] = median(runs.map((r) => r.floorTus / r.tus)).toFixed(2)
    figures['daemon CPU per POST (s)'] = list((r) => (r.postCpu / 1000).toFixed(2))
    figures['daemon CPU per tus upload (s)'] = list((r) => (r.tusCpu / 1000).toFixed(2))
    figures['client CPU per POST, TLS included (s)'] = list((r) => (r.postClientCpu / 1000).toFixed(2))
    figures['client CPU per tus upload (s)'] = list((r) => (r.tusClientCpu / 1000).toFixed(2))
    figures['bytes the daemon wrote to storage per POST (MiB)'] = list((r) => (r.postWritten / MB).toFixed(0))
    figures['bytes the daemon wrote to storage per tus upload (MiB)'] = list((r) => (r.tusWritten / MB).toFixed(0))
    figures['daemon RSS before each POST (MB)'] = list((r) => (r.baseline / 1e6).toFixed(0))
    figures['peak RSS rise during the POST (MB)'] = list((r) => (r.postPeak / 1e6).toFixed(1))
    figures['peak RSS rise during the tus upload (MB)'] = list((r) => (r.tusPeak / 1e6).toFixed(1))
  } finally {
    await stop(daemon.child)
    rmSync(dir, { recursive: true, force: true })
  }
  return figures
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [name, value] of Object.entries(await benchMedia())) console.log(`${name}: ${value}`)
}
