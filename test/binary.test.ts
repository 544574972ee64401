// dist/bin/smm-daemon, the single executable (`npm run build:binary`), run the way an operator
// runs it: copied alone into an empty directory, with no Node.js on the PATH and no
// node_modules anywhere it could reach.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { accessSync, chmodSync, chownSync, constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { VERSION } from '../src/config.js'
import { httpsClient } from './helpers/http.js'
import { scrape, valueOf } from './helpers/prometheus.js'
import { png } from './helpers/media-files.js'
import { freshDatabase } from './helpers/postgres.js'
import { startTestS3 } from './helpers/s3.js'
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js'

const root = resolve(import.meta.dirname, '..')
const BUILT = join(root, 'dist/bin/smm-daemon')
// Built with an addon declared for another CPU, as a mix-up of two platforms' files would be.
const OTHER = `${process.platform}-${process.arch === 'arm64' ? 'x64' : 'arm64'}`
const MISMATCHED = join(root, `dist/test/smm-daemon-${OTHER}`)

/** `npm run build:binary` with these arguments; a build whose inputs did not change is skipped. */
function buildBinary(args: string[] = []): void {
  execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/build-binary.ts'), ...args], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
}

/** The PATH without any directory that holds a `node`. */
function pathWithoutNode(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir && !existsSync(join(dir, 'node')))
    .join(delimiter)
}

let work: string
let bin: string
let tmp: string
let env: Record<string, string>
beforeAll(() => {
  buildBinary()
  buildBinary(['--target', OTHER, '--out', MISMATCHED])
  work = mkdtempSync(join(tmpdir(), 'smm-binary-'))
  mkdirSync(join(work, 'bin'))
  bin = join(work, 'bin', 'smm-daemon')
  copyFileSync(BUILT, bin)
  chmodSync(bin, 0o755)
  tmp = mkdtempSync(join(work, 'tmp-'))
  // Nothing inherited: no NODE_OPTIONS, no NODE_PATH, no Node on the PATH.
  env = { PATH: pathWithoutNode(), HOME: work, SMM_TMPDIR: tmp }
}, 180_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** Runs the binary to completion in its own directory. */
function run(args: string[], extra: Record<string, string> = {}, options: { uid?: number; gid?: number } = {}) {
  const result = spawnSync(bin, args, { cwd: join(work, 'bin'), env: { ...env, ...extra }, encoding: 'utf8', timeout: 20_000, ...options })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** `run` without blocking this process, for commands that talk to a server the test runs. */
function runAsync(args: string[], extra: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: join(work, 'bin'), env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 })
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk))
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

/** Starts the daemon and resolves once its banner (with the first-start key, if any) is complete. */
function startDaemon(args: string[], extra: Record<string, string> = {}): Promise<{ child: ChildProcess; banner: string; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['--port', '0', '--log-level', 'warn', ...args], { cwd: join(work, 'bin'), env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk
      const url = /listening on (https:\/\/\S+)\/v1/.exec(output)?.[1]
      if (url && /SHA-256 fingerprint: .+\n/.test(output) && (!output.includes('First start') || output.includes('curl'))) resolve({ child, banner: output, url })
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('exit', (code) => reject(new Error(`smm-daemon exited ${code}:\n${output}`)))
  })
}

/** The bytes a daemon at `base` serves at a media's public URL (its path; the host may be an earlier daemon's). */
function fetchBytes(base: string, mediaUrl: string, dataDir: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    https
      .get(new URL(new URL(mediaUrl).pathname, base), { ca: readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8') }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${mediaUrl}: HTTP ${res.statusCode}`))))
      })
      .on('error', reject)
  })
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))

/** Asks until `check` returns a value (the daemon publishes on its own clock), for at most 10 s. */
async function eventually<T>(check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('gave up after 10 s')
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('smm-daemon, the single executable', () => {
  it('is one file under 120 MB, with its checksum beside it', () => {
    expect(statSync(BUILT).size).toBeLessThan(120_000_000)
    const [sum, name] = readFileSync(`${BUILT}.sha256`, 'utf8').trim().split(/\s+/)
    expect(name).toBe('smm-daemon')
    expect(execFileSync('sha256sum', [BUILT], { encoding: 'utf8' }).split(' ')[0]).toBe(sum)
  })

  it('finds no node to lean on', () => {
    for (const dir of env.PATH!.split(delimiter)) expect(() => accessSync(join(dir, 'node'), constants.X_OK)).toThrow()
    for (let dir = join(work, 'bin'); dir !== '/'; dir = resolve(dir, '..')) expect(existsSync(join(dir, 'node_modules'))).toBe(false)
  })

  it('says its version, and shows the daemon flags and the admin commands in its help', () => {
    const version = run(['--version'])
    expect(version).toMatchObject({ status: 0, stdout: `smm-daemon ${VERSION} (node ${process.version}, ${process.platform}-${process.arch})\n` })
    const help = run(['--help'])
    expect(help.status).toBe(0)
    expect(help.stdout).toMatch(/--data-dir=<value>\s+\[default: \$XDG_DATA_HOME\/smm or ~\/\.local\/share\/smm, env:\s+SMM_DATA_DIR\]/)
    expect(help.stdout).toContain('--allow-private-network')
    expect(help.stdout).toMatch(/--metrics-port=<value>\s+\[env: SMM_METRICS_PORT\] Serve Prometheus metrics/)
    expect(help.stdout).toContain('$ smm-daemon --data-dir /var/lib/smm')
    expect(help.stdout).toContain('$SMM_TMPDIR (else $TMPDIR, else /tmp)/smm-<uid>')
    const admin = run(['admin', '--help'])
    expect(admin.stdout).toMatch(/smm-daemon admin users create\s+Create a user/)
    expect(admin.stderr).toBe('')
    const unknown = run(['admin', 'users', 'delete'])
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toMatch(/^Error: smm-daemon admin users delete: no such command\.\n\n.*smm-daemon admin users list/s)
  })

  describe('serving', () => {
    let receiver: Receiver
    let dataDir: string
    /** The first-start key, the post published with it and a media uploaded, for the tests after the first. */
    let key: string
    let postId: string
    let media: { id: string; url: string; bytes: Buffer }
    beforeAll(async () => {
      receiver = await startReceiver()
      writeFileSync(join(work, 'receiver-ca.pem'), receiver.ca)
      // The default data dir, under the HOME the binary is given.
      dataDir = join(work, '.local', 'share', 'smm')
    })
    afterAll(() => receiver.close())

    it('starts on its defaults, prints the key, serves /v1, publishes to feed, delivers a webhook, counts them in its metrics, exits 0 on SIGTERM', async () => {
      // The receiver's CA is trusted the way an operator trusts a private CA: NODE_EXTRA_CA_CERTS.
      const { child, banner, url } = await startDaemon(['--allow-private-network'], {
        NODE_EXTRA_CA_CERTS: join(work, 'receiver-ca.pem'),
        SMM_METRICS_PORT: '0',
      })
      const metrics = /Prometheus metrics: (http:\/\/127\.0\.0\.1:\d+\/metrics) \(plain HTTP, no key\)\n/.exec(banner)?.[1]
      expect(metrics, banner).toBeDefined()
      key = /\n {2}(smm_[0-9A-Za-z]{36})\n/.exec(banner)?.[1] ?? ''
      expect(key, banner).not.toBe('')
      expect(banner).toContain(`TLS certificate: ${join(dataDir, 'tls-cert.pem')} (self-signed)`)
      // The addon was copied into a private directory of ours, and nowhere else.
      const privateDir = join(tmp, `smm-${process.getuid!()}`)
      expect(statSync(privateDir).mode & 0o777).toBe(0o700)

      const http = httpsClient(url, readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8'))
      try {
        expect((await http.get('/v1/me', { key })).status).toBe(200)
        const hook = await http.post('/v1/webhooks', { url: receiver.url, events: ['post.published'] }, { key })
        expect(hook.status, hook.text).toBe(201)
        receiver.secrets.push(hook.body.secret)

        const account = await http.post('/v1/accounts', { name: 'Solo' }, { key })
        expect(account.status).toBe(201)
        expect((await http.post(`/v1/accounts/${account.body.id}/connections`, { platform: 'feed' }, { key })).status).toBe(201)
        const post = await http.post('/v1/posts', { account_id: account.body.id, content: 'From one file', platforms: ['feed'] }, { key })
        expect(post.status, post.text).toBe(201)
        postId = post.body.id

        const item = await eventually(async () => {
          const feed = await http.get(`/feeds/${account.body.id}.json`)
          return feed.body?.items?.find((i: { id: string }) => i.id === post.body.id)
        })
        expect(item.content_text).toBe('From one file')
        const [delivery] = await receiver.waitFor(1)
        expect(delivery!.verifiedWith).toEqual([0])
        expect(delivery!.payload).toMatchObject({ type: 'post.published', data: { id: post.body.id, status: 'published', content: 'From one file' } })
        const counted = await eventually(async () => {
          const text = (await scrape(metrics!)).text
          return valueOf(text, 'smm_webhook_deliveries_total', { outcome: 'delivered' }) === 1 ? text : undefined
        })
        expect(valueOf(counted, 'smm_posts_published_total', { platform: 'feed' })).toBe(1)
        expect(valueOf(counted, 'smm_http_requests_total', { method: 'GET', route: '/v1/me', status: '200' })).toBe(1)
        expect(valueOf(counted, 'process_resident_memory_bytes')).toBeGreaterThan(0)

        // Media, in the default store (media/ in the data dir): sniffed, kept, served at their URL.
        const bytes = png(320, 240)
        const uploaded = await http.request('POST', '/v1/media?alt_text=Grey', { key, raw: bytes, headers: { 'content-type': 'image/png' } })
        expect(uploaded.status, uploaded.text).toBe(201)
        expect(uploaded.body).toMatchObject({ width: 320, height: 240, alt_text: 'Grey' })
        media = { id: uploaded.body.id, url: uploaded.body.url, bytes }
        expect((await fetchBytes(url, media.url, dataDir)).equals(bytes)).toBe(true)
        expect(existsSync(join(dataDir, 'media', 'media', media.id))).toBe(true)
      } finally {
        http.close()
      }
      child.kill('SIGTERM')
      expect(await exited(child)).toBe(0)
    })

    it('runs the admin commands on the same data dir', () => {
      const created = run(['admin', 'users', 'create', '--name', 'ada', '--json'])
      expect(created.status, created.stderr).toBe(0)
      const listed = run(['admin', 'users', 'list', '--data-dir', dataDir])
      expect(listed.stdout).toContain('ada')
      const backup = join(work, 'backup.db')
      expect(run(['admin', 'backup', backup, '--data-dir', dataDir]).status).toBe(0)
      expect(statSync(backup).size).toBeGreaterThan(0)
      // A mistake is the CLI's own message and exit code.
      const unknown = run(['admin', 'users', 'set-plan', 'usr_nobody', '--plan', 'gold', '--data-dir', dataDir])
      expect(unknown.status).toBe(2)
      expect(unknown.stderr).toMatch(/gold/)
    })

    it('copies the data dir into PostgreSQL and its media into S3 with admin copy, then serves the same key, posts and media from there', async () => {
      const db = await freshDatabase()
      // The S3 client is in the binary too: it reaches a real S3-compatible server.
      const s3 = await startTestS3()
      try {
        // Not spawnSync: the S3 server runs in this process, and must answer meanwhile.
        const copied = await runAsync(['admin', 'copy', '--to', db.url, '--to-media-store', `s3://${s3.bucket}/smm`], s3.env)
        expect(copied.status, copied.stderr).toBe(0)
        expect(copied.stdout).toContain(`start every daemon with --media-store s3://${s3.bucket}/smm`)
        const { child, banner, url } = await startDaemon(['--database-url', db.url, '--media-store', `s3://${s3.bucket}/smm`], s3.env)
        expect(banner).not.toContain('First start')
        const http = httpsClient(url, readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8'))
        try {
          expect((await http.get('/v1/me', { key })).status).toBe(200)
          const post = await http.get(`/v1/posts/${postId}`, { key })
          expect(post.body).toMatchObject({ id: postId, status: 'published' })
          expect((await fetchBytes(url, media.url, dataDir)).equals(media.bytes)).toBe(true)
          // And a new upload goes to the bucket.
          const bytes = png(64, 48)
          const uploaded = await http.request('POST', '/v1/media', { key, raw: bytes, headers: { 'content-type': 'image/png' } })
          expect(uploaded.status, uploaded.text).toBe(201)
          expect((await fetchBytes(url, uploaded.body.url, dataDir)).equals(bytes)).toBe(true)
        } finally {
          http.close()
        }
        child.kill('SIGTERM')
        expect(await exited(child)).toBe(0)
      } finally {
        await db.drop()
        await s3.stop()
      }
    })
  })

  describe('refusing', () => {
    const refusal = (dir: string, why: string) =>
      `Error: Cannot load the SQLite addon from ${dir}: ${why}. Set SMM_TMPDIR (or TMPDIR) to a directory only this user can write.\n`

    it('says in one line that a binary built for another platform cannot run here', () => {
      copyFileSync(MISMATCHED, join(work, 'bin', 'smm-daemon-other'))
      const result = spawnSync(join(work, 'bin', 'smm-daemon-other'), ['--data-dir', join(work, 'unused')], { env, encoding: 'utf8' })
      expect(result.status).toBe(1)
      expect(result.stderr).toBe(`Error: This smm-daemon was built for ${OTHER}, but this machine is ${process.platform}-${process.arch}: use the ${process.platform}-${process.arch} build.\n`)
      expect(existsSync(join(work, 'unused'))).toBe(false)
    })

    it('refuses a temporary directory others can write without the sticky bit', () => {
      const shared = mkdtempSync(join(work, 'shared-'))
      chmodSync(shared, 0o777)
      const result = run(['--data-dir', join(work, 'refused')], { SMM_TMPDIR: shared })
      expect(result).toMatchObject({ status: 1, stderr: expect.stringContaining(refusal(shared, 'other users can write it and it has no sticky bit, so they could replace the addon')) })
      // A sticky one, like /tmp, is fine: our private directory inside it cannot be swapped.
      chmodSync(shared, 0o1777)
      expect(run(['admin', 'users', 'list'], { SMM_TMPDIR: shared }).status).toBe(0)
    })

    it('refuses a temporary directory, or a private directory in it, that belongs to another user', () => {
      const theirs = mkdtempSync(join(work, 'theirs-'))
      const planted = mkdtempSync(join(work, 'planted-'))
      mkdirSync(join(planted, `smm-${process.getuid!()}`), { mode: 0o700 })
      if (process.getuid!() === 0) {
        chownSync(theirs, 65534, 65534)
        chownSync(join(planted, `smm-${process.getuid!()}`), 65534, 65534)
      } else {
        // Only root can give a directory away: one's own then stands for "shared" by mode.
        chmodSync(join(planted, `smm-${process.getuid!()}`), 0o770)
      }
      if (process.getuid!() === 0) {
        expect(run(['--data-dir', join(work, 'refused')], { SMM_TMPDIR: theirs }).stderr).toContain(refusal(theirs, 'it belongs to another user (uid 65534)'))
        expect(run(['--data-dir', join(work, 'refused')], { SMM_TMPDIR: planted }).stderr).toContain(
          refusal(join(planted, `smm-${process.getuid!()}`), 'it belongs to another user (uid 65534)'),
        )
      } else {
        expect(run(['--data-dir', join(work, 'refused')], { SMM_TMPDIR: planted }).stderr).toContain(
          refusal(join(planted, `smm-${process.getuid!()}`), 'other users may use it (mode 770)'),
        )
      }
    })

    it('refuses a temporary directory it cannot write, or that is missing, naming TMPDIR too', () => {
      const readOnly = mkdtempSync(join(work, 'readonly-'))
      chmodSync(readOnly, 0o555)
      const asRoot = process.getuid!() === 0
      // Root writes anywhere: the check is made as a user who cannot.
      const user = asRoot ? { uid: 65534, gid: 65534 } : {}
      if (asRoot) {
        for (const dir of [work, join(work, 'bin')]) chmodSync(dir, 0o755)
        mkdirSync(join(work, 'nobody-data'), { mode: 0o700 })
        chownSync(join(work, 'nobody-data'), 65534, 65534)
      }
      const result = run(['--data-dir', join(work, 'nobody-data')], { SMM_TMPDIR: readOnly }, user)
      expect(result).toMatchObject({ status: 1, stderr: refusal(readOnly, 'it is not writable') })
      const missing = run(['--data-dir', join(work, 'refused')], { SMM_TMPDIR: '', TMPDIR: join(work, 'missing') })
      expect(missing).toMatchObject({ status: 1, stderr: refusal(join(work, 'missing'), 'the folder does not exist (TMPDIR names it)') })
      const missingOwn = run(['--data-dir', join(work, 'refused')], { SMM_TMPDIR: join(work, 'missing-too'), TMPDIR: tmp })
      expect(missingOwn).toMatchObject({ status: 1, stderr: refusal(join(work, 'missing-too'), 'the folder does not exist (SMM_TMPDIR names it)') })
    })
  })
})
