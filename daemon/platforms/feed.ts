import * as v from 'valibot'
import type { FieldError } from '../../src/errors.js'
import type { FeedStore } from '../store/index.js'
import { formatNumber as formatCount } from '../../src/numbers.js'
import { checkMedia, measureDraft } from './limits.js'
import { MAX_ALT_TEXT } from '../../src/api/media.js'
import { COMMON_IMAGE_TYPES } from './media.js'
import { partKey } from './record-key.js'
import type { CredentialPlatform, PlatformLimits } from './types.js'

/** Text up to 10,000 graphemes; media go as enclosures, as many as the post has, readers fetching them from this daemon. */
export const FEED_LIMITS: PlatformLimits = {
  text: { max: 10_000, count: 'graphemes' },
  media: {
    max: null,
    image: { types: [...COMMON_IMAGE_TYPES] },
    video: { types: ['video/mp4', 'video/quicktime'] },
    alt_text_max: MAX_ALT_TEXT,
    // The documents link each media's URL; readers fetch it from this daemon, loopback or not.
    send: 'link',
  },
}
/** Publishes at once, per daemon, on the platform and on one account's feed. */
export const FEED_CONCURRENCY = 64

/**
 * The built-in platform: publishing adds the post to the account's own RSS, Atom and JSON feeds
 * served by the daemon, so the whole pipeline works with no outside service. Publishing is
 * idempotent (one item per post), so an attempt cut off by a crash is simply sent again.
 */
export function feedPlatform(items: FeedStore, publicUrl: () => string): CredentialPlatform {
  const published = (accountId: string, itemId: string) => ({ platform_post_id: itemId, url: `${publicUrl()}/feeds/${accountId}.html#${itemId}` })
  return {
    name: 'feed',
    label: 'Feed',
    auth: 'credentials',
    credentials: v.strictObject({}),
    idempotencyWindowMs: Infinity,
    // A feed has items, not replies: thread parts are items of their own, and there is nowhere to comment.
    thread: 'consecutive',
    firstComment: null,
    // Publishing is a row written in the daemon's own database: a burst on one account need not queue.
    concurrency: { perPlatform: FEED_CONCURRENCY, perConnection: FEED_CONCURRENCY },
    limits: FEED_LIMITS,
    measure: (draft) => measureDraft(FEED_LIMITS, draft),
    // Its readers fetch uploaded media from this daemon by their URLs, loopback or not.
    uploadsMedia: true,
    // Not checkLimits: the feed's error came first and has its own code (`content_too_long`),
    // which clients may match; its media rules are checkMedia's.
    check(draft) {
      const errors: FieldError[] = []
      const { length, limit } = measureDraft(FEED_LIMITS, draft)
      if (length > limit) {
        errors.push({
          pointer: '#/content',
          code: 'content_too_long',
          detail: `is ${formatCount(length)} characters; feed allows at most ${formatCount(limit)}`,
        })
      }
      errors.push(...checkMedia(FEED_LIMITS, draft.media ?? [], { label: 'Feed' }))
      return errors
    },
    async verify() {
      return { handle: 'feed', display_name: 'RSS, Atom and JSON Feed', settings: {} }
    },
    async publish(connection, request, ctx) {
      // Each part is an item of its own, keyed by the part: a re-sent part finds its item.
      const attachments = (request.media ?? []).map((m) => ({ url: m.url, type: m.content_type, bytes: m.bytes, alt_text: m.alt_text }))
      const item = await items.publish(connection.accountId, partKey(request.postId, request.followUp?.index ?? 0), request.content, request.mediaUrls, ctx.clock.now(), attachments)
      return published(connection.accountId, item.postId)
    },
    // A post's item is keyed by the post (its part 0): the store writes it as `publish` would.
    inStore: published,
  }
}
