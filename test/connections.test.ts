import net from 'node:net'
import tls from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { httpsClient } from './helpers/http.js'

// The documented limits are 10 s / 10 s / 20 s / 60 s / 5 s; the same mechanism runs here with
// short ones so that each cut-off is seen within a second.
const limits = { firstByteMs: 300, handshakeMs: 300, headersMs: 400, requestMs: 800, keepAliveMs: 300, perAddress: 6 }

let t: TestDaemon
let port: number
beforeAll(async () => {
  t = await startTestDaemon({ connectionLimits: limits })
  port = t.daemon.port
})
afterAll(() => t.stop())

/** Resolves with how long the server took to close the connection, or rejects after `withinMs`. */
function closedWithin(socket: net.Socket, withinMs: number): Promise<number> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the connection was still open after ${withinMs} ms`)), withinMs)
    socket.on('error', () => undefined) // a reset is one way of being closed
    socket.once('close', () => (clearTimeout(timer), resolve(Date.now() - started)))
  })
}

const raw = (localAddress = '127.0.0.1') =>
  new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress }, () => resolve(socket))
    socket.once('error', reject)
  })
const secure = (localAddress = '127.0.0.1') =>
  new Promise<tls.TLSSocket>((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ca: t.ca, ...{ localAddress } }, () => resolve(socket))
    socket.once('error', reject)
  })

describe('connections that say too little are cut off', () => {
  it('closes a connection that never sends a byte', async () => {
    expect(await closedWithin(await raw(), 3_000)).toBeGreaterThanOrEqual(limits.firstByteMs - 50)
  })

  it('closes a connection that starts a TLS handshake and never finishes it', async () => {
    const socket = await raw()
    socket.write(Buffer.from([0x16, 0x03, 0x01]))
    await closedWithin(socket, 3_000)
  })

  it('closes a TLS connection that never sends a request', async () => {
    const socket = await secure()
    socket.resume() // reads what the server sends (session tickets, then the close)
    await closedWithin(socket, 3_000)
  })

  it('closes a TLS connection whose request line never ends, answering 408', async () => {
    const socket = await secure()
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk))
    socket.write('GET /v1/me HT')
    await closedWithin(socket, 3_000)
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
    expect(answer).toContain('"code":"request_timeout"')
  })

  it('closes a request whose body arrives slower than it may', async () => {
    const socket = await secure()
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
    const socket = await secure()
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk))
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n')
    const idle = await closedWithin(socket, 3_000)
    expect(answer).toMatch(/^HTTP\/1\.1 200/)
    expect(idle).toBeGreaterThanOrEqual(limits.keepAliveMs - 50)
  })

  it('holds at most the cap of connections per address, refusing the rest at once, while other clients are served', async () => {
    const held = await Promise.all(Array.from({ length: limits.perAddress }, () => secure('127.0.0.2')))
    // Each held connection keeps itself alive with a never-finished request; the cap is about
    // how many, not how long.
    const extra = await raw('127.0.0.2')
    expect(await closedWithin(extra, 1_000)).toBeLessThan(limits.firstByteMs)
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
