import { Batcher } from '../../batcher.js'
import type { FeedItem, FeedStore, NewFeedItem } from '../port.js'
import { feedItemFromRow, feedMediaColumn, type FeedRow } from '../rows.js'
import type { Sql } from './connect.js'

export function feedStore(sql: Sql): FeedStore {
  // A burst's publishes share statements (two for a batch, not one or two per item), as its outcomes do.
  const adding = new Batcher<NewFeedItem, FeedItem>(async (items) => {
    const accounts = items.map((i) => i.accountId)
    const posts = items.map((i) => i.postId)
    // Keyed by (account, post): a re-sent publish answers the item already there.
    await sql`
      INSERT INTO feed_items (account_id, post_id, content, media_urls, published_at)
      SELECT * FROM unnest(${accounts}::text[], ${posts}::text[], ${items.map((i) => i.content)}::text[], ${items.map(feedMediaColumn)}::text[],
                           ${items.map((i) => i.now)}::bigint[])
      ON CONFLICT DO NOTHING`
    const rows = await sql<FeedRow[]>`
      SELECT f.* FROM feed_items f JOIN unnest(${accounts}::text[], ${posts}::text[]) AS r(account_id, post_id) ON f.account_id = r.account_id AND f.post_id = r.post_id`
    const byKey = new Map(rows.map((row) => [`${row.account_id} ${row.post_id}`, row]))
    return items.map((i) => ({ status: 'fulfilled' as const, value: feedItemFromRow(byKey.get(`${i.accountId} ${i.postId}`)!) }))
    // Written again item by item if it fails: the insert of an item already there does nothing.
  }, { retryAlone: true })
  return {
    publish: (accountId, postId, content, mediaUrls, now, attachments) => adding.add({ accountId, postId, content, mediaUrls, attachments, now }),
    async recent(accountId, limit) {
      return (
        await sql<FeedRow[]>`SELECT * FROM feed_items WHERE account_id = ${accountId} ORDER BY published_at DESC, post_id DESC LIMIT ${limit}`
      ).map(feedItemFromRow)
    },
  }
}
