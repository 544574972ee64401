// Uploaded media as a platform module is handed them at publish: bytes kept in a real file media
// store (read back as a stream on each open), their facts read from the bytes by smm's own ingest.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { MEDIA_EXTENSIONS, type MediaType } from '../../src/api/media.js'
import { ApiError } from '../../src/errors.js'
import { attachmentOf } from '../../daemon/media/attachments.js'
import { fileMediaStore } from '../../daemon/media/file-store.js'
import { ingest } from '../../daemon/media/ingest.js'
import { mediaKey, type MediaStore } from '../../daemon/media/port.js'
import type { MediaAttachment } from '../../daemon/platforms/types.js'

export interface StoredMedia {
  /** Keeps `bytes` as a media of this type (checked as an upload is) and answers it as `publish` gets it. */
  attach(bytes: Buffer, type: MediaType, options?: { alt_text?: string | null; url?: string }): Promise<MediaAttachment>
  close(): Promise<void>
}

export async function storedMedia(): Promise<StoredMedia> {
  const dir = await mkdtemp(path.join(tmpdir(), 'smm-stored-media-'))
  const store: MediaStore = await fileMediaStore(dir)
  let n = 0
  return {
    async attach(bytes, type, options = {}) {
      n++
      const id = `med_01TESTMEDIA${String(n).padStart(17, '0')}`
      const facts = await ingest(Readable.from([bytes]), type, { bytes: 2 ** 40, error: () => new ApiError(413, 'media_too_large', 'too large') }, store, mediaKey(id))
      const media = {
        id,
        content_type: facts.contentType,
        bytes: facts.bytes,
        sha256: facts.sha256,
        width: facts.width,
        height: facts.height,
        duration_ms: facts.durationMs,
        alt_text: options.alt_text ?? null,
        url: options.url ?? `https://smm.example/media/token${n}.${MEDIA_EXTENSIONS[facts.contentType]}`,
        created_at: new Date(0).toISOString(),
      }
      return attachmentOf(media, { id }, store)
    },
    async close() {
      await store.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
