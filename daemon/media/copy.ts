import type { MediaStore } from './port.js'

/** What copyMediaObjects copied. */
export interface MediaCopied {
  objects: number
  bytes: number
}

/**
 * Copies every object of one media store to another, a stream at a time (no object is held whole
 * in memory): the media's bytes (`media/…`) and what uploads under way keep (`uploads/…`).
 * An object already in the target with the same size is left as it is, so a copy that stopped
 * halfway can be run again. `onObject` is told after each one.
 */
export async function copyMediaObjects(from: MediaStore, to: MediaStore, onObject?: (copied: MediaCopied) => void): Promise<MediaCopied> {
  const copied: MediaCopied = { objects: 0, bytes: 0 }
  for (const prefix of ['media', 'uploads']) {
    for await (const key of from.list(prefix)) {
      const size = await from.size(key)
      if (size === undefined) continue // removed since it was listed: nothing to carry
      if ((await to.size(key)) !== size) await to.put(key, await from.get(key), 'application/octet-stream')
      copied.objects++
      copied.bytes += size
      onObject?.(copied)
    }
  }
  return copied
}
