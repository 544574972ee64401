import type { ReviewLinksStore } from '../port.js'
import { actorJson, reviewLinkFromRow, type ReviewLinkRow } from '../rows.js'
import type { Queryable, Sql } from './connect.js'
import { appendEvent } from './events.js'

/** The post's workspace, if the post is in the scope. */
async function workspaceOf(q: Queryable, scope: readonly string[], postId: string): Promise<string | undefined> {
  const [row] = await q<{ workspace_id: string }[]>`SELECT workspace_id FROM posts WHERE id = ${postId} AND workspace_id = ANY(${scope}::text[])`
  return row?.workspace_id
}

const select = (q: Queryable) => q`
  SELECT l.id, l.post_id, p.workspace_id, l.created_by, l.created_at, l.expires_at, l.revoked_at
    FROM review_links l JOIN posts p ON p.id = l.post_id`

export function reviewLinksStore(sql: Sql): ReviewLinksStore {
  const one = async (q: Queryable, linkId: string, postId: string) => {
    const [row] = await q<ReviewLinkRow[]>`${select(q)} WHERE l.id = ${linkId} AND l.post_id = ${postId}`
    return row && reviewLinkFromRow(row)
  }
  return {
    async create(scope, postId, link, now, by) {
      return sql.begin(async (tx) => {
        const workspaceId = await workspaceOf(tx, scope, postId)
        if (!workspaceId) return undefined
        await tx`INSERT INTO review_links (id, post_id, token_hash, created_by, created_at, expires_at)
          VALUES (${link.id}, ${postId}, ${link.tokenHash}, ${actorJson(by)}, ${now}, ${link.expiresAt})`
        await appendEvent(tx, workspaceId, 'post.review_link_created', { post_id: postId, review_link_id: link.id, expires_at: new Date(link.expiresAt).toISOString() }, now, by)
        return one(tx, link.id, postId)
      })
    },
    async list(scope, postId) {
      if (!(await workspaceOf(sql, scope, postId))) return undefined
      return (await sql<ReviewLinkRow[]>`${select(sql)} WHERE l.post_id = ${postId} ORDER BY l.id`).map(reviewLinkFromRow)
    },
    async revoke(scope, postId, linkId, now, by) {
      return sql.begin(async (tx) => {
        const workspaceId = await workspaceOf(tx, scope, postId)
        if (!workspaceId) return undefined
        const revoked = await tx`UPDATE review_links SET revoked_at = ${now} WHERE id = ${linkId} AND post_id = ${postId} AND revoked_at IS NULL RETURNING id`
        if (revoked.length > 0) await appendEvent(tx, workspaceId, 'post.review_link_revoked', { post_id: postId, review_link_id: linkId }, now, by)
        return one(tx, linkId, postId)
      })
    },
    async byTokenHash(tokenHash) {
      const [row] = await sql<ReviewLinkRow[]>`${select(sql)} WHERE l.token_hash = ${tokenHash}`
      return row && reviewLinkFromRow(row)
    },
  }
}
