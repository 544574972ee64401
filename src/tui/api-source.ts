// The calendar's source over the typed API client: the one place the TUI meets SmmClient.

import type { PlatformName } from '../api/common.js'
import type { Post as ApiPost } from '../api/posts.js'
import type { SmmClient } from '../client/smm-client.js'
import { ApiError } from '../errors.js'
import type { Account, CalendarSource, Post } from './calendar-source.js'

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = []
  for await (const item of items) list.push(item)
  return list
}

// The calendar shows scheduled posts and their outcomes; drafts are not on it yet (a draft may
// have no time to be placed at). The posts it creates, edits and cancels are ones it showed.
const timed = (posts: ApiPost[]): Post[] => posts.filter((p) => p.status !== 'draft' && p.scheduled_at !== null) as Post[]
const placed = (post: Promise<ApiPost>) => post as Promise<Post>

// The form offers only the account's own platforms, and the daemon checks every name it gets.
const platformNames = (platforms: string[]) => platforms as PlatformName[]

/**
 * Every call goes to the daemon as is. Lists are read to the end: the calendar shows a whole
 * month, and a busy month is more than one page. No status filter: it shows every state.
 *
 * An edit is sent without If-Match, whatever `etag` says: the client has no way to send a
 * request header yet. The daemon still merges the edit onto the post as it is at that moment,
 * and refuses (409) once the post is no longer scheduled.
 */
export function apiCalendarSource(client: SmmClient): CalendarSource {
  return {
    listPosts: async (range) => timed(await all<ApiPost>(client.paginate('listPosts', { query: { from: range.from, to: range.to, limit: 100 } }))),
    listAccounts: () => all<Account>(client.paginate('listAccounts', { query: { limit: 100 } })),
    listPlatforms: async () => (await client.listPlatforms()).data,
    createPost: (input) => placed(client.createPost({ body: { ...input, platforms: platformNames(input.platforms) } })),
    updatePost: (id, { platforms, ...rest }) => placed(client.updatePost({ params: { id }, body: { ...rest, ...(platforms ? { platforms: platformNames(platforms) } : {}) } })),
    cancelPost: (id) => placed(client.cancelPost({ params: { id } })),
  }
}

/**
 * The calendar's source and the user's time zone (GET /v1/me), or null when the key may not
 * read the profile: the calendar then uses the system's zone rather than refusing to start.
 */
export async function openApiCalendarSource(client: SmmClient): Promise<{ source: CalendarSource; timeZone: string | null }> {
  let timeZone: string | null = null
  try {
    timeZone = (await client.getMe()).timezone || null
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 403)) throw error
  }
  return { source: apiCalendarSource(client), timeZone }
}
