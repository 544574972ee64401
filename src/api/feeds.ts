import * as v from 'valibot'
import { route } from './route.js'

const FeedParams = v.object({ account_id: v.string() })

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
    produces: ['application/atom+xml'],
  }),
  getJsonFeed: route({
    method: 'GET',
    path: '/feeds/{account_id}.json',
    summary: "The account's feed as JSON Feed 1.1 (media as attachments)",
    tag: 'feeds',
    params: FeedParams,
    status: 200,
    response: v.string(),
    produces: ['application/feed+json'],
  }),
}
