// Webhook delivery throughput and latency against a local HTTPS receiver, through the real
// daemon (outbox → fan-out → leased, signed delivery over the egress client).
// Standalone: node --import tsx bench/webhooks.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import pino from 'pino'
import { generate } from 'selfsigned'
import { startDaemon } from '../daemon/main.js'
import { openSqliteStore } from '../daemon/store/sqlite/index.js'
import { httpsClient } from '../test/helpers/http.js'

const THROUGHPUT_EVENTS = 500
const THROUGHPUT_ENDPOINTS = 4
const LATENCY_EVENTS = 200
const LATENCY_SPACING_MS = 10

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function receiver(): Promise<{ url: string; ca: string; arrivals: Map<string, number[]>; close(): Promise<void>; waitFor(n: number): Promise<void> }> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  })
  const arrivals = new Map<string, number[]>()
  let count = 0
  let waiter: { n: number; resolve: () => void } | undefined
  const server = https.createServer({ cert: pems.cert, key: pems.private }, (req, res) => {
    req.resume()
    req.on('end', () => {
      const id = String(req.headers['webhook-id'])
      arrivals.set(id, [...(arrivals.get(id) ?? []), Date.now()])
      res.writeHead(204).end()
      if (++count >= (waiter?.n ?? Infinity)) waiter!.resolve()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ca: pems.cert,
    arrivals,
    waitFor: (n) => (count >= n ? Promise.resolve() : new Promise((resolve) => (waiter = { n, resolve }))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

export async function benchWebhooks(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'smm-bench-webhooks-'))
  const sink = await receiver()
  const daemon = await startDaemon(
    { dataDir, host: '127.0.0.1', port: 0, allowPrivateNetwork: true, shutdownGraceMs: 1_000 },
    { log: pino({ level: 'silent' }), egress: { ca: [sink.ca] } },
  )
  try {
    const key = daemon.firstStart!.secret
    const owner = daemon.firstStart!.userId
    const api = httpsClient(daemon.url, readFileSync(daemon.tls!.certPath, 'utf8'))
    // Events are written through a second SQLite store on the daemon's file, so that a burst is
    // one transaction; the daemon's delivery loop picks them up as it would its own.
    const seed = openSqliteStore(daemon.databaseFile)
    const { events, db } = seed

    // Throughput: a burst of post.published events, each to several endpoints on one receiver.
    const hooks: string[] = []
    for (let i = 0; i < THROUGHPUT_ENDPOINTS; i++) {
      const res = await api.post('/v1/webhooks', { url: `${sink.url}/t${i}`, events: ['post.published'] }, { key })
      hooks.push(res.body.id)
    }
    const burstStart = Date.now()
    db.transaction(() => {
      for (let i = 0; i < THROUGHPUT_EVENTS; i++) events.appendSync(owner, 'post.published', { post: { id: `pst_${i}`, content: 'x'.repeat(200) } }, Date.now(), null)
    })()
    const deliveries = THROUGHPUT_EVENTS * THROUGHPUT_ENDPOINTS
    await sink.waitFor(deliveries)
    const burstSeconds = (Date.now() - burstStart) / 1000
    for (const id of hooks) await api.patch(`/v1/webhooks/${id}`, { enabled: false }, { key })

    // Latency: events spaced out, one endpoint, from the outbox write to the receiver's arrival.
    await api.post('/v1/webhooks', { url: `${sink.url}/latency`, events: ['post.target.published'] }, { key })
    sink.arrivals.clear()
    const created = new Map<string, number>()
    for (let i = 0; i < LATENCY_EVENTS; i++) {
      const event = events.appendSync(owner, 'post.target.published', { post: { id: `pst_l${i}` } }, Date.now(), null)
      created.set(event.id, event.createdAt)
      await new Promise((resolve) => setTimeout(resolve, LATENCY_SPACING_MS))
    }
    await sink.waitFor(deliveries + LATENCY_EVENTS)
    await seed.close()
    const latencies = [...created].map(([id, at]) => sink.arrivals.get(id)![0]! - at).sort((a, b) => a - b)
    api.close()
    return {
      webhook_burst_deliveries: deliveries,
      webhook_endpoints: THROUGHPUT_ENDPOINTS,
      webhook_deliveries_per_second: Math.round(deliveries / burstSeconds),
      webhook_latency_events: LATENCY_EVENTS,
      webhook_latency_p50_ms: percentile(latencies, 50),
      webhook_latency_p99_ms: percentile(latencies, 99),
      webhook_latency_note: 'outbox append to arrival at the receiver; the loop polls the outbox every 50 ms when idle',
    }
  } finally {
    await daemon.close()
    await sink.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await benchWebhooks())
}
