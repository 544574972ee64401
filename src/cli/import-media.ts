// Files an import file names in its media_urls (a CSV cell, or a JSON post's list) beside
// https:// URLs and uploaded media (med_…): each is a path relative to the import file's own
// folder, which it may not leave, checked before anything is uploaded and uploaded once however
// many posts name it.
import { realpath } from 'node:fs/promises'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import type { MediaRef, PostCreate } from '../api/posts.js'
import type { SmmClient } from '../client/smm-client.js'
import { CommandError } from './command-error.js'
import { localMedia, mediaArg, shownPath, uploadMedia, type LocalMedia, type MediaUpload } from './media-input.js'
import type { ImportPost, LineError } from './post-import.js'

interface MediaHolder {
  /** The pointer of the holder below the post: '' for the post, `thread/0/`, `overrides/x/`… */
  pointer: string
  holder: { media_urls?: string[]; media?: MediaRef[] }
}

/** Every object of a post's request that holds media: the post, its thread parts, each platform's version and its thread. */
function holdersOf(request: PostCreate): MediaHolder[] {
  const holders: MediaHolder[] = [{ pointer: '', holder: request }]
  request.thread?.forEach((part, i) => holders.push({ pointer: `thread/${i}/`, holder: part }))
  for (const [name, version] of Object.entries(request.overrides ?? {})) {
    if (!version) continue
    holders.push({ pointer: `overrides/${name}/`, holder: version })
    version.thread?.forEach((part, i) => holders.push({ pointer: `overrides/${name}/thread/${i}/`, holder: part }))
  }
  return holders
}

/** The files an import names, checked: by the text that names them, their real path and what they are. */
export type ImportFiles = Map<string, LocalMedia & { real: string }>

/**
 * Checks every file the posts name: within `folder` (the import file's; an absolute path, or one
 * that climbs out of it, even by a symbolic link, is refused), a file, readable, a type smm takes.
 * Answers the files, and a line error for each one that is not, on the post's line and column.
 */
export async function checkImportMedia(posts: ImportPost[], folder: string): Promise<{ files: ImportFiles; errors: LineError[] }> {
  const files: ImportFiles = new Map()
  const errors: LineError[] = []
  const base = await realpath(folder)
  for (const post of posts) {
    for (const { pointer, holder } of holdersOf(post.request)) {
      for (const value of holder.media_urls ?? []) {
        const arg = mediaArg(value)
        if (arg.kind !== 'file' || files.has(value)) continue
        const problem = (detail: string) => errors.push({ ...post.place(`${pointer}media_urls`), detail, post })
        try {
          files.set(value, await checkedFile(value, base))
        } catch (error) {
          if (!(error instanceof CommandError)) throw error
          problem(error.message)
        }
      }
    }
  }
  return { files, errors }
}

async function checkedFile(value: string, base: string): Promise<LocalMedia & { real: string }> {
  const shown = shownPath(value)
  const refuse = (why: string) => new CommandError('invalid_media_path', `${shown} ${why}`)
  if (/[\u0000-\u001f\u007f]/.test(value)) throw refuse('has a control character in its name: rename the file')
  if (isAbsolute(value)) throw refuse(`is an absolute path; name files relative to the import file's folder (${base})`)
  const path = resolve(base, value)
  const real = await realpath(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
      throw new CommandError('file_not_found', `${shown}: no such file (looked for ${path}); files are named relative to the import file's folder, and separated by spaces`)
    }
    return path // localMedia says what else is wrong with it
  })
  const inside = relative(base, real)
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw refuse(`leads out of the import file's folder (${base}); put the file in it or in a folder under it`)
  }
  return { ...(await localMedia(real, '', shown)), real }
}

/**
 * Puts the files in place in the posts' requests: uploaded (each file once) and named in
 * `media`, after the media the post names by id; the URLs stay in `media_urls`. With 'check
 * only' (a dry run) they are left out. A platform's version that goes without media_urls goes
 * without uploaded media too.
 */
export async function attachImportMedia(requests: PostCreate[], files: ImportFiles, send: MediaUpload): Promise<void> {
  const uploaded = new Map<string, Promise<string>>()
  const upload = (file: LocalMedia & { real: string }, client: SmmClient, progress: boolean) => {
    if (!uploaded.has(file.real)) uploaded.set(file.real, uploadMedia(client, file, { progress }).then((media) => media.id))
    return uploaded.get(file.real)!
  }
  for (const request of requests) {
    for (const { holder } of holdersOf(request)) {
      const list = holder.media_urls
      if (!list) continue
      if (list.length === 0) {
        holder.media ??= []
        continue
      }
      const refs: MediaRef[] = []
      const urls: string[] = []
      for (const value of list) {
        const arg = mediaArg(value)
        if (arg.kind === 'url') urls.push(arg.url)
        else if (arg.kind === 'id') refs.push({ id: arg.id })
        else if (send !== 'check only') refs.push({ id: await upload(files.get(value)!, await send.client(), send.progress) })
      }
      if (urls.length) holder.media_urls = urls
      else delete holder.media_urls
      if (refs.length) holder.media = [...(holder.media ?? []), ...refs]
    }
  }
}
