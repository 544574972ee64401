import type { Readable } from 'node:stream'

/** A byte range of an object, both ends included (as HTTP's Range writes it). */
export interface ByteRange {
  start: number
  end: number
}

/**
 * Where media bytes live: a port beside the store, in the same shape (one contract suite, a
 * file-system and an S3-compatible implementation). Bytes stream through; nothing holds a whole
 * object in memory. Keys are paths of plain segments (`media/med_…`, `uploads/upl_…/3`).
 */
export interface MediaStore {
  /** Where the bytes are, for people and logs: a directory, or `s3://bucket/prefix at endpoint`. */
  readonly location: string
  /**
   * Writes `body` under `key`. The object appears whole or not at all: if `body` fails (a client
   * that stops sending) or the write does, nothing is left under `key`. Answers the bytes written.
   */
  put(key: string, body: Readable, contentType: string): Promise<number>
  /** The object's bytes, or those of `range`; MediaNotFoundError if there is none. */
  get(key: string, range?: ByteRange): Promise<Readable>
  /** The object's size; undefined if there is none. */
  size(key: string): Promise<number | undefined>
  /** Removes an object; nothing to remove is no error. */
  delete(key: string): Promise<void>
  /** Every key under `prefix`, in no particular order. */
  list(prefix: string): AsyncIterable<string>
  /**
   * Stores the bytes a tus PATCH brings at `offset` of upload `uploadId`, under the claim whose
   * fencing token is `token` (greater than any earlier claim's on the upload), and answers how
   * many arrived. The upload's bytes before `offset` stay as they were, whatever happens; what
   * a claim that lapsed writes never reaches what a later claim reads. UploadClaimLost if a later
   * claim took the upload's bytes over meanwhile.
   */
  writeUpload(uploadId: string, offset: number, token: number, body: Readable): Promise<number>
  /**
   * Makes the `length` bytes of a finished upload (its last bytes written under `token`) the
   * object `key`, each byte passed, in order, through `check` when one is given, which may throw
   * (then nothing is made). Where the store can, the bytes are not written again, nor read
   * without a `check`.
   */
  assembleUpload(uploadId: string, length: number, token: number, key: string, contentType: string, check?: (bytes: AsyncIterable<Buffer>) => AsyncIterable<Buffer>): Promise<void>
  /** Removes what an upload keeps, once its media is made or it is given up; nothing to remove is no error. */
  removeUpload(uploadId: string): Promise<void>
  close(): Promise<void>
}

/** A tus upload's bytes were taken over by a later claim (this one lapsed): nothing this request writes counts. */
export class UploadClaimLost extends Error {
  constructor(uploadId: string) {
    super(`upload ${uploadId} was taken over by a later claim`)
    this.name = 'UploadClaimLost'
  }
}

/**
 * How far an upload's bytes may run ahead of the store's writes: a socket's chunks are 16 KB, and
 * with this much queued the file store writes many at once (one writev) instead of one call each.
 */
export const STREAM_AHEAD_BYTES = 1024 * 1024

export class MediaNotFoundError extends Error {
  constructor(key: string) {
    super(`No media object ${key}`)
    this.name = 'MediaNotFoundError'
  }
}

/** Where a media object's bytes are kept. */
export const mediaKey = (mediaId: string) => `media/${mediaId}`

/** Where a tus upload's bytes are kept until the upload is whole. */
export const uploadPrefix = (uploadId: string) => `uploads/${uploadId}`

/**
 * Where one piece of a tus upload is kept: named by the offset it starts at and by the token of
 * the claim that wrote it, so a writer whose claim lapsed never overwrites its successor's piece.
 * (The file store keeps one piece, at offset 0, that each claim takes over and lengthens.)
 */
export const uploadPieceKey = (uploadId: string, offset: number, token: number) => `${uploadPrefix(uploadId)}/${String(offset).padStart(16, '0')}-${token}`

/** Keys are made by smm from its own ids, never from user input; this is the guard that says so. */
export function checkKey(key: string): string {
  // A bare first segment (`media`) is a prefix to list.
  if (!/^[a-z]+(\/[A-Za-z0-9_-]+)*$/.test(key)) throw new Error(`Not a media store key: ${JSON.stringify(key)}`)
  return key
}
