import { isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fileMediaStore } from './file-store.js'
import type { MediaStore } from './port.js'

export * from './port.js'
export { copyMediaObjects, type MediaCopied } from './copy.js'

/** How `--media-store` names where media bytes live. */
export type MediaStoreSpec = { kind: 'file'; dir: string; explicit: boolean } | { kind: 's3'; bucket: string; prefix: string }

/** A --media-store value the daemon cannot use, with what it takes instead. */
export class MediaStoreSpecError extends Error {
  constructor(given: string, why: string) {
    super(`--media-store ${given}: ${why}. It takes file:///ABSOLUTE/DIR or s3://BUCKET[/PREFIX].`)
    this.name = 'MediaStoreSpecError'
  }
}

/** Whether two specs name the same place (then there is nothing to copy from one to the other). */
export function sameMediaStore(a: MediaStoreSpec, b: MediaStoreSpec): boolean {
  return a.kind === 'file' && b.kind === 'file' ? a.dir === b.dir : a.kind === 's3' && b.kind === 's3' && a.bucket === b.bucket && a.prefix === b.prefix
}

/** Reads `--media-store` (SMM_MEDIA_STORE); unset: the `media` directory of the data dir. */
export function parseMediaStore(value: string | undefined, dataDir: string): MediaStoreSpec {
  if (value === undefined || value === '') return { kind: 'file', dir: join(dataDir, 'media'), explicit: false }
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new MediaStoreSpecError(value, 'not a URL')
  }
  if (url.protocol === 'file:') {
    if (url.host !== '' && url.host !== 'localhost') throw new MediaStoreSpecError(value, 'a file: URL names a local directory (file:///srv/smm-media), not a host')
    const dir = fileURLToPath(url)
    if (!isAbsolute(dir)) throw new MediaStoreSpecError(value, 'the directory must be absolute')
    return { kind: 'file', dir, explicit: true }
  }
  if (url.protocol === 's3:') {
    if (!url.hostname) throw new MediaStoreSpecError(value, 'it names no bucket')
    if (url.username || url.password || url.search) throw new MediaStoreSpecError(value, 'credentials and options go in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, SMM_S3_ENDPOINT, SMM_S3_REGION), not in the URL')
    return { kind: 's3', bucket: url.hostname, prefix: decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, '')) }
  }
  throw new MediaStoreSpecError(value, `${url.protocol} is not a media store`)
}

/**
 * Opens the media store a spec names. The S3 client is loaded only for an s3:// store: a daemon
 * on its data dir never pays for it. The S3 settings come from the environment, as the AWS tools
 * read them: SMM_S3_ENDPOINT (another S3-compatible server, path-style), SMM_S3_REGION, and the
 * AWS SDK's credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or its other sources).
 */
export async function openMediaStore(spec: MediaStoreSpec, env: NodeJS.ProcessEnv = process.env): Promise<MediaStore> {
  if (spec.kind === 'file') return fileMediaStore(spec.dir)
  const { s3MediaStore } = await import('./s3-store.js')
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env
  return s3MediaStore({
    bucket: spec.bucket,
    prefix: spec.prefix,
    endpoint: env.SMM_S3_ENDPOINT || undefined,
    region: env.SMM_S3_REGION || env.AWS_REGION || undefined,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  })
}
