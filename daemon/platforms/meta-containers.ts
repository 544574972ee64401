/**
 * How Threads and Instagram publish and count: a media container first, published once Meta has
 * fetched and processed its media, and insights per post. What differs between the two is data
 * (a ContainerApi) each module declares.
 */
import { sleep } from '../../src/time.js'
import { keepsAltText } from './limits.js'
import { fetchMedia } from './media.js'
import type { GraphCaller } from './meta-graph.js'
import { PlatformError, type Metrics, type PlatformContext, type PlatformLimits, type Published, type PublishRequest } from './types.js'

/** A container's state as Meta reports it, with the reason when it failed. */
interface ContainerState {
  status: 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED' | string
  message?: string
}

/**
 * Meta fetches and processes a container's media after answering, and refuses to publish it
 * before it is done. Its advice is to check about once a minute for at most five minutes; we
 * look at once (images and text are usually ready), then back off over those five minutes.
 */
export const CONTAINER_WAITS_MS = [2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 60_000, 60_000, 58_000] as const

/** Waits until a container can be published: FINISHED, or a PlatformError saying why not. */
async function awaitContainer(ctx: PlatformContext, label: string, containerId: string, read: () => Promise<ContainerState>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const state = await read()
    if (state.status === 'FINISHED') return
    if (state.status === 'ERROR') {
      throw new PlatformError('permanent', 'media_rejected', `${label} could not process the post's media: ${state.message || 'no reason given'}`)
    }
    // An expired or unknown container has published nothing: a later attempt makes a new one.
    if (state.status !== 'IN_PROGRESS') {
      throw new PlatformError('transient', 'media_processing', `${label}'s container ${containerId} is ${state.status}; trying again with a new one`)
    }
    const wait = CONTAINER_WAITS_MS[attempt]
    if (wait === undefined) {
      throw new PlatformError('transient', 'media_processing', `${label} was still processing the post's media after five minutes; trying again later`)
    }
    await sleep(ctx.clock, wait)
  }
}

/** One insights row: `{name, period, values: [{value}]}`, or `total_value` for some metrics. */
interface InsightRow {
  name: string
  values?: Array<{ value?: number }>
  total_value?: { value?: number }
}

/** The counts of an insights answer by metric name; a metric Meta left out is absent. */
function insightCounts(body: { data?: InsightRow[] }): Map<string, number> {
  const counts = new Map<string, number>()
  for (const row of body.data ?? []) {
    const value = row.total_value?.value ?? row.values?.[0]?.value
    if (typeof value === 'number') counts.set(row.name, value)
  }
  return counts
}

/** How Threads and Instagram differ in publishing through containers and in reading insights. */
export interface ContainerApi {
  label: string
  /** The image types and size Meta takes, checked on our own download of each image. */
  images: { types: readonly string[]; maxBytes: number }
  /** The user's edges that make a container and publish one (`threads`, `threads_publish`). */
  edges: { create: string; publish: string }
  /** The parameter the post's text goes in (`text`, `caption`). */
  textParam: string
  /** What an image container adds to `image_url` (Threads names `media_type: IMAGE`). */
  imageParams: Record<string, string>
  /** What a video container adds to `video_url`, alone and as a carousel item (Instagram: REELS, VIDEO). */
  videoParams: { single: Record<string, string>; item: Record<string, string> }
  /** The platform's declared rules: the kinds of media whose alt text it keeps go with `alt_text` on their container. */
  limits: PlatformLimits
  /** The fields a container's state and its failure reason are read from. */
  stateFields: { status: string; message: string }
  /** The insights metric behind each count, asked for in this order; a count not listed is null. */
  insights: Partial<Record<keyof Metrics, string>>
}

/** One media item of a post, as Meta fetches it: its public URL, its kind, its alt text. */
interface ContainerItem {
  url: string
  kind: 'image' | 'video'
  alt_text: string | null
}

/** The container for a post: TEXT without media, one image or video with the text, or a CAROUSEL of items. */
async function createContainer(api: ContainerApi, call: GraphCaller, userId: string, text: string, items: ContainerItem[], extra: Record<string, string>): Promise<string> {
  const path = `/${encodeURIComponent(userId)}/${api.edges.create}`
  // `extra` (a Threads reply's reply_to_id) goes on the container that is published, not on carousel items.
  const withText: Record<string, string> = { ...(text ? { [api.textParam]: text } : {}), ...extra }
  const create = async (params: Record<string, string>) => (await call<{ id: string }>('POST', path, params)).id
  const paramsOf = (item: ContainerItem, alone: boolean): Record<string, string> => ({
    ...(item.kind === 'video' ? { ...(alone ? api.videoParams.single : api.videoParams.item), video_url: item.url } : { ...api.imageParams, image_url: item.url }),
    ...(item.alt_text && keepsAltText(api.limits, item.kind) ? { alt_text: item.alt_text } : {}),
  })
  if (items.length === 0) return create({ media_type: 'TEXT', [api.textParam]: text, ...extra })
  if (items.length === 1) return create({ ...paramsOf(items[0]!, true), ...withText })
  const children: string[] = []
  for (const item of items) children.push(await create({ ...paramsOf(item, false), is_carousel_item: 'true' }))
  return create({ media_type: 'CAROUSEL', children: children.join(','), ...withText })
}

/** The public URL of a published post; null if Meta will not say (the post is out either way). */
async function permalink(ctx: PlatformContext, api: ContainerApi, call: GraphCaller, id: string): Promise<string | null> {
  try {
    return (await call<{ permalink?: string }>('GET', `/${encodeURIComponent(id)}`, { fields: 'permalink' })).permalink ?? null
  } catch (error) {
    // Throwing here would have the scheduler publish again: the post exists, only its link is missing.
    ctx.log.warn({ err: error, id }, `${api.label}: published, but the permalink could not be read`)
    return null
  }
}

/**
 * Publishes a post the container way: each media URL's image fetched first (Meta fetches them
 * itself, but our own download names a bad URL or type plainly, before any container exists),
 * uploaded media named by their public URLs (checked at validation), the container
 * made, awaited until Meta has processed it, published once, and its permalink read.
 */
export async function publishThroughContainer(ctx: PlatformContext, api: ContainerApi, call: GraphCaller, userId: string, request: PublishRequest, extra: Record<string, string> = {}): Promise<Published> {
  for (const [index, url] of request.mediaUrls.entries()) {
    await fetchMedia(ctx, url, index, { label: api.label, types: api.images.types, maxBytes: api.images.maxBytes })
  }
  // Uploaded media are fetched by Meta from their public URL (validation made sure it is public).
  const uploaded = (request.media ?? []).map((m): ContainerItem => ({ url: m.url, kind: m.kind, alt_text: m.alt_text }))
  const items = [...request.mediaUrls.map((url): ContainerItem => ({ url, kind: 'image', alt_text: null })), ...uploaded]
  const container = await createContainer(api, call, userId, request.content, items, extra)
  const { status, message } = api.stateFields
  await awaitContainer(ctx, api.label, container, async () => {
    const body = await call<Record<string, string | undefined>>('GET', `/${encodeURIComponent(container)}`, { fields: `${status},${message}` })
    return { status: body[status] ?? '', message: body[message] }
  })
  const { id } = await call<{ id: string }>('POST', `/${encodeURIComponent(userId)}/${api.edges.publish}`, { creation_id: container })
  return { platform_post_id: id, url: await permalink(ctx, api, call, id) }
}

/** Each post's counts from its insights; a post without any (deleted, or too few viewers) is left out. */
export async function insightMetrics(api: ContainerApi, call: GraphCaller, ids: string[]): Promise<Map<string, Metrics>> {
  const metric = Object.values(api.insights).join(',')
  const counts = new Map<string, Metrics>()
  for (const id of ids) {
    let body
    try {
      body = await call<{ data?: InsightRow[] }>('GET', `/${encodeURIComponent(id)}/insights`, { metric })
    } catch (error) {
      // A post without insights has no counts; the others still do. Auth and throttling stop the round.
      if (error instanceof PlatformError && error.kind === 'permanent') continue
      throw error
    }
    const found = insightCounts(body)
    const count = (name: string | undefined) => (name === undefined ? null : (found.get(name) ?? null))
    const { impressions, likes, reposts, replies, quotes, clicks } = api.insights
    counts.set(id, { impressions: count(impressions), likes: count(likes), reposts: count(reposts), replies: count(replies), quotes: count(quotes), clicks: count(clicks) })
  }
  return counts
}
