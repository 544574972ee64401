import type { ReviewLinksStore, WorkspaceScope } from '../port.js'
import { actorJson, reviewLinkFromRow, type ReviewLinkRow } from '../rows.js'
import type { Db } from './db.js'
import type { eventsStore } from './events.js'
import { postReader } from './post-reader.js'

export function reviewLinksStore(db: Db, events: ReturnType<typeof eventsStore>): ReviewLinksStore {
  const reader = postReader(db)
  const select = 'SELECT l.id, l.post_id, p.workspace_id, l.created_by, l.created_at, l.expires_at, l.revoked_at FROM review_links l JOIN posts p ON p.id = l.post_id'
  const byId = db.prepare<[string, string], ReviewLinkRow>(`${select} WHERE l.id = ? AND l.post_id = ?`)
  const ofPost = db.prepare<[string], ReviewLinkRow>(`${select} WHERE l.post_id = ? ORDER BY l.id`)
  const byHash = db.prepare<[string], ReviewLinkRow>(`${select} WHERE l.token_hash = ?`)
  const insert = db.prepare<[string, string, string, string | null, number, number], void>(
    'INSERT INTO review_links (id, post_id, token_hash, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
  )
  const revokeRow = db.prepare<[number, string], void>('UPDATE review_links SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')

  const inScope = (scope: WorkspaceScope, postId: string) => {
    const row = reader.rowSync(postId)
    return row && scope.includes(row.workspace_id) ? row : undefined
  }

  const create = db.transaction((scope: WorkspaceScope, postId: string, link: { id: string; tokenHash: string; expiresAt: number }, now: number, by: Parameters<ReviewLinksStore['create']>[4]) => {
    const post = inScope(scope, postId)
    if (!post) return undefined
    insert.run(link.id, postId, link.tokenHash, actorJson(by), now, link.expiresAt)
    events.appendSync(post.workspace_id, 'post.review_link_created', { post_id: postId, review_link_id: link.id, expires_at: new Date(link.expiresAt).toISOString() }, now, by)
    return reviewLinkFromRow(byId.get(link.id, postId)!)
  })

  const revoke = db.transaction((scope: WorkspaceScope, postId: string, linkId: string, now: number, by: Parameters<ReviewLinksStore['revoke']>[4]) => {
    const post = inScope(scope, postId)
    if (!post || !byId.get(linkId, postId)) return undefined
    if (revokeRow.run(now, linkId).changes > 0) events.appendSync(post.workspace_id, 'post.review_link_revoked', { post_id: postId, review_link_id: linkId }, now, by)
    return reviewLinkFromRow(byId.get(linkId, postId)!)
  })

  return {
    async create(scope, postId, link, now, by) {
      return create.immediate(scope, postId, link, now, by)
    },
    async list(scope, postId) {
      return inScope(scope, postId) ? ofPost.all(postId).map(reviewLinkFromRow) : undefined
    },
    async revoke(scope, postId, linkId, now, by) {
      return revoke.immediate(scope, postId, linkId, now, by)
    },
    async byTokenHash(tokenHash) {
      const row = byHash.get(tokenHash)
      return row && reviewLinkFromRow(row)
    },
  }
}
