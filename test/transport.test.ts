import net from 'node:net'
import tls from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'

/** Sends raw bytes to the daemon's port and returns everything it answers before closing. */
function rawExchange(port: number, bytes: string | Buffer, { end = true } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => (end ? socket.end(bytes) : socket.write(bytes)))
    const chunks: Buffer[] = []
    socket.on('data', (c) => chunks.push(c))
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')))
    socket.on('error', reject)
  })
}

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon()
})
afterAll(() => t.stop())

describe('plain HTTP on the TLS port', () => {
  it('is answered 403 https_required as problem+json, never redirected, and the key is not looked at', async () => {
    const answer = await rawExchange(
      t.daemon.port,
      `GET /v1/me HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${t.key}\r\n\r\n`,
    )
    const [head, body] = answer.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 403 /)
    expect(head).toMatch(/content-type: application\/problem\+json/i)
    expect(head).not.toMatch(/^location:/im)
    expect(head).toMatch(/^x-content-type-options: nosniff\r?$/im)
    expect(head).toMatch(/^cache-control: no-store\r?$/im)
    expect(JSON.parse(body!)).toMatchObject({ status: 403, code: 'https_required', type: 'urn:smm:problem:https_required' })
    // Nothing was processed: the key's rate-limit count did not move.
    const me = await t.http.get('/v1/me', { key: t.key })
    expect(me.headers.ratelimit).toMatch(/"minute";r=99;/)
  })

  it('keeps serving after a truncated TLS handshake and after garbage', async () => {
    // A ClientHello record header that promises 512 bytes, then the client hangs up.
    await rawExchange(t.daemon.port, Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]))
    await rawExchange(t.daemon.port, Buffer.from('\x00\x01\x02garbage'))
    const res = await t.http.get('/healthz')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'ok', version: expect.any(String) })
  })

  it('answers a 100 kB header with 431 problem+json and keeps serving', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = tls.connect({ port: t.daemon.port, host: '127.0.0.1', ca: t.ca, servername: 'localhost' }, () => {
        socket.write(`GET /v1/me HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`)
      })
      const chunks: Buffer[] = []
      socket.on('data', (c) => chunks.push(c))
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')))
      socket.on('error', reject)
    })
    expect(answer).toMatch(/^HTTP\/1\.1 431 /)
    expect(answer).toMatch(/^x-content-type-options: nosniff\r?$/im)
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toMatchObject({ status: 431, code: 'headers_too_large' })
    expect((await t.http.get('/healthz')).status).toBe(200)
  })
})

describe('behind a TLS-terminating proxy', () => {
  it('serves a trusted proxy that says https, and refuses anything else with 403 https_required', async () => {
    const p = await startTestDaemon({ behindProxy: true, trustedProxies: ['127.0.0.1'] })
    try {
      const ask = async (headers: Record<string, string>) => {
        const answer = await rawExchange(p.daemon.port, `GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`)
        return Number(answer.slice(9, 12))
      }
      expect(await ask({ 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.9' })).toBe(200)
      expect(await ask({})).toBe(403)
      expect(await ask({ 'X-Forwarded-Proto': 'http' })).toBe(403)
    } finally {
      await p.stop()
    }
    const untrusted = await startTestDaemon({ behindProxy: true, trustedProxies: ['10.0.0.0/8'] })
    try {
      const answer = await rawExchange(untrusted.daemon.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Forwarded-Proto: https\r\nConnection: close\r\n\r\n')
      expect(answer).toMatch(/^HTTP\/1\.1 403 /)
      expect(answer).toContain('"code":"https_required"')
    } finally {
      await untrusted.stop()
    }
  })
})
