/**
 * What one target of a post publishes: the post's version for that platform (its override
 * applied) and the parts it makes, in order. One definition for validation, the store's claim
 * and the CLI, so what was checked is what goes out.
 */
import type { PlatformName } from './api/common.js'
import type { MediaRef, Overrides, PartKind, ThreadPart } from './api/posts.js'

/** A post's fields that decide what each platform gets. */
export interface PostVersions {
  content: string
  media_urls: string[]
  media?: MediaRef[]
  thread: ThreadPart[]
  first_comment: string | null
  overrides: Overrides
}

/** One platform's version of a post: the post's fields with that platform's override applied. */
export interface Version {
  content: string
  mediaUrls: string[]
  media: MediaRef[]
  thread: { content: string; media_urls: string[]; media: MediaRef[] }[]
  firstComment: string | null
}

/** One part a target publishes: 0 the post, then its first comment, then its thread parts. */
export interface PartPlan {
  index: number
  kind: PartKind
  content: string
  mediaUrls: string[]
  /** Uploaded media, by id, with the alt text the post gives (null: the media's own). */
  media: MediaRef[]
}

export function versionFor(post: PostVersions, platform: PlatformName): Version {
  const override = post.overrides[platform] ?? {}
  const thread = override.thread ?? post.thread
  return {
    content: override.content ?? post.content,
    mediaUrls: override.media_urls ?? post.media_urls,
    media: override.media ?? post.media ?? [],
    thread: thread.map((part) => ({ content: part.content ?? '', media_urls: part.media_urls ?? [], media: part.media ?? [] })),
    firstComment: override.first_comment !== undefined ? override.first_comment : post.first_comment,
  }
}

/**
 * The parts of a version, in the order they go out. A first comment belongs under the post
 * itself, so it follows the post at once and the thread comes after it (a thread part replies
 * to the post or to the thread part before it, never to the comment).
 */
export function partsOf(version: Version): PartPlan[] {
  const parts: PartPlan[] = [{ index: 0, kind: 'post', content: version.content, mediaUrls: version.mediaUrls, media: version.media }]
  if (version.firstComment !== null) parts.push({ index: parts.length, kind: 'first_comment', content: version.firstComment, mediaUrls: [], media: [] })
  for (const part of version.thread) parts.push({ index: parts.length, kind: 'thread', content: part.content, mediaUrls: part.media_urls, media: part.media })
  return parts
}

/** Every media id a post names anywhere: itself, its thread, its per-platform versions and their threads. */
export function mediaIdsOf(post: Pick<PostVersions, 'media' | 'thread' | 'overrides'>): string[] {
  const ids = new Set<string>()
  const add = (refs: MediaRef[] | undefined) => refs?.forEach((ref) => ids.add(ref.id))
  const addThread = (thread: ThreadPart[] | undefined) => thread?.forEach((part) => add(part.media))
  add(post.media)
  addThread(post.thread)
  for (const override of Object.values(post.overrides)) {
    add(override?.media)
    addThread(override?.thread)
  }
  return [...ids]
}
