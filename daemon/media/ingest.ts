import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { fileTypeFromBuffer } from 'file-type'
import { imageSize } from 'image-size'
import * as MP4Box from 'mp4box'
import { isMediaType, MEDIA_TYPES, mediaTypeOf, type MediaType } from '../../src/api/media.js'
import { ApiError } from '../../src/errors.js'
import type { MediaFacts } from '../store/index.js'
import { STREAM_AHEAD_BYTES, type MediaStore } from './port.js'

/** What file-type needs to tell a format by its first bytes. */
const SNIFF_BYTES = 4_100
/** An image's header is read from this much of its start: a JPEG's frame header follows its metadata, which can be long. */
const IMAGE_HEAD_BYTES = 1024 * 1024
/** A JPEG's end-of-image marker is looked for in this much of its end: cameras append data after it. */
const TAIL_BYTES = 64 * 1024

export { isMediaType }

export const unsupportedType = (given: string) =>
  new ApiError(
    415,
    'unsupported_media_type',
    given
      ? `Media must be one of ${MEDIA_TYPES.join(', ')}; the Content-Type given is "${given}". Convert the file to one of them.`
      : `Send the file's type as the Content-Type header: one of ${MEDIA_TYPES.join(', ')}.`,
  )

const unreadable = (type: MediaType, why: string) => new ApiError(422, 'media_unreadable', `The body is not a whole ${type} file: ${why}. Upload the file again, complete.`)

/** What an upload may grow to, and the error that says so when it does. */
export interface UploadCap {
  bytes: number
  error: () => ApiError
}

/** Whether the image's last bytes close it as its format requires: a file cut short does not. */
function endsWhole(type: MediaType, tail: Buffer, total: number, head: Buffer): boolean {
  switch (type) {
    case 'image/png':
      return tail.subarray(-8).equals(Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]))
    case 'image/gif':
      return tail.at(-1) === 0x3b
    case 'image/webp':
      return head.length >= 8 && head.readUInt32LE(4) + 8 === total
    case 'image/jpeg':
      return tail.includes(Buffer.from([0xff, 0xd9]))
    default:
      return true
  }
}

/** A video's length and size, read by mp4box as the bytes go by (it keeps none of the media data). */
function videoReader() {
  const file = MP4Box.createFile(false)
  let info: MP4Box.Movie | undefined
  let failed: string | undefined
  let position = 0
  file.onReady = (movie) => (info = movie)
  file.onError = (_module, message) => (failed ??= message)
  return {
    // Every byte goes by it, media data too (which it skips and drops): the last box must be seen whole.
    push(chunk: Buffer) {
      // mp4box takes an ArrayBuffer: a chunk that is a whole one (a socket's or a file's read) goes as it is, a view is copied out.
      const whole = chunk.byteOffset === 0 && chunk.length === chunk.buffer.byteLength
      const buffer = (whole ? chunk.buffer : chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.length)) as MP4Box.MP4BoxBuffer
      buffer.fileStart = position
      position += chunk.length
      file.appendBuffer(buffer)
    },
    facts(type: MediaType, total: number): Pick<MediaFacts, 'width' | 'height' | 'durationMs'> {
      file.flush()
      if (!info) throw unreadable(type, failed ?? 'no movie header (moov) was found in it')
      // Each top-level box says how long it is: a file cut short ends before its last box does.
      const last = file.boxes.at(-1)
      const end = (last?.start ?? 0) + (last?.size ?? 0)
      if (end > total) throw unreadable(type, `it ends after ${total} bytes, inside a box that runs to ${end}`)
      const video = info.videoTracks[0]
      const scale = info.timescale || 1
      return { width: video?.video?.width ?? null, height: video?.video?.height ?? null, durationMs: Math.round((Number(info.duration) / scale) * 1000) }
    },
  }
}

/** The checks of an upload's bytes, made as they go by: `open` them (or `pass` them in stretches), then ask `facts` (or `finish`). */
export interface Inspection {
  /**
   * Reads the first bytes and checks the type they are (it must be the one declared: 422
   * `media_type_mismatch`; none: 422 `media_empty`), then answers every byte of `source`, each
   * counted (past the cap, its error), hashed and read for its dimensions or movie header.
   */
  open(source: AsyncIterable<Buffer>): Promise<AsyncGenerator<Buffer>>
  /**
   * Answers every byte of `source`, one more stretch of the upload's bytes (a tus PATCH's), each
   * taken as `open` takes it before it is handed on. The type is read once the first bytes have
   * gone by, and a wrong one is kept for `finish`: what a PATCH brings is stored whatever it is.
   */
  pass(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer>
  /** How many bytes have gone by. */
  readonly bytes: number
  /** What the bytes were, once they have all gone by: 422 `media_unreadable` if cut short or damaged. */
  facts(): MediaFacts
  /** `facts` of bytes that went by through `pass`, their type checked first as `open` checks it. */
  finish(): Promise<MediaFacts>
}

/**
 * The checks POST /v1/media and tus uploads make on a file's bytes: the type read from the first
 * bytes, the size, SHA-256, and an image's dimensions or a video's dimensions and length, each
 * read by a library made for it, without holding the file whole in memory.
 */
export function inspection(declared: MediaType, cap: UploadCap): Inspection {
  const hash = createHash('sha256')
  const image = declared.startsWith('image/')
  const video = image ? undefined : videoReader()
  let head: Buffer[] = []
  let headBytes = 0
  let tail = Buffer.alloc(0)
  let total = 0
  const take = (chunk: Buffer) => {
    total += chunk.length
    if (total > cap.bytes) throw cap.error()
    hash.update(chunk)
    if (image) {
      if (headBytes < IMAGE_HEAD_BYTES) {
        head.push(chunk)
        headBytes += chunk.length
      }
      tail = tail.length + chunk.length > TAIL_BYTES ? Buffer.concat([tail, chunk]).subarray(-TAIL_BYTES) : Buffer.concat([tail, chunk])
    } else video!.push(chunk)
    return chunk
  }
  /** The type the first bytes are, against the one declared. */
  const checkType = async (first: Buffer) => {
    if (first.length === 0) throw new ApiError(422, 'media_empty', 'The body is empty: send the bytes of the file.')
    const sniffed = await fileTypeFromBuffer(first)
    const actual = sniffed && mediaTypeOf(sniffed.mime)
    if (actual !== declared) {
      const what = actual ? (isMediaType(actual) ? actual : `${actual}, not a type smm takes`) : 'no image or video format smm knows'
      throw new ApiError(422, 'media_type_mismatch', `The body was sent as ${declared}, but its bytes are ${what}. Send it with its own Content-Type${actual && isMediaType(actual) ? ` (${actual})` : ''}.`)
    }
  }
  // For `pass`: the first bytes until the type is read, then what reading it found.
  let start: Buffer[] | undefined = []
  let typeChecked: Promise<unknown> | undefined
  const readType = () => (typeChecked ??= checkType(Buffer.concat(start!)).then(() => undefined, (error: unknown) => error))

  const facts = (): MediaFacts => {
    const sha256 = hash.digest('hex')
    if (video) return { contentType: declared, bytes: total, sha256, ...video.facts(declared, total) }
    const whole = Buffer.concat(head)
    head = []
    let size: { width?: number; height?: number }
    try {
      size = imageSize(whole)
    } catch (error) {
      throw unreadable(declared, `its header cannot be read (${(error as Error).message})`)
    }
    if (!endsWhole(declared, tail, total, whole)) throw unreadable(declared, 'it is cut short (its end marker is missing)')
    return { contentType: declared, bytes: total, sha256, width: size.width ?? null, height: size.height ?? null, durationMs: null }
  }

  return {
    async open(source) {
      const chunks = source[Symbol.asyncIterator]()
      const first: Buffer[] = []
      let seen = 0
      let ended = false
      while (seen < SNIFF_BYTES) {
        const next = await chunks.next()
        if (next.done) {
          ended = true
          break
        }
        first.push(next.value)
        seen += next.value.length
      }
      const whole = Buffer.concat(first)
      await checkType(whole)
      return (async function* () {
        yield take(whole)
        if (ended) return
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield take(next.value)
      })()
    },
    async *pass(source) {
      for await (const chunk of source) {
        if (start) {
          start.push(chunk)
          if (total + chunk.length >= SNIFF_BYTES) {
            await readType()
            start = undefined
          }
        }
        yield take(chunk)
      }
    },
    get bytes() {
      return total
    },
    facts,
    async finish() {
      const wrong = await readType()
      if (wrong) throw wrong
      return facts()
    },
  }
}

/**
 * Streams an upload into the media store under `key` through the inspection, and answers what
 * its bytes are. Nothing is stored unless the whole body arrived and checked out; the body is
 * never held whole in memory.
 */
export async function ingest(source: AsyncIterable<Buffer>, declared: MediaType, cap: UploadCap, store: MediaStore, key: string): Promise<MediaFacts> {
  const check = inspection(declared, cap)
  const body = await check.open(source)
  let stored = false
  try {
    await store.put(key, Readable.from(body, { objectMode: false, highWaterMark: STREAM_AHEAD_BYTES }), declared)
    stored = true
    return check.facts()
  } catch (error) {
    if (stored) await store.delete(key)
    throw error
  }
}
