import { FEED_CACHE_CONTROL } from '../../src/api/feeds.js'
import { routes } from '../../src/contract.js'
import { ApiError } from '../../src/errors.js'
import type { AppDeps, Ctx } from '../context.js'
import { renderAtom, renderHtml, renderJsonFeed, renderRss, type FeedChannel } from '../feeds/documents.js'
import type { FeedItem } from '../store/index.js'
import { bind, type ApiRouter } from './bind.js'

/** Items in each document: the newest, as feed readers poll often and keep their own history. */
const FEED_ITEMS = 50

type Render = (channel: FeedChannel, items: FeedItem[]) => string

export function feedRoutes(router: ApiRouter, deps: AppDeps): void {
  const serve = (render: Render, type: string) => async (ctx: Ctx, { params }: { params: { account_id: string } }) => {
    const account = await deps.store.accounts.getPublic(params.account_id)
    if (!account || !account.connections.some((c) => c.platform === 'feed')) {
      throw new ApiError(404, 'not_found', `No feed for ${params.account_id}: the account does not exist or is not connected to the feed platform.`)
    }
    const items = await deps.store.feed.recent(account.id, FEED_ITEMS)
    // From the daemon's own URL, not the request's Host: a cache in front keeps a document for
    // every reader, and a Host of the asker's choosing would point its links anywhere.
    const channel: FeedChannel = { accountId: account.id, title: account.name, base: `${deps.publicUrl()}/feeds/${account.id}` }
    ctx.type = type
    ctx.set('Cache-Control', FEED_CACHE_CONTROL)
    ctx.body = render(channel, items)
  }
  bind(router, routes.getRssFeed, serve(renderRss, 'application/rss+xml; charset=utf-8'))
  bind(router, routes.getAtomFeed, serve(renderAtom, 'application/atom+xml; charset=utf-8'))
  bind(router, routes.getJsonFeed, serve(renderJsonFeed, 'application/feed+json; charset=utf-8'))
  bind(router, routes.getHtmlFeed, async (ctx, input) => {
    await serve(renderHtml, 'text/html; charset=utf-8')(ctx, input)
    // Posts are users' text on the daemon's origin: escaped, and on top of that no script,
    // frame, form or plugin may run on this page whatever a post holds.
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src https:; frame-ancestors 'none'; form-action 'none'; base-uri 'none'")
  })
}
