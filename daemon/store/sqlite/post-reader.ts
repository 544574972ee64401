import type { PostRecord } from '../port.js'
import { hasPartRows, mediaOf, namesMedia, postRecordOf, type MediaRow, type PartRow, type PostRow, type TargetRow } from '../rows.js'
import type { Db } from './db.js'

/** Reads posts with their targets, in the API's shape. Shared by the API and the scheduler side. */
export function postReader(db: Db) {
  const byId = db.prepare<[string], PostRow>('SELECT * FROM posts WHERE id = ?')
  const targetsOf = db.prepare<[string], TargetRow>('SELECT * FROM post_targets WHERE post_id = ?')
  const partsOf = db.prepare<[string], PartRow>('SELECT * FROM post_target_parts WHERE post_id = ? ORDER BY platform, idx')
  // Prepared on first use: a database from before media (a migration's own test) has no such table.
  let mediaOfPost: ReturnType<typeof db.prepare<[string], MediaRow>> | undefined
  const mediaRowsOf = (postId: string) =>
    (mediaOfPost ??= db.prepare<[string], MediaRow>("SELECT m.* FROM post_media pm JOIN media m ON m.id = pm.media_id WHERE pm.post_id = ? AND m.status = 'ready'")).all(postId)

  /** The post's record from its row and its targets' rows, as read in the same transaction. */
  function recordFromRows(row: PostRow, targets: TargetRow[]): PostRecord {
    return postRecordOf(row, targets, hasPartRows(row, targets) ? partsOf.all(row.id) : [], namesMedia(row) ? mediaRowsOf(row.id).map(mediaOf) : [])
  }
  const recordFromRow = (row: PostRow): PostRecord => recordFromRows(row, targetsOf.all(row.id))

  return {
    recordFromRow,
    recordFromRows,
    targetsSync: (postId: string) => targetsOf.all(postId),
    rowSync: (id: string) => byId.get(id),
    recordSync(id: string): PostRecord | undefined {
      const row = byId.get(id)
      return row && recordFromRow(row)
    },
  }
}
