import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import { ApiError } from '../../src/errors.js'
import { STREAM_AHEAD_BYTES, uploadPieceKey, uploadPrefix, type MediaStore } from './port.js'

/**
 * A PATCH's bytes as they arrive, at most `room` of them (more: 413 `upload_too_long`), `keep`
 * awaited before each chunk is handed on (it keeps the claim alive, and throws once it is lost).
 * A client that goes away ends them without an error: what arrived is kept, and the client
 * resumes from there (tus core: the offset is what the server has).
 */
export async function* patchBytes(req: IncomingMessage, room: number, keep: () => Promise<void>): AsyncGenerator<Buffer> {
  let total = 0
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      total += chunk.length
      if (total > room) {
        throw new ApiError(413, 'upload_too_long', `The body runs past the upload's length: only ${room} more bytes were expected. Send at most the bytes that are left.`)
      }
      await keep()
      yield chunk
    }
  } catch (error) {
    if (error instanceof ApiError || !clientWentAway(req, error)) throw error
  }
}

/** Whether a request's stream failed because its client stopped sending (closed or reset the connection, or timed out). */
const clientWentAway = (req: IncomingMessage, error: unknown) => req.readableAborted || (error as NodeJS.ErrnoException).code === 'ECONNRESET'

/**
 * The keys of the pieces that make an upload of `length` bytes, in order. Each offset of the
 * upload was claimed by one request after another, each with a greater token, and only the
 * last of them can have had its piece recorded (the offset moves past it, so no later claim
 * starts there): at each offset, the piece of the greatest token is the one. Others are pieces
 * of requests whose claim lapsed or whose client went away before they were recorded.
 */
export async function uploadPieces(store: Pick<MediaStore, 'list' | 'size' | 'location'>, uploadId: string, length: number): Promise<string[]> {
  const latest = new Map<number, { key: string; token: number }>()
  for await (const key of store.list(uploadPrefix(uploadId))) {
    const match = /\/(\d{16})-(\d+)$/.exec(key)
    if (!match) continue
    const offset = Number(match[1])
    const token = Number(match[2])
    if ((latest.get(offset)?.token ?? -1) < token) latest.set(offset, { key, token })
  }
  const keys: string[] = []
  let at = 0
  while (at < length) {
    const piece = latest.get(at)
    const size = piece && (await store.size(piece.key))
    if (!piece || !size) throw new Error(`upload ${uploadId}: no piece starts at ${at} of ${length} bytes in ${store.location}`)
    keys.push(piece.key)
    at += size
  }
  if (at !== length) throw new Error(`upload ${uploadId}: its pieces make ${at} bytes, not ${length}`)
  return keys
}

/** The bytes of pieces one after another, each streamed from the store. */
export async function* readPieces(store: Pick<MediaStore, 'get'>, keys: readonly string[]): AsyncGenerator<Buffer> {
  for (const key of keys) yield* (await store.get(key)) as AsyncIterable<Buffer>
}

/** The object calls tus uploads are made of, in a store that keeps each PATCH as an object of its own. */
type ObjectCalls = Pick<MediaStore, 'location' | 'put' | 'get' | 'size' | 'delete' | 'list'>

/**
 * tus uploads in a store that cannot add bytes to an object (S3): each PATCH's bytes are a piece,
 * an object named by the offset it starts at and its claim's token, and the last PATCH streams
 * the pieces, in order (through the checks, when asked), into the media's object, then removes them. Their
 * bytes are therefore written twice.
 */
export function pieceUploads(store: ObjectCalls): Pick<MediaStore, 'writeUpload' | 'assembleUpload' | 'removeUpload'> {
  return {
    async writeUpload(uploadId, offset, token, body) {
      const key = uploadPieceKey(uploadId, offset, token)
      const bytes = await store.put(key, body, 'application/octet-stream')
      if (bytes === 0) await store.delete(key)
      return bytes
    },
    async assembleUpload(uploadId, length, _token, key, contentType, check) {
      const pieces = await uploadPieces(store, uploadId, length)
      const bytes = readPieces(store, pieces)
      await store.put(key, Readable.from(check ? check(bytes) : bytes, { objectMode: false, highWaterMark: STREAM_AHEAD_BYTES }), contentType)
    },
    async removeUpload(uploadId) {
      for await (const key of store.list(uploadPrefix(uploadId))) await store.delete(key)
    },
  }
}
