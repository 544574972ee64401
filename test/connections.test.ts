import net from 'node:net'
import tls from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionLimits } from '../daemon/listener.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { httpsClient } from './helpers/http.js'

// The documented limits are 10 s / 10 s / 20 s / 60 s / 5 s; the same mechanism runs here with
// short ones so that each cut-off is seen within a second. Each is seen on a daemon of its own
// where its limit is the only short one, the others at their defaults: a handshake or a request
// that a busy machine holds up for a moment must not meet a limit its test is not about (a
// handshake limit of 300 ms on every daemon cut off handshakes held up for 400 ms).
const short = {
  firstByte: { firstByteMs: 300 },
  handshake: { handshakeMs: 300 },
  request: { headersMs: 400, requestMs: 800 },
  keepAlive: { keepAliveMs: 300 },
  cap: { perAddress: 6 },
} satisfies Record<string, Partial<ConnectionLimits>>

let daemons: Record<keyof typeof short, TestDaemon>
beforeAll(async () => {
  const started = await Promise.all(Object.entries(short).map(async ([name, limits]) => [name, await startTestDaemon({ connectionLimits: limits })] as const))
  daemons = Object.fromEntries(started) as typeof daemons
})
afterAll(async () => {
  await Promise.all(Object.values(daemons ?? {}).map((t) => t.stop()))
})

/** Resolves with how long the server took to close the connection, or rejects after `withinMs`. */
function closedWithin(socket: net.Socket, withinMs: number): Promise<number> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the connection was still open after ${withinMs} ms`)), withinMs)
    socket.on('error', () => undefined) // a reset is one way of being closed
    socket.once('close', () => (clearTimeout(timer), resolve(Date.now() - started)))
  })
}

const raw = (t: TestDaemon, localAddress = '127.0.0.1') =>
  new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: t.daemon.port, localAddress }, () => resolve(socket))
    socket.once('error', reject)
  })
const secure = (t: TestDaemon, localAddress = '127.0.0.1') =>
  new Promise<tls.TLSSocket>((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: t.daemon.port, ca: t.ca, ...{ localAddress } }, () => resolve(socket))
    socket.once('error', reject)
  })

describe('connections that say too little are cut off', () => {
  it('closes a connection that never sends a byte', async () => {
    expect(await closedWithin(await raw(daemons.firstByte), 3_000)).toBeGreaterThanOrEqual(short.firstByte.firstByteMs - 50)
  })

  it('closes a connection that starts a TLS handshake and never finishes it', async () => {
    const socket = await raw(daemons.handshake)
    socket.write(Buffer.from([0x16, 0x03, 0x01]))
    await closedWithin(socket, 3_000)
  })

  it('closes a TLS connection that never sends a request', async () => {
    const socket = await secure(daemons.request)
    socket.resume() // reads what the server sends (session tickets, then the close)
    await closedWithin(socket, 3_000)
  })

  it('closes a TLS connection whose request line never ends, answering 408', async () => {
    const socket = await secure(daemons.request)
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk))
    socket.write('GET /v1/me HT')
    await closedWithin(socket, 3_000)
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
    expect(answer).toContain('"code":"request_timeout"')
  })

  it('closes a request whose body arrives slower than it may', async () => {
    const t = daemons.request
    const socket = await secure(t)
    // Reads nothing and never closes its side: the server must close the connection itself.
    socket.pause()
    socket.write(`POST /v1/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`)
    const drip = setInterval(() => socket.writable && socket.write(' '), 100)
    try {
      await closedWithin(socket, 4_000)
      // (closed by the server, not by this client)
    } finally {
      clearInterval(drip)
    }
    expect((await t.http.get('/v1/accounts', { key: t.key })).body.data).toEqual([])
  })

  it('closes an idle keep-alive connection after a request', async () => {
    const socket = await secure(daemons.keepAlive)
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk))
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n')
    const idle = await closedWithin(socket, 3_000)
    expect(answer).toMatch(/^HTTP\/1\.1 200/)
    expect(idle).toBeGreaterThanOrEqual(short.keepAlive.keepAliveMs - 50)
  })

  it('holds at most the cap of connections per address, refusing the rest at once, while other clients are served', async () => {
    const t = daemons.cap
    // Held open, idle, well within the default limits: the cap is about how many, not how long.
    const held = await Promise.all(Array.from({ length: short.cap.perAddress }, () => secure(t, '127.0.0.2')))
    const extra = await raw(t, '127.0.0.2')
    // Closed on arrival, long before the first-byte limit (10 s) would have closed it.
    await closedWithin(extra, 5_000)
    const other = httpsClient(t.url, t.ca)
    try {
      for (let i = 0; i < 5; i++) expect((await other.get('/v1/me', { key: t.key })).status).toBe(200)
    } finally {
      other.close()
    }
    for (const socket of held) socket.destroy()
    expect(t.logs.filter((line) => line.includes('too many connections')).length).toBe(1)
  })
})
