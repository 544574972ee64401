import { createHash } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import https from 'node:https'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { gif, jpeg, mp4, png, webp } from './helpers/media-files.js'

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const DAY = 86_400_000

/** Sends `bytes` as an upload, as a client would: with Content-Length, or chunked. */
function upload(t: TestDaemon, bytes: Buffer, type: string | undefined, options: { key?: string; chunked?: boolean; path?: string } = {}) {
  const headers: Record<string, string> = { ...(type ? { 'content-type': type } : {}), ...(options.chunked ? { 'transfer-encoding': 'chunked' } : {}) }
  return t.http.request('POST', options.path ?? '/v1/media', { key: options.key ?? t.key, raw: bytes, headers })
}

describe('media: uploading, reading, serving and deleting', () => {
  let t: TestDaemon
  beforeAll(async () => {
    t = await startTestDaemon({ backgroundWorkers: false, mediaLimits: { imageBytes: 2_000_000, videoBytes: 3_000_000 }, mediaQuotas: { standard: 5_000_000 } })
  })
  afterAll(() => t.stop())

  it('takes the bytes of an image, reads its type and size from them, and serves them at its public URL without a key', async () => {
    const bytes = png(1200, 800)
    const res = await upload(t, bytes, 'image/png', { path: '/v1/media?alt_text=A%20grey%20field' })
    expect(res.status).toBe(201)
    const media = res.body
    expect(media).toMatchObject({ content_type: 'image/png', bytes: bytes.length, sha256: sha(bytes), width: 1200, height: 800, duration_ms: null, alt_text: 'A grey field' })
    expect(media.id).toMatch(/^med_/)
    expect(res.headers.location).toBe(`/v1/media/${media.id}`)
    // <public-url>/media/<token>.<ext>, the token 192 bits of base64url.
    expect(media.url).toMatch(new RegExp(`^${t.url}/media/[A-Za-z0-9_-]{32}\\.png$`))
    expect((await t.http.get(`/v1/media/${media.id}`, { key: t.key })).body).toEqual(media)

    const file = await t.http.get(new URL(media.url).pathname)
    expect(file.status).toBe(200)
    expect(file.headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-disposition': 'inline',
      etag: `"${sha(bytes)}"`,
      'accept-ranges': 'bytes',
      'content-length': String(bytes.length),
    })
    expect(file.headers['cache-control']).toMatch(/max-age=\d+/)
    expect(Buffer.from(file.text, 'latin1').length).toBeGreaterThan(0)
  })

  it('serves ranges (206), answers 304 to its ETag, and 416 to a range past the end', async () => {
    const bytes = jpeg(640, 480, 50_000)
    const media = (await upload(t, bytes, 'image/jpeg')).body
    const path = new URL(media.url).pathname
    const agent = new https.Agent({ ca: t.ca })
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        https.get(new URL(path, t.url), { agent, headers }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
        }).on('error', reject)
      })
    const whole = await get({})
    expect(whole.body).toEqual(bytes)
    const part = await get({ range: 'bytes=100-1099' })
    expect(part.status).toBe(206)
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${bytes.length}`)
    expect(part.body).toEqual(bytes.subarray(100, 1100))
    const suffix = await get({ range: 'bytes=-10' })
    expect(suffix.body).toEqual(bytes.subarray(-10))
    expect((await get({ 'if-none-match': `"${media.sha256}"` })).status).toBe(304)
    const past = await get({ range: `bytes=${bytes.length}-` })
    expect(past.status).toBe(416)
    expect(past.headers['content-range']).toBe(`bytes */${bytes.length}`)
    agent.destroy()
  })

  it('reads a video’s dimensions and length, and takes GIF, WebP and QuickTime', async () => {
    const video = (await upload(t, mp4(1280, 720, 12_500), 'video/mp4')).body
    expect(video).toMatchObject({ content_type: 'video/mp4', width: 1280, height: 720, duration_ms: 12_500 })
    expect((await upload(t, mp4(720, 1280, 3_000, { quicktime: true }), 'video/quicktime')).body).toMatchObject({ content_type: 'video/quicktime', width: 720, height: 1280, duration_ms: 3_000 })
    expect((await upload(t, gif(48, 32), 'image/gif')).body).toMatchObject({ width: 48, height: 32 })
    expect((await upload(t, webp(300, 200), 'image/webp')).body).toMatchObject({ width: 300, height: 200 })
    expect(video.url.endsWith('.mp4')).toBe(true)
  })

  it('lists media newest first, page by page, and changes alt text', async () => {
    const first = await t.http.get('/v1/media?limit=2', { key: t.key })
    expect(first.body.data).toHaveLength(2)
    expect(first.body.has_more).toBe(true)
    const second = await t.http.get(`/v1/media?limit=100&cursor=${first.body.next_cursor}`, { key: t.key })
    const ids = [...first.body.data, ...second.body.data].map((m: { id: string }) => m.id)
    expect(ids).toEqual([...ids].sort().reverse())
    const id = ids[0]
    const patched = await t.http.patch(`/v1/media/${id}`, { alt_text: 'Described' }, { key: t.key })
    expect(patched.body.alt_text).toBe('Described')
    expect((await t.http.patch(`/v1/media/${id}`, { alt_text: null }, { key: t.key })).body.alt_text).toBeNull()
    expect((await t.http.patch(`/v1/media/${id}`, { alt: 'x' }, { key: t.key })).body.errors).toContainEqual(expect.objectContaining({ pointer: '#/alt', code: 'unknown_field' }))
  })

  it('deletes media: its URL answers 404 at once, and its bytes go at the cleanup’s next run', async () => {
    const media = (await upload(t, png(10, 10), 'image/png')).body
    const path = new URL(media.url).pathname
    expect((await t.http.delete(`/v1/media/${media.id}`, { key: t.key })).status).toBe(204)
    expect((await t.http.get(path)).status).toBe(404)
    expect((await t.http.get(`/v1/media/${media.id}`, { key: t.key })).status).toBe(404)
    expect((await t.http.delete(`/v1/media/${media.id}`, { key: t.key })).status).toBe(404)
    const file = join(t.dataDir, 'media', 'media', media.id)
    expect(existsSync(file)).toBe(true)
    await t.daemon.workers.find((w) => w.name === 'media-cleanup')!.tick!(t.clock.now())
    expect(existsSync(file)).toBe(false)
  })

  it('removes media no post used within 24 hours, and keeps it before', async () => {
    const media = (await upload(t, png(12, 12), 'image/png')).body
    const cleanup = t.daemon.workers.find((w) => w.name === 'media-cleanup')!
    await cleanup.tick!(t.clock.now() + DAY - 60_000)
    expect((await t.http.get(`/v1/media/${media.id}`, { key: t.key })).status).toBe(200)
    await cleanup.tick!(t.clock.now() + DAY + 1)
    expect((await t.http.get(`/v1/media/${media.id}`, { key: t.key })).status).toBe(404)
    expect(existsSync(join(t.dataDir, 'media', 'media', media.id))).toBe(false)
  })

  it('shows a user only their own media, and needs the media scopes', async () => {
    const mine = (await upload(t, png(8, 8), 'image/png')).body
    const other = await t.daemon.store.users.create({ name: 'Other' }, t.clock.now())
    const otherKey = (await t.daemon.store.apiKeys.create(other.id, { name: 'k', scopes: ['media:read', 'media:write'] }, t.clock.now(), null)).secret
    expect((await t.http.get(`/v1/media/${mine.id}`, { key: otherKey })).status).toBe(404)
    expect((await t.http.delete(`/v1/media/${mine.id}`, { key: otherKey })).status).toBe(404)
    expect((await t.http.get('/v1/media', { key: otherKey })).body.data).toEqual([])
    const readOnly = (await t.daemon.store.apiKeys.create(other.id, { name: 'r', scopes: ['media:read'] }, t.clock.now(), null)).secret
    const refused = await upload(t, png(8, 8), 'image/png', { key: readOnly })
    expect(refused.status).toBe(403)
    expect(refused.body.required_scope).toBe('media:write')
  })
})

describe('media: bad uploads', () => {
  let t: TestDaemon
  beforeAll(async () => {
    t = await startTestDaemon({ backgroundWorkers: false, mediaLimits: { imageBytes: 200_000, videoBytes: 300_000 }, mediaQuotas: { standard: 500_000 } })
  })
  afterAll(() => t.stop())
  const listed = async () => (await t.http.get('/v1/media?limit=100', { key: t.key })).body.data as unknown[]
  /** Files under the media store, partial ones included: a refused upload leaves none. */
  const files = () => {
    const dir = join(t.dataDir, 'media')
    const walk = (d: string): string[] => (existsSync(d) ? readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [e.name])) : [])
    return walk(dir)
  }

  it('refuses a missing or foreign Content-Type (415), and bytes that are not what it says (422)', async () => {
    const none = await upload(t, png(4, 4), undefined)
    expect([none.status, none.body.code]).toEqual([415, 'unsupported_media_type'])
    const svg = await upload(t, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml')
    expect([svg.status, svg.body.code]).toEqual([415, 'unsupported_media_type'])
    expect(svg.body.detail).toContain('image/svg+xml')
    const html = await upload(t, Buffer.from('<html><script>alert(1)</script></html>'), 'image/png')
    expect([html.status, html.body.code]).toEqual([422, 'media_type_mismatch'])
    const wrongImage = await upload(t, png(4, 4), 'image/jpeg')
    expect([wrongImage.status, wrongImage.body.code]).toEqual([422, 'media_type_mismatch'])
    expect(wrongImage.body.detail).toBe('The body was sent as image/jpeg, but its bytes are image/png. Send it with its own Content-Type (image/png).')
    const pdf = await upload(t, Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n'), 'image/png')
    expect(pdf.body.detail).toContain('application/pdf, not a type smm takes')
    const empty = await upload(t, Buffer.alloc(0), 'image/png')
    expect([empty.status, empty.body.code]).toEqual([422, 'media_empty'])
    expect(await listed()).toEqual([])
    expect(files()).toEqual([])
  })

  it('refuses files over the limit (413, naming it), however they are sent, and truncated ones (422)', async () => {
    const big = await upload(t, jpeg(100, 100, 250_000), 'image/jpeg')
    expect([big.status, big.body.code, big.body.limit_bytes]).toEqual([413, 'media_too_large', 200_000])
    expect(big.body.detail).toBe('The file is larger than this daemon takes for an image: at most 200 kB (200000 bytes).')
    const chunked = await upload(t, jpeg(100, 100, 250_000), 'image/jpeg', { chunked: true })
    expect([chunked.status, chunked.body.code]).toEqual([413, 'media_too_large'])
    const whole = png(300, 300)
    const cut = await upload(t, whole.subarray(0, whole.length - 10), 'image/png')
    expect([cut.status, cut.body.code]).toEqual([422, 'media_unreadable'])
    const clip = mp4(640, 360, 2_000, { padding: 50_000 })
    const cutVideo = await upload(t, clip.subarray(0, clip.length - 20_000), 'video/mp4')
    expect([cutVideo.status, cutVideo.body.code]).toEqual([422, 'media_unreadable'])
    expect(await listed()).toEqual([])
    expect(files()).toEqual([])
  })

  it('refuses what does not fit in the plan’s storage (413, with the figures)', async () => {
    for (let i = 0; i < 2; i++) expect((await upload(t, jpeg(100, 100, 190_000), 'image/jpeg')).status).toBe(201)
    const over = await upload(t, jpeg(100, 100, 190_000), 'image/jpeg')
    expect([over.status, over.body.code]).toEqual([413, 'media_quota_exceeded'])
    expect(over.body).toMatchObject({ quota_bytes: 500_000 })
    expect(over.body.used_bytes).toBeGreaterThan(380_000)
    expect(over.body.detail).toMatch(/^The file \(190(\.\d)? kB\) does not fit in your plan's media storage: 380(\.\d)? kB of 500 kB are used\./)
  })

  it('keeps nothing of an upload whose client stops sending halfway', async () => {
    const before = (await listed()).length
    // 100 kB fits beside the 380 kB the tests above keep, within the plan's 500 kB: the upload is taken, then cut off.
    const bytes = jpeg(100, 100, 100_000)
    await new Promise<void>((resolve) => {
      const req = https.request(new URL('/v1/media', t.url), { method: 'POST', ca: t.ca, headers: { authorization: `Bearer ${t.key}`, 'content-type': 'image/jpeg', 'content-length': String(bytes.length) } })
      req.on('error', () => resolve())
      req.on('response', () => resolve())
      req.write(bytes.subarray(0, 40_000), () => setTimeout(() => req.destroy(), 50))
    })
    // The daemon sees the connection close, then gives the reservation up (on a busy machine, in
    // more than the poll's default second).
    await expect.poll(async () => (await t.daemon.store.media.usage((await t.daemon.store.users.owner())!.id)), { timeout: 10_000 }).toBeLessThan(400_000)
    expect(await listed()).toHaveLength(before)
    expect(files().filter((name) => !name.startsWith('med_'))).toEqual([])
  })
})
