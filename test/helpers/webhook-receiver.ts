import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { generate } from 'selfsigned'
import { Webhook } from 'standardwebhooks'

export interface Reply {
  status: number
  headers?: Record<string, string>
  body?: string
}

/** One request the receiver got, and which of its secrets the library's verify accepted it with. */
export interface Received {
  headers: Record<string, string>
  body: string
  /** Indexes into `secrets` of every secret `Webhook.verify` accepted the request with. */
  verifiedWith: number[]
  /** What `verify` returned for the first secret that accepted it (the parsed envelope). */
  payload: any
  /** Why verification failed with each secret, when none accepted it. */
  errors: string[]
}

export interface Receiver {
  url: string
  /** The receiver's self-signed certificate, for the daemon's egress to trust. */
  ca: string
  received: Received[]
  /** The secrets deliveries are verified with. */
  secrets: string[]
  /** How to answer; may return a promise to hold the request open. Default 204. */
  reply: (request: Received) => Reply | Promise<Reply>
  /** Resolves when `count` requests have arrived in total. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>
  /** Requests being answered right now (held by `reply`). */
  readonly open: number
  close(): Promise<void>
}

let certificate: Promise<{ cert: string; key: string }> | undefined
export function loopbackCertificate(): Promise<{ cert: string; key: string }> {
  const notBefore = new Date(Date.now() - 86_400_000 * 365)
  const notAfter = new Date(Date.now() + 86_400_000 * 365 * 5)
  certificate ??= generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: notBefore,
    notAfterDate: notAfter,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  }).then((pems) => ({ cert: pems.cert, key: pems.private }))
  return certificate
}

/**
 * A webhook consumer on loopback HTTPS that checks every delivery the way the Standard Webhooks
 * docs tell receivers to: `new Webhook(secret).verify(body, headers)`, nothing of our own.
 */
export async function startReceiver(secrets: string[] = []): Promise<Receiver> {
  const { cert, key } = await loopbackCertificate()
  const waiters: { count: number; resolve: () => void }[] = []
  let open = 0
  const receiver: Receiver = {
    url: '',
    ca: cert,
    received: [],
    secrets,
    reply: () => ({ status: 204 }),
    waitFor(count, timeoutMs = 10_000) {
      if (receiver.received.length >= count) return Promise.resolve(receiver.received)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the receiver got ${receiver.received.length} requests, not ${count}, within ${timeoutMs} ms`)), timeoutMs)
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(receiver.received)) })
      })
    },
    get open() {
      return open
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  const server = https.createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]))
      const request: Received = { headers, body, verifiedWith: [], payload: undefined, errors: [] }
      receiver.secrets.forEach((secret, index) => {
        try {
          const payload = new Webhook(secret).verify(body, headers)
          request.payload ??= payload
          request.verifiedWith.push(index)
        } catch (error) {
          request.errors.push((error as Error).message)
        }
      })
      receiver.received.push(request)
      for (const waiter of waiters.filter((w) => receiver.received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
      open++
      try {
        const reply = await receiver.reply(request)
        res.writeHead(reply.status, reply.headers).end(reply.body ?? '')
      } finally {
        open--
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return receiver
}
