import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import tls from 'node:tls'
import { row } from './http.js'
import { load } from './load.js'
import { liftOwnerLimits, startBenchDaemon, stop } from './processes.js'

/** Slow clients, spread over four loopback addresses so that each stays under the per-address cap (256). */
const ATTACKERS = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']
const PER_ADDRESS = 250

type Kind = 'silent TCP' | 'TLS, half a request line' | 'TLS, a body at 1 byte per 2 s'
const KINDS: Kind[] = ['silent TCP', 'TLS, half a request line', 'TLS, a body at 1 byte per 2 s']

/** Opens one slow client of `kind`, as slow as it may be, until it is destroyed or cut off. */
function slowClient(kind: Kind, port: number, localAddress: string, ca: string, timers: Set<NodeJS.Timeout>): net.Socket {
  const tcp = net.connect({ host: '127.0.0.1', port, localAddress }).on('error', () => undefined)
  // Read (and drop) whatever comes, so that a close by the daemon is seen.
  if (kind === 'silent TCP') return tcp.resume()
  const socket = tls.connect({ socket: tcp, ca, servername: 'localhost' }).on('error', () => undefined).resume()
  socket.once('secureConnect', () => {
    if (kind === 'TLS, half a request line') {
      socket.write('GET /v1/me HT')
      return
    }
    socket.write('POST /v1/posts HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{')
    const timer = setInterval(() => socket.write(' '), 2_000)
    timers.add(timer)
    socket.once('close', () => {
      clearInterval(timer)
      timers.delete(timer)
    })
  })
  return socket
}

/**
 * What 1,000 slow clients (never a byte, a TLS handshake then half a request line, a body
 * trickling in) do to a normal client: its latency with them held open against without, in
 * the same run, and how many of them the daemon has cut off by the end.
 */
export async function benchAttack(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'smm-bench-'))
  const durationMs = Number(process.env.BENCH_SECONDS ?? 5) * 1000
  const sockets: net.Socket[] = []
  const timers = new Set<NodeJS.Timeout>()
  try {
    const daemon = await startBenchDaemon(dataDir)
    liftOwnerLimits({ SMM_DATA_DIR: dataDir })
    const ca = readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8')
    const url = `${daemon.url}/v1/me`
    const port = Number(new URL(url).port)
    const options = { headers: { authorization: `Bearer ${daemon.key}` }, connections: 4, durationMs }
    await load(url, { ...options, durationMs: 1_000, warmupMs: 0 })
    const quiet = await load(url, options)
    const opened = performance.now()
    ATTACKERS.forEach((address, a) => {
      for (let i = 0; i < PER_ADDRESS; i++) sockets.push(slowClient(KINDS[(a * PER_ADDRESS + i) % KINDS.length]!, port, address, ca, timers))
    })
    // Let every slow client connect (and the TLS ones finish their handshakes) before measuring.
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const open = () => sockets.filter((s) => !s.destroyed && !s.closed).length
    const heldAtStart = open()
    const attacked = await load(url, options)
    const heldAtEnd = open()
    // The silent ones are past their 10 s for a first byte by now.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 12_000 - (performance.now() - opened))))
    const heldAt12s = open()
    await stop(daemon.child)
    return {
      'GET /v1/me, 4 clients, quiet': row(quiet),
      [`GET /v1/me, 4 clients, beside ${sockets.length} slow clients`]: row(attacked),
      'p99 ratio attacked / quiet': Number((attacked.p99ms / quiet.p99ms).toFixed(2)),
      'slow clients open when measuring began, when it ended, 12 s after they connected': `${heldAtStart}, ${heldAtEnd}, ${heldAt12s} (a first byte is due within 10 s, whole headers within 20 s, a whole request within 60 s)`,
    }
  } finally {
    for (const timer of timers) clearInterval(timer)
    for (const socket of sockets) socket.destroy()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
