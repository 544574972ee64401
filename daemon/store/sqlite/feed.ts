import { Batcher } from '../../batcher.js'
import type { Db } from './db.js'
import type { FeedAttachment, FeedItem, NewFeedItem } from '../port.js'
import { feedItemFromRow as fromRow, feedMediaColumn, type FeedRow as Row } from '../rows.js'

/**
 * Adds a batch's items in one statement, given as one JSON array of `[account, post, content,
 * media column, published at]`. Keyed by (account, post): publishing the same post again is a
 * no-op, which is what makes the feed platform safe to re-send after a crash. The scheduler's
 * claim writes its in-store publishes with it too (publishing.ts).
 */
export const feedInsert = (db: Db): { run(json: string): unknown } =>
  db.prepare<[string], void>(
    `INSERT INTO feed_items (account_id, post_id, content, media_urls, published_at)
     SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`,
  )

export function feedStore(db: Db) {
  const insert = feedInsert(db)
  const these = db.prepare<[string], Row>('SELECT * FROM feed_items WHERE (account_id, post_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))')
  const recent = db.prepare<[string, number], Row>(
    'SELECT * FROM feed_items WHERE account_id = ? ORDER BY published_at DESC, post_id DESC LIMIT ?',
  )

  const addAll = db.transaction((items: NewFeedItem[]) => {
    const json = JSON.stringify(items.map((i) => [i.accountId, i.postId, i.content, feedMediaColumn(i), i.now]))
    insert.run(json)
    const rows = new Map(these.all(json).map((row) => [`${row.account_id} ${row.post_id}`, row]))
    return items.map((i) => fromRow(rows.get(`${i.accountId} ${i.postId}`)!))
  })
  // A burst's publishes share transactions (one commit each, not one per item), as its outcomes do.
  // A batch that fails is written again item by item: one bad item does not fail the rest.
  const adding = new Batcher<NewFeedItem, FeedItem>(async (items) => addAll.immediate(items).map((value) => ({ status: 'fulfilled', value })), { retryAlone: true })

  return {
    /** Adds a post to an account's feed, once; a second call answers the item already there. */
    async publish(accountId: string, postId: string, content: string, mediaUrls: string[], now: number, attachments?: FeedAttachment[]): Promise<FeedItem> {
      return adding.add({ accountId, postId, content, mediaUrls, attachments, now })
    },
    /** The newest items first. */
    async recent(accountId: string, limit: number): Promise<FeedItem[]> {
      return recent.all(accountId, limit).map(fromRow)
    },
  }
}
