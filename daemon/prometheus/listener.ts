import http from 'node:http'
import ipaddr from 'ipaddr.js'
import type { Logger } from 'pino'
import { processRegistry, type Prometheus } from './registry.js'

/** Whether an address to listen on is reachable from this machine only. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true
  if (!ipaddr.isValid(host)) return false
  const address = ipaddr.process(host)
  return address.range() === 'loopback'
}

function answer(res: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

/**
 * The metrics listener: `GET /metrics` answers this process's metrics and the daemon's in the
 * Prometheus text format, on plain HTTP and without a key (what Prometheus scrapes), so it is a
 * port of its own, on loopback unless the operator says otherwise, never the API's.
 */
export function metricsServer(prometheus: Prometheus, log: Logger): http.Server {
  const { client, registry } = prometheus
  // Scrapes that arrive while one is being collected share its answer: however many scrape at
  // once, the database answers one round of the gauges' reads at a time.
  let collecting: Promise<string> | undefined
  const collect = () =>
    (collecting ??= client.Registry.merge([processRegistry(client), registry])
      .metrics()
      .finally(() => (collecting = undefined)))
  const server = http.createServer((req, res) => {
    const path = req.url?.split('?', 1)[0]
    if (path !== '/metrics') return answer(res, 404, 'Not found: the metrics are at /metrics.\n')
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, `${req.method} is not allowed on /metrics; use GET.\n`, { allow: 'GET, HEAD' })
    collect().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'content-length': Buffer.byteLength(text) })
        res.end(req.method === 'HEAD' ? undefined : text)
      },
      (error: unknown) => {
        log.error({ err: error }, 'collecting the metrics failed')
        answer(res, 500, 'Collecting the metrics failed; the daemon log says why.\n')
      },
    )
  })
  // A scrape is one short request: a client that dawdles over it holds a socket for nothing.
  server.headersTimeout = 5_000
  server.requestTimeout = 10_000
  return server
}

/** Stops the metrics listener: scrapes being answered get up to `graceMs`, then every connection goes. */
export async function closeMetricsServer(server: http.Server, graceMs = 1_000): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeIdleConnections()
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, graceMs).unref())])
  server.closeAllConnections()
  await closed
}
