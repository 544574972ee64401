import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DefaultHttpStack, Upload, type HttpResponse } from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openMediaStore, parseMediaStore } from '../daemon/media/index.js'
import { ManualClock } from '../src/time.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { jpeg, mp4, png } from './helpers/media-files.js'
import { freshDatabase } from './helpers/postgres.js'
import { startTestS3 } from './helpers/s3.js'

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const b64 = (text: string) => Buffer.from(text).toString('base64')
const DAY = 86_400_000
const TUS = { 'tus-resumable': '1.0.0' }

/** Uploads `bytes` with tus-js-client, the tus project's own client, over the daemon's TLS; answers the media id the last PATCH named. */
function tusUpload(t: TestDaemon, bytes: Buffer, metadata: Record<string, string>, options: { chunkSize?: number; uploadUrl?: string; key?: string } = {}) {
  return new Promise<{ mediaId: string; url: string; offsets: number[] }>((resolve, reject) => {
    let mediaId = ''
    const offsets: number[] = []
    const upload = new Upload(bytes, {
      endpoint: `${t.url}/v1/uploads`,
      uploadUrl: options.uploadUrl,
      headers: { authorization: `Bearer ${options.key ?? t.key}` },
      httpStack: new DefaultHttpStack({ ca: t.ca }),
      metadata,
      chunkSize: options.chunkSize ?? Number.POSITIVE_INFINITY,
      retryDelays: null,
      storeFingerprintForResuming: false,
      onAfterResponse: (_req, res: HttpResponse) => {
        mediaId = res.getHeader('smm-media-id') ?? mediaId
        const offset = res.getHeader('upload-offset')
        if (offset !== undefined) offsets.push(Number(offset))
      },
      onError: reject,
      onSuccess: () => resolve({ mediaId, url: upload.url!, offsets }),
    })
    upload.start()
  })
}

/** Where one daemon keeps its media: its data dir, or a bucket; and what is kept there of unfinished uploads. */
const ownStores = [
  {
    name: 'in its data dir',
    async open() {
      return {
        options: {},
        /** The files of unfinished uploads kept in the media store. */
        async kept(t: TestDaemon) {
          const dir = join(t.dataDir, 'media', 'uploads')
          return existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : []
        },
        stop: async () => {},
      }
    },
  },
  {
    name: 'in S3',
    async open() {
      const s3 = await startTestS3()
      const spec = `s3://${s3.bucket}/solo`
      const bucket = await openMediaStore(parseMediaStore(spec, ''), s3.env)
      return {
        options: { mediaStore: spec, overrides: { env: s3.env } },
        async kept() {
          const keys: string[] = []
          for await (const key of bucket.list('uploads')) keys.push(key)
          return keys
        },
        async stop() {
          await bucket.close()
          await s3.stop()
        },
      }
    },
  },
]

describe.each(ownStores)('tus uploads, the bytes $name', (where) => {
  let t: TestDaemon
  let store: Awaited<ReturnType<(typeof ownStores)[number]['open']>>
  beforeAll(async () => {
    store = await where.open()
    t = await startTestDaemon({ backgroundWorkers: false, mediaLimits: { imageBytes: 2_000_000, videoBytes: 3_000_000 }, mediaQuotas: { standard: 6_000_000 }, ...store.options })
  })
  afterAll(async () => {
    await t?.stop()
    await store?.stop()
  })

  const tus = (method: string, path: string, headers: Record<string, string> = {}, raw?: Buffer) =>
    t.http.request(method, path, { key: t.key, headers: { ...TUS, ...headers }, raw })
  const create = (length: number, metadata: string) => tus('POST', '/v1/uploads', { 'upload-length': String(length), 'upload-metadata': metadata })
  const patch = (path: string, offset: number, bytes: Buffer, type = 'application/offset+octet-stream') =>
    tus('PATCH', path, { 'upload-offset': String(offset), 'content-type': type }, bytes)
  const listed = async () => ((await t.http.get('/v1/media?limit=100', { key: t.key })).body.data as { id: string }[]).map((m) => m.id)
  const owner = async () => (await t.daemon.store.users.owner())!.id
  const pieces = () => store.kept(t)
  const cleanup = () => t.daemon.workers.find((w) => w.name === 'media-cleanup')!.tick!(t.clock.now())

  it('takes a file from tus-js-client in several PATCHes, and the last one names the media, checked as POST /v1/media checks it', async () => {
    const bytes = jpeg(640, 480, 300_000)
    const done = await tusUpload(t, bytes, { content_type: 'image/jpeg', alt_text: 'A quiet harbour, évening' }, { chunkSize: 100_000 })
    expect(done.offsets).toEqual([100_000, 200_000, 300_000, bytes.length])
    expect(done.mediaId).toMatch(/^med_/)
    expect(new URL(done.url).pathname).toMatch(/^\/v1\/uploads\/upl_/)
    const media = (await t.http.get(`/v1/media/${done.mediaId}`, { key: t.key })).body
    expect(media).toMatchObject({ content_type: 'image/jpeg', bytes: bytes.length, sha256: sha(bytes), width: 640, height: 480, alt_text: 'A quiet harbour, évening' })
    const served = await new Promise<Buffer>((resolve, reject) =>
      https.get(media.url, { ca: t.ca }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks)))
      }).on('error', reject),
    )
    expect(served.equals(bytes)).toBe(true)
    // The finished upload says where its media is; its pieces are gone.
    const head = await tus('HEAD', new URL(done.url).pathname)
    expect(head.headers).toMatchObject({ 'upload-offset': String(bytes.length), 'upload-length': String(bytes.length), 'smm-media-id': done.mediaId })
    expect(await pieces()).toEqual([])
  })

  it('speaks tus 1.0 on the wire: OPTIONS, creation, HEAD, offsets, versions and content types', async () => {
    const options = await t.http.request('OPTIONS', '/v1/uploads', { key: t.key })
    expect(options.status).toBe(204)
    expect(options.headers).toMatchObject({ 'tus-version': '1.0.0', 'tus-extension': 'creation,termination,expiration', 'tus-max-size': '3000000' })

    const noVersion = await t.http.request('POST', '/v1/uploads', { key: t.key, headers: { 'upload-length': '10', 'upload-metadata': `content_type ${b64('image/png')}` } })
    expect([noVersion.status, noVersion.body.code, noVersion.headers['tus-version']]).toEqual([412, 'unsupported_tus_version', '1.0.0'])
    const oldVersion = await t.http.request('POST', '/v1/uploads', { key: t.key, headers: { 'tus-resumable': '0.2.2', 'upload-length': '10', 'upload-metadata': `content_type ${b64('image/png')}` } })
    expect([oldVersion.status, oldVersion.body.detail]).toEqual([412, 'tus 0.2.2 is not spoken here: send "Tus-Resumable: 1.0.0".'])

    const before = await listed()
    const bytes = jpeg(300, 200, 20_000)
    const created = await create(bytes.length, `content_type ${b64('image/jpeg')},alt_text ${b64('Two, with a comma')}`)
    expect(created.status).toBe(201)
    expect(created.headers['tus-resumable']).toBe('1.0.0')
    expect(new Date(created.headers['upload-expires']!).getTime()).toBe(Math.floor((t.clock.now() + DAY) / 1000) * 1000)
    const path = created.headers.location!
    expect(path).toMatch(/^\/v1\/uploads\/upl_[0-9A-Za-z]+$/)

    const head = await tus('HEAD', path)
    expect(head.status).toBe(200)
    expect(head.headers).toMatchObject({ 'upload-offset': '0', 'upload-length': String(bytes.length), 'cache-control': 'no-store', 'tus-resumable': '1.0.0' })
    expect(head.headers['upload-metadata']).toBe(`content_type ${b64('image/jpeg')},alt_text ${b64('Two, with a comma')}`)
    expect(head.headers['smm-media-id']).toBeUndefined()
    // Unfinished, it is no media yet, but its length counts against the quota.
    expect(await listed()).toEqual(before)
    expect(await t.daemon.store.media.usage(await owner())).toBeGreaterThanOrEqual(bytes.length)

    const wrongType = await patch(path, 0, bytes.subarray(0, 100), 'application/octet-stream')
    expect([wrongType.status, wrongType.body.code]).toEqual([415, 'unsupported_media_type'])
    const first = await patch(path, 0, bytes.subarray(0, 1000))
    expect(first.status).toBe(204)
    expect(first.headers['upload-offset']).toBe('1000')
    const again = await patch(path, 0, bytes.subarray(0, 1000))
    expect([again.status, again.body.code, again.headers['upload-offset'], again.body.upload_offset]).toEqual([409, 'upload_offset_mismatch', '1000', 1000])
    const noOffset = await tus('PATCH', path, { 'content-type': 'application/offset+octet-stream' }, bytes.subarray(1000))
    expect([noOffset.status, noOffset.body.code]).toEqual([400, 'invalid_upload_offset'])
    const tooLong = await patch(path, 1000, Buffer.concat([bytes.subarray(1000), Buffer.from('extra')]))
    expect([tooLong.status, tooLong.body.code]).toEqual([413, 'upload_too_long'])
    expect((await tus('HEAD', path)).headers['upload-offset']).toBe('1000')

    const last = await patch(path, 1000, bytes.subarray(1000))
    expect(last.status).toBe(204)
    expect(last.headers['upload-offset']).toBe(String(bytes.length))
    const mediaId = last.headers['smm-media-id']!
    expect((await t.http.get(`/v1/media/${mediaId}`, { key: t.key })).body).toMatchObject({ sha256: sha(bytes), width: 300, height: 200, alt_text: 'Two, with a comma' })
    // The last PATCH again, its answer lost: the upload is whole and says so; more bytes are refused.
    expect((await patch(path, bytes.length, Buffer.alloc(0))).headers['smm-media-id']).toBe(mediaId)
    expect((await patch(path, 0, bytes)).status).toBe(409)
  })

  it('refuses creations it cannot take, naming the header and why', async () => {
    const png64 = `content_type ${b64('image/png')}`
    const cases: [Record<string, string>, number, string, string | RegExp][] = [
      [{ 'upload-metadata': png64 }, 400, 'invalid_upload_length', 'Upload-Length must be a whole number of bytes: it is missing.'],
      [{ 'upload-length': '-5', 'upload-metadata': png64 }, 400, 'invalid_upload_length', 'Upload-Length must be a whole number of bytes, not "-5".'],
      [{ 'upload-defer-length': '1', 'upload-metadata': png64 }, 400, 'invalid_upload_length', /Upload-Defer-Length\) is not taken/],
      [{ 'upload-length': '10', 'upload-metadata': 'content_type image/png' }, 400, 'invalid_upload_metadata', /gives content_type a value that is not base64/],
      [{ 'upload-length': '10', 'upload-metadata': `${png64},filename ${b64('a.png')}` }, 400, 'invalid_upload_metadata', /names "filename", which smm does not take/],
      [{ 'upload-length': '10', 'upload-metadata': `${png64},${png64}` }, 400, 'invalid_upload_metadata', /names "content_type" twice/],
      [{ 'upload-length': '10' }, 415, 'unsupported_media_type', /Send the file's type/],
      [{ 'upload-length': '10', 'upload-metadata': `content_type ${b64('image/svg+xml')}` }, 415, 'unsupported_media_type', /image\/svg\+xml/],
      [{ 'upload-length': '0', 'upload-metadata': png64 }, 422, 'media_empty', /empty/],
      [{ 'upload-length': '2000001', 'upload-metadata': png64 }, 413, 'media_too_large', 'The file is larger than this daemon takes for an image: at most 2 MB (2000000 bytes).'],
      [{ 'upload-length': '10', 'upload-metadata': `${png64},alt_text ${b64('x'.repeat(5001))}` }, 422, 'validation_error', /5000/],
    ]
    for (const [headers, status, code, detail] of cases) {
      const res = await tus('POST', '/v1/uploads', headers)
      expect([res.status, res.body.code], JSON.stringify(headers)).toEqual([status, code])
      if (typeof detail === 'string') expect(res.body.detail).toBe(detail)
      else expect([res.body.detail, ...(res.body.errors ?? []).map((e: { detail: string }) => e.detail)].join(' ')).toMatch(detail)
    }
    // Uploads under way hold their length against the quota until they finish or go.
    const video = `content_type ${b64('video/mp4')}`
    const usage = await t.daemon.store.media.usage(await owner())
    const held = [await create(3_000_000, video), await create(6_000_000 - usage - 3_000_000, video)]
    expect(held.map((res) => res.status)).toEqual([201, 201])
    const over = await create(1, video)
    expect([over.status, over.body.code, over.body.quota_bytes, over.body.used_bytes]).toEqual([413, 'media_quota_exceeded', 6_000_000, 6_000_000])
    for (const res of held) expect((await tus('DELETE', res.headers.location!)).status).toBe(204)
    expect((await create(1, video)).status).toBe(201)
  })

  it('resumes an upload whose client stopped sending halfway from the offset HEAD gives, with tus-js-client', async () => {
    const before = await listed()
    const bytes = jpeg(800, 600, 400_000)
    const path = (await create(bytes.length, `content_type ${b64('image/jpeg')}`)).headers.location!
    // One PATCH for the whole file, cut off once 150 kB are out.
    await new Promise<void>((resolve) => {
      const req = https.request(new URL(path, t.url), {
        method: 'PATCH',
        ca: t.ca,
        headers: { ...TUS, authorization: `Bearer ${t.key}`, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0', 'content-length': String(bytes.length) },
      })
      req.on('error', () => resolve())
      req.on('response', () => resolve())
      req.write(bytes.subarray(0, 150_000), () => setTimeout(() => req.destroy(), 50))
    })
    // What arrived is kept: the daemon records it once it sees the connection go (on a busy
    // machine, in more than the poll's default second).
    await expect.poll(async () => Number((await tus('HEAD', path)).headers['upload-offset']), { timeout: 10_000 }).toBeGreaterThan(0)
    const kept = Number((await tus('HEAD', path)).headers['upload-offset'])
    expect(kept).toBeLessThanOrEqual(150_000)
    expect(await listed()).toEqual(before)

    // tus-js-client given the upload's URL asks HEAD where it is and sends only the rest.
    const done = await tusUpload(t, bytes, { content_type: 'image/jpeg' }, { uploadUrl: new URL(path, t.url).href })
    expect(done.offsets).toEqual([kept, bytes.length])
    const media = (await t.http.get(`/v1/media/${done.mediaId}`, { key: t.key })).body
    expect([media.bytes, media.sha256]).toEqual([bytes.length, sha(bytes)])
    expect(await pieces()).toEqual([])
  })

  it('checks an upload resumed after the daemon restarted as it checks one sent whole', async () => {
    const video = mp4(640, 360, 4_000, { padding: 600_000 })
    const image = jpeg(300, 200, 50_000)
    const send = async (bytes: Buffer, type: string, cuts: number[]) => {
      const path = (await create(bytes.length, `content_type ${b64(type)}`)).headers.location!
      let last
      for (const [i, from] of cuts.entries()) {
        // The daemon restarts between the first PATCH and the second: what it learned of the bytes so far is gone.
        if (i === 1) await t.restart()
        last = await patch(path, from, bytes.subarray(from, cuts[i + 1] ?? bytes.length))
        expect(last.status).toBe(204)
      }
      return (await t.http.get(`/v1/media/${last!.headers['smm-media-id']}`, { key: t.key })).body
    }
    expect(await send(video, 'video/mp4', [0, 250_000, 400_000])).toMatchObject({ bytes: video.length, sha256: sha(video), width: 640, height: 360, duration_ms: 4_000 })
    // Cut inside the first bytes the type is read from, and again.
    expect(await send(image, 'image/jpeg', [0, 1_000, 30_000])).toMatchObject({ bytes: image.length, sha256: sha(image), width: 300, height: 200 })
    expect(await pieces()).toEqual([])
  })

  it('refuses, at the last PATCH, bytes cut short or not what the upload said, however they were sent', async () => {
    const whole = jpeg(64, 64, 20_000)
    const cut = whole.subarray(0, whole.length - 2_000)
    for (const [bytes, type, code] of [
      [cut, 'image/jpeg', 'media_unreadable'],
      [whole, 'image/png', 'media_type_mismatch'],
    ] as const) {
      // The first bytes in PATCHes of 1,000, so that the type is read across five of them, then the rest.
      const path = (await create(bytes.length, `content_type ${b64(type)}`)).headers.location!
      for (let from = 0; from < 5_000; from += 1_000) expect((await patch(path, from, bytes.subarray(from, from + 1_000))).status).toBe(204)
      const answer = await patch(path, 5_000, bytes.subarray(5_000))
      expect([answer.status, answer.body.code]).toEqual([422, code])
      expect((await tus('HEAD', path)).status).toBe(404)
    }
  })

  it('removes an upload whose bytes are not what it said, and one terminated, and gives their storage back', async () => {
    const before = await listed()
    const usage = await t.daemon.store.media.usage(await owner())
    const bytes = jpeg(64, 64, 20_000)
    const liar = (await create(bytes.length, `content_type ${b64('image/png')}`)).headers.location!
    await patch(liar, 0, bytes.subarray(0, 5_000))
    const refused = await patch(liar, 5_000, bytes.subarray(5_000))
    expect([refused.status, refused.body.code]).toEqual([422, 'media_type_mismatch'])
    expect((await tus('HEAD', liar)).status).toBe(404)

    const dropped = (await create(bytes.length, `content_type ${b64('image/jpeg')}`)).headers.location!
    expect((await patch(dropped, 0, bytes.subarray(0, 8_000))).status).toBe(204)
    expect(await pieces()).not.toEqual([])
    const terminated = await tus('DELETE', dropped)
    expect([terminated.status, terminated.headers['tus-resumable']]).toEqual([204, '1.0.0'])
    expect((await tus('HEAD', dropped)).status).toBe(404)
    expect((await patch(dropped, 8_000, bytes.subarray(8_000))).status).toBe(404)
    expect((await tus('DELETE', dropped)).status).toBe(404)

    expect(await t.daemon.store.media.usage(await owner())).toBe(usage)
    expect(await listed()).toEqual(before)
    await cleanup()
    expect(await pieces()).toEqual([])
  })

  it('removes unfinished uploads 24 hours after they began, and keeps them before', async () => {
    const bytes = jpeg(40, 40, 5_000)
    const path = (await create(bytes.length, `content_type ${b64('image/jpeg')}`)).headers.location!
    await patch(path, 0, bytes.subarray(0, 100))
    const worker = t.daemon.workers.find((w) => w.name === 'media-cleanup')!
    await worker.tick!(t.clock.now() + DAY - 60_000)
    expect((await tus('HEAD', path)).headers['upload-offset']).toBe('100')
    t.clock.advance(DAY + 1)
    expect((await tus('HEAD', path)).status).toBe(404)
    await worker.tick!(t.clock.now())
    expect(await pieces()).toEqual([])
  })

  it('shows an upload to its owner only, and needs media:write', async () => {
    const path = (await create(100, `content_type ${b64('image/png')}`)).headers.location!
    const other = await t.daemon.store.users.create({ name: 'Other' }, t.clock.now())
    const otherKey = (await t.daemon.store.apiKeys.create(other.id, { name: 'k', scopes: ['media:read', 'media:write'] }, t.clock.now(), null)).secret
    const asOther = (method: string, headers: Record<string, string> = {}) => t.http.request(method, path, { key: otherKey, headers: { ...TUS, ...headers } })
    expect((await asOther('HEAD')).status).toBe(404)
    expect((await asOther('PATCH', { 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' })).status).toBe(404)
    expect((await asOther('DELETE')).status).toBe(404)
    const readOnly = (await t.daemon.store.apiKeys.create(other.id, { name: 'r', scopes: ['media:read'] }, t.clock.now(), null)).secret
    const refused = await t.http.request('POST', '/v1/uploads', { key: readOnly, headers: { ...TUS, 'upload-length': '10', 'upload-metadata': `content_type ${b64('image/png')}` } })
    expect([refused.status, refused.body.required_scope]).toEqual([403, 'media:write'])
  })
})

/** Where several daemons keep their media: a bucket, or a directory they all mount. */
const sharedStores = [
  {
    name: 'in S3',
    async open() {
      const s3 = await startTestS3()
      return { spec: `s3://${s3.bucket}/tus`, env: s3.env, stop: () => s3.stop() }
    },
  },
  {
    name: 'in a directory they share',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'smm-shared-media-'))
      return { spec: pathToFileURL(dir).href, env: {}, stop: async () => rmSync(dir, { recursive: true, force: true }) }
    },
  },
]

describe.each(sharedStores)('tus uploads across several daemons, their bytes $name', (where) => {
  let shared: Awaited<ReturnType<(typeof sharedStores)[number]['open']>>
  let db: Awaited<ReturnType<typeof freshDatabase>>
  let nodes: TestDaemon[]
  beforeAll(async () => {
    shared = await where.open()
    db = await freshDatabase()
    const clock = new ManualClock()
    const options = { databaseUrl: db.url, secretKey: randomBytes(32).toString('base64'), mediaStore: shared.spec, clock, backgroundWorkers: false, overrides: { env: shared.env } }
    nodes = [await startTestDaemon(options)]
    nodes.push(await startTestDaemon(options))
  }, 60_000)
  afterAll(async () => {
    for (const node of nodes ?? []) await node.stop()
    await db?.drop()
    await shared?.stop()
  })

  it('takes each PATCH on whichever daemon it reaches, and leaves nothing of the upload behind', async () => {
    const [a, b] = nodes as [TestDaemon, TestDaemon]
    const key = a.key
    const tus = (node: TestDaemon, method: string, path: string, headers: Record<string, string> = {}, raw?: Buffer) =>
      node.http.request(method, path, { key, headers: { ...TUS, ...headers }, raw })
    const bytes = mp4(640, 360, 4_000, { padding: 900_000 })
    const created = await tus(a, 'POST', '/v1/uploads', { 'upload-length': String(bytes.length), 'upload-metadata': `content_type ${b64('video/mp4')},alt_text ${b64('Waves')}` })
    const path = created.headers.location!
    const third = Math.floor(bytes.length / 3)
    const send = (node: TestDaemon, from: number, to: number) =>
      tus(node, 'PATCH', path, { 'content-type': 'application/offset+octet-stream', 'upload-offset': String(from) }, bytes.subarray(from, to))
    expect((await send(b, 0, third)).headers['upload-offset']).toBe(String(third))
    expect((await tus(a, 'HEAD', path)).headers['upload-offset']).toBe(String(third))
    expect((await send(a, third, 2 * third)).headers['upload-offset']).toBe(String(2 * third))
    const last = await send(b, 2 * third, bytes.length)
    expect(last.status).toBe(204)
    const media = (await a.http.get(`/v1/media/${last.headers['smm-media-id']}`, { key })).body
    expect(media).toMatchObject({ content_type: 'video/mp4', bytes: bytes.length, sha256: sha(bytes), width: 640, height: 360, duration_ms: 4_000, alt_text: 'Waves' })

    const bucket = await openMediaStore(parseMediaStore(shared.spec, ''), shared.env)
    const pieces: string[] = []
    for await (const k of bucket.list(path.slice('/v1/'.length))) pieces.push(k)
    expect(pieces).toEqual([])
    expect(await bucket.size(`media/${media.id}`)).toBe(bytes.length)
    await bucket.close()
  })
})
