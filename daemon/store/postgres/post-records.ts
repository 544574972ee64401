import type { PostRecord } from '../port.js'
import { hasPartRows, namesMedia, postRecordOf, type PartRow, type PostRow, type TargetRow } from '../rows.js'
import type { Queryable } from './connect.js'
import { mediaOfPosts } from './media.js'

/** Posts with their targets (and the parts out, for posts that have any), in two or three statements however many posts. */
export async function recordsOf(q: Queryable, rows: PostRow[]): Promise<PostRecord[]> {
  if (rows.length === 0) return []
  const ids = rows.map((r) => r.id)
  const targets = await q<TargetRow[]>`SELECT * FROM post_targets WHERE post_id = ANY(${ids})`
  const withParts = rows.filter((r) => hasPartRows(r, targets.filter((t) => t.post_id === r.id))).map((r) => r.id)
  const parts = withParts.length === 0 ? [] : await q<PartRow[]>`SELECT * FROM post_target_parts WHERE post_id = ANY(${withParts}) ORDER BY platform, idx`
  const media = await mediaOfPosts(q, rows.filter(namesMedia).map((r) => r.id))
  return rows.map((row) =>
    postRecordOf(row, targets.filter((t) => t.post_id === row.id), parts.filter((p) => p.post_id === row.id), media.filter((m) => m.post_id === row.id)),
  )
}

export async function recordOf(q: Queryable, id: string): Promise<PostRecord | undefined> {
  return (await recordsOf(q, await q<PostRow[]>`SELECT * FROM posts WHERE id = ${id}`))[0]
}
