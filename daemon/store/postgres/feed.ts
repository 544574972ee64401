import type { FeedStore } from '../port.js'
import { feedItemFromRow, type FeedRow } from '../rows.js'
import type { Sql } from './connect.js'

export function feedStore(sql: Sql): FeedStore {
  return {
    // Keyed by (account, post): a re-sent publish answers the item already there.
    async publish(accountId, postId, content, mediaUrls, now) {
      const [added] = await sql<FeedRow[]>`INSERT INTO feed_items (account_id, post_id, content, media_urls, published_at)
                VALUES (${accountId}, ${postId}, ${content}, ${JSON.stringify(mediaUrls)}, ${now}) ON CONFLICT DO NOTHING RETURNING *`
      const [row] = added ? [added] : await sql<FeedRow[]>`SELECT * FROM feed_items WHERE account_id = ${accountId} AND post_id = ${postId}`
      return feedItemFromRow(row!)
    },
    async recent(accountId, limit) {
      return (
        await sql<FeedRow[]>`SELECT * FROM feed_items WHERE account_id = ${accountId} ORDER BY published_at DESC, post_id DESC LIMIT ${limit}`
      ).map(feedItemFromRow)
    },
  }
}
