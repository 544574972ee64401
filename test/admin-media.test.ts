import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { jpeg, png } from './helpers/media-files.js'
import { feedAccount, liftLimits } from './helpers/posts.js'
import { freshDatabase } from './helpers/postgres.js'
import { startTestS3, type TestS3 } from './helpers/s3.js'

const DAY = 86_400_000
const temp = (name: string) => mkdtempSync(join(tmpdir(), `smm-${name}-`))

/** A SQLite daemon with two media, one used by a scheduled post, then stopped: what backups and copies carry. */
async function daemonWithMedia(dataDir: string): Promise<{ key: string; clock: TestDaemon['clock']; media: { id: string; url: string; bytes: Buffer }[]; post: string }> {
  const t = await startTestDaemon({ dataDir, backgroundWorkers: false })
  await liftLimits(t)
  const account = await feedAccount(t, 'Brand')
  const media = []
  for (const [bytes, type, alt] of [[png(800, 600), 'image/png', 'A grey field'], [jpeg(640, 480, 200_000), 'image/jpeg', '']] as const) {
    const res = await t.http.request('POST', `/v1/media${alt ? `?alt_text=${encodeURIComponent(alt)}` : ''}`, { key: t.key, raw: bytes, headers: { 'content-type': type } })
    expect(res.status).toBe(201)
    media.push({ id: res.body.id as string, url: res.body.url as string, bytes })
  }
  const created = await t.http.post('/v1/posts', { account_id: account, content: 'With a picture', platforms: ['feed'], media: [{ id: media[0]!.id }], scheduled_at: new Date(t.clock.now() + DAY).toISOString() }, { key: t.key })
  expect(created.status).toBe(201)
  await t.daemon.close()
  return { key: t.key, clock: t.clock, media, post: created.body.id }
}

/** The bytes a daemon serves at a media's public URL (its path: the host is the old daemon's). */
function served(t: TestDaemon, url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    https
      .get(new URL(new URL(url).pathname, t.url), { ca: t.ca }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${url}: HTTP ${res.statusCode}`))))
      })
      .on('error', reject)
  })
}

describe('smm admin backup', () => {
  it('carries the media: a restore from FILE and FILE.media serves the same bytes, with the posts that use them', async () => {
    const dataDir = temp('backup-src')
    const backupDir = temp('backup')
    const restored = temp('backup-restored')
    try {
      const before = await daemonWithMedia(dataDir)
      const file = join(backupDir, 'smm.db')
      const backup = await runCli(['admin', 'backup', file, '--data-dir', dataDir, '--json'], { env: process.env })
      expect(backup.code, backup.stderr).toBe(0)
      const result = JSON.parse(backup.stdout)
      expect(result.media).toEqual({ directory: `${file}.media`, objects: 2, bytes: before.media.reduce((n, m) => n + m.bytes.length, 0) })
      const again = await runCli(['admin', 'backup', file, '--data-dir', dataDir], { env: process.env })
      expect(again).toMatchObject({ code: 2, stderr: `Error: ${file} exists; pass --force to overwrite it\n` })

      // The restore the help describes: FILE as smm.db, FILE.media as media/, and the secret key.
      cpSync(file, join(restored, 'smm.db'))
      cpSync(`${file}.media`, join(restored, 'media'), { recursive: true })
      cpSync(join(dataDir, 'secret.key'), join(restored, 'secret.key'))
      const t = await startTestDaemon({ dataDir: restored, backgroundWorkers: false, clock: before.clock })
      try {
        for (const m of before.media) {
          expect((await t.http.get(`/v1/media/${m.id}`, { key: before.key })).body).toMatchObject({ id: m.id, bytes: m.bytes.length })
          expect((await served(t, m.url)).equals(m.bytes)).toBe(true)
        }
        const post = (await t.http.get(`/v1/posts/${before.post}`, { key: before.key })).body
        expect(post.media).toMatchObject([{ id: before.media[0]!.id, alt_text: 'A grey field', width: 800 }])
      } finally {
        await t.stop()
      }
    } finally {
      for (const dir of [dataDir, backupDir, restored]) rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('smm admin copy with media', () => {
  let s3: TestS3
  const dataDir = temp('copy-media')
  let before: Awaited<ReturnType<typeof daemonWithMedia>>
  beforeAll(async () => {
    s3 = await startTestS3()
    before = await daemonWithMedia(dataDir)
  })
  afterAll(async () => {
    await s3.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('refuses to leave the media behind: a daemon on PostgreSQL cannot use the data dir’s', async () => {
    const target = await freshDatabase()
    try {
      const res = await runCli(['admin', 'copy', '--to', target.url, '--data-dir', dataDir], { env: process.env })
      expect(res.code).toBe(2)
      expect(res.stderr).toBe(
        `Error: --to-media-store: the data dir's media (${dataDir}/media) are this host's alone, and every daemon on PostgreSQL needs them: give the store they will share, s3://BUCKET[/PREFIX] or file:///DIR on a mount every node has. Nothing was copied.\n`,
      )
    } finally {
      await target.drop()
    }
  })

  it('copies the rows to PostgreSQL and the bytes to an S3 bucket, where a daemon on both serves them', async () => {
    const target = await freshDatabase()
    try {
      const env = { ...process.env, ...s3.env }
      const copy = await runCli(['admin', 'copy', '--to', target.url, '--data-dir', dataDir, '--to-media-store', `s3://${s3.bucket}/moved`, '--json'], { env })
      expect(copy.code, copy.stderr).toBe(0)
      const result = JSON.parse(copy.stdout)
      expect(result.rows).toMatchObject({ media: 2, post_media: 1 })
      expect(result.media).toMatchObject({ objects: 2, bytes: before.media.reduce((n, m) => n + m.bytes.length, 0) })
      const secret = readFileSync(join(dataDir, 'secret.key')).toString('base64')
      for (const [name, value] of Object.entries(s3.env)) process.env[name] = value
      const moved = await startTestDaemon({ dataDir: temp('copy-moved'), databaseUrl: target.url, secretKey: secret, mediaStore: `s3://${s3.bucket}/moved`, clock: before.clock, backgroundWorkers: false })
      try {
        for (const m of before.media) expect((await served(moved, m.url)).equals(m.bytes)).toBe(true)
        expect((await moved.http.get(`/v1/posts/${before.post}`, { key: before.key })).body.media).toMatchObject([{ id: before.media[0]!.id }])
      } finally {
        await moved.stop()
        for (const name of Object.keys(s3.env)) delete process.env[name]
      }
    } finally {
      await target.drop()
    }
  })

  it('copies to a shared directory too, and a daemon on PostgreSQL refuses the default store, naming --media-store', async () => {
    const target = await freshDatabase()
    const shared = temp('copy-shared')
    try {
      const copy = await runCli(['admin', 'copy', '--to', target.url, '--data-dir', dataDir, '--to-media-store', `file://${shared}`], { env: process.env })
      expect(copy.code, copy.stderr).toBe(0)
      expect(copy.stdout).toMatch(new RegExp(`Copied the media's bytes, 2 files \\(.*\\), to ${shared}: start every daemon with --media-store file://${shared}\\.`))
      const secret = readFileSync(join(dataDir, 'secret.key')).toString('base64')
      await expect(startTestDaemon({ dataDir: temp('copy-default'), databaseUrl: target.url, secretKey: secret, mediaStore: '' })).rejects.toThrow(
        /A daemon on PostgreSQL needs a media store every node shares: set --media-store \(SMM_MEDIA_STORE\)/,
      )
      const moved = await startTestDaemon({ dataDir: temp('copy-moved2'), databaseUrl: target.url, secretKey: secret, mediaStore: `file://${shared}`, clock: before.clock, backgroundWorkers: false })
      try {
        for (const m of before.media) expect((await served(moved, m.url)).equals(m.bytes)).toBe(true)
      } finally {
        await moved.stop()
      }
    } finally {
      await target.drop()
      rmSync(shared, { recursive: true, force: true })
    }
  })
})
