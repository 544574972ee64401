import type { Media } from '../../../src/api/media.js'
import type { MediaDeletion, MediaObjectsStore, MediaReservation, NewMedia, RemovableMedia, UploadLock } from '../port.js'
import { MEDIA_GRACE_MS, mediaOf, uploadOf, type MediaRow, type UploadRow } from '../rows.js'
import type { Queryable, Sql } from './connect.js'

// Any constant: the per-user lock under which a reservation reads the usage it adds to.
const QUOTA_LOCK = 0x736d6d03

/**
 * Makes a post name exactly `ids` (in `post_media`), holding each (no longer released): those
 * that are still ready (whose they are, the caller checked), locked while the transaction lasts so the cleanup cannot
 * claim one meanwhile. Answers the ids that are not; a caller that needs them all rolls back.
 */
export async function setPostMedia(tx: Queryable, postId: string, ids: readonly string[], now: number): Promise<string[]> {
  const held = ids.length === 0 ? [] : (await tx<{ id: string }[]>`
    UPDATE media SET release_at = NULL WHERE id = ANY(${ids as string[]}) AND status = 'ready' RETURNING id`).map((r) => r.id)
  const before = (await tx<{ media_id: string }[]>`SELECT media_id FROM post_media WHERE post_id = ${postId}`).map((r) => r.media_id)
  const added = held.filter((id) => !before.includes(id))
  if (added.length) await tx`INSERT INTO post_media ${tx(added.map((media_id) => ({ post_id: postId, media_id })))} ON CONFLICT DO NOTHING`
  const dropped = before.filter((id) => !held.includes(id))
  if (dropped.length) {
    await tx`DELETE FROM post_media WHERE post_id = ${postId} AND media_id = ANY(${dropped})`
    await releaseOrphans(tx, dropped, now, MEDIA_GRACE_MS)
  }
  return ids.filter((id) => !held.includes(id))
}

/** Media nothing names any more: released `grace` after their upload, and not before now. */
export async function releaseOrphans(tx: Queryable, ids: readonly string[], now: number, grace = 0): Promise<void> {
  if (ids.length === 0) return
  await tx`
    UPDATE media SET release_at = greatest(${now}::bigint, created_at + ${grace}::bigint)
     WHERE id = ANY(${ids as string[]}) AND release_at IS NULL AND status = 'ready'
       AND NOT EXISTS (SELECT 1 FROM post_media pm WHERE pm.media_id = media.id)`
}

/** The user's ready media among `ids`, for a post's record. */
export async function mediaOfPosts(q: Queryable, postIds: string[]): Promise<(Media & { post_id: string })[]> {
  if (postIds.length === 0) return []
  const rows = await q<(MediaRow & { post_id: string })[]>`
    SELECT pm.post_id, m.* FROM post_media pm JOIN media m ON m.id = pm.media_id WHERE pm.post_id = ANY(${postIds}) AND m.status = 'ready'`
  return rows.map((row) => ({ ...mediaOf(row), post_id: row.post_id }))
}

async function reserveIn(tx: Queryable, userId: string, media: NewMedia, quota: number | null, now: number): Promise<MediaReservation> {
  await tx`SELECT pg_advisory_xact_lock(${QUOTA_LOCK}, hashtext(${userId}))`
  const [row] = await tx<{ used: number }[]>`
    SELECT coalesce(sum(bytes), 0)::bigint AS used FROM media WHERE user_id = ${userId} AND status IN ('uploading', 'ready')`
  const used = row!.used
  if (quota !== null && used + media.bytes > quota) return { kind: 'quota_exceeded', used }
  await tx`
    INSERT INTO media (id, user_id, status, content_type, bytes, alt_text, token, url, created_at, updated_at)
    VALUES (${media.id}, ${userId}, 'uploading', ${media.contentType}, ${media.bytes}, ${media.altText}, ${media.token}, ${media.url}, ${now}, ${now})`
  return { kind: 'reserved' }
}

export function mediaStore(sql: Sql): MediaObjectsStore {
  const one = (rows: MediaRow[]) => (rows[0] ? mediaOf(rows[0]) : undefined)
  return {
    async reserve(userId, media, quota, now) {
      return sql.begin((tx) => reserveIn(tx, userId, media, quota, now))
    },
    async complete(id, f, now) {
      return one(await sql<MediaRow[]>`
        UPDATE media SET status = 'ready', content_type = ${f.contentType}, bytes = ${f.bytes}, sha256 = ${f.sha256}, width = ${f.width}, height = ${f.height},
               duration_ms = ${f.durationMs}, updated_at = ${now}, release_at = ${now + MEDIA_GRACE_MS}
         WHERE id = ${id} AND status = 'uploading' RETURNING *`)
    },
    async discard(id) {
      await sql`DELETE FROM media WHERE id = ${id} AND status = 'uploading'`
    },
    async get(userId, id) {
      return one(await sql<MediaRow[]>`SELECT * FROM media WHERE id = ${id} AND user_id = ${userId} AND status = 'ready'`)
    },
    async getMany(userId, ids) {
      if (ids.length === 0) return []
      return (await sql<MediaRow[]>`SELECT * FROM media WHERE id = ANY(${ids as string[]}) AND user_id = ${userId} AND status = 'ready'`).map(mediaOf)
    },
    async byToken(token) {
      return one(await sql<MediaRow[]>`SELECT * FROM media WHERE token = ${token} AND status = 'ready'`)
    },
    async listPage(userId, after, limit) {
      return (await sql<MediaRow[]>`
        SELECT * FROM media WHERE user_id = ${userId} AND status = 'ready' ${after ? sql`AND id < ${after}` : sql``} ORDER BY id DESC LIMIT ${limit}`).map(mediaOf)
    },
    async setAltText(userId, id, altText, now) {
      return one(await sql<MediaRow[]>`
        UPDATE media SET alt_text = ${altText}, updated_at = ${now} WHERE id = ${id} AND user_id = ${userId} AND status = 'ready' RETURNING *`)
    },
    async delete(userId, id, now) {
      return sql.begin(async (tx): Promise<MediaDeletion> => {
        // Locked first: a post naming it meanwhile waits, then finds it gone; or it goes first, and this sees it.
        const [row] = await tx<{ id: string }[]>`SELECT id FROM media WHERE id = ${id} AND user_id = ${userId} AND status = 'ready' FOR UPDATE`
        if (!row) return { kind: 'not_found' }
        const using = await tx<{ id: string }[]>`
          SELECT p.id FROM post_media pm JOIN posts p ON p.id = pm.post_id
           WHERE pm.media_id = ${id} AND p.status IN ('draft', 'pending_approval', 'rejected', 'scheduled', 'publishing') ORDER BY p.id`
        if (using.length) return { kind: 'in_use', postIds: using.map((p) => p.id) }
        // Posts that are done with it no longer name it: they keep what the platforms received.
        await tx`DELETE FROM post_media WHERE media_id = ${id}`
        await tx`UPDATE media SET status = 'deleting', release_at = ${now}, updated_at = ${now}, lease_expires_at = NULL, claimed_by = NULL WHERE id = ${id}`
        return { kind: 'ok' }
      })
    },
    async usage(userId) {
      const [row] = await sql<{ used: number }[]>`
        SELECT coalesce(sum(bytes), 0)::bigint AS used FROM media WHERE user_id = ${userId} AND status IN ('uploading', 'ready')`
      return row!.used
    },
    async createUpload(userId, up, media, quota, now) {
      return sql.begin(async (tx) => {
        const reserved = await reserveIn(tx, userId, media, quota, now)
        if (reserved.kind === 'reserved') {
          await tx`
            INSERT INTO uploads (id, user_id, media_id, length, content_type, alt_text, created_at, expires_at)
            VALUES (${up.id}, ${userId}, ${media.id}, ${up.length}, ${media.contentType}, ${media.altText}, ${now}, ${up.expiresAt})`
        }
        return reserved
      })
    },
    async getUpload(userId, id, now) {
      const [row] = await sql<UploadRow[]>`SELECT * FROM uploads WHERE id = ${id} AND user_id = ${userId} AND expires_at > ${now}`
      return row && uploadOf(row)
    },
    async lockUpload(userId, id, offset, now, leaseMs, holder): Promise<UploadLock> {
      return sql.begin(async (tx): Promise<UploadLock> => {
        const [row] = await tx<UploadRow[]>`SELECT * FROM uploads WHERE id = ${id} AND user_id = ${userId} AND expires_at > ${now} FOR UPDATE`
        if (!row) return { kind: 'not_found' }
        if (row.upload_offset !== offset || row.upload_offset === row.length) return { kind: 'offset_mismatch', offset: row.upload_offset }
        const held = row.lease_expires_at ?? 0
        if (row.claimed_by !== null && held > now) return { kind: 'busy' }
        // The lease stays when a claim is given up, so this one's is greater: it is the fencing token.
        const lease = Math.max(now + leaseMs, held + 1)
        const [locked] = await tx<UploadRow[]>`UPDATE uploads SET lease_expires_at = ${lease}, claimed_by = ${holder} WHERE id = ${id} RETURNING *`
        return { kind: 'locked', upload: uploadOf(locked!), lease }
      })
    },
    async advanceUpload(id, lease, bytes) {
      const [row] = await sql<UploadRow[]>`
        UPDATE uploads SET upload_offset = upload_offset + ${bytes}, parts = parts + 1, claimed_by = NULL
         WHERE id = ${id} AND lease_expires_at = ${lease} AND claimed_by IS NOT NULL AND upload_offset + ${bytes} < length RETURNING *`
      return row && uploadOf(row)
    },
    async extendUpload(id, lease, until) {
      const rows = await sql`UPDATE uploads SET lease_expires_at = ${until} WHERE id = ${id} AND lease_expires_at = ${lease} AND claimed_by IS NOT NULL RETURNING id`
      return rows.length > 0
    },
    async unlockUpload(id, lease) {
      await sql`UPDATE uploads SET claimed_by = NULL WHERE id = ${id} AND lease_expires_at = ${lease} AND claimed_by IS NOT NULL`
    },
    async finishUpload(id, lease, f, now) {
      return sql.begin(async (tx) => {
        const [upload] = await tx<UploadRow[]>`SELECT * FROM uploads WHERE id = ${id} AND lease_expires_at = ${lease} AND claimed_by IS NOT NULL FOR UPDATE`
        if (!upload) return undefined
        const [row] = await tx<MediaRow[]>`
          UPDATE media SET status = 'ready', content_type = ${f.contentType}, bytes = ${f.bytes}, sha256 = ${f.sha256}, width = ${f.width}, height = ${f.height},
                 duration_ms = ${f.durationMs}, updated_at = ${now}, release_at = ${now + MEDIA_GRACE_MS}
           WHERE id = ${upload.media_id} AND status = 'uploading' RETURNING *`
        if (!row) return undefined
        await tx`UPDATE uploads SET upload_offset = length, parts = parts + 1, claimed_by = NULL WHERE id = ${id}`
        return mediaOf(row)
      })
    },
    async terminateUpload(userId, id, now) {
      return sql.begin(async (tx) => {
        const [row] = await tx<UploadRow[]>`
          UPDATE uploads SET expires_at = ${now}, claimed_by = NULL WHERE id = ${id} AND user_id = ${userId} AND expires_at > ${now} RETURNING *`
        if (!row) return false
        if (row.upload_offset < row.length) {
          await tx`
            UPDATE media SET status = 'deleting', release_at = ${now}, updated_at = ${now}, lease_expires_at = NULL, claimed_by = NULL
             WHERE id = ${row.media_id} AND status = 'uploading'`
        }
        return true
      })
    },
    async claimRemovable(now, limit, leaseMs): Promise<RemovableMedia[]> {
      const lease = now + leaseMs
      // The WHERE is checked again on each row as locked: of two nodes, one claims a media, the other skips it.
      const rows = await sql<{ id: string; upload_id: string | null; parts: number | null }[]>`
        UPDATE media SET status = 'deleting', lease_expires_at = ${lease}
         WHERE id IN (
           SELECT id FROM media
            WHERE (status = 'ready' AND release_at <= ${now} AND NOT EXISTS (SELECT 1 FROM post_media pm WHERE pm.media_id = media.id))
               OR (status = 'uploading' AND (created_at <= ${now - MEDIA_GRACE_MS} OR EXISTS (SELECT 1 FROM uploads u WHERE u.media_id = media.id AND u.expires_at <= ${now})))
               OR (status = 'deleting' AND coalesce(lease_expires_at, 0) <= ${now})
            LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING id, (SELECT u.id FROM uploads u WHERE u.media_id = media.id) AS upload_id, (SELECT u.parts FROM uploads u WHERE u.media_id = media.id) AS parts`
      return rows.map((r) => ({ id: r.id, uploadId: r.upload_id, parts: r.parts ?? 0, lease }))
    },
    async removed(id, lease) {
      const rows = await sql`DELETE FROM media WHERE id = ${id} AND status = 'deleting' AND lease_expires_at = ${lease} RETURNING id`
      return rows.length > 0
    },
  }
}
