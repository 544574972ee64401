import { X509Certificate } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateApiKey } from '../src/api-key.js'
import { sql, startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { loopbackPlatform, startLoopbackServer, type LoopbackServer } from './helpers/loopback-platform.js'
import { feedAccount, liftLimits } from './helpers/posts.js'
import { families, promtool, samples, scrape, valueOf } from './helpers/prometheus.js'
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js'

const DEPLOY = fileURLToPath(new URL('../deploy/', import.meta.url))
const iso = (ms: number) => new Date(ms).toISOString()

describe('metrics off, as by default', () => {
  let t: TestDaemon
  beforeAll(async () => {
    t = await startTestDaemon()
  })
  afterAll(() => t.stop())

  it('serves no metrics, and /metrics on the API port is the API’s 404, with a key or without', async () => {
    expect(t.daemon.metricsUrl).toBeUndefined()
    for (const key of [undefined, t.key]) {
      const res = await t.http.get('/metrics', key ? { key } : {})
      expect(res.status).toBe(404)
      expect(res.body).toMatchObject({ code: 'not_found' })
    }
  })
})

describe('metrics on --metrics-port', () => {
  let t: TestDaemon
  let loop: LoopbackServer
  let receiver: Receiver
  let metrics: string
  const read = async () => {
    const got = await scrape(metrics)
    expect(got.status).toBe(200)
    return got.text
  }
  const delta = async (change: () => Promise<unknown>, name: string, labels: Record<string, string> = {}) => {
    const before = valueOf(await read(), name, labels) ?? 0
    await change()
    return (valueOf(await read(), name, labels) ?? 0) - before
  }

  beforeAll(async () => {
    loop = await startLoopbackServer()
    receiver = await startReceiver()
    t = await startTestDaemon({
      metricsPort: 0,
      allowPrivateNetwork: true,
      backgroundWorkers: false,
      authFailuresPerMinute: 5,
      egress: { ca: [loop.ca, receiver.ca] },
      overrides: { platforms: [loopbackPlatform('discord', { idempotent: false })] },
    })
    metrics = t.daemon.metricsUrl!
    await liftLimits(t)
  })
  afterAll(async () => {
    await t.stop()
    await loop.close()
    await receiver.close()
  })

  it('answers GET and HEAD /metrics in the Prometheus text format, over plain HTTP on loopback; nothing else', async () => {
    expect(metrics).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
    const got = await scrape(metrics)
    expect(got.status).toBe(200)
    expect(got.contentType).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(valueOf(got.text, 'smm_build_info', { version: '0.1.0', store: process.env.SMM_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite' })).toBe(1)
    // Node's process metrics: CPU, memory, heap, event-loop lag, descriptors.
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds', 'process_open_fds']) {
      expect(families(got.text)).toContain(name)
    }
    expect(await scrape(metrics, 'HEAD')).toMatchObject({ status: 200, text: '' })
    expect(await scrape(metrics, 'POST')).toMatchObject({ status: 405 })
    expect(await scrape(metrics.replace('/metrics', '/v1/me'))).toMatchObject({ status: 404 })
  })

  it('counts requests by route pattern: ids, keys and 2,000 unknown paths never become label values', async () => {
    const me = { method: 'GET', route: '/v1/me', status: '200' }
    expect(await delta(() => Promise.all([1, 2, 3].map(() => t.http.get('/v1/me', { key: t.key }))), 'smm_http_requests_total', me)).toBe(3)
    // A route's own 404, and a 401 before routing: both under the pattern, never the id.
    const post = { method: 'GET', route: '/v1/posts/:id' }
    expect(await delta(() => t.http.get('/v1/posts/pst_01JZZZZZZZZZZZZZZZZZZZZZZZ', { key: t.key }), 'smm_http_requests_total', { ...post, status: '404' })).toBe(1)
    const stranger = generateApiKey()
    expect(await delta(() => t.http.get('/v1/posts/pst_01JYYYYYYYYYYYYYYYYYYYYYYY', { key: stranger }), 'smm_http_requests_total', { ...post, status: '401' })).toBe(1)

    const routes = (text: string) => new Set(samples(text).flatMap((s) => (s.name === 'smm_http_requests_total' ? [s.labels.route] : [])))
    const before = routes(await read())
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' }
    const counted = await delta(
      async () => {
        for (let i = 0; i < 2_000; i += 100) {
          const batch = Array.from({ length: 100 }, (_, j) => t.http.get(`/v1/nowhere-${i + j}/${'x'.repeat(j)}`, { key: t.key }))
          for (const res of await Promise.all(batch)) expect(res.status).toBe(404)
        }
      },
      'smm_http_requests_total',
      unmatched,
    )
    expect(counted).toBe(2_000)
    const text = await read()
    expect(routes(text)).toEqual(new Set([...before, 'unmatched']))
    expect(text).not.toContain('nowhere-')
    expect(text).not.toContain('pst_01J')
    expect(text).not.toContain(stranger)
    expect(text).not.toContain(t.key)
    expect(valueOf(text, 'smm_http_request_duration_seconds_count', { method: 'GET', route: '/v1/me' })).toBeGreaterThanOrEqual(3)
  })

  it('counts authentication failures by reason, and requests refused by a key’s limit or an address’s failures', async () => {
    const failures = (reason: string) => ['smm_auth_failures_total', { reason }] as const
    expect(await delta(() => t.http.get('/v1/me'), ...failures('missing'))).toBe(1)
    expect(await delta(() => t.http.get('/v1/me', { key: 'not-a-key' }), ...failures('malformed'))).toBe(1)
    expect(await delta(() => t.http.get('/v1/me', { key: generateApiKey() }), ...failures('unknown'))).toBe(1)
    const made = await t.http.post('/v1/api-keys', { name: 'soon revoked', scopes: ['posts:read'] }, { key: t.key })
    expect((await t.http.delete(`/v1/api-keys/${made.body.id}`, { key: t.key })).status).toBe(204)
    expect(await delta(() => t.http.get('/v1/me', { key: made.body.secret }), ...failures('revoked'))).toBe(1)
    // Five failures this minute from this address (one in the test before) lock it out.
    const lockedOut = await delta(async () => expect((await t.http.get('/v1/me', { key: generateApiKey() })).status).toBe(429), 'smm_rate_limited_total', { limit: 'auth_failures' })
    expect(lockedOut).toBe(1)
    t.clock.advance(61_000)

    const user = await t.daemon.store.users.create({ name: 'limited', plan: 'enterprise' }, t.clock.now())
    await t.daemon.store.users.setPlan(user.id, 'enterprise', { per_minute: 2, per_hour: 100, per_day: 100 })
    const key = (await t.daemon.store.apiKeys.create(user.id, { name: 'limited', scopes: ['posts:read'] }, t.clock.now(), null)).secret
    const statuses: number[] = []
    const refused = await delta(async () => {
      for (let i = 0; i < 3; i++) statuses.push((await t.http.get('/v1/posts', { key })).status)
    }, 'smm_rate_limited_total', { limit: 'key' })
    expect(statuses).toEqual([200, 200, 429])
    expect(refused).toBe(1)
  })

  it('counts posts published and failed by platform and reason, how late each attempt started, and the posts due meanwhile', async () => {
    const account = await feedAccount(t, 'Counted')
    await t.http.post(`/v1/accounts/${account}/connections`, { platform: 'discord', credentials: { webhook_url: loop.url } }, { key: t.key })
    loop.reply({ status: 400, body: { message: 'no' } })
    const at = t.clock.now() + 60_000
    for (const platforms of [['feed'], ['feed', 'discord']]) {
      const res = await t.http.post('/v1/posts', { account_id: account, content: `due at ${iso(at)}`, scheduled_at: iso(at), platforms }, { key: t.key })
      expect(res.status).toBe(201)
    }
    const before = await read()
    expect(valueOf(before, 'smm_scheduler_due_posts')).toBe(0)
    // Two seconds late.
    t.clock.set(at + 2_000)
    const due = await read()
    expect(valueOf(due, 'smm_scheduler_due_posts')).toBe(2)
    await t.daemon.scheduler.tick(t.clock.now())
    const after = await read()
    const change = (name: string, labels: Record<string, string> = {}) => (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0)
    expect(valueOf(after, 'smm_scheduler_due_posts')).toBe(0)
    expect(change('smm_posts_published_total', { platform: 'feed' })).toBe(2)
    expect(change('smm_posts_failed_total', { platform: 'discord', reason: 'permanent' })).toBe(1)
    expect(samples(after).filter((s) => s.name === 'smm_posts_failed_total' && s.value > 0)).toHaveLength(1)
    expect(change('smm_publish_lateness_seconds_count')).toBe(3)
    expect(change('smm_publish_lateness_seconds_sum')).toBeCloseTo(6, 6)
    expect(change('smm_publish_lateness_seconds_bucket', { le: '1' })).toBe(0)
    expect(change('smm_publish_lateness_seconds_bucket', { le: '2.5' })).toBe(3)
    expect(valueOf(after, 'smm_publish_attempts_in_flight')).toBe(0)
    loop.reply({ status: 200 })
  })

  it('counts the publish attempts under way while a platform takes its time to answer', async () => {
    const account = await feedAccount(t, 'Slow platform')
    await t.http.post(`/v1/accounts/${account}/connections`, { platform: 'discord', credentials: { webhook_url: loop.url } }, { key: t.key })
    const at = t.clock.now() + 60_000
    const res = await t.http.post('/v1/posts', { account_id: account, content: 'answered slowly', scheduled_at: iso(at), platforms: ['discord'] }, { key: t.key })
    expect(res.status).toBe(201)
    t.clock.set(at)
    loop.reply({ status: 200, delayMs: 400 })
    const received = loop.received.length
    const tick = t.daemon.scheduler.tick(t.clock.now())
    try {
      while (loop.received.length === received) await new Promise((resolve) => setImmediate(resolve))
      expect(valueOf(await read(), 'smm_publish_attempts_in_flight')).toBe(1)
    } finally {
      await tick
      loop.reply({ status: 200 })
    }
    const after = await read()
    expect(valueOf(after, 'smm_publish_attempts_in_flight')).toBe(0)
    expect(valueOf(after, 'smm_posts_published_total', { platform: 'discord' })).toBeGreaterThanOrEqual(1)
  })

  it('counts webhook deliveries by outcome, and the backlog while they wait', async () => {
    const tick = () => t.daemon.workers.find((w) => w.name === 'webhook-delivery')!.tick!(t.clock.now())
    const account = (await t.http.post('/v1/accounts', { name: 'Hooked' }, { key: t.key })).body.id
    const hook = await t.http.post('/v1/webhooks', { url: receiver.url, events: ['account.updated'] }, { key: t.key })
    expect(hook.status).toBe(201)
    await tick()
    const base = valueOf(await read(), 'smm_webhook_backlog')!
    expect((await t.http.patch(`/v1/accounts/${account}`, { name: 'Hooked again' }, { key: t.key })).status).toBe(200)
    expect(valueOf(await read(), 'smm_webhook_backlog')).toBe(base + 1)
    receiver.reply = () => ({ status: 503 })
    expect(await delta(tick, 'smm_webhook_deliveries_total', { outcome: 'retrying' })).toBe(1)
    // Waiting for its retry: not due yet.
    expect(valueOf(await read(), 'smm_webhook_backlog')).toBe(base)
    t.clock.advance(10_000)
    expect(valueOf(await read(), 'smm_webhook_backlog')).toBe(base + 1)
    receiver.reply = () => ({ status: 204 })
    expect(await delta(tick, 'smm_webhook_deliveries_total', { outcome: 'delivered' })).toBe(1)
    expect(valueOf(await read(), 'smm_webhook_backlog')).toBe(base)
  })

  it('says in their help that the posts due and the webhook backlog are of the database every node shares', async () => {
    const text = await read()
    for (const name of ['smm_scheduler_due_posts', 'smm_webhook_backlog']) {
      expect(new RegExp(`^# HELP ${name} .*in the database all nodes share \\(every node reports the same figure\\)`, 'm').test(text)).toBe(true)
    }
  })

  it('times every store operation; a store that stops answering reads 0 up, NaN posts due, and counts its errors, then recovers', async () => {
    const text = await read()
    expect(valueOf(text, 'smm_store_up')).toBe(1)
    expect(valueOf(text, 'smm_store_operation_duration_seconds_count', { operation: 'apiKeys.authenticate' })).toBeGreaterThan(0)
    expect(valueOf(text, 'smm_store_operation_duration_seconds_count', { operation: 'posts.create' })).toBeGreaterThan(0)
    if (process.env.SMM_TEST_STORE === 'postgres') return
    // The database breaks underneath the daemon: the table of posts is gone.
    sql(t).exec('ALTER TABLE posts RENAME TO posts_away')
    try {
      const broken = await read()
      expect(valueOf(broken, 'smm_store_up')).toBe(0)
      expect(valueOf(broken, 'smm_scheduler_due_posts')).toBeNaN()
      // What does not need that table still reads.
      expect(valueOf(broken, 'smm_webhook_backlog')).toBeGreaterThanOrEqual(0)
      // The failed reads are counted as they fail, so the next scrape shows them.
      expect(valueOf(await read(), 'smm_store_errors_total', { operation: 'publishing.dueCount' })).toBeGreaterThanOrEqual(1)
    } finally {
      sql(t).exec('ALTER TABLE posts_away RENAME TO posts')
    }
    const back = await read()
    expect(valueOf(back, 'smm_store_up')).toBe(1)
    expect(valueOf(back, 'smm_scheduler_due_posts')).toBe(0)
  })

  it('reports when the certificate it serves expires', async () => {
    const expires = Date.parse(new X509Certificate(t.ca).validTo) / 1000
    expect(valueOf(await read(), 'smm_tls_certificate_expiry_timestamp_seconds')).toBe(expires)
  })

  it('passes promtool check metrics after all of that, with no id, key, secret or path in any label', async () => {
    const text = await read()
    const checked = promtool(['check', 'metrics'], { input: text })
    expect(checked.output).toBe('')
    expect(checked.code).toBe(0)
    const routes = new Set(samples(text).flatMap((s) => (s.labels.route ? [s.labels.route] : [])))
    for (const route of routes) expect(route === 'unmatched' || /^\/[\w/:.\\-]*$/.test(route)).toBe(true)
    for (const s of samples(text)) {
      for (const value of Object.values(s.labels)) expect(value).not.toMatch(/(usr|key|acc|pst|whk|msg|req)_[0-9A-Z]{10}|smm_[0-9A-Za-z]{36}|https?:/)
    }
  })

  it('ships alert rules that promtool accepts and whose own unit tests pass, reading only metrics the daemon exports', async () => {
    const rules = join(DEPLOY, 'prometheus', 'smm-alerts.yml')
    expect(promtool(['check', 'rules', rules])).toMatchObject({ code: 0 })
    const tested = promtool(['test', 'rules', 'smm-alerts.test.yml'], { cwd: join(DEPLOY, 'prometheus') })
    expect(tested.output).toContain('SUCCESS')
    expect(tested.code).toBe(0)
    expect(promtool(['check', 'config', join(DEPLOY, 'prometheus', 'prometheus.yml')])).toMatchObject({ code: 0 })
    const exported = families(await read())
    for (const name of metricNames(readFileSync(rules, 'utf8'))) expect(exported).toContain(name)
  })

  it('ships a Grafana dashboard whose every query parses and reads only metrics the daemon exports, each panel described', async () => {
    const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana', 'smm-dashboard.json'), 'utf8'))
    const panels = (dashboard.panels as any[]).filter((p) => p.type !== 'row')
    expect(panels.length).toBeGreaterThanOrEqual(15)
    const exprs: string[] = []
    for (const panel of panels) {
      expect(panel.title).toBeTruthy()
      expect(panel.description?.length).toBeGreaterThan(20)
      expect(panel.targets.length).toBeGreaterThan(0)
      exprs.push(...panel.targets.map((target: { expr: string }) => target.expr))
    }
    // Grafana's variables as Prometheus would see them, each query as a recording rule for promtool to parse.
    const concrete = exprs.map((e) => e.replaceAll('$__rate_interval', '1m').replaceAll('$job', 'smm').replaceAll('$instance', '.+'))
    const dir = mkdtempSync(join(tmpdir(), 'smm-dashboard-'))
    try {
      const file = join(dir, 'queries.yml')
      writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${concrete.map((e, i) => `      - record: dashboard:query${i}\n        expr: ${JSON.stringify(e)}\n`).join('')}`)
      const checked = promtool(['check', 'rules', file])
      expect(checked.output).toContain(`SUCCESS: ${exprs.length} rules found`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    const exported = families(await read())
    for (const name of metricNames(exprs.join('\n'))) expect(exported).toContain(name)
  })
})

/** The metric families an expression or a rule file reads (a histogram's _bucket, _sum and _count are its family). */
function metricNames(text: string): Set<string> {
  const names = new Set<string>()
  for (const [name] of text.matchAll(/\b(smm|process|nodejs)_[a-z0-9_]+/g)) names.add(name.replace(/_(bucket|sum|count)$/, ''))
  return names
}

describe('metrics, bad input', () => {
  it('refuses to start on a metrics port that is taken, naming it, and leaves the data dir free', async () => {
    const blocker = net.createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()))
    const port = (blocker.address() as net.AddressInfo).port
    const dataDir = mkdtempSync(join(tmpdir(), 'smm-metrics-busy-'))
    try {
      await expect(startTestDaemon({ dataDir, metricsPort: port })).rejects.toThrow(`--metrics-port ${port}: 127.0.0.1:${port} is already in use`)
      await expect(startTestDaemon({ dataDir, metricsPort: 8443, port: 8443 })).rejects.toThrow("--metrics-port 8443 is the API's --port")
      // Nothing held: the same data dir starts, and its first start still shows its key.
      const t = await startTestDaemon({ dataDir })
      expect(t.key).toMatch(/^smm_/)
      await t.stop()
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()))
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('serves the metrics on 0.0.0.0 when told to, warning that they are unauthenticated there; not on loopback', async () => {
    const open = await startTestDaemon({ metricsPort: 0, metricsHost: '0.0.0.0' })
    const closed = await startTestDaemon({ metricsPort: 0 })
    try {
      const warnings = (t: TestDaemon) => t.logs.map((l) => JSON.parse(l)).filter((l) => l.level === 40 && /without authentication/.test(l.msg))
      expect(warnings(open)).toHaveLength(1)
      expect(warnings(open)[0].msg).toContain('0.0.0.0')
      expect(warnings(closed)).toHaveLength(0)
      expect((await scrape(open.daemon.metricsUrl!.replace('localhost', '127.0.0.1'))).status).toBe(200)
    } finally {
      await open.stop()
      await closed.stop()
    }
  })

  it('answers scrapes during shutdown or refuses them, and stops all the same', async () => {
    const t = await startTestDaemon({ metricsPort: 0 })
    const url = t.daemon.metricsUrl!
    let stopping = true
    const outcomes: string[] = []
    const scraper = (async () => {
      while (stopping) {
        outcomes.push(await scrape(url).then((r) => String(r.status), (error: NodeJS.ErrnoException) => error.code ?? error.message))
      }
    })()
    while (outcomes.length < 3) await new Promise((resolve) => setImmediate(resolve))
    await t.stop()
    stopping = false
    await scraper
    expect(outcomes.slice(0, 3)).toEqual(['200', '200', '200'])
    // Each later scrape was answered in full, or its connection refused or cut: nothing else.
    for (const outcome of outcomes) expect(['200', 'ECONNREFUSED', 'ECONNRESET', 'socket hang up']).toContain(outcome)
    await expect(scrape(url)).rejects.toMatchObject({ code: 'ECONNREFUSED' })
  })
})
