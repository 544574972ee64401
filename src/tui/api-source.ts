// The calendar's source over the typed API client: the one place the TUI meets SmmClient.

import type { SmmClient } from '../client/smm-client.js'
import { ApiError } from '../errors.js'
import type { Account, CalendarSource, Post } from './calendar-source.js'

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = []
  for await (const item of items) list.push(item)
  return list
}

/**
 * Every call goes to the daemon as is. Lists are read to the end: the calendar shows a whole
 * month, and a busy month is more than one page. No status filter: it shows every state.
 *
 * An edit is sent without If-Match: a list carries no ETag per post. The daemon merges the
 * edit onto the post as it is at that moment, and refuses (409) once it is no longer scheduled.
 */
export function apiCalendarSource(client: SmmClient): CalendarSource {
  return {
    listPosts: (range) => all<Post>(client.paginate('listPosts', { query: { from: range.from, to: range.to, limit: 100 } })),
    listAccounts: () => all<Account>(client.paginate('listAccounts', { query: { limit: 100 } })),
    listPlatforms: async () => (await client.listPlatforms()).data,
    createPost: (input) => client.createPost({ body: input }),
    updatePost: (id, input) => client.updatePost({ params: { id }, body: input }),
    schedulePost: (id, input) => client.schedulePost({ params: { id }, body: input }),
    getQueue: (id) => client.getQueue({ params: { id } }),
    cancelPost: (id) => client.cancelPost({ params: { id } }),
    approvePost: (id) => client.approvePost({ params: { id }, body: {} }),
    rejectPost: (id, comment) => client.rejectPost({ params: { id }, body: { comment } }),
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
