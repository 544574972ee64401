import type { Media } from './api/media.js'

/** A media's kind and size in a few words, for the CLI and the calendar: "JPEG 1200×800", "MP4 1920×1080, 12.5 s". */
export function mediaShape(media: Pick<Media, 'content_type' | 'width' | 'height'> & { duration_ms?: number | null }): string {
  const kind = media.content_type === 'video/quicktime' ? 'MOV' : media.content_type.split('/')[1]!.toUpperCase()
  const size = media.width !== null && media.height !== null ? ` ${media.width}×${media.height}` : ''
  const length = media.duration_ms ? `, ${Number((media.duration_ms / 1000).toFixed(1))} s` : ''
  return `${kind}${size}${length}`
}
