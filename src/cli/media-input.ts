// Media a command is given (`--media`, `media upload FILE`, a CSV's media_urls cell): a link to
// media someone else hosts, a media object already uploaded, or a file on this disk, which is
// checked here (it exists, is a file, can be read, is a type smm takes) and then uploaded as it
// is read: never whole in memory.
import { createReadStream } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { isMediaType, MEDIA_TYPES_IN_WORDS, mediaTypeOf, type Media, type MediaType } from '../api/media.js'
import type { MediaRef } from '../api/posts.js'
import type { SmmClient } from '../client/smm-client.js'
import { printable } from '../display-width.js'
import { hasPrefix } from '../ids.js'
import { formatSize } from '../numbers.js'
import { usageError } from './command-error.js'

/** A `--media` value: a URL (sent as `media_urls`), an uploaded media's id, or a local file. */
export type MediaArg = { kind: 'url'; url: string } | { kind: 'id'; id: string } | { kind: 'file'; path: string }

/** A local file checked for upload: its size and the type its first bytes say it is. */
export interface LocalMedia {
  path: string
  size: number
  type: MediaType
}

/** Files at least this large show a progress bar while they upload (on a terminal). */
export const PROGRESS_MIN_BYTES = 4 * 1024 * 1024

/** What file-type needs to tell a format by its first bytes (as the daemon reads them). */
const SNIFF_BYTES = 4_100

/** `https://…` (any scheme with `//`) is a URL, `med_…` an uploaded media; anything else names a file. */
export function mediaArg(value: string): MediaArg {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return { kind: 'url', url: value }
  if (hasPrefix(value, 'med')) return { kind: 'id', id: value }
  return { kind: 'file', path: value }
}

/** A path as a message shows it: as typed, or quoted with its control characters made visible when it has odd ones. */
export function shownPath(path: string): string {
  return /^[\w./~+@%,:=-]+$/.test(path) ? path : `"${printable(path).replace(/"/g, '\\"')}"`
}

/**
 * The file at `path`, checked for upload, or a usage error (exit 2) that starts with `what` and
 * says what is wrong (`what` empty: the message starts with the path, `shown`): no such file, a directory, not readable, empty, or not a type smm takes
 * (and which ones it does). Only the file's first bytes are read.
 */
export async function localMedia(path: string, what: string, shown = shownPath(path)): Promise<LocalMedia> {
  const at = what ? `${what}: ` : ''
  const failed = (error: unknown): never => {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') throw usageError('file_not_found', `${at}${shown}: no such file`)
    if (code === 'EACCES' || code === 'EPERM') throw usageError('file_unreadable', `${at}${shown} cannot be read (permission denied)`)
    if (code === 'EISDIR') throw usageError('not_a_file', `${at}${shown} is a directory; name one file`)
    throw usageError('file_unreadable', `${at}${shown} cannot be read: ${(error as Error).message}`)
  }
  const info = await stat(path).catch(failed)
  if (info.isDirectory()) throw usageError('not_a_file', `${at}${shown} is a directory; name one file`)
  if (!info.isFile()) throw usageError('not_a_file', `${at}${shown} is not a regular file (a device, a socket or a pipe cannot be uploaded)`)
  if (info.size === 0) throw usageError('file_empty', `${at}${shown} is empty`)
  const handle = await open(path, 'r').catch(failed)
  let head: Buffer
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(Math.min(SNIFF_BYTES, info.size)), 0, Math.min(SNIFF_BYTES, info.size), 0)
    head = buffer.subarray(0, bytesRead)
  } catch (error) {
    return failed(error)
  } finally {
    await handle.close()
  }
  // Loaded here: only a command that uploads needs it.
  const { fileTypeFromBuffer } = await import('file-type')
  const sniffed = await fileTypeFromBuffer(head)
  const type = sniffed ? mediaTypeOf(sniffed.mime) : undefined
  if (type === undefined || !isMediaType(type)) {
    const is = sniffed ? `a ${sniffed.ext.toUpperCase()} file (${sniffed.mime})` : 'not an image or a video smm recognises'
    throw usageError('unsupported_media_type', `${at}${shown} is ${is}; smm takes ${MEDIA_TYPES_IN_WORDS}`)
  }
  return { path, size: info.size, type }
}

/**
 * A progress bar on standard error, redrawn in place as the bytes leave (at most once a
 * percent), closed with a line break by `end()` however the upload ends.
 */
function progressBar(label: string, total: number): { update: (sent: number) => void; end: () => void } {
  const width = 24
  let shown = -1
  let last = 0
  const draw = (sent: number) => {
    const percent = Math.floor((sent / total) * 100)
    if (percent === shown) return
    shown = percent
    last = sent
    const filled = Math.round((width * sent) / total)
    process.stderr.write(`\r\x1b[KUploading ${label} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${String(percent).padStart(3)}%  ${formatSize(sent)} of ${formatSize(total)}`)
  }
  draw(0)
  return {
    update: draw,
    end: () => process.stderr.write(last === total ? '\n' : ' (stopped)\n'),
  }
}

/**
 * Uploads a checked file (POST /v1/media, its bytes streamed from the disk), with its alt text.
 * `progress`: show a bar on standard error, which the caller allows only on a terminal; it is
 * drawn for files of PROGRESS_MIN_BYTES or more.
 */
export async function uploadMedia(client: SmmClient, file: LocalMedia, options: { altText?: string; progress: boolean }): Promise<Media> {
  const bar = options.progress && file.size >= PROGRESS_MIN_BYTES ? progressBar(printable(basename(file.path)), file.size) : undefined
  try {
    return await client.uploadMedia({
      query: options.altText === undefined ? {} : { alt_text: options.altText },
      upload: { open: () => createReadStream(file.path), contentType: file.type, length: file.size, onProgress: bar && ((sent) => bar.update(sent)) },
    })
  } finally {
    bar?.end()
  }
}

/** What a post's `--media` and `--alt` flags become in its request: the URLs, and the uploaded media in order. */
export interface PostMediaFields {
  media_urls: string[]
  media: MediaRef[]
}

/** How postMedia sends local files: uploaded (the client, and whether to draw progress), or only checked (a dry run). */
export type MediaUpload = { client: () => Promise<SmmClient>; progress: boolean } | 'check only'

/** One `--media` and the `--alt` given after it, if any. */
export interface MediaWithAlt {
  value: string
  alt?: string
}

/**
 * The `--media` values in the order given, each with the `--alt` that follows it on the command
 * line (oclif's raw tokens keep that order): `--media a.jpg --alt "A desk" --media b.png`. An
 * --alt before any --media, or a second one for the same --media, is a usage error.
 */
export function mediaWithAlt(tokens: readonly { type: string; flag?: string; input?: string }[]): MediaWithAlt[] {
  const items: MediaWithAlt[] = []
  for (const token of tokens) {
    if (token.type !== 'flag' || token.input === undefined) continue
    if (token.flag === 'media') items.push({ value: token.input })
    if (token.flag !== 'alt') continue
    const last = items.at(-1)
    if (!last) throw usageError('invalid_flag', `--alt "${printable(token.input)}" comes before any --media: give it right after the --media it describes`)
    if (last.alt !== undefined) throw usageError('invalid_flag', `--media ${items.length} has two --alt; give each --media at most one, right after it`)
    last.alt = token.input
  }
  return items
}

/**
 * Reads a post's `--media` (with their `--alt`): every local file is checked first (so nothing
 * is uploaded when one is wrong), then uploaded, or with 'check only' left out. A URL carries no
 * alt text (`media_urls` has none): an --alt for one is a usage error.
 */
export async function postMedia(items: readonly MediaWithAlt[], upload: MediaUpload): Promise<PostMediaFields> {
  const args = items.map((item) => mediaArg(item.value))
  const alts = items.map((item) => item.alt)
  args.forEach((arg, i) => {
    if (arg.kind === 'url' && alts[i] !== undefined) {
      throw usageError('invalid_flag', `--alt: --media ${i + 1} is a link (${arg.url}), which carries no alt text; upload the file (--media ./FILE) to describe it`)
    }
  })
  const files = await Promise.all(args.map((arg, i) => (arg.kind === 'file' ? localMedia(arg.path, `--media ${i + 1}`) : undefined)))
  const fields: PostMediaFields = { media_urls: [], media: [] }
  for (const [i, arg] of args.entries()) {
    const alt = alts[i]
    if (arg.kind === 'url') fields.media_urls.push(arg.url)
    else if (arg.kind === 'id') fields.media.push({ id: arg.id, ...(alt !== undefined ? { alt_text: alt } : {}) })
    else if (upload !== 'check only') {
      // Its alt text becomes the media's own: kept with it for the next post that uses it.
      const media = await uploadMedia(await upload.client(), files[i]!, { altText: alt, progress: upload.progress })
      fields.media.push({ id: media.id })
    }
  }
  return fields
}
