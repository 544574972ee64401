import type { Db } from './db.js'
import type { FeedItem } from '../port.js'
import { feedItemFromRow as fromRow, type FeedRow as Row } from '../rows.js'


export function feedStore(db: Db) {
  // Keyed by (account, post): publishing the same post again is a no-op, which is what makes
  // the feed platform safe to re-send after a crash.
  const insert = db.prepare<[string, string, string, string, number], void>(
    'INSERT INTO feed_items (account_id, post_id, content, media_urls, published_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  )
  const one = db.prepare<[string, string], Row>('SELECT * FROM feed_items WHERE account_id = ? AND post_id = ?')
  const recent = db.prepare<[string, number], Row>(
    'SELECT * FROM feed_items WHERE account_id = ? ORDER BY published_at DESC, post_id DESC LIMIT ?',
  )

  return {
    /** Adds a post to an account's feed, once; a second call answers the item already there. */
    async publish(accountId: string, postId: string, content: string, mediaUrls: string[], now: number): Promise<FeedItem> {
      insert.run(accountId, postId, content, JSON.stringify(mediaUrls), now)
      return fromRow(one.get(accountId, postId)!)
    },
    /** The newest items first. */
    async recent(accountId: string, limit: number): Promise<FeedItem[]> {
      return recent.all(accountId, limit).map(fromRow)
    },
  }
}
