import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MediaNotFoundError, mediaKey, openMediaStore, parseMediaStore, uploadPieceKey, type MediaStore } from '../daemon/media/index.js'
import { readPieces, removePieces, uploadPieces } from '../daemon/media/resumable.js'
import { startTestS3, type TestS3 } from './helpers/s3.js'

interface Backend {
  name: string
  open(): Promise<{ store: MediaStore; dispose(): Promise<void> }>
}

const backends: Backend[] = [
  {
    name: 'files',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'smm-media-'))
      const store = await openMediaStore(parseMediaStore(`file://${dir}`, '/unused'))
      return { store, dispose: async () => rmSync(dir, { recursive: true, force: true }) }
    },
  },
  {
    name: 'S3 (s3rver)',
    async open() {
      const s3: TestS3 = await startTestS3()
      const store = await openMediaStore(parseMediaStore(`s3://${s3.bucket}/some/prefix`, '/unused'), s3.env)
      return {
        store,
        async dispose() {
          await store.close()
          await s3.stop()
        },
      }
    },
  },
]

const read = async (body: Readable) => Buffer.concat(await body.toArray())
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/** A body that sends `bytes` in pieces, then fails as a client that hangs up would. */
function brokenAfter(bytes: Buffer): Readable {
  let sent = false
  return new Readable({
    read() {
      if (!sent) {
        sent = true
        this.push(bytes)
      } else this.destroy(new Error('aborted'))
    },
  })
}

describe.each(backends)('the media store on $name', (backend) => {
  let store: MediaStore
  let dispose: () => Promise<void>
  beforeAll(async () => {
    ;({ store, dispose } = await backend.open())
  })
  afterAll(() => dispose())

  it('stores a stream whole, answers its size, reads it back whole and by range, and deletes it', async () => {
    // Over one multipart piece on S3, so the upload really is in parts.
    const bytes = randomBytes(9 * 1024 * 1024 + 17)
    const key = mediaKey('med_01TESTWHOLE0000000000000000')
    const chunks = Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) => bytes.subarray(i * 65_536, (i + 1) * 65_536))
    expect(await store.put(key, Readable.from(chunks), 'video/mp4')).toBe(bytes.length)
    expect(await store.size(key)).toBe(bytes.length)
    expect(sha(await read(await store.get(key)))).toBe(sha(bytes))
    expect(await read(await store.get(key, { start: 100, end: 199 }))).toEqual(bytes.subarray(100, 200))
    expect(await read(await store.get(key, { start: bytes.length - 5, end: bytes.length - 1 }))).toEqual(bytes.subarray(bytes.length - 5))
    await store.delete(key)
    expect(await store.size(key)).toBeUndefined()
    await expect(store.get(key)).rejects.toBeInstanceOf(MediaNotFoundError)
    // Deleting what is not there is no error.
    await store.delete(key)
  })

  it('leaves nothing when the body fails halfway, and keeps what was there before', async () => {
    const key = mediaKey('med_01TESTBROKEN000000000000000')
    await expect(store.put(key, brokenAfter(randomBytes(100_000)), 'image/png')).rejects.toThrow('aborted')
    expect(await store.size(key)).toBeUndefined()
    await store.put(key, Readable.from([Buffer.from('first')]), 'image/png')
    await expect(store.put(key, brokenAfter(Buffer.from('second, cut off')), 'image/png')).rejects.toThrow('aborted')
    expect(await text(await store.get(key))).toBe('first')
    await store.delete(key)
  })

  it('lists the keys under a prefix, and nothing for an empty one', async () => {
    for (const n of [0, 1, 2]) await store.put(uploadPieceKey('upl_01TESTLIST00000000000000000', n * 7, 1000 + n), Readable.from([Buffer.from(`piece ${n}`)]), 'application/octet-stream')
    await store.put(mediaKey('med_01TESTLIST00000000000000000'), Readable.from([Buffer.from('x')]), 'image/gif')
    const listed: string[] = []
    for await (const key of store.list('uploads/upl_01TESTLIST00000000000000000')) listed.push(key)
    expect(listed.sort()).toEqual([0, 1, 2].map((n) => uploadPieceKey('upl_01TESTLIST00000000000000000', n * 7, 1000 + n)))
    const none: string[] = []
    for await (const key of store.list('uploads/upl_01NOTHING0000000000000000000')) none.push(key)
    expect(none).toEqual([])
  })

  it('assembles a tus upload from its pieces: at each offset the piece of the latest claim, whatever a lapsed writer left', async () => {
    const id = 'upl_01TESTPIECES000000000000000'
    const put = (offset: number, token: number, bytes: string) => store.put(uploadPieceKey(id, offset, token), Readable.from([Buffer.from(bytes)]), 'application/octet-stream')
    // Claim 5 wrote at 0 and lapsed (its piece is longer, and not what the upload holds); claim 9 took over.
    await put(0, 5, 'stale bytes here')
    await put(0, 9, 'hello, ')
    await put(7, 12, 'tus ')
    await put(11, 20, 'world')
    const keys = await uploadPieces(store, id, 16)
    expect(keys).toEqual([uploadPieceKey(id, 0, 9), uploadPieceKey(id, 7, 12), uploadPieceKey(id, 11, 20)])
    const chunks: Buffer[] = []
    for await (const chunk of readPieces(store, keys)) chunks.push(chunk)
    expect(Buffer.concat(chunks).toString()).toBe('hello, tus world')
    // A piece missing in the middle is an error, never a shorter file.
    await store.delete(uploadPieceKey(id, 7, 12))
    await expect(uploadPieces(store, id, 16)).rejects.toThrow('no piece starts at 7 of 16 bytes')
    await removePieces(store, id)
    const left: string[] = []
    for await (const key of store.list(`uploads/${id}`)) left.push(key)
    expect(left).toEqual([])
  })

  it('refuses a key that is not one of its own', async () => {
    await expect(store.put('../escape', Readable.from([Buffer.from('x')]), 'image/png')).rejects.toThrow('Not a media store key')
    await expect(store.get('media/../../etc/passwd')).rejects.toThrow('Not a media store key')
  })
})

describe('--media-store', () => {
  it('defaults to the data dir, takes an absolute directory or a bucket and prefix, and names what it takes otherwise', () => {
    expect(parseMediaStore(undefined, '/data')).toEqual({ kind: 'file', dir: '/data/media', explicit: false })
    expect(parseMediaStore('file:///srv/smm-media', '/data')).toEqual({ kind: 'file', dir: '/srv/smm-media', explicit: true })
    expect(parseMediaStore('s3://bucket', '/data')).toEqual({ kind: 's3', bucket: 'bucket', prefix: '' })
    expect(parseMediaStore('s3://bucket/smm/media/', '/data')).toEqual({ kind: 's3', bucket: 'bucket', prefix: 'smm/media' })
    expect(() => parseMediaStore('/srv/media', '/data')).toThrow('--media-store /srv/media: not a URL. It takes file:///ABSOLUTE/DIR or s3://BUCKET[/PREFIX].')
    expect(() => parseMediaStore('ftp://host/x', '/data')).toThrow('ftp: is not a media store')
    expect(() => parseMediaStore('s3://key:secret@bucket', '/data')).toThrow('credentials and options go in the environment')
  })

  it('leaves no partial file in the directory after a failed write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-media-'))
    const store = await openMediaStore(parseMediaStore(`file://${dir}`, '/unused'))
    await expect(store.put(mediaKey('med_01TESTPARTIAL00000000000000'), brokenAfter(randomBytes(1000)), 'image/png')).rejects.toThrow()
    expect(readdirSync(join(dir, '.partial'))).toEqual([])
    rmSync(dir, { recursive: true, force: true })
  })
})
