import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { text as text2 } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MediaNotFoundError, mediaKey, openMediaStore, parseMediaStore, UploadClaimLost, uploadPieceKey, type MediaStore } from '../daemon/media/index.js'
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
    expect(await text2(await store.get(key))).toBe('first')
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

  const text = (value: string) => Readable.from([Buffer.from(value)])
  const assembled = async (id: string, length: number, token: number, key: string) => {
    const passed: string[] = []
    await store.assembleUpload(id, length, token, key, 'image/png', async function* (bytes) {
      for await (const chunk of bytes) {
        passed.push(chunk.toString())
        yield chunk
      }
    })
    return passed.join('')
  }
  const kept = async (id: string) => {
    const left: string[] = []
    for await (const key of store.list(`uploads/${id}`)) left.push(key)
    return left
  }

  it('keeps a tus upload PATCH after PATCH, each claim writing past the offset, and makes the media of its bytes', async () => {
    const id = 'upl_01TESTUPLOADWHOLE0000000000'
    // Claim 5 wrote at 0 and its bytes were never recorded (the offset stayed 0); claim 9 wrote there again.
    expect(await store.writeUpload(id, 0, 5, text('stale bytes, never recorded'))).toBe(27)
    expect(await store.writeUpload(id, 0, 9, text('hello, '))).toBe(7)
    expect(await store.writeUpload(id, 7, 12, text('tus '))).toBe(4)
    // A claim that nothing reached writes nothing, and what the upload holds stays.
    expect(await store.writeUpload(id, 11, 15, text(''))).toBe(0)
    expect(await store.writeUpload(id, 11, 20, text('world'))).toBe(5)
    const key = mediaKey('med_01TESTUPLOADWHOLE0000000000')
    // Every byte goes by the check, in order; the media is those bytes.
    expect(await assembled(id, 16, 20, key)).toBe('hello, tus world')
    expect(await text2(await store.get(key))).toBe('hello, tus world')
    await store.removeUpload(id)
    expect(await kept(id)).toEqual([])
    // The media outlives its upload.
    expect(await text2(await store.get(key))).toBe('hello, tus world')
    await store.delete(key)
  })

  it('keeps bodies of tens of megabytes whole, put at once and PATCH by PATCH', async () => {
    // Past the stretch the file store flushes at while a body streams in (16 MB): the flushes run beside the writes.
    const MB = 1024 * 1024
    const bytes = randomBytes(40 * MB)
    const inPieces = (from: number, to: number) =>
      Readable.from(Array.from({ length: Math.ceil((to - from) / 65_536) }, (_, i) => bytes.subarray(from + i * 65_536, Math.min(to, from + (i + 1) * 65_536))))
    const key = mediaKey('med_01TESTLARGE000000000000000')
    expect(await store.put(key, inPieces(0, bytes.length), 'video/mp4')).toBe(bytes.length)
    expect(sha(await read(await store.get(key)))).toBe(sha(bytes))
    await store.delete(key)
    const id = 'upl_01TESTUPLOADLARGE0000000000'
    expect(await store.writeUpload(id, 0, 40, inPieces(0, 24 * MB))).toBe(24 * MB)
    expect(await store.writeUpload(id, 24 * MB, 41, inPieces(24 * MB, bytes.length))).toBe(16 * MB)
    await store.assembleUpload(id, bytes.length, 41, key, 'video/mp4')
    expect(sha(await read(await store.get(key)))).toBe(sha(bytes))
    await store.removeUpload(id)
    await store.delete(key)
  })

  it('keeps what an upload held when a PATCH fails halfway, and makes nothing when the check refuses the bytes', async () => {
    const id = 'upl_01TESTUPLOADBROKEN000000000'
    await store.writeUpload(id, 0, 30, text('abc'))
    await expect(store.writeUpload(id, 3, 31, brokenAfter(Buffer.from('de')))).rejects.toThrow('aborted')
    expect(await store.writeUpload(id, 3, 32, text('def'))).toBe(3)
    const key = mediaKey('med_01TESTUPLOADBROKEN000000000')
    await expect(
      store.assembleUpload(id, 6, 32, key, 'image/png', async function* (bytes) {
        for await (const chunk of bytes) if (chunk.length) throw new Error('not a PNG')
      }),
    ).rejects.toThrow('not a PNG')
    expect(await store.size(key)).toBeUndefined()
    expect(await assembled(id, 6, 32, key)).toBe('abcdef')
    await store.removeUpload(id)
    await store.delete(key)
  })

  it('makes the media of an upload checked on the way in without a check, and refuses one whose bytes fall short', async () => {
    const id = 'upl_01TESTUPLOADUNCHECKED0000000'
    await store.writeUpload(id, 0, 50, text('checked '))
    await store.writeUpload(id, 8, 51, text('already'))
    const key = mediaKey('med_01TESTUPLOADUNCHECKED0000000')
    await expect(store.assembleUpload(id, 20, 51, key, 'image/png')).rejects.toThrow(`upload ${id}`)
    expect(await store.size(key)).toBeUndefined()
    await store.assembleUpload(id, 15, 51, key, 'image/png')
    expect(await text2(await store.get(key))).toBe('checked already')
    await store.removeUpload(id)
    expect(await text2(await store.get(key))).toBe('checked already')
    await store.delete(key)
  })

  it('never lets a claim that lapsed change what a later claim reads, even while it is still writing', async () => {
    const id = 'upl_01TESTUPLOADLAPSED000000000'
    await store.writeUpload(id, 0, 40, text('hello, '))
    // Claim 41 starts at 7, sends a little, and stalls; its claim lapses and claim 42 takes over at 7.
    let resume!: () => void
    const stalled = new Promise<void>((resolve) => (resume = resolve))
    const late = store.writeUpload(
      id,
      7,
      41,
      Readable.from(
        (async function* () {
          yield Buffer.from('XXXX')
          await stalled
          yield Buffer.from('YYYYYYYYYYYYYYYYYYYY')
        })(),
      ),
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await store.writeUpload(id, 7, 42, text('world'))).toBe(5)
    // The lapsed writer wakes and writes on: into its own bytes, which nobody reads.
    resume()
    await late.catch((error: unknown) => expect(error).toBeInstanceOf(UploadClaimLost))
    expect(await assembled(id, 12, 42, mediaKey('med_01TESTUPLOADLAPSED000000000'))).toBe('hello, world')
    await store.removeUpload(id)
    await store.delete(mediaKey('med_01TESTUPLOADLAPSED000000000'))
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
