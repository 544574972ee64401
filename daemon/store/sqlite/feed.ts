import { Batcher } from '../../batcher.js'
import type { Db } from './db.js'
import type { FeedItem } from '../port.js'
import { feedItemFromRow as fromRow, type FeedRow as Row } from '../rows.js'

interface NewItem {
  accountId: string
  postId: string
  content: string
  mediaUrls: string[]
  now: number
}

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

  const addAll = db.transaction((items: NewItem[]) =>
    items.map((item) => {
      insert.run(item.accountId, item.postId, item.content, JSON.stringify(item.mediaUrls), item.now)
      return fromRow(one.get(item.accountId, item.postId)!)
    }),
  )
  // A burst's publishes share transactions (one commit each, not one per item), as its outcomes do.
  const adding = new Batcher<NewItem, FeedItem>(async (items) => addAll.immediate(items).map((value) => ({ status: 'fulfilled', value })))

  return {
    /** Adds a post to an account's feed, once; a second call answers the item already there. */
    async publish(accountId: string, postId: string, content: string, mediaUrls: string[], now: number): Promise<FeedItem> {
      return adding.add({ accountId, postId, content, mediaUrls, now })
    },
    /** The newest items first. */
    async recent(accountId: string, limit: number): Promise<FeedItem[]> {
      return recent.all(accountId, limit).map(fromRow)
    },
  }
}
