import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { until } from './helpers/cluster.js'
import { cuttableRelay, freshDatabase } from './helpers/postgres.js'
import { promtool, scrape, valueOf } from './helpers/prometheus.js'

// The store's metrics and readiness on PostgreSQL, whose calls answer later than they return
// (SQLite's are timed as they return: test/metrics.test.ts), behind a relay the test can cut or stall.
let db: Awaited<ReturnType<typeof freshDatabase>>
let relay: Awaited<ReturnType<typeof cuttableRelay>>
let t: TestDaemon

beforeAll(async () => {
  db = await freshDatabase()
  relay = await cuttableRelay(db.url)
  t = await startTestDaemon({ databaseUrl: relay.url, metricsPort: 0, backgroundWorkers: false })
})

afterAll(async () => {
  await t?.stop()
  await relay?.close()
  await db?.drop()
})

const read = async () => {
  const got = await scrape(t.daemon.metricsUrl!)
  expect(got.status).toBe(200)
  return got.text
}

describe('metrics of a daemon on PostgreSQL', () => {
  it('says it runs on PostgreSQL, and times each store call until the database has answered it', async () => {
    const before = await read()
    expect(valueOf(before, 'smm_build_info', { version: '0.1.0', store: 'postgres' })).toBe(1)
    const count = (text: string, le?: string) =>
      valueOf(text, le === undefined ? 'smm_store_operation_duration_seconds_count' : 'smm_store_operation_duration_seconds_bucket', { operation: 'accounts.create', ...(le ? { le } : {}) }) ?? 0
    for (const name of ['One', 'Two', 'Three']) expect((await t.http.post('/v1/accounts', { name }, { key: t.key })).status).toBe(201)
    const after = await read()
    expect(count(after) - count(before)).toBe(3)
    // A transaction on PostgreSQL is several round trips over TCP (through the relay, a second
    // process's worth of copying): never under 100 µs. Timed as the call returned, not as it
    // was answered, each would read a few microseconds.
    expect(count(after, '0.0001') - count(before, '0.0001')).toBe(0)
    expect(valueOf(after, 'smm_store_up')).toBe(1)
    expect(promtool(['check', 'metrics'], { input: after })).toEqual({ code: 0, output: '' })
  })

  it('reads store down, the shared gauges unknown and the failed calls counted while the database is away; then up again', async () => {
    // The request's first store call, the key's lookup, fails: counted under its operation.
    const errors = (text: string) => valueOf(text, 'smm_store_errors_total', { operation: 'apiKeys.authenticate' }) ?? 0
    const before = errors(await read())
    await relay.cut()
    try {
      const away = await read()
      expect(valueOf(away, 'smm_store_up')).toBe(0)
      expect(valueOf(away, 'smm_scheduler_due_posts')).toBeNaN()
      expect(valueOf(away, 'smm_webhook_backlog')).toBeNaN()
      const lost = await t.http.get('/v1/accounts', { key: t.key })
      expect([lost.status, lost.body.code]).toEqual([503, 'store_unavailable'])
      expect(errors(await read())).toBe(before + 1)
    } finally {
      await relay.restore()
    }
    await until('the store to be up again', async () => valueOf(await read(), 'smm_store_up') === 1, 5_000)
    const back = await read()
    expect(valueOf(back, 'smm_scheduler_due_posts')).toBe(0)
    expect(valueOf(back, 'smm_webhook_backlog')).toBeGreaterThanOrEqual(0)
    expect((await t.http.get('/v1/accounts', { key: t.key })).status).toBe(200)
  })

  it('is not ready while the database says nothing: /readyz gives up after a second with 503, and answers 200 once the database does', async () => {
    relay.stall()
    try {
      const ready = await t.http.get('/readyz')
      expect([ready.status, ready.body.code]).toEqual([503, 'store_unavailable'])
      expect(ready.body.detail).toBe('Not ready: the database did not answer (no answer within 1000 ms).')
      expect(valueOf(await read(), 'smm_store_up')).toBe(0)
      expect((await t.http.get('/healthz')).status).toBe(200)
    } finally {
      relay.flow()
    }
    await until('the daemon to be ready again', async () => (await t.http.get('/readyz')).status === 200, 5_000)
    expect(valueOf(await read(), 'smm_store_up')).toBe(1)
  })
})
