import { randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { link, mkdir, open, readdir, rename, rm, stat, truncate, unlink, type FileHandle } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { checkKey, MediaNotFoundError, STREAM_AHEAD_BYTES, UploadClaimLost, uploadPieceKey, uploadPrefix, type MediaStore } from './port.js'
import { readPieces, uploadPieces } from './resumable.js'

/** Files left in `.partial` by a crash mid-write are removed once this old. */
const STALE_PARTIAL_MS = 24 * 3_600_000

/** What a claim's upload file is called while it writes to it: another claim may copy from it, never take it. */
const WRITING = '-writing'

/** One file of a tus upload: `<offset>-<token>` (its claim is done with it) or with `-writing` after it. */
interface UploadFile {
  name: string
  offset: number
  token: number
  writing: boolean
  size: number
}

/**
 * How many written bytes the disk is asked to take at a time while a body streams into a file.
 * Linux keeps written bytes in memory until it has gigabytes of them, so the flush that makes a
 * file whole would otherwise wait for the disk to write all of it (a tenth of a second or more
 * for 256 MB) after its last byte arrived; flushed as they come, it waits for the last stretch.
 */
const FLUSH_EVERY_BYTES = 16 * 1024 * 1024

/** Waits until a write stream's file is closed, its last writes done (a failed pipeline rejects before that). */
const closed = (out: Writable & { closed: boolean }) => (out.closed ? Promise.resolve() : new Promise<void>((resolve) => out.once('close', () => resolve())))

/**
 * Streams `body` into the open file `handle` (from `start`, or where it is), then flushes the
 * file and closes it, whole or not (what a failed body left is the caller's to remove or keep).
 * While the body streams in, what is written is flushed every FLUSH_EVERY_BYTES, one flush at a
 * time, so the disk writes as the bytes come rather than all at once at the end. Answers the
 * bytes written.
 */
async function writeFlushed(handle: FileHandle, body: Readable, start?: number): Promise<number> {
  const out = handle.createWriteStream({ start, highWaterMark: STREAM_AHEAD_BYTES, flush: true })
  let asked = 0
  let flushing: Promise<void> | undefined
  // A flush's error is reported to one flush only: one that failed on the way fails the write.
  let failed: { error: unknown } | undefined
  // Looked at as each chunk arrives (a body that stalls costs nothing meanwhile).
  const flushSoFar = () => {
    if (flushing || failed || out.writableEnded || out.destroyed || out.bytesWritten - asked < FLUSH_EVERY_BYTES) return
    asked = out.bytesWritten
    // The handle closes only once the flush is done: the stream's own close waits for it.
    flushing = handle.datasync().then(
      () => void (flushing = undefined),
      (error: unknown) => void ((failed = { error }), (flushing = undefined)),
    )
  }
  // The pipe is made at once; the body flows from the next tick, to both listeners.
  const piping = pipeline(body, out)
  body.on('data', flushSoFar)
  try {
    await piping
  } finally {
    body.off('data', flushSoFar)
    await closed(out)
  }
  if (failed) throw failed.error
  return out.bytesWritten
}

/**
 * Media as files under a directory (the data dir's `media/` by default, or a mount several
 * daemons share). A write goes to `.partial/` and is renamed into place once whole and flushed,
 * so a reader never sees half a file and a failed write leaves none.
 *
 * A tus upload is one file that each PATCH lengthens where the last one stopped: its bytes are
 * written once, and its media is that file, linked into place. Its name carries the token of the
 * claim that wrote it last. A claim takes the file over by renaming it to its own name, once its
 * predecessor is done with it (the name says so); a predecessor whose claim lapsed may still be
 * writing, so its successor copies the upload's bytes from it into a file of its own instead.
 * Either way a writer only ever writes to its own file, past the upload's offset: a lapsed one
 * never changes what its successor reads.
 */
export async function fileMediaStore(root: string): Promise<MediaStore> {
  const partial = join(root, '.partial')
  await mkdir(partial, { recursive: true, mode: 0o700 })
  // Best effort: what a crash left mid-write long ago. Each entry's failure is its own.
  for (const name of await readdir(partial)) {
    const file = join(partial, name)
    const info = await stat(file).catch(() => undefined)
    if (info && Date.now() - info.mtimeMs > STALE_PARTIAL_MS) await unlink(file).catch(() => undefined)
  }
  const pathOf = (key: string) => join(root, ...checkKey(key).split('/'))
  const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT'
  const tempFor = (key: string) => join(partial, `${key.replaceAll('/', '_')}.${randomUUID()}`)

  async function put(key: string, body: Readable): Promise<number> {
    const target = pathOf(key)
    const temp = tempFor(key)
    try {
      const handle = await open(temp, 'wx', 0o600)
      try {
        // Flushed before it is renamed into place: after a crash, a file present is a file whole.
        await writeFlushed(handle, body)
      } finally {
        await handle.close()
      }
      await mkdir(dirname(target), { recursive: true, mode: 0o700 })
      await rename(temp, target)
      return (await stat(target)).size
    } catch (error) {
      await rm(temp, { force: true })
      throw error
    }
  }

  /** The files of an upload, the latest claim's first. */
  async function uploadFiles(dir: string): Promise<UploadFile[]> {
    const files: UploadFile[] = []
    for (const name of await readdir(dir).catch((error: unknown) => (missing(error) ? [] : Promise.reject(error)))) {
      const match = /^(\d{16})-(\d+)(-writing)?$/.exec(name)
      const size = match && (await stat(join(dir, name)).then((info) => info.size, () => undefined))
      if (match && size !== undefined && size !== null) files.push({ name, offset: Number(match[1]), token: Number(match[2]), writing: match[3] !== undefined, size })
    }
    return files.sort((a, b) => b.token - a.token)
  }

  /**
   * Makes `mine` a file that holds the upload's first `offset` bytes: the latest claim's file,
   * renamed, if that claim is done with it; otherwise a copy of them (from the latest file that
   * holds them all: one a crash cut short does not).
   */
  async function takeOver(uploadId: string, dir: string, offset: number, token: number, mine: string): Promise<void> {
    if (offset === 0) return void (await open(mine, 'wx', 0o600)).close()
    for (let attempt = 0; attempt < 3; attempt++) {
      const earlier = (await uploadFiles(dir)).filter((file) => file.token < token)
      const source = earlier.find((file) => file.offset === 0 && file.size >= offset)
      if (source && !source.writing) {
        try {
          return await rename(join(dir, source.name), mine)
        } catch (error) {
          // Another claim took it first: the one whose claim lapsed, just before it noticed. Look again.
          if (missing(error)) continue
          throw error
        }
      }
      // A file its writer may still lengthen, or pieces of another store's making (copied from S3): copied.
      const bytes: AsyncIterable<Buffer> = source
        ? createReadStream(join(dir, source.name), { start: 0, end: offset - 1, highWaterMark: STREAM_AHEAD_BYTES })
        : readPieces({ get }, await uploadPieces({ list, size, location: root }, uploadId, offset))
      const out = createWriteStream(mine, { mode: 0o600, flags: 'wx', highWaterMark: STREAM_AHEAD_BYTES })
      return await pipeline(bytes, out)
    }
    throw new UploadClaimLost(uploadId)
  }

  async function get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const path = pathOf(key)
    // Opened here, so a missing file is this call's error rather than the stream's.
    const handle = await open(path, 'r').catch((error: unknown) => {
      throw missing(error) ? new MediaNotFoundError(key) : error
    })
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {})
  }

  async function size(key: string): Promise<number | undefined> {
    try {
      return (await stat(pathOf(key))).size
    } catch (error) {
      if (missing(error)) return undefined
      throw error
    }
  }

  async function* list(prefix: string): AsyncGenerator<string> {
    const base = pathOf(prefix)
    const walk = async function* (dir: string): AsyncGenerator<string> {
      let entries
      try {
        entries = await readdir(dir, { withFileTypes: true })
      } catch (error) {
        if (missing(error)) return
        throw error
      }
      for (const entry of entries) {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) yield* walk(path)
        else if (entry.isFile()) yield relative(root, path).split(sep).join('/')
      }
    }
    yield* walk(base)
  }

  return {
    location: root,
    put,
    get,
    size,
    list,
    async delete(key) {
      await rm(pathOf(key), { force: true })
    },

    async writeUpload(uploadId, offset, token, body) {
      const dir = pathOf(uploadPrefix(uploadId))
      await mkdir(dir, { recursive: true, mode: 0o700 })
      const name = uploadPieceKey(uploadId, 0, token).split('/').at(-1)!
      const mine = join(dir, name + WRITING)
      // A file of this claim's gone missing was removed by a later claim, which took the upload over.
      const lost = (error: unknown) => {
        throw missing(error) ? new UploadClaimLost(uploadId) : error
      }
      await takeOver(uploadId, dir, offset, token, mine).catch(lost)
      // Earlier claims' files hold nothing the upload needs any more; a lapsed writer's writes go to its own, removed, file.
      for (const file of await uploadFiles(dir)) if (file.token < token) await rm(join(dir, file.name), { force: true })
      // Past the offset: what a PATCH of this claim's predecessor wrote and never recorded.
      await truncate(mine, offset).catch(lost)
      const handle = await open(mine, 'r+').catch(lost)
      try {
        // Done with the file, whole or not: flushed, and named so that the next claim may take it over.
        return await writeFlushed(handle, body, offset)
      } finally {
        await handle.close()
        await rename(mine, join(dir, name)).catch((error: unknown) => {
          if (!missing(error)) throw error
        })
      }
    },

    async assembleUpload(uploadId, length, token, key, _contentType, check) {
      const file = join(pathOf(uploadPrefix(uploadId)), uploadPieceKey(uploadId, 0, token).split('/').at(-1)!)
      let held = 0
      try {
        if (check) {
          // Read in the stream's own small chunks: the checks keep none of them, and the file is in the page cache.
          for await (const chunk of check(createReadStream(file, { start: 0, end: length - 1 }))) held += chunk.length
        } else held = (await stat(file)).size
      } catch (error) {
        throw missing(error) ? new UploadClaimLost(uploadId) : error
      }
      if (held !== length) throw new Error(`upload ${uploadId}: its file holds ${held} bytes, not ${length}`)
      // The media is the upload's file under a second name: its bytes are not written again.
      const target = pathOf(key)
      const temp = tempFor(key)
      await mkdir(dirname(target), { recursive: true, mode: 0o700 })
      try {
        await link(file, temp)
        await rename(temp, target)
      } catch (error) {
        await rm(temp, { force: true })
        if (missing(error)) throw new UploadClaimLost(uploadId)
        throw error
      }
    },

    async removeUpload(uploadId) {
      await rm(pathOf(uploadPrefix(uploadId)), { recursive: true, force: true })
    },
    async close() {},
  }
}
