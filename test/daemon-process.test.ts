import https from 'node:https'
import net from 'node:net'
import tls from 'node:tls'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli.js'
import { exited, startProcess } from './helpers/smm-process.js'
import { httpsClient } from './helpers/http.js'
import { scrape, valueOf } from './helpers/prometheus.js'
import { VERSION } from '../src/config.js'


let dataDir: string
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'smm-proc-'))
})
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('smm daemon as a process', () => {
  it('prints the key, a login line and a curl line once; drains and exits 0 on SIGTERM', async () => {
    const { child, banner, url } = await startProcess(dataDir)
    const key = /\n {2}(smm_[0-9A-Za-z]{36})\n/.exec(banner)?.[1]
    expect(key).toBeDefined()
    expect(banner).toContain(`smm login --url ${url} --ca ${join(dataDir, 'tls-cert.pem')}`)
    expect(banner).toContain(`curl --cacert ${join(dataDir, 'tls-cert.pem')} -H 'Authorization: Bearer ${key}' ${url}/v1/me`)
    expect(banner).toMatch(/SHA-256 fingerprint: ([0-9A-F]{2}:){31}[0-9A-F]{2}/)

    const http = httpsClient(url, readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8'))
    expect((await http.get('/v1/me', { key })).status).toBe(200)
    http.close()
    child.kill('SIGTERM')
    expect(await exited(child)).toBe(0)

    const second = await startProcess(dataDir)
    expect(second.banner).not.toContain('smm_')
    expect(second.banner).toContain('SHA-256 fingerprint')
    second.child.kill('SIGINT')
    expect(await exited(second.child)).toBe(0)
  })

  it('refuses a second daemon on a data dir a running one holds, naming it; admin works beside it; a killed holder leaves no stale lock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-lock-'))
    const first = await startProcess(dir)
    const second = await runCli(['daemon', '--port', '0', '--data-dir', dir], { env: process.env })
    expect(second.code).toBe(1)
    expect(second.stderr).toContain(`The data dir ${dir} is in use by smm daemon pid ${first.child.pid}`)
    expect(second.stderr).toContain('--data-dir')
    const admin = await runCli(['admin', 'users', 'list', '--json'], { env: { ...process.env, SMM_DATA_DIR: dir } })
    expect(admin.code).toBe(0)

    first.child.kill('SIGKILL')
    await exited(first.child)
    const again = await startProcess(dir)
    again.child.kill('SIGTERM')
    expect(await exited(again.child)).toBe(0)
    rmSync(dir, { recursive: true, force: true })
  })

  it('links what it publishes under --public-url, and refuses one that is not a URL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-public-'))
    const bad = await runCli(['daemon', '--port', '0', '--data-dir', dir, '--public-url', 'smm.example.com'], { env: process.env })
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('--public-url must be an absolute http(s) URL')

    const { child, banner, url } = await startProcess(dir, ['--public-url', 'https://smm.example.com/social/'])
    const key = /\n {2}(smm_[0-9A-Za-z]{36})\n/.exec(banner)![1]!
    const http = httpsClient(url, readFileSync(join(dir, 'tls-cert.pem'), 'utf8'))
    const account = (await http.post('/v1/accounts', { name: 'Public' }, { key })).body.id
    await http.post(`/v1/accounts/${account}/connections`, { platform: 'feed' }, { key })
    const post = (await http.post('/v1/posts', { account_id: account, content: 'Now', platforms: ['feed'] }, { key })).body.id
    // Published by the scheduler on its own (real clock): wait for it, briefly.
    let target: any
    for (let i = 0; i < 100 && target?.status !== 'published'; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 50))
      target = (await http.get(`/v1/posts/${post}`, { key })).body.targets[0]
    }
    expect(target).toMatchObject({ status: 'published', url: `https://smm.example.com/social/feeds/${account}.html#${post}` })
    http.close()
    child.kill('SIGTERM')
    expect(await exited(child)).toBe(0)
    rmSync(dir, { recursive: true, force: true })
  })

  it('loads no part of prom-client without --metrics-port; with it, says where its metrics are and serves them', async () => {
    const trace = join(dataDir, 'modules.txt')
    const env = { ...process.env, SMM_TRACE_MODULES: trace, NODE_OPTIONS: `--import ${join(import.meta.dirname, '..', 'bench', 'module-trace.js')}` }
    const dirs = [mkdtempSync(join(tmpdir(), 'smm-metrics-off-')), mkdtempSync(join(tmpdir(), 'smm-metrics-on-'))]
    const off = await startProcess(dirs[0]!, [], env)
    expect(off.banner).not.toContain('Prometheus metrics')
    off.child.kill('SIGTERM')
    expect(await exited(off.child)).toBe(0)
    const loaded = readFileSync(trace, 'utf8')
    expect(loaded).toContain('/node_modules/koa/')
    expect(loaded).not.toContain('/node_modules/prom-client/')

    const on = await startProcess(dirs[1]!, ['--metrics-port', '0'])
    const url = /\nPrometheus metrics: (http:\/\/127\.0\.0\.1:\d+\/metrics) \(plain HTTP, no key\)\n/.exec(on.banner)?.[1]
    expect(url, on.banner).toBeDefined()
    const scraped = await scrape(url!)
    expect(scraped.status).toBe(200)
    expect(valueOf(scraped.text, 'smm_build_info', { version: VERSION, store: 'sqlite' })).toBe(1)
    on.child.kill('SIGTERM')
    expect(await exited(on.child)).toBe(0)
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  it('refuses to start when its --metrics-port is taken, naming the flag and the port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-metrics-busy-'))
    const blocker = net.createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()))
    const port = (blocker.address() as net.AddressInfo).port
    const busy = await runCli(['daemon', '--port', '0', '--data-dir', dir, '--metrics-port', String(port)], { env: process.env })
    await new Promise<void>((resolve) => blocker.close(() => resolve()))
    expect(busy.code).toBe(1)
    expect(busy.stderr).toContain(`--metrics-port ${port}: 127.0.0.1:${port} is already in use (another smm daemon?): stop it, or choose another --metrics-port.`)
    rmSync(dir, { recursive: true, force: true })
  })

  it('keeps the first-start key for a start that succeeds when the port was taken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-busy-'))
    const blocker = net.createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()))
    const port = (blocker.address() as net.AddressInfo).port
    const busy = await runCli(['daemon', '--port', String(port), '--data-dir', dir], { env: process.env })
    expect(busy.code).toBe(1)
    expect(busy.stderr).toMatch(/EADDRINUSE|address already in use/i)
    await new Promise<void>((resolve) => blocker.close(() => resolve()))
    const { child, banner } = await startProcess(dir)
    expect(banner).toMatch(/\n {2}smm_[0-9A-Za-z]{36}\n/)
    child.kill('SIGTERM')
    expect(await exited(child)).toBe(0)
    rmSync(dir, { recursive: true, force: true })
  })

  it('logs one whole JSON line per request on standard output as it is served, and its last lines when it stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-log-'))
    const { child, banner, url } = await startProcess(dir, ['--log-level', 'info'])
    let out = ''
    const waiters: (() => void)[] = []
    child.stdout!.on('data', (chunk) => {
      out += chunk
      for (const wake of waiters.splice(0)) wake()
    })
    const lines = () => out.split('\n').filter(Boolean).map((line) => JSON.parse(line))
    const key = /\n {2}(smm_[0-9A-Za-z]{36})\n/.exec(banner)![1]!
    const http = httpsClient(url, readFileSync(join(dir, 'tls-cert.pem'), 'utf8'))
    const answers = await Promise.all([...Array.from({ length: 20 }, () => http.get('/v1/me', { key })), http.get('/v1/nothing-here', { key })])
    http.close()
    const ids = answers.map((a) => a.headers['x-request-id'])
    // Each line is out once its request is answered: nothing waits for more traffic (or a timer).
    while (!ids.every((id) => out.includes(id!))) await new Promise<void>((resolve) => waiters.push(resolve))
    const requests = lines().filter((l) => l.msg === 'request')
    expect(requests.map((l) => l.req_id).sort()).toEqual([...ids].sort())
    expect(requests.find((l) => l.req_id === ids[0])).toMatchObject({ method: 'GET', route: '/v1/me', status: 200, ip: '127.0.0.1', key_id: expect.stringMatching(/^key_/), ms: expect.any(Number) })
    expect(requests.find((l) => l.req_id === ids[20])).toMatchObject({ route: '/v1/nothing-here', status: 404 })
    child.kill('SIGTERM')
    expect(await exited(child)).toBe(0)
    expect(lines().at(-1)).toMatchObject({ msg: 'stopped' })
    expect(out).not.toContain(key)
    rmSync(dir, { recursive: true, force: true })
  })

  it('refuses a database written by a newer smm, with a message that says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-newer-'))
    const db = new Database(join(dir, 'smm.db'))
    db.pragma('user_version = 999')
    db.close()
    const res = await runCli(['daemon', '--port', '0', '--data-dir', dir], { env: process.env })
    expect(res.code).not.toBe(0)
    expect(res.stderr).toMatch(/schema version 999.*newer smm/s)
    rmSync(dir, { recursive: true, force: true })
  })
})

describe('smm daemon stopping', () => {
  it('exits promptly on SIGTERM while clients hold connections open: a keep-alive one, a connected TLS one with no request yet, a silent TCP one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-stop-'))
    const { child, banner, url } = await startProcess(dir)
    const key = /\n {2}(smm_[0-9A-Za-z]{36})\n/.exec(banner)![1]!
    const ca = readFileSync(join(dir, 'tls-cert.pem'), 'utf8')
    const { port } = new URL(url)
    // What a calendar leaves between refreshes: a keep-alive connection after a request.
    const agent = new https.Agent({ keepAlive: true, ca })
    const status = await new Promise<number>((resolve, reject) =>
      https.get(`${url}/v1/me`, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => (res.resume(), res.on('end', () => resolve(res.statusCode!)))).on('error', reject),
    )
    expect(status).toBe(200)
    // A pool that connects ahead of its next request, and a client that connected and said nothing.
    const ready = tls.connect({ port: Number(port), host: '127.0.0.1', ca, servername: 'localhost' })
    const silent = net.connect(Number(port), '127.0.0.1')
    for (const s of [ready, silent]) s.on('error', () => {})
    await Promise.all([new Promise((r) => ready.once('secureConnect', r)), new Promise((r) => silent.once('connect', r))])

    const asked = Date.now()
    child.kill('SIGTERM')
    expect(await exited(child)).toBe(0)
    // Well inside the first-byte (10 s) and header (20 s) timeouts it used to wait out.
    expect(Date.now() - asked).toBeLessThan(5_000)
    agent.destroy()
    rmSync(dir, { recursive: true, force: true })
  })
})

describe('smm admin', () => {
  it('creates users and keys, sets plans, revokes and backs up, on the data dir', async () => {
    const env = { env: { ...process.env, SMM_DATA_DIR: dataDir } }
    const user = await runCli(['admin', 'users', 'create', '--name', 'Acme', '--email', 'social@acme.example', '--json'], env)
    expect(user.code).toBe(0)
    const id = JSON.parse(user.stdout).id
    const plan = await runCli(['admin', 'users', 'set-plan', id, '--plan', 'enterprise', '--per-minute', '500', '--json'], env)
    expect(JSON.parse(plan.stdout).limits).toEqual({ per_minute: 500, per_hour: 10000, per_day: 100000 })
    const zone = await runCli(['admin', 'users', 'set-timezone', id, '--timezone', 'Europe/Berlin', '--json'], env)
    expect(JSON.parse(zone.stdout).timezone).toBe('Europe/Berlin')
    const badZone = await runCli(['admin', 'users', 'set-timezone', id, '--timezone', 'Mars/Olympus'], env)
    expect(badZone.code).toBe(2)
    expect(badZone.stderr).toMatch(/not an IANA time zone/)
    const wrong = await runCli(['admin', 'users', 'set-plan', id, '--plan', 'standard', '--per-minute', '5'], env)
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toMatch(/only the enterprise plan/)

    // --expires and --expires-in read as in `smm keys create`; a time it cannot read is refused, naming it, and makes no key.
    const [phrase, badTime, past] = await Promise.all([
      runCli(['admin', 'keys', 'create', 'owner-month', '--expires-in', '30d', '--json'], env),
      runCli(['admin', 'keys', 'create', 'owner-never', '--expires', 'whenever'], env),
      runCli(['admin', 'keys', 'create', 'owner-past', '--expires', '2020-01-01T00:00:00Z'], env),
    ])
    expect(Math.abs(Date.parse(JSON.parse(phrase.stdout).expires_at) - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000)
    expect(badTime.code, badTime.stderr).toBe(2)
    expect(badTime.stderr).toMatch(/^Error: --expires: .*whenever/)
    expect(past.code, past.stderr).toBe(2)
    expect(past.stderr).toMatch(/^Error: --expires 2020-01-01T00:00:00Z: that is 20(19-12-31|20-01-01) \d\d:\d\d \S+, already past; give a time in the future, or --expires-in 30d\.\n$/)
    const names = JSON.parse((await runCli(['admin', 'keys', 'list', '--json'], env)).stdout).data.map((k: { name: string }) => k.name)
    expect(names.filter((n: string) => n.startsWith('owner-'))).toEqual(['owner-month'])

    const key = await runCli(['admin', 'keys', 'create', 'acme-ci', '--user', id, '--scope', 'posts:read'], env)
    expect(key.code).toBe(0)
    const secret = /(smm_[0-9A-Za-z]{36})/.exec(key.stdout)![1]!
    const listed = await runCli(['admin', 'keys', 'list', '--user', id], env)
    expect(listed.stdout).toContain(secret.slice(0, 12))
    expect(listed.stdout).not.toContain(secret)
    expect(listed.stdout.split('\n')[0]).toMatch(/^ID +USER +NAME +PREFIX +STATUS +EXPIRES +LAST USED +SCOPES$/)
    expect(listed.stdout.split('\n')[1]).toMatch(new RegExp(`^key_\\w{26}  ${id}  acme-ci  ${secret.slice(0, 12)}  active  never    never      posts:read$`))
    const [users, usersJson, keysJson] = await Promise.all([
      runCli(['admin', 'users', 'list'], env),
      runCli(['admin', 'users', 'list', '--json'], env),
      runCli(['admin', 'keys', 'list', '--user', id, '--json'], env),
    ])
    expect(users.stdout.split('\n')[0]).toMatch(/^ID +NAME +EMAIL +PLAN +PER MINUTE +PER HOUR +PER DAY +TIME ZONE +SINCE$/)
    expect(users.stdout).toMatch(new RegExp(`^${id}  Acme +social@acme\\.example  enterprise  500 +10,000 +100,000 +Europe/Berlin `, 'm'))
    // A list, as every list of the API is: an envelope a script reads .data of.
    expect(JSON.parse(usersJson.stdout)).toMatchObject({ data: expect.arrayContaining([expect.objectContaining({ id, name: 'Acme' })]), has_more: false, next_cursor: null })
    expect(JSON.parse(keysJson.stdout)).toEqual({ data: [expect.objectContaining({ name: 'acme-ci', user_id: id, scopes: ['posts:read'] })], has_more: false, next_cursor: null })
    const keyId = /(key_[0-9A-Z]{26})/.exec(listed.stdout)![1]!
    const revoked = await runCli(['admin', 'keys', 'revoke', keyId], env)
    expect(revoked.stdout).toMatch(/Revoked key_/)
    expect((await runCli(['admin', 'keys', 'revoke', 'key_nope'], env)).code).toBe(4)

    const backup = join(dataDir, 'backup.db')
    expect((await runCli(['admin', 'backup', backup], env)).code).toBe(0)
    const copy = new Database(backup, { readonly: true })
    expect(copy.prepare('SELECT count(*) AS n FROM users').get()).toEqual({ n: 2 })
    copy.close()
    expect((await runCli(['admin', 'backup', backup], env)).code).toBe(2)
  })

  it('refuses a user or key name with control characters, and lists one stored anyway as visible symbols', async () => {
    const env = { env: { ...process.env, SMM_DATA_DIR: dataDir } }
    // Clears the screen and retitles the window, then forges a table row.
    const hostile = 'Eve\u001b[2J\u001b]0;pwned\u0007\nusr_FAKE  Admin\u009b31m\u007f'
    const [user, key] = await Promise.all([runCli(['admin', 'users', 'create', '--name', hostile], env), runCli(['admin', 'keys', 'create', hostile], env)])
    for (const res of [user, key]) {
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(/^Error: (--name|NAME): must be one line of text, without control characters/)
    }
    const db = new Database(join(dataDir, 'smm.db'))
    const { id } = db.prepare('SELECT id FROM users ORDER BY id LIMIT 1').get() as { id: string }
    const before = (db.prepare('SELECT name FROM users WHERE id = ?').get(id) as { name: string }).name
    db.prepare('UPDATE users SET name = ? WHERE id = ?').run(hostile, id)
    try {
      const listed = await runCli(['admin', 'users', 'list'], env)
      expect(listed.code).toBe(0)
      expect(listed.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
      expect(listed.stdout).toContain(`${id}  Eve␛[2J␛]0;pwned␇␊usr_FAKE  Admin\ufffd31m␡  `)
      expect(listed.stdout.split('\n').filter((line) => line.includes('usr_FAKE'))).toHaveLength(1)
    } finally {
      db.prepare('UPDATE users SET name = ? WHERE id = ?').run(before, id)
      db.close()
    }
  })

  it('says what to do when the data dir has no database', async () => {
    const res = await runCli(['admin', 'users', 'list'], { env: { ...process.env, SMM_DATA_DIR: join(tmpdir(), 'smm-nowhere') } })
    expect(res.code).toBe(4)
    expect(res.stderr).toMatch(/No smm database at .*Start the daemon once/)
  })

  it('says a database that is there but cannot be opened is that, not "not found"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-broken-'))
    writeFileSync(join(dir, 'smm.db'), 'this is not a database, but a note someone left here\n'.repeat(100))
    const res = await runCli(['admin', 'users', 'list'], { env: { ...process.env, SMM_DATA_DIR: dir } })
    const asJson = await runCli(['admin', 'keys', 'list', '--json'], { env: { ...process.env, SMM_DATA_DIR: dir } })
    rmSync(dir, { recursive: true, force: true })
    expect(res.code).toBe(1)
    expect(res.stdout).toBe('')
    expect(res.stderr).toMatch(new RegExp(`^Error: .*${join(dir, 'smm.db')}.*not a database`, 'i'))
    expect(res.stderr).not.toMatch(/not found|No smm database/i)
    expect(asJson.code).toBe(1)
    expect(JSON.parse(asJson.stderr)).toMatchObject({ code: 'store_unopenable' })
  })
})
