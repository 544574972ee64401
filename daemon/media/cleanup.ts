import type { AppDeps } from '../context.js'
import { mediaKey } from './port.js'

/** How long a claimed removal is this node's: past it (the node died), another takes it over. */
const CLAIM_LEASE_MS = 10 * 60_000
/** Removals claimed at a time. */
const BATCH = 100

type Deps = Pick<AppDeps, 'store' | 'clock' | 'log' | 'media'>

/**
 * Removes the bytes of media nobody needs: uploads no post named within 24 h (or whose posts'
 * account was deleted), deleted media, uploads never finished, and tus uploads terminated or
 * expired. Each is claimed under a lease (the row says `deleting`), its bytes removed, then its
 * row, only while the claim holds: a node that dies halfway leaves a claim another node takes up.
 */
export async function removeUnusedMedia(deps: Deps, now: number): Promise<number> {
  let removed = 0
  for (;;) {
    const claimed = await deps.store.media.claimRemovable(now, BATCH, CLAIM_LEASE_MS)
    for (const media of claimed) {
      try {
        await deps.media.store.delete(mediaKey(media.id))
        if (media.uploadId) await deps.media.store.removeUpload(media.uploadId)
        if (await deps.store.media.removed(media.id, media.lease)) removed++
      } catch (error) {
        // Left claimed: once its lease runs out, the next run tries again.
        deps.log.error({ err: error, worker: 'media-cleanup', media_id: media.id }, 'could not remove a media object')
      }
    }
    if (claimed.length < BATCH) return removed
  }
}

