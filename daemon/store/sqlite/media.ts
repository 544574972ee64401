import type { Media } from '../../../src/api/media.js'
import type { Db } from './db.js'
import type { MediaDeletion, MediaFacts, MediaObjectsStore, MediaReservation, NewMedia, NewUpload, RemovableMedia, UploadLock, UploadRecord } from '../port.js'
import { MEDIA_GRACE_MS, mediaOf, uploadOf, type MediaRow, type UploadRow } from '../rows.js'

/** Posts in these states still need their media (they have not gone out): deleting one they use is refused. */
export const ACTIVE_POST_STATUSES = "('draft', 'pending_approval', 'rejected', 'scheduled', 'publishing')"

/**
 * What posts need of media, inside their own transactions: their references kept in
 * `post_media`, a media they name held (no longer released), one they stop naming released
 * once nothing names it.
 */
export function mediaReferences(db: Db) {
  const hold = db.prepare<[string], void>("UPDATE media SET release_at = NULL WHERE id = ? AND status = 'ready'")
  const isReady = db.prepare<[string], number>("SELECT 1 FROM media WHERE id = ? AND status = 'ready'").pluck()
  const link = db.prepare<[string, string], void>('INSERT OR IGNORE INTO post_media (post_id, media_id) VALUES (?, ?)')
  const unlink = db.prepare<[string, string], void>('DELETE FROM post_media WHERE post_id = ? AND media_id = ?')
  const linked = db.prepare<[string], string>('SELECT media_id FROM post_media WHERE post_id = ?').pluck()
  const ofAccount = db.prepare<[string], string>('SELECT DISTINCT pm.media_id FROM post_media pm JOIN posts p ON p.id = pm.post_id WHERE p.account_id = ?').pluck()
  // Released no sooner than 24 h after its upload: a user may still be about to use it.
  const release = db.prepare<[number, number, string], void>(
    `UPDATE media SET release_at = max(?, created_at + ?) WHERE id = ? AND release_at IS NULL AND status = 'ready'
        AND NOT EXISTS (SELECT 1 FROM post_media WHERE media_id = media.id)`,
  )
  return {
    /**
     * Makes the post name exactly `ids`, those that are still ready (whose they are, the caller
     * checked); answers the others (a caller that must have them all rolls its transaction back).
     */
    setSync(postId: string, ids: readonly string[], now: number): string[] {
      const missing = ids.filter((id) => isReady.get(id) === undefined)
      const before = new Set(linked.all(postId))
      for (const id of ids) {
        if (missing.includes(id)) continue
        hold.run(id)
        link.run(postId, id)
      }
      for (const id of before) {
        if (ids.includes(id)) continue
        unlink.run(postId, id)
        release.run(now, MEDIA_GRACE_MS, id)
      }
      return []
    },
    /** Media named by these posts that nothing else names once they are gone: released at once. */
    releaseOrphansSync(mediaIds: readonly string[], now: number): void {
      for (const id of mediaIds) release.run(now, 0, id)
    },
    /** The media any post of an account names. */
    ofAccountSync: (accountId: string) => ofAccount.all(accountId),
  }
}

export function mediaStore(db: Db): MediaObjectsStore {
  const show = mediaOf
  const used = db.prepare<[string], number>("SELECT coalesce(sum(bytes), 0) FROM media WHERE user_id = ? AND status IN ('uploading', 'ready')").pluck()
  const insert = db.prepare<[string, string, string, number, string | null, string, string, number, number], void>(
    "INSERT INTO media (id, user_id, status, content_type, bytes, alt_text, token, url, created_at, updated_at) VALUES (?, ?, 'uploading', ?, ?, ?, ?, ?, ?, ?)",
  )
  const ready = db.prepare<[string, number, string, number | null, number | null, number | null, number, number, string], MediaRow>(
    `UPDATE media SET status = 'ready', content_type = ?, bytes = ?, sha256 = ?, width = ?, height = ?, duration_ms = ?, updated_at = ?, release_at = ?
      WHERE id = ? AND status = 'uploading' RETURNING *`,
  )
  const discard = db.prepare<[string], void>("DELETE FROM media WHERE id = ? AND status = 'uploading'")
  const get = db.prepare<[string, string], MediaRow>("SELECT * FROM media WHERE id = ? AND user_id = ? AND status = 'ready'")
  const byToken = db.prepare<[string], MediaRow>("SELECT * FROM media WHERE token = ? AND status = 'ready'")
  const page = db.prepare<[{ user: string; after: string; limit: number }], MediaRow>(
    "SELECT * FROM media WHERE user_id = @user AND status = 'ready' AND (@after = '' OR id < @after) ORDER BY id DESC LIMIT @limit",
  )
  const setAlt = db.prepare<[string | null, number, string, string], MediaRow>(
    "UPDATE media SET alt_text = ?, updated_at = ? WHERE id = ? AND user_id = ? AND status = 'ready' RETURNING *",
  )
  const usedBy = db.prepare<[string], string>(
    `SELECT p.id FROM post_media pm JOIN posts p ON p.id = pm.post_id WHERE pm.media_id = ? AND p.status IN ${ACTIVE_POST_STATUSES} ORDER BY p.id`,
  ).pluck()
  const markDeleted = db.prepare<[number, number, string], void>(
    "UPDATE media SET status = 'deleting', release_at = ?, updated_at = ?, lease_expires_at = NULL, claimed_by = NULL WHERE id = ?",
  )
  const forgetLinks = db.prepare<[string], void>('DELETE FROM post_media WHERE media_id = ?')
  const insertUpload = db.prepare<[string, string, string, number, string, string | null, number, number], void>(
    'INSERT INTO uploads (id, user_id, media_id, length, content_type, alt_text, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  )
  const upload = db.prepare<[string, string, number], UploadRow>('SELECT * FROM uploads WHERE id = ? AND user_id = ? AND expires_at > ?')
  // A claim holds while `claimed_by` names its request and its lease has not passed; the lease
  // stays when the claim is given up, so the next claim's is greater (it is the fencing token).
  const claimUpload = db.prepare<[number, string, string], UploadRow>('UPDATE uploads SET lease_expires_at = ?, claimed_by = ? WHERE id = ? RETURNING *')
  const advance = db.prepare<[number, string, number, number], UploadRow>(
    `UPDATE uploads SET upload_offset = upload_offset + ?, parts = parts + 1, claimed_by = NULL
      WHERE id = ? AND lease_expires_at = ? AND claimed_by IS NOT NULL AND upload_offset + ? < length RETURNING *`,
  )
  const extend = db.prepare<[number, string, number], void>('UPDATE uploads SET lease_expires_at = ? WHERE id = ? AND lease_expires_at = ? AND claimed_by IS NOT NULL')
  const unlock = db.prepare<[string, number], void>('UPDATE uploads SET claimed_by = NULL WHERE id = ? AND lease_expires_at = ? AND claimed_by IS NOT NULL')
  const heldUpload = db.prepare<[string, number], UploadRow>('SELECT * FROM uploads WHERE id = ? AND lease_expires_at = ? AND claimed_by IS NOT NULL')
  const finished = db.prepare<[string], void>('UPDATE uploads SET upload_offset = length, parts = parts + 1, claimed_by = NULL WHERE id = ?')
  const terminate = db.prepare<[number, string, string, number], UploadRow>(
    'UPDATE uploads SET expires_at = ?, claimed_by = NULL WHERE id = ? AND user_id = ? AND expires_at > ? RETURNING *',
  )
  const abandon = db.prepare<[number, number, string], void>(
    "UPDATE media SET status = 'deleting', release_at = ?, updated_at = ?, lease_expires_at = NULL, claimed_by = NULL WHERE id = ? AND status = 'uploading'",
  )
  const candidates = db.prepare<[{ now: number; stale: number; limit: number }], { id: string }>(
    `SELECT id FROM media
      WHERE (status = 'ready' AND release_at <= @now AND NOT EXISTS (SELECT 1 FROM post_media pm WHERE pm.media_id = media.id))
         OR (status = 'uploading' AND (created_at <= @stale OR EXISTS (SELECT 1 FROM uploads u WHERE u.media_id = media.id AND u.expires_at <= @now)))
         OR (status = 'deleting' AND coalesce(lease_expires_at, 0) <= @now)
      LIMIT @limit`,
  )
  const claim = db.prepare<[number, string], { id: string; upload_id: string | null; parts: number | null }>(
    `UPDATE media SET status = 'deleting', lease_expires_at = ? WHERE id = ?
     RETURNING id, (SELECT u.id FROM uploads u WHERE u.media_id = media.id) AS upload_id, (SELECT u.parts FROM uploads u WHERE u.media_id = media.id) AS parts`,
  )
  const removed = db.prepare<[string, number], void>("DELETE FROM media WHERE id = ? AND status = 'deleting' AND lease_expires_at = ?")

  const reserveSync = (userId: string, media: NewMedia, quota: number | null, now: number): MediaReservation => {
    const already = used.get(userId) ?? 0
    if (quota !== null && already + media.bytes > quota) return { kind: 'quota_exceeded', used: already }
    insert.run(media.id, userId, media.contentType, media.bytes, media.altText, media.token, media.url, now, now)
    return { kind: 'reserved' }
  }
  const completeSync = (id: string, facts: MediaFacts, now: number) =>
    ready.get(facts.contentType, facts.bytes, facts.sha256, facts.width, facts.height, facts.durationMs, now, now + MEDIA_GRACE_MS, id)

  const reserve = db.transaction(reserveSync)
  const createUpload = db.transaction((userId: string, up: NewUpload, media: NewMedia, quota: number | null, now: number): MediaReservation => {
    const reserved = reserveSync(userId, media, quota, now)
    if (reserved.kind === 'reserved') insertUpload.run(up.id, userId, media.id, up.length, media.contentType, media.altText, now, up.expiresAt)
    return reserved
  })
  const lock = db.transaction((userId: string, id: string, offset: number, now: number, leaseMs: number, holder: string): UploadLock => {
    const row = upload.get(id, userId, now)
    if (!row) return { kind: 'not_found' }
    const at = Number(row.upload_offset)
    if (at !== offset || at === Number(row.length)) return { kind: 'offset_mismatch', offset: at }
    const held = Number(row.lease_expires_at ?? 0)
    if (row.claimed_by !== null && held > now) return { kind: 'busy' }
    const lease = Math.max(now + leaseMs, held + 1)
    return { kind: 'locked', upload: uploadOf(claimUpload.get(lease, holder, id)!), lease }
  })
  const finish = db.transaction((id: string, lease: number, facts: MediaFacts, now: number): Media | undefined => {
    const row = heldUpload.get(id, lease)
    if (!row) return undefined
    const done = completeSync(row.media_id, facts, now)
    if (!done) return undefined
    finished.run(id)
    return show(done)
  })
  const terminateSync = db.transaction((userId: string, id: string, now: number): boolean => {
    const row = terminate.get(now, id, userId, now)
    if (!row) return false
    if (Number(row.upload_offset) < Number(row.length)) abandon.run(now, now, row.media_id)
    return true
  })
  const remove = db.transaction((userId: string, id: string, now: number): MediaDeletion => {
    if (!get.get(id, userId)) return { kind: 'not_found' }
    const postIds = usedBy.all(id)
    if (postIds.length) return { kind: 'in_use', postIds }
    // Posts that are done with it no longer name it: they keep what the platforms received.
    forgetLinks.run(id)
    markDeleted.run(now, now, id)
    return { kind: 'ok' }
  })
  const claimRemovable = db.transaction((now: number, limit: number, leaseMs: number): RemovableMedia[] => {
    const lease = now + leaseMs
    return candidates.all({ now, stale: now - MEDIA_GRACE_MS, limit }).map(({ id }) => {
      const row = claim.get(lease, id)!
      return { id: row.id, uploadId: row.upload_id, parts: row.parts ?? 0, lease }
    })
  })

  return {
    async reserve(userId, media, quota, now) {
      return reserve.immediate(userId, media, quota, now)
    },
    async complete(id, facts, now) {
      const row = completeSync(id, facts, now)
      return row && show(row)
    },
    async discard(id) {
      discard.run(id)
    },
    async get(userId, id) {
      const row = get.get(id, userId)
      return row && show(row)
    },
    async getMany(userId, ids) {
      return ids.flatMap((id) => {
        const row = get.get(id, userId)
        return row ? [show(row)] : []
      })
    },
    async byToken(token) {
      const row = byToken.get(token)
      return row && show(row)
    },
    async listPage(userId, after, limit) {
      return page.all({ user: userId, after, limit }).map(show)
    },
    async setAltText(userId, id, altText, now) {
      const row = setAlt.get(altText, now, id, userId)
      return row && show(row)
    },
    async delete(userId, id, now) {
      return remove.immediate(userId, id, now)
    },
    async usage(userId) {
      return used.get(userId) ?? 0
    },
    async createUpload(userId, up, media, quota, now) {
      return createUpload.immediate(userId, up, media, quota, now)
    },
    async getUpload(userId, id, now) {
      const row = upload.get(id, userId, now)
      return row && uploadOf(row)
    },
    async lockUpload(userId, id, offset, now, leaseMs, holder) {
      return lock.immediate(userId, id, offset, now, leaseMs, holder)
    },
    async advanceUpload(id, lease, bytes): Promise<UploadRecord | undefined> {
      const row = advance.get(bytes, id, lease, bytes)
      return row && uploadOf(row)
    },
    async extendUpload(id, lease, until) {
      return extend.run(until, id, lease).changes > 0
    },
    async unlockUpload(id, lease) {
      unlock.run(id, lease)
    },
    async finishUpload(id, lease, facts, now) {
      return finish.immediate(id, lease, facts, now)
    },
    async terminateUpload(userId, id, now) {
      return terminateSync.immediate(userId, id, now)
    },
    async claimRemovable(now, limit, leaseMs) {
      return claimRemovable.immediate(now, limit, leaseMs)
    },
    async removed(id, lease) {
      return removed.run(id, lease).changes > 0
    },
  }
}
