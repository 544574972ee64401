import { MEDIA_EXTENSIONS, type Media } from '../../src/api/media.js'
import type { MediaRef } from '../../src/api/posts.js'
import type { MediaAttachment } from '../platforms/types.js'
import { mediaKey, type MediaStore } from './port.js'

/** A media object as `publish` gets it, with the alt text the post gives (else its own), its bytes a stream away. */
export function attachmentOf(media: Media, ref: MediaRef, store: MediaStore): MediaAttachment {
  return {
    id: media.id,
    content_type: media.content_type,
    bytes: media.bytes,
    width: media.width,
    height: media.height,
    duration_ms: media.duration_ms,
    alt_text: ref.alt_text ?? media.alt_text,
    sha256: media.sha256,
    filename: `${media.id}.${MEDIA_EXTENSIONS[media.content_type]}`,
    kind: media.content_type.startsWith('video/') ? 'video' : 'image',
    url: media.url,
    open: (range) => store.get(mediaKey(media.id), range),
  }
}
