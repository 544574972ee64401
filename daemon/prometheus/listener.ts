import ipaddr from 'ipaddr.js'
import type { Logger } from 'pino'
import { startWorker } from '../heap.js'
import { listenFailure } from '../listener.js'
import { processRegistry, type Prometheus } from './registry.js'

/** Whether an address to listen on is reachable from this machine only. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true
  if (!ipaddr.isValid(host)) return false
  const address = ipaddr.process(host)
  return address.range() === 'loopback'
}

// The listener's thread: plain HTTP, GET (or HEAD) /metrics and nothing else; each scrape asks
// the daemon's thread for the text (`{ scrape: id }`) and answers what comes back.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads')
const http = require('node:http')
const answer = (res, status, text, headers = {}) => {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}
const waiting = new Map()
let next = 0
const server = http.createServer((req, res) => {
  const path = req.url.split('?', 1)[0]
  if (path !== '/metrics') return answer(res, 404, 'Not found: the metrics are at /metrics.\\n')
  if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, req.method + ' is not allowed on /metrics; use GET.\\n', { allow: 'GET, HEAD' })
  const id = next++
  waiting.set(id, (m) => {
    if (m.text === undefined) return answer(res, 500, 'Collecting the metrics failed; the daemon log says why.\\n')
    res.writeHead(200, { 'content-type': m.contentType, 'content-length': Buffer.byteLength(m.text) })
    res.end(req.method === 'HEAD' ? undefined : m.text)
  })
  parentPort.postMessage({ scrape: id })
})
// A scrape is one short request: a client that dawdles over it holds a socket for nothing.
server.headersTimeout = 5000
server.requestTimeout = 10000
server.once('error', (error) => parentPort.postMessage({ failed: { code: error.code, message: error.message } }))
server.listen(workerData.port, workerData.host, () => {
  server.removeAllListeners('error')
  parentPort.postMessage({ listening: server.address().port })
})
parentPort.on('message', (m) => {
  if (m.id !== undefined) {
    const respond = waiting.get(m.id)
    waiting.delete(m.id)
    if (respond) respond(m)
    return
  }
  // Closing: scrapes being answered get up to graceMs, then every connection goes.
  server.close(() => parentPort.postMessage({ closed: true }))
  server.closeIdleConnections()
  setTimeout(() => server.closeAllConnections(), m.graceMs).unref()
})
`

/** The metrics listener, running: where it listens, and how to stop it. */
export interface MetricsListener {
  port: number
  /** Stops it: scrapes being answered get up to `graceMs`, then every connection goes. */
  close(graceMs?: number): Promise<void>
}

/**
 * The metrics listener: `GET /metrics` answers this process's metrics and the daemon's in the
 * Prometheus text format, on plain HTTP and without a key (what Prometheus scrapes), so it is a
 * port of its own, on loopback unless the operator says otherwise, never the API's.
 *
 * Its HTTP server runs on a thread of its own. On the daemon's thread, a plain-HTTP server beside
 * the API's HTTPS one had Node's HTTP code (the parser's callbacks, the response's writes)
 * handle two kinds of socket and server, and V8 compiled it for both: with a scrape a second,
 * each API request cost about 2 % more CPU, measured, than with none. The daemon's thread only
 * collects the text (the registry lives there) and posts it across.
 */
export function startMetricsListener(prometheus: Prometheus, log: Logger, host: string, port: number): Promise<MetricsListener> {
  const { client, registry } = prometheus
  // Scrapes that arrive while one is being collected share its answer: however many scrape at
  // once, the database answers one round of the gauges' reads at a time.
  let collecting: Promise<string> | undefined
  const collect = () =>
    (collecting ??= client.Registry.merge([processRegistry(client), registry])
      .metrics()
      .finally(() => (collecting = undefined)))
  // Through startWorker: making its isolate sets one of the daemon's heap settings back (daemon/heap.ts).
  const thread = startWorker(THREAD, { workerData: { host, port } })
  const exited = new Promise<void>((done) => thread.once('exit', () => done()))
  let closed: Promise<void> | undefined
  return new Promise((resolve, reject) => {
    const stop = (graceMs = 1_000) =>
      (closed ??= (async () => {
        thread.on('message', (m: { closed?: boolean }) => m.closed && void thread.terminate())
        thread.postMessage({ graceMs })
        await exited
      })())
    thread.on('error', (error) => {
      log.error({ err: error }, 'the metrics listener failed')
      reject(error)
    })
    thread.on('message', (m: { scrape?: number; listening?: number; failed?: { code?: string; message: string } }) => {
      if (m.scrape !== undefined) {
        const id = m.scrape
        collect().then(
          (text) => thread.postMessage({ id, text, contentType: registry.contentType }),
          (error: unknown) => {
            log.error({ err: error }, 'collecting the metrics failed')
            thread.postMessage({ id })
          },
        )
      } else if (m.listening !== undefined) {
        resolve({ port: m.listening, close: stop })
      } else if (m.failed) {
        void thread.terminate()
        reject(listenFailure(Object.assign(new Error(m.failed.message), { code: m.failed.code }), host, port, '--metrics-port'))
      }
    })
  })
}
