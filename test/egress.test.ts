import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpClient, EgressError, type HttpClient } from '../daemon/egress.js'
import { sendJson, startLoopbackServer, type LoopbackServer } from './fixtures/loopback.js'

let server: LoopbackServer
// /answer-then-stall's client waits DEADLINE_MS, and the process stops for twice that once the
// answer is out: however long the answer took to come on a busy machine (up to the deadline), the
// deadline passes during the stop and its timer fires at least DEADLINE_MS late, a stall.
const DEADLINE_MS = 1_000
let hits: string[] = []

async function refusal(promise: Promise<unknown>): Promise<EgressError> {
  const error = await promise.then(
    () => {
      throw new Error('the request was answered, not refused')
    },
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(EgressError)
  return error as EgressError
}

beforeAll(async () => {
  server = await startLoopbackServer(async (req, res) => {
    hits.push(req.url.pathname)
    switch (req.url.pathname) {
      case '/ok':
        return sendJson(res, 200, { ok: true })
      case '/big': {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '4096' })
        return void res.end(Buffer.alloc(4096))
      }
      case '/big-chunked': {
        // No Content-Length: the cap must hold while streaming, not only on the header.
        res.writeHead(200, { 'content-type': 'application/octet-stream' })
        for (let i = 0; i < 8; i++) res.write(Buffer.alloc(1024))
        return void res.end()
      }
      case '/silent':
        return // never answers
      case '/answer-then-stall':
        // Answers, then stops this whole process (server and client alike) for twice the deadline, as SIGSTOP
        // or a suspended VM would: the client's deadline passes while the answer waits in its socket.
        res.writeHead(200, { 'content-type': 'application/json' })
        return void res.end('{"ok":true}', () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2 * DEADLINE_MS))
      case '/reset':
        // Reads the request, then drops the connection: as a crashing server or a proxy would.
        return void res.destroy()
      case '/stall-body':
        res.writeHead(200, { 'content-type': 'text/plain' })
        return void res.write('partial')
      case '/echo':
        return sendJson(res, 200, { bytes: req.body.length, sha256: createHash('sha256').update(req.body).digest('hex'), length: req.headers['content-length'] ?? null, chunked: req.headers['transfer-encoding'] === 'chunked' })
      case '/redirect':
        res.writeHead(302, { location: '/ok' })
        return void res.end()
      case '/redirect-http':
        res.writeHead(301, { location: `http://127.0.0.1:${server.port}/ok` })
        return void res.end()
      default:
        return sendJson(res, 404, { error: 'not found' })
    }
  })
})

afterAll(() => server.close())

describe('by default (no --allow-private-network)', () => {
  const pinned = (address: string, family: number): HttpClient =>
    createHttpClient({ ca: [server.ca], resolve: async () => [{ address, family }] })

  it.each([
    ['127.0.0.1', 4],
    ['10.0.0.1', 4],
    ['169.254.169.254', 4],
    ['::1', 6],
    ['::ffff:127.0.0.1', 6],
  ])('refuses a host name that resolves to %s without connecting', async (address, family) => {
    const before = server.connections
    const error = await refusal(pinned(address, family)(`https://hooks.example.test:${server.port}/ok`))
    expect(error.code).toBe('forbidden_address')
    expect(error.message).toContain(address)
    expect(error.transient).toBe(false)
    expect(server.connections).toBe(before)
  })

  it.each(['127.0.0.1', '10.0.0.1', '169.254.169.254', '[::1]', '0.0.0.0', '[::ffff:7f00:1]', '2130706433'])(
    'refuses the literal address %s without connecting',
    async (host) => {
      const before = server.connections
      const error = await refusal(createHttpClient({ ca: [server.ca] })(`https://${host}:${server.port}/ok`))
      expect(error.code).toBe('forbidden_address')
      expect(server.connections).toBe(before)
    },
  )

  it('refuses localhost through the system resolver without connecting', async () => {
    const before = server.connections
    const error = await refusal(createHttpClient({ ca: [server.ca] })(`https://localhost:${server.port}/ok`))
    expect(error.code).toBe('forbidden_address')
    expect(server.connections).toBe(before)
  })

  it('refuses plain http and URLs with credentials', async () => {
    const http = createHttpClient({ allowPrivateNetwork: true, ca: [server.ca] })
    expect((await refusal(http(`http://127.0.0.1:${server.port}/ok`))).code).toBe('invalid_url')
    expect((await refusal(http(`https://user:secret@127.0.0.1:${server.port}/ok`))).code).toBe('invalid_url')
    expect((await refusal(http('not a url'))).code).toBe('invalid_url')
  })
})

describe('with the private network allowed (tests, or an operator who chose it)', () => {
  const http = () => createHttpClient({ allowPrivateNetwork: true, ca: [server.ca] })

  it('reaches a loopback server over https', async () => {
    const response = await http()(`${server.url}/ok`)
    expect(response.status).toBe(200)
    expect(response.json()).toEqual({ ok: true })
  })

  it('caps the response size, by header and while streaming', async () => {
    const declared = await refusal(http()(`${server.url}/big`, { maxResponseBytes: 1024 }))
    expect(declared.code).toBe('too_large')
    const streamed = await refusal(http()(`${server.url}/big-chunked`, { maxResponseBytes: 2048 }))
    expect(streamed.code).toBe('too_large')
    expect((await http()(`${server.url}/big`, { maxResponseBytes: 4096 })).body.length).toBe(4096)
  })

  it('times out a server that never answers, and one that stalls mid-body', async () => {
    const started = Date.now()
    const silent = await refusal(http()(`${server.url}/silent`, { timeoutMs: 150 }))
    expect(silent.code).toBe('timeout')
    expect(silent.transient).toBe(true)
    // The request was sent: whether the server acted on it is unknown.
    expect(silent.connected).toBe(true)
    const stalled = await refusal(http()(`${server.url}/stall-body`, { timeoutMs: 150 }))
    expect(stalled.code).toBe('timeout')
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('reads an answer that arrived while the process was stopped, rather than calling it a timeout', async () => {
    const response = await http()(`${server.url}/answer-then-stall`, { timeoutMs: DEADLINE_MS })
    expect([response.status, response.json()]).toEqual([200, { ok: true }])
  })

  it('does not follow redirects unless asked, and follows them when asked', async () => {
    hits = []
    const response = await http()(`${server.url}/redirect`)
    expect(response.status).toBe(302)
    expect(hits).toEqual(['/redirect'])
    const followed = await http()(`${server.url}/redirect`, { maxRedirects: 1 })
    expect(followed.status).toBe(200)
    expect(followed.url).toBe(`${server.url}/ok`)
    // Each hop is checked like the first URL: a redirect to plain http is refused.
    expect((await refusal(http()(`${server.url}/redirect-http`, { maxRedirects: 3 }))).code).toBe('invalid_url')
  })

  it('reports a refused connection as a transient network error', async () => {
    const closed = await startLoopbackServer(() => undefined)
    await closed.close()
    const error = await refusal(http()(`${closed.url}/ok`))
    expect(error.code).toBe('network')
    expect(error.transient).toBe(true)
    // Nothing reached a server: a retry cannot duplicate anything.
    expect(error.connected).toBe(false)
  })

  it('tells a connection dropped after the request was sent from one never made', async () => {
    const error = await refusal(http()(`${server.url}/reset`, { method: 'POST', body: '{}' }))
    expect(error.code).toBe('network')
    expect(error.connected).toBe(true)
    const forbidden = await refusal(createHttpClient({ ca: [server.ca] })(`${server.url}/ok`))
    expect(forbidden.connected).toBe(false)
  })

  it('streams a body as it is read, with the length given, never following a redirect it cannot send again', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 7, 0x5a)
    const pieces = async function* () {
      for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536)
    }
    const response = await http()(`${server.url}/echo`, { method: 'POST', body: Readable.from(pieces()), headers: { 'content-length': String(bytes.length) } })
    expect(response.json()).toEqual({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), length: String(bytes.length), chunked: false })
    hits = []
    const redirected = await http()(`${server.url}/redirect`, { method: 'POST', body: Readable.from([Buffer.from('x')]), headers: { 'content-length': '1' }, maxRedirects: 3 })
    expect([redirected.status, hits]).toEqual([302, ['/redirect']])
  })

  it('times out a streamed body that stops moving, well inside its deadline, and lets the stream go', async () => {
    const stalled = new Readable({ read() {} })
    stalled.push(Buffer.alloc(1024))
    const error = await refusal(http()(`${server.url}/echo`, { method: 'POST', body: stalled, headers: { 'content-length': '4096' }, timeoutMs: 60_000, idleTimeoutMs: 150 }))
    expect(error.code).toBe('timeout')
    expect(error.message).toContain('nothing moved')
    expect(stalled.destroyed).toBe(true)
  })

  it('fails the request, as a network error, when its body cannot be read', async () => {
    const broken = new Readable({
      read() {
        this.destroy(new Error('the media store is gone'))
      },
    })
    const error = await refusal(http()(`${server.url}/echo`, { method: 'POST', body: broken, headers: { 'content-length': '10' } }))
    expect(error.code).toBe('network')
    expect(error.message).toContain('the media store is gone')
  })
})
