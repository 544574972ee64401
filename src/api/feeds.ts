import * as v from 'valibot'
import { route } from './route.js'

const FeedParams = v.object({ account_id: v.string() })

/** Feed readers poll often: a cache in front may answer them for a minute. */
export const FEED_CACHE_CONTROL = 'public, max-age=60'

/** A JSON Feed 1.1 document (https://www.jsonfeed.org/version/1.1/) as the daemon writes it. */
export const JsonFeed = v.pipe(
  v.object({
    version: v.literal('https://jsonfeed.org/version/1.1'),
    title: v.string(),
    home_page_url: v.string(),
    feed_url: v.string(),
    description: v.string(),
    authors: v.array(v.object({ name: v.string() })),
    items: v.array(
      v.object({
        id: v.string(),
        url: v.string(),
        title: v.string(),
        content_text: v.string(),
        date_published: v.string(),
        attachments: v.optional(v.array(v.object({ url: v.string(), mime_type: v.string() }))),
      }),
    ),
  }),
  v.title('JsonFeed'),
)

/** The built-in `feed` platform's public output: no key needed, newest item first. */
export const feedRoutes = {
  getRssFeed: route({
    method: 'GET',
    path: '/feeds/{account_id}.rss',
    summary: "The account's feed as RSS 2.0 (media as enclosures)",
    tag: 'feeds',
    params: FeedParams,
    status: 200,
    response: v.string(),
    cacheControl: FEED_CACHE_CONTROL,
    produces: ['application/rss+xml'],
  }),
  getAtomFeed: route({
    method: 'GET',
    path: '/feeds/{account_id}.atom',
    summary: "The account's feed as Atom (media as enclosure links)",
    tag: 'feeds',
    params: FeedParams,
    status: 200,
    response: v.string(),
    cacheControl: FEED_CACHE_CONTROL,
    produces: ['application/atom+xml'],
  }),
  getHtmlFeed: route({
    method: 'GET',
    path: '/feeds/{account_id}.html',
    summary: "The account's feed as a web page: each post an article whose anchor is its id (what the feeds' item links open)",
    tag: 'feeds',
    params: FeedParams,
    status: 200,
    response: v.string(),
    cacheControl: FEED_CACHE_CONTROL,
    produces: ['text/html'],
  }),
  getJsonFeed: route({
    method: 'GET',
    path: '/feeds/{account_id}.json',
    summary: "The account's feed as JSON Feed 1.1 (media as attachments)",
    tag: 'feeds',
    params: FeedParams,
    status: 200,
    response: JsonFeed,
    cacheControl: FEED_CACHE_CONTROL,
    produces: ['application/feed+json'],
  }),
}
