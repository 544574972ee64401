import { readFileSync, rmSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { feedAccount, liftLimits } from './helpers/posts.js'
import { freshDatabase } from './helpers/postgres.js'

const MIN = 60_000

describe('smm admin copy --to postgres://…', () => {
  let source: TestDaemon
  let target: Awaited<ReturnType<typeof freshDatabase>>
  let account: string
  let scheduled: string
  let webhook: string
  const dataDir = mkdtempSync(join(tmpdir(), 'smm-copy-'))

  beforeAll(async () => {
    target = await freshDatabase()
    // A SQLite daemon with some history: a key, an account with a sealed connection, a published
    // post and a scheduled one, a webhook and its delivery, rate-limit windows. Its loops run
    // only when ticked: the webhook loop's own poll (every 50 ms) took the last event off the
    // outbox whenever the daemon took that long to stop, as it does on a loaded machine.
    source = await startTestDaemon({ dataDir, allowPrivateNetwork: true, backgroundWorkers: false })
    await liftLimits(source)
    account = await feedAccount(source, 'Moving')
    const at = (ms: number) => new Date(source.clock.now() + ms).toISOString()
    const published = (await source.http.post('/v1/posts', { account_id: account, content: 'Already out', platforms: ['feed'], scheduled_at: at(MIN), thread: [{ content: 'and a second part' }] }, { key: source.key })).body.id
    scheduled = (await source.http.post('/v1/posts', { account_id: account, content: 'Still to come', platforms: ['feed'], scheduled_at: at(60 * MIN) }, { key: source.key })).body.id
    webhook = (await source.http.post('/v1/webhooks', { url: 'https://127.0.0.1:9/smm', events: ['post.published'] }, { key: source.key })).body.id
    source.clock.advance(MIN)
    await source.daemon.scheduler.tick(source.clock.now())
    expect((await source.http.get(`/v1/posts/${published}`, { key: source.key })).body.status).toBe('published')
    // The outbox fanned out to the webhook (its delivery fails: nothing listens there).
    await source.daemon.workers.find((w) => w.name === 'webhook-delivery')!.tick!(source.clock.now())
    // And an event still in the outbox when the daemon stops: an edit of the scheduled post.
    expect((await source.http.put(`/v1/posts/${scheduled}`, { content: 'Still to come, edited' }, { key: source.key })).status).toBe(200)
    await source.daemon.close()
  })

  afterAll(async () => {
    await target.drop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('copies the whole state; the daemon on PostgreSQL goes on where the SQLite one stopped, with the same key and credentials', async () => {
    const copy = await runCli(['admin', 'copy', '--to', target.url, '--data-dir', dataDir, '--json'], { env: process.env })
    expect(copy.code, copy.stderr).toBe(0)
    const result = JSON.parse(copy.stdout)
    expect(result.to).not.toContain(new URL(target.url).password)
    expect(result.rows).toMatchObject({ users: 1, api_keys: 1, accounts: 1, connections: 1, posts: 2, post_targets: 2, post_target_parts: 2, webhooks: 1, feed_items: 2 })
    expect(result.rows.events).toBeGreaterThan(0)
    expect(result.rows.webhook_deliveries).toBeGreaterThan(0)
    // What was dispatched on SQLite is dispatched on PostgreSQL, and only that: no webhook gets an
    // event twice, none misses one.
    const sqlite = new Database(join(dataDir, 'smm.db'), { readonly: true })
    const waiting = sqlite.prepare("SELECT e.type FROM outbox o JOIN events e ON e.id = o.event_id").pluck().all()
    sqlite.close()
    expect(waiting).toEqual(['post.updated'])
    const pg = postgres(target.url, { max: 1, onnotice: () => undefined })
    try {
      expect((await pg`SELECT type FROM events WHERE dispatched_at IS NULL`).map((r) => r.type)).toEqual(waiting)
      expect((await pg`SELECT count(*)::int AS n FROM events WHERE dispatched_at IS NOT NULL`)[0]!.n).toBe(result.rows.events - 1)
    } finally {
      await pg.end()
    }

    // Same secret key, now from the environment, as every node on the database will have it.
    const secret = readFileSync(join(dataDir, 'secret.key')).toString('base64')
    const moved = await startTestDaemon({ dataDir: mkdtempSync(join(tmpdir(), 'smm-moved-')), databaseUrl: target.url, secretKey: secret, clock: source.clock, backgroundWorkers: false })
    try {
      expect((await moved.http.get('/v1/me', { key: source.key })).status).toBe(200)
      const posts = (await moved.http.get(`/v1/posts?account_id=${account}&order=asc`, { key: source.key })).body.data
      expect(posts.map((p: { status: string }) => p.status)).toEqual(['published', 'scheduled'])
      // The parts out came along: a retry on PostgreSQL would not send them again.
      expect(posts[0].thread).toEqual([{ content: 'and a second part', media_urls: [] }])
      expect(posts[0].targets[0].parts.map((p: { index: number; kind: string }) => [p.index, p.kind])).toEqual([[0, 'post'], [1, 'thread']])
      expect((await moved.http.get(`/v1/webhooks/${webhook}`, { key: source.key })).body.url).toBe('https://127.0.0.1:9/smm')
      // The sealed feed credentials open with the same key: the scheduled post publishes.
      moved.clock.advance(60 * MIN)
      await moved.daemon.scheduler.tick(moved.clock.now())
      expect((await moved.http.get(`/v1/posts/${scheduled}`, { key: source.key })).body).toMatchObject({ status: 'published', targets: [{ status: 'published' }] })

      const again = await runCli(['admin', 'copy', '--to', target.url, '--data-dir', dataDir], { env: process.env })
      expect(again.code).toBe(5)
      expect(again.stderr).toContain('already holds data (its users table is not empty); smm copies only into an empty database')
    } finally {
      await moved.stop()
    }
  })

  it('refuses while a daemon runs on the data dir, and names an unreachable database without its password', async () => {
    const running = await startTestDaemon({ dataDir })
    try {
      const busy = await runCli(['admin', 'copy', '--to', target.url, '--data-dir', dataDir], { env: process.env })
      expect(busy.code).toBe(5)
      expect(busy.stderr).toContain(`The data dir ${dataDir} is in use by smm daemon pid ${process.pid}`)
      expect(busy.stderr).toContain('Stop it before copying')
    } finally {
      await running.daemon.close()
    }
    const gone = await runCli(['admin', 'copy', '--to', 'postgres://smm:hunter2-secret@127.0.0.1:1/smm', '--data-dir', dataDir], { env: process.env })
    expect(gone.code).toBe(1)
    expect(gone.stderr).toContain('Cannot use the database postgres://smm@127.0.0.1:1/smm: connection refused')
    expect(gone.stderr).not.toContain('hunter2-secret')
  })
})
