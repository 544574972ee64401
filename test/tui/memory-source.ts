// An in-memory CalendarSource for the TUI tests: a stand-in for the daemon at the calendar's
// boundary, with the daemon's rules that the calendar relies on (only scheduled posts and drafts
// change, only drafts are scheduled, range filtering, 409 post_not_editable, queued posts take
// the next free slot by the daemon's own src/queue-slots.ts, 422 queue_empty) and a switch to
// make every call fail.

import * as v from 'valibot'
import { PlatformLimits } from '../../src/api/platforms.js'
import { ApiError, conflict, notFound, validationFailed } from '../../src/errors.js'
import { freeSlots, nextFreeSlot, sortSlots, type Slot } from '../../src/queue-slots.js'
import type {
  Account,
  CalendarSource,
  PlatformInfo,
  Post,
  PostCreateInput,
  PostScheduleInput,
  PostUpdateInput,
  Queue,
  TimeRange,
} from '../../src/tui/calendar-source.js'
import { placedAt } from '../../src/tui/post-style.js'
import { bluesky } from '../../daemon/platforms/bluesky.js'
import { FEED_LIMITS } from '../../daemon/platforms/feed.js'
import { mastodon } from '../../daemon/platforms/mastodon.js'
import { telegram } from '../../daemon/platforms/telegram.js'

export function makePost(fields: Partial<Post> & { id: string; scheduled_at: string | null }): Post {
  const platforms = fields.platforms ?? ['mastodon']
  return {
    workspace_id: 'wsp_1',
    account_id: 'acc_1',
    content: 'Hello world',
    media_urls: [],
    media: [],
    platforms,
    status: 'scheduled',
    targets: platforms.map((platform) => ({
      platform,
      status: 'pending',
      attempts: 0,
      platform_post_id: null,
      url: null,
      published_at: null,
      error: null,
      parts: [],
    })),
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    published_at: null,
    cancelled_at: null,
    series_id: null,
    occurrence: null,
    repeat: null,
    thread: [],
    first_comment: null,
    overrides: {},
    ...fields,
  }
}

export const ACCOUNTS: Account[] = [
  {
    id: 'acc_1',
    workspace_id: 'wsp_1',
    name: 'Acme',
    created_at: '2026-01-01T00:00:00.000Z',
    connections: [
      { platform: 'mastodon', handle: '@acme@example.social', display_name: 'Acme', status: 'active', connected_at: '2026-01-01T00:00:00.000Z' },
      { platform: 'bluesky', handle: 'acme.example.com', display_name: 'Acme', status: 'active', connected_at: '2026-01-01T00:00:00.000Z' },
    ],
  },
  {
    id: 'acc_2',
    workspace_id: 'wsp_1',
    name: 'Side project',
    created_at: '2026-01-01T00:00:00.000Z',
    connections: [{ platform: 'feed', handle: 'feed', display_name: 'Side project', status: 'active', connected_at: '2026-01-01T00:00:00.000Z' }],
  },
]

/** Platforms as GET /v1/platforms lists them, with the limits the daemon's modules declare. */
export const PLATFORMS: PlatformInfo[] = [
  { name: 'feed', label: 'Feed', auth: 'credentials', credentials: [], limits: v.parse(PlatformLimits, FEED_LIMITS), thread: 'consecutive', first_comment: null, uploads_media: true },
  ...[mastodon, bluesky, telegram].map((p) => ({ name: p.name, label: p.label, auth: p.auth, credentials: [], limits: v.parse(PlatformLimits, p.limits), thread: p.thread, first_comment: p.firstComment, uploads_media: p.uploadsMedia === true })),
]

export class MemorySource implements CalendarSource {
  posts: Post[]
  accounts: Account[]
  /** Every call, in order, for asserting what the calendar asked for. */
  calls: { method: string; args: unknown[] }[] = []
  /** When set, every call rejects with it (the daemon down, a rate limit…). */
  failWith: unknown = null
  /** Each account's weekly queue slots (an account not here has none). */
  queues = new Map<string, Slot[]>()
  /** The user's zone, the one the slots are wall-clock times in. */
  timeZone = 'Europe/Berlin'
  /** The daemon's clock. */
  now: () => number = Date.now
  private seq = 100

  constructor(posts: Post[] = [], accounts: Account[] = ACCOUNTS) {
    this.posts = posts
    this.accounts = accounts
  }

  // As the daemon counts them: the account's scheduled and publishing posts, at their instants.
  private taken(accountId: string): Set<number> {
    return new Set(this.posts.filter((p) => p.account_id === accountId && (p.status === 'scheduled' || p.status === 'publishing') && p.scheduled_at).map(placedAt))
  }

  private queueSlot(accountId: string): string {
    const slot = nextFreeSlot(this.queues.get(accountId) ?? [], this.timeZone, this.now(), this.taken(accountId))
    if (slot === 'queue_empty') {
      throw validationFailed([{ pointer: '#/queue', code: 'queue_empty', detail: `account ${accountId} has no queue slots; add some with PUT /v1/accounts/${accountId}/queue` }])
    }
    if (slot === 'queue_full') throw validationFailed([{ pointer: '#/queue', code: 'queue_full', detail: `account ${accountId} has no free queue slot in the next 366 days` }])
    return new Date(slot).toISOString()
  }

  getQueue(accountId: string): Promise<Queue> {
    return this.call('getQueue', [accountId], () => {
      if (!this.accounts.some((a) => a.id === accountId)) throw notFound('account', accountId)
      const slots = sortSlots(this.queues.get(accountId) ?? [])
      const next = freeSlots(slots, this.timeZone, this.now(), this.taken(accountId), 10)
      return { timezone: this.timeZone, slots, next: next.map((at) => new Date(at).toISOString()) }
    })
  }

  // Answers are copies, as a daemon's are: the calendar never holds the stored post itself.
  private async call<T>(method: string, args: unknown[], run: () => T): Promise<T> {
    this.calls.push({ method, args })
    await Promise.resolve()
    if (this.failWith) throw this.failWith
    return structuredClone(run())
  }

  listPosts(range: TimeRange): Promise<Post[]> {
    return this.call('listPosts', [range], () => {
      const from = Date.parse(range.from)
      const to = Date.parse(range.to)
      return this.posts.filter((p) => placedAt(p) >= from && placedAt(p) < to)
    })
  }

  listAccounts(): Promise<Account[]> {
    return this.call('listAccounts', [], () => this.accounts)
  }

  listPlatforms(): Promise<PlatformInfo[]> {
    return this.call('listPlatforms', [], () => PLATFORMS)
  }

  createPost(input: PostCreateInput): Promise<Post> {
    return this.call('createPost', [input], () => {
      // The calendar creates one-off posts: a series (`repeat`) is the daemon's to expand.
      const { repeat: _repeat, draft, queue, thread: _thread, media: _media, ...fields } = input
      const at = queue ? this.queueSlot(input.account_id) : (input.scheduled_at ?? (draft ? null : new Date(this.now()).toISOString()))
      const stamp = new Date(this.now()).toISOString()
      const post = makePost({ id: `pst_${this.seq++}`, ...fields, status: draft ? 'draft' : 'scheduled', scheduled_at: at, created_at: stamp, updated_at: stamp })
      this.posts.push(post)
      return post
    })
  }

  updatePost(id: string, input: PostUpdateInput): Promise<Post> {
    return this.call('updatePost', [id, input], () => {
      const post = this.editable(id)
      Object.assign(post, input, { updated_at: new Date(this.now()).toISOString() })
      return post
    })
  }

  schedulePost(id: string, input: PostScheduleInput): Promise<Post> {
    return this.call('schedulePost', [id, input], () => {
      const post = this.editable(id)
      if (post.status !== 'draft') throw conflict('post_not_editable', `Post ${id} is ${post.status}; only a draft can be scheduled.`)
      post.scheduled_at = input.queue ? this.queueSlot(post.account_id) : (input.scheduled_at ?? new Date(this.now()).toISOString())
      post.status = 'scheduled'
      return post
    })
  }

  cancelPost(id: string): Promise<Post> {
    return this.call('cancelPost', [id], () => {
      const post = this.editable(id)
      post.status = 'cancelled'
      post.cancelled_at = new Date(this.now()).toISOString()
      return post
    })
  }

  approvePost(id: string): Promise<Post> {
    return this.call('approvePost', [id], () => Object.assign(this.waiting(id), { status: 'scheduled' as const }))
  }

  rejectPost(id: string, comment: string): Promise<Post> {
    return this.call('rejectPost', [id, comment], () => Object.assign(this.waiting(id), { status: 'rejected' as const }))
  }

  private waiting(id: string): Post {
    const post = this.posts.find((p) => p.id === id)
    if (!post) throw notFound('post', id)
    if (post.status !== 'pending_approval') throw conflict('post_not_pending', `Post ${id} is ${post.status}, not waiting for approval.`)
    return post
  }

  private editable(id: string): Post {
    const post = this.posts.find((p) => p.id === id)
    if (!post) throw notFound('post', id)
    if (post.status !== 'scheduled' && post.status !== 'draft') throw conflict('post_not_editable', `Post ${id} is ${post.status}; only a scheduled post or a draft can be changed.`)
    return post
  }
}

export { ApiError }
