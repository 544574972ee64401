import { newId } from '../../../src/ids.js'
import type { Actor, CommentRecord, CommentsStore, WorkspaceScope } from '../port.js'
import { actorJson, commentFromRow, type CommentRow } from '../rows.js'
import type { Db } from './db.js'
import type { eventsStore } from './events.js'
import { postReader } from './post-reader.js'

export function commentsStore(db: Db, events: ReturnType<typeof eventsStore>): CommentsStore {
  const reader = postReader(db)
  const columns = "c.id, c.post_id, c.author, u.name AS author_name, c.body, c.decision, c.created_at"
  const from = "post_comments c LEFT JOIN users u ON u.id = c.author ->> '$.user_id'"
  const page = db.prepare<[string, string, number], CommentRow>(`SELECT ${columns} FROM ${from} WHERE c.post_id = ? AND c.id > ? ORDER BY c.id LIMIT ?`)
  const one = db.prepare<[string], CommentRow>(`SELECT ${columns} FROM ${from} WHERE c.id = ?`)
  const insert = db.prepare<[string, string, string | null, string, number], void>('INSERT INTO post_comments (id, post_id, author, body, created_at) VALUES (?, ?, ?, ?, ?)')

  const inScope = (scope: WorkspaceScope, postId: string) => {
    const row = reader.rowSync(postId)
    return row && scope.includes(row.workspace_id) ? row : undefined
  }

  const add = db.transaction((scope: WorkspaceScope, postId: string, body: string, now: number, by: Actor): CommentRecord | undefined => {
    const post = inScope(scope, postId)
    if (!post) return undefined
    const id = newId('cmt', now)
    insert.run(id, postId, actorJson(by), body, now)
    const comment = commentFromRow(one.get(id)!)
    events.appendSync(post.workspace_id, 'post.commented', { post_id: postId, comment_id: id, body }, now, by)
    return comment
  })

  return {
    async list(scope, postId, after, limit) {
      return inScope(scope, postId) ? page.all(postId, after, limit).map(commentFromRow) : undefined
    },
    async add(scope, postId, body, now, by) {
      return add.immediate(scope, postId, body, now, by)
    },
  }
}
