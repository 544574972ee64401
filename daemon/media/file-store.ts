import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { checkKey, MediaNotFoundError, STREAM_AHEAD_BYTES, type MediaStore } from './port.js'

/** Files left in `.partial` by a crash mid-write are removed once this old. */
const STALE_PARTIAL_MS = 24 * 3_600_000

/**
 * Media as files under a directory (the data dir's `media/` by default, or a mount several
 * daemons share). A write goes to `.partial/` and is renamed into place once whole and flushed,
 * so a reader never sees half a file and a failed write leaves none.
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

  return {
    location: root,
    async put(key, body) {
      const target = pathOf(key)
      const temp = join(partial, `${key.replaceAll('/', '_')}.${randomUUID()}`)
      try {
        const out = createWriteStream(temp, { mode: 0o600, flags: 'wx', highWaterMark: STREAM_AHEAD_BYTES })
        await pipeline(body, out)
        // Flushed before it is renamed into place: after a crash, a file present is a file whole.
        const handle = await open(temp, 'r')
        try {
          await handle.sync()
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
    },
    async get(key, range) {
      const path = pathOf(key)
      // Opened here, so a missing file is this call's error rather than the stream's.
      const handle = await open(path, 'r').catch((error: unknown) => {
        throw missing(error) ? new MediaNotFoundError(key) : error
      })
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {})
    },
    async size(key) {
      try {
        return (await stat(pathOf(key))).size
      } catch (error) {
        if (missing(error)) return undefined
        throw error
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true })
    },
    async *list(prefix) {
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
    },
    async close() {},
  }
}
