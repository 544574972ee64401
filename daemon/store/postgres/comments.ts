import { newId } from '../../../src/ids.js'
import type { CommentsStore } from '../port.js'
import { actorJson, commentFromRow, type CommentRow } from '../rows.js'
import type { Queryable, Sql } from './connect.js'
import { appendEvent } from './events.js'

/** The post's workspace, if the post is in the scope. */
async function workspaceOf(q: Queryable, scope: readonly string[], postId: string): Promise<string | undefined> {
  const [row] = await q<{ workspace_id: string }[]>`SELECT workspace_id FROM posts WHERE id = ${postId} AND workspace_id = ANY(${scope}::text[])`
  return row?.workspace_id
}

const read = (q: Queryable) => q`
  SELECT c.id, c.post_id, c.author, u.name AS author_name, c.body, c.decision, c.created_at
    FROM post_comments c LEFT JOIN users u ON u.id = (c.author::jsonb ->> 'user_id')`

export function commentsStore(sql: Sql): CommentsStore {
  return {
    async list(scope, postId, after, limit) {
      if (!(await workspaceOf(sql, scope, postId))) return undefined
      return (await sql<CommentRow[]>`${read(sql)} WHERE c.post_id = ${postId} AND c.id > ${after} ORDER BY c.id LIMIT ${limit}`).map(commentFromRow)
    },
    async add(scope, postId, body, now, by) {
      return sql.begin(async (tx) => {
        const workspaceId = await workspaceOf(tx, scope, postId)
        if (!workspaceId) return undefined
        const id = newId('cmt', now)
        await tx`INSERT INTO post_comments (id, post_id, author, body, created_at) VALUES (${id}, ${postId}, ${actorJson(by)}, ${body}, ${now})`
        await appendEvent(tx, workspaceId, 'post.commented', { post_id: postId, comment_id: id, body }, now, by)
        return commentFromRow((await tx<CommentRow[]>`${read(tx)} WHERE c.id = ${id}`)[0]!)
      })
    },
  }
}
