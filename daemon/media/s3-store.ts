import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, S3ServiceException } from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import type { Readable } from 'node:stream'
import { checkKey, MediaNotFoundError, type MediaStore } from './port.js'
import { pieceUploads } from './resumable.js'

/** Where an S3-compatible store is, and how to reach it. */
export interface S3Location {
  bucket: string
  /** Keys are put under it (`media/…` becomes `<prefix>/media/…`); '' for none. */
  prefix: string
  /** Another S3-compatible server (MinIO, Garage, R2…): addressed path-style. Unset: AWS S3 itself. */
  endpoint?: string
  region?: string
  /** Unset: the AWS SDK's own chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string }
}

/** Multipart pieces of an upload: S3's least but one, two in flight, so an upload holds about 16 MB. */
const PART_BYTES = 8 * 1024 * 1024
const PARTS_IN_FLIGHT = 2

const notFound = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)

/**
 * Media in an S3-compatible bucket, through the AWS SDK: several daemons share it. A write is a
 * multipart upload, completed only once the body ended: a body that fails aborts it, and the
 * object never appears. Reads stream the object's body as it arrives.
 */
export function s3MediaStore(where: S3Location): MediaStore {
  const client = new S3Client({
    region: where.region ?? 'us-east-1',
    ...(where.endpoint ? { endpoint: where.endpoint, forcePathStyle: true } : {}),
    ...(where.credentials ? { credentials: where.credentials } : {}),
  })
  const Bucket = where.bucket
  const prefix = where.prefix ? `${where.prefix.replace(/\/+$/, '')}/` : ''
  const keyOf = (key: string) => `${prefix}${checkKey(key)}`

  const objects: Pick<MediaStore, 'location' | 'put' | 'get' | 'size' | 'delete' | 'list'> = {
    location: `s3://${Bucket}${prefix ? `/${prefix.slice(0, -1)}` : ''}${where.endpoint ? ` at ${where.endpoint}` : ''}`,
    async put(key, body, contentType) {
      let bytes = 0
      body.on('data', (chunk: Buffer) => (bytes += chunk.length))
      const upload = new Upload({ client, params: { Bucket, Key: keyOf(key), Body: body, ContentType: contentType }, partSize: PART_BYTES, queueSize: PARTS_IN_FLIGHT })
      // A body that fails must fail the upload (which aborts its parts), not leave it waiting.
      const failed = new Promise<never>((_, reject) => body.once('error', reject))
      try {
        await Promise.race([upload.done(), failed])
      } catch (error) {
        await upload.abort().catch(() => undefined)
        throw error
      }
      return bytes
    },
    async get(key, range) {
      try {
        const { Body } = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }))
        return Body as Readable
      } catch (error) {
        if (notFound(error)) throw new MediaNotFoundError(key)
        throw error
      }
    },
    async size(key) {
      try {
        return (await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) }))).ContentLength
      } catch (error) {
        if (notFound(error)) return undefined
        throw error
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }))
    },
    async *list(under) {
      let ContinuationToken: string | undefined
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: keyOf(under), ContinuationToken }))
        for (const object of page.Contents ?? []) if (object.Key) yield object.Key.slice(prefix.length)
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken)
    },
  }

  return {
    ...objects,
    // S3 cannot add bytes to an object: a tus upload's PATCHes are pieces, copied into the media at the end.
    ...pieceUploads(objects),
    async close() {
      client.destroy()
    },
  }
}
