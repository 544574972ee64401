import type { AtpAgent } from '@atproto/api'
import * as v from 'valibot'
import type { FieldError } from '../../src/errors.js'
import { graphemeLength } from '../../src/text-length.js'
import { checkLimits, hasMedia, measureDraft } from './limits.js'
import { baseUrl, HttpsUrl, Secret } from './credential-schemas.js'
import { mediaToSend } from './media.js'
import { bytesOf } from './upload.js'
import { recordKeyFor } from './record-key.js'
import { atproto, blueskyError, LABEL, login, refreshedCredentials, sessionToStore, withAgent, type BlueskyCredentials } from './bluesky-session.js'
import type { Metrics, CredentialPlatform, PartRef, PlatformContext, PlatformLimits, Published, PublishRequest } from './types.js'

const Credentials = v.strictObject({
  service_url: v.optional(HttpsUrl('your PDS or entryway, e.g. https://bsky.social'), 'https://bsky.social'),
  identifier: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty (your handle, e.g. alice.bsky.social, or your DID)')),
  app_password: Secret('an app password from Settings → Privacy and security → App passwords, not your account password'),
})

const POST = 'app.bsky.feed.post'
// app.bsky.feed.post's text is at most 300 graphemes and 3,000 bytes (the bytes bind only on
// long multi-byte graphemes); app.bsky.embed.images takes 4 images.
const LIMITS: PlatformLimits = {
  text: { max: 300, count: 'graphemes', max_bytes: 3000 },
  media: {
    max: 4,
    types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
    // app.bsky.embed.images: up to 4 images of 1,000,000 bytes. Bluesky's apps keep alt text to
    // 2,000 characters. A video goes through a separate video service (app.bsky.video.uploadVideo
    // with a service token) that smm does not speak: no videos, and validation says so.
    image: { types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'], max: 4, max_bytes: 1_000_000 },
    video: null,
    mixed: false,
    alt_text_max: 2_000,
  },
}
// app.bsky.embed.images caps each image blob at 1,000,000 bytes.
const MAX_IMAGE_BYTES = 1_000_000
// Where people read posts; the AT URI is the id, this is only the link we record.
const WEB_APP = 'https://bsky.app'

function credentialsOf(raw: Record<string, unknown>): BlueskyCredentials {
  // Stored credentials also hold the session smm keeps; what the user gave is the rest.
  const { session: _session, ...given } = raw
  const parsed = v.parse(Credentials, given)
  return { ...parsed, service_url: baseUrl(parsed.service_url) }
}

function webUrl(uri: string): string {
  const [, , did, , rkey] = uri.split('/')
  return `${WEB_APP}/profile/${did}/post/${rkey}`
}

async function existingRecord(agent: AtpAgent, did: string, rkey: string): Promise<Published | undefined> {
  try {
    const { data } = await agent.com.atproto.repo.getRecord({ repo: did, collection: POST, rkey })
    return { platform_post_id: data.uri, url: webUrl(data.uri), ...(data.cid ? { ref: data.cid } : {}) }
  } catch (error) {
    if (error instanceof (await atproto()).XRPCError && error.error === 'RecordNotFound') return undefined
    throw error
  }
}

async function displayName(agent: AtpAgent, did: string): Promise<string | undefined> {
  // Read from the repository itself, not the AppView: the PDS alone can answer it.
  try {
    const { data } = await agent.com.atproto.repo.getRecord({ repo: did, collection: 'app.bsky.actor.profile', rkey: 'self' })
    const name = (data.value as { displayName?: unknown }).displayName
    return typeof name === 'string' && name.trim() ? name : undefined
  } catch (error) {
    if (error instanceof (await atproto()).XRPCError && error.error === 'RecordNotFound') return undefined
    throw error
  }
}

/** The post under its record key: the one already there (a re-send), else a new record. */
async function createPost(agent: AtpAgent, request: PublishRequest, rkey: string, ctx: PlatformContext): Promise<Published> {
  const did = agent.session!.did
  const already = await existingRecord(agent, did, rkey)
  if (already) return already
  const images = []
  // Each image a blob (com.atproto.repo.uploadBlob, at most 1 MB, so read whole), then named in
  // app.bsky.embed.images with its alt text and, where smm read them, its width and height.
  for (const item of await mediaToSend(ctx, request, { label: LABEL, types: LIMITS.media.types!, maxBytes: MAX_IMAGE_BYTES })) {
    const { data } = await agent.uploadBlob(await bytesOf(item), { encoding: item.content_type })
    const aspectRatio = item.width && item.height ? { aspectRatio: { width: item.width, height: item.height } } : {}
    images.push({ image: data.blob, alt: item.alt_text ?? '', ...aspectRatio })
  }
  const followUp = request.followUp
  // A reply names the thread's first post and the one it answers, each by URI and CID (app.bsky.feed.post#replyRef).
  const strongRef = (part: PartRef) => ({ uri: part.platform_post_id ?? '', cid: part.ref ?? '' })
  const { RichText } = await atproto()
  const text = new RichText({ text: request.content })
  // Resolves @handles to DIDs (through our fetch); a handle that does not resolve stays text.
  await text.detectFacets(agent)
  const record = {
    $type: POST,
    text: text.text,
    ...(text.facets?.length ? { facets: text.facets } : {}),
    ...(images.length ? { embed: { $type: 'app.bsky.embed.images', images } } : {}),
    ...(followUp ? { reply: { root: strongRef(followUp.root), parent: strongRef(followUp.parent) } } : {}),
    createdAt: new Date(ctx.clock.now()).toISOString(),
  }
  const { data } = await agent.com.atproto.repo.createRecord({ repo: did, collection: POST, rkey, record })
  return { platform_post_id: data.uri, url: webUrl(data.uri), ref: data.cid }
}

export const bluesky: CredentialPlatform = {
  name: 'bluesky',
  label: 'Bluesky',
  auth: 'credentials',
  credentials: Credentials,
  // The record key comes from our post id, and publish first looks for a record under that
  // key: a re-send finds the post it made instead of making another.
  idempotencyWindowMs: Infinity,
  // A thread is a chain of posts, each a reply (record.reply: root and parent) to the one before.
  thread: 'replies',
  firstComment: 'reply',

  limits: LIMITS,
  uploadsMedia: true,
  // The 3,000-byte limit binds only on text of long multi-byte graphemes; `checkLimits` enforces it.
  measure: (draft) => measureDraft(LIMITS, draft),

  check(draft) {
    const errors: FieldError[] = checkLimits(LIMITS, draft, { label: LABEL })
    if (graphemeLength(draft.content) === 0 && !hasMedia(draft)) errors.push({ pointer: '#/content', code: 'required', detail: 'must not be empty on Bluesky unless the post has images' })
    return errors
  },

  async verify(raw, ctx) {
    const credentials = credentialsOf(raw)
    const agent = await login(credentials, ctx)
    const { did, handle } = agent.session!
    let name: string | undefined
    try {
      name = await displayName(agent, did)
    } catch (error) {
      throw blueskyError(error, ctx.clock.now())
    }
    return {
      handle: `@${handle}`,
      display_name: name ?? handle,
      settings: { did, pds_url: agent.pdsUrl?.toString() ?? credentials.service_url },
      credentials: { ...credentials, session: sessionToStore(agent) },
    }
  },

  async publish(connection, request, ctx) {
    const credentials = credentialsOf(connection.credentials)
    // Each part has its own key, derived likewise: a re-sent reply finds the record it made.
    const rkey = recordKeyFor(request.postId, request.followUp?.index ?? 0)
    const stored = connection.credentials.session
    return withAgent(connection.accountId, credentials, stored, ctx, async (agent): Promise<Published> => {
      const published = await createPost(agent, request, rkey, ctx)
      const refreshed = refreshedCredentials(agent, credentials, stored)
      return refreshed ? { ...published, credentials: refreshed } : published
    })
  },

  async metrics(connection, ids: string[], ctx: PlatformContext) {
    const credentials = credentialsOf(connection.credentials)
    const counts = new Map<string, Metrics>()
    // getPosts takes at most 25 URIs; deleted posts are simply absent from its answer.
    for (let i = 0; i < ids.length; i += 25) {
      const uris = ids.slice(i, i + 25)
      const { data } = await withAgent(connection.accountId, credentials, connection.credentials.session, ctx, (agent) => agent.app.bsky.feed.getPosts({ uris }))
      for (const post of data.posts) {
        counts.set(post.uri, {
          impressions: null,
          likes: post.likeCount ?? null,
          reposts: post.repostCount ?? null,
          replies: post.replyCount ?? null,
          quotes: post.quoteCount ?? null,
          clicks: null,
        })
      }
    }
    return counts
  },
}
