import { createReadStream, statSync } from 'node:fs'
import { ApiCore, type Body, type Page, type Query, type RequestOptions, type Result } from './core.js'
import type { OperationId } from './generated.js'

/** A time as the API takes it: an RFC 3339 string, or a Date. */
type Time = string | Date
type WithTimes<T, K extends keyof T> = Omit<T, K> & { [P in K]?: Time }
const iso = (t: Time | undefined) => (t instanceof Date ? t.toISOString() : t)
/** The input with its Date fields as RFC 3339 text, as the API reads them. */
function withTimes(input: object, ...keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input }
  for (const key of keys) if (out[key] !== undefined) out[key] = iso(out[key] as Time)
  return out
}

export type PostCreateParams = WithTimes<Body<'createPost'>, 'scheduled_at'>
export type PostUpdateParams = WithTimes<Body<'updatePost'>, 'scheduled_at'>
export type PostScheduleParams = WithTimes<Body<'schedulePost'>, 'scheduled_at'>
export type PostListParams = Omit<WithTimes<Query<'listPosts'>, 'from' | 'to'>, 'cursor'>
type Item<K extends OperationId> = Result<K> extends Page<infer T> ? T : never

/**
 * The client of the smm API: one namespace per resource, one method per operation.
 *
 * ```ts
 * const client = new SmmClient({ baseUrl: 'https://smm.example.com/v1', apiKey: 'smm_…' })
 * const post = await client.posts.create({ account_id, content: 'Hello', platforms: ['mastodon'] })
 * for await (const p of client.posts.list({ status: 'scheduled' })) console.log(p.id)
 * ```
 */
export class SmmClient extends ApiCore {
  /** The authenticated user's profile. */
  me(options?: RequestOptions): Promise<Result<'getMe'>> {
    return this.request('getMe', {}, options)
  }

  /** Changes your own name or IANA time zone (needs the `profile:write` scope). */
  updateMe(changes: Body<'updateMe'>, options?: RequestOptions): Promise<Result<'updateMe'>> {
    return this.request('updateMe', { body: changes }, options)
  }

  /** Whether the daemon is up (no key needed). */
  health(options?: RequestOptions): Promise<Result<'getHealth'>> {
    return this.request('getHealth', {}, options)
  }

  /** Whether the daemon can serve: its database answers within a second (no key needed; 503 `store_unavailable` when not). */
  ready(options?: RequestOptions): Promise<Result<'getReady'>> {
    return this.request('getReady', {}, options)
  }

  /** The daemon's OpenAPI 3.1 document. */
  openApi(options?: RequestOptions): Promise<Result<'getOpenApi'>> {
    return this.request('getOpenApi', {}, options)
  }

  /** Every item of a list, page after page, with `page(…)` for one page at a time. */
  #lister<K extends OperationId>(operationId: K) {
    return {
      all: (query: object = {}, options?: RequestOptions): AsyncGenerator<Item<K>> => this.paginate<Item<K>>(operationId, { query: { ...query } }, options),
      page: (query: object = {}, options?: RequestOptions): Promise<Page<Item<K>>> => this.request(operationId, { query: { ...query } }, options) as Promise<Page<Item<K>>>,
    }
  }

  readonly posts = {
    /** Every post matching the filters, across pages (`limit` is the page size). */
    list: (query: PostListParams = {}, options?: RequestOptions) => this.#lister('listPosts').all(withTimes(query, 'from', 'to'), options),
    /** One page; pass the previous page's `next_cursor` as `cursor` for the next. */
    listPage: (query: PostListParams & { cursor?: string } = {}, options?: RequestOptions) => this.#lister('listPosts').page(withTimes(query, 'from', 'to'), options),
    /** Schedules a post (no `scheduled_at`: now). A retry with the same `idempotencyKey` never makes a second post. */
    create: (post: PostCreateParams, options?: RequestOptions): Promise<Result<'createPost'>> =>
      this.request('createPost', { body: withTimes(post, 'scheduled_at') }, options),
    /** Checks a post as `create` would, creating nothing: each platform's length and limit, or the same 422 `SmmApiError`. */
    validate: (post: PostCreateParams, options?: RequestOptions): Promise<Result<'validatePost'>> =>
      this.request('validatePost', { body: withTimes(post, 'scheduled_at') }, options),
    /** Schedules up to 500 posts in one request: all, or none (a 422 points at `#/posts/<index>/…`). Answers them in order. */
    createMany: (posts: PostCreateParams[], options?: RequestOptions): Promise<Extract<Result<'createPosts'>, { data: unknown }>> =>
      this.request('createPosts', { body: { posts: posts.map((p) => withTimes(p, 'scheduled_at')) } }, options) as never,
    /** Checks up to 500 posts as `createMany` would, creating nothing: `{ valid: true, count }` or the same 422. */
    validateMany: (posts: PostCreateParams[], options?: RequestOptions): Promise<Extract<Result<'createPosts'>, { valid: true }>> =>
      this.request('createPosts', { body: { posts: posts.map((p) => withTimes(p, 'scheduled_at')), dry_run: true } }, options) as never,
    get: (id: string, options?: RequestOptions): Promise<Result<'getPost'>> => this.request('getPost', { params: { id } }, options),
    /** A post with its version (ETag), to pass as `ifMatch` to `update`. */
    getWithEtag: async (id: string, options?: RequestOptions): Promise<{ post: Result<'getPost'>; etag: string | undefined }> => {
      let etag: string | undefined
      const post = await this.request('getPost', { params: { id } }, { ...options, onHeaders: (h) => ((etag = h.etag), options?.onHeaders?.(h)) })
      return { post, etag }
    },
    /** Changes a scheduled post; with `{ ifMatch: etag }` it fails (412) if the post changed since that read. */
    update: (id: string, changes: PostUpdateParams, options?: RequestOptions): Promise<Result<'updatePost'>> =>
      this.request('updatePost', { params: { id }, body: withTimes(changes, 'scheduled_at') }, options),
    /**
     * Schedules a draft: at `scheduled_at`, at the account's next free queue slot (`{ queue: true }`),
     * or now (`{}`); with `{ ifMatch: etag }` it fails (412) if the draft changed since that read.
     */
    schedule: (id: string, when: PostScheduleParams = {}, options?: RequestOptions): Promise<Result<'schedulePost'>> =>
      this.request('schedulePost', { params: { id }, body: withTimes(when, 'scheduled_at') }, options),
    /**
     * Cancels a scheduled post or a draft. An occurrence of a series is cancelled alone (the series goes on
     * with the next); with `{ series: 'true' }` the series stops too: every scheduled occurrence is
     * cancelled and none follows (`post.series_ended`).
     */
    cancel: (id: string, query: Query<'cancelPost'> = {}, options?: RequestOptions): Promise<Result<'cancelPost'>> =>
      this.request('cancelPost', { params: { id }, query }, options),
    /** Publishes the failed targets of a failed or partially published post again, now. */
    retry: (id: string, options?: RequestOptions): Promise<Result<'retryPost'>> => this.request('retryPost', { params: { id } }, options),
    /** Approves a post waiting for approval (admin, owner): it is scheduled, or published at once if its time has passed. */
    approve: (id: string, approval: Body<'approvePost'> = {}, options?: RequestOptions): Promise<Result<'approvePost'>> =>
      this.request('approvePost', { params: { id }, body: approval }, options),
    /** Asks for changes to a post waiting for approval (admin, owner): `comment` says what; the post is `rejected` until edited. */
    reject: (id: string, comment: string, options?: RequestOptions): Promise<Result<'rejectPost'>> =>
      this.request('rejectPost', { params: { id }, body: { comment } }, options),
    /** The post's comments, oldest first, across pages: the team's, reviewers', and each decision's. */
    comments: (id: string, query: Omit<Query<'listComments'>, 'cursor'> = {}, options?: RequestOptions) =>
      this.paginate<Item<'listComments'>>('listComments', { params: { id }, query }, options),
    commentsPage: (id: string, query: Query<'listComments'> = {}, options?: RequestOptions): Promise<Result<'listComments'>> =>
      this.request('listComments', { params: { id }, query }, options),
    /** Comments on a post (any member, viewers too). */
    addComment: (id: string, body: string, options?: RequestOptions): Promise<Result<'addComment'>> =>
      this.request('addComment', { params: { id }, body: { body } }, options),
    /** Makes a review link (admin, owner): `url` lets someone without an account approve the post or ask for changes; shown only here. */
    createReviewLink: (id: string, link: Body<'createReviewLink'> = {}, options?: RequestOptions): Promise<Result<'createReviewLink'>> =>
      this.request('createReviewLink', { params: { id }, body: link }, options),
    /** The post's review links, oldest first, each with its `state` (admin, owner). */
    reviewLinks: (id: string, options?: RequestOptions): Promise<Result<'listReviewLinks'>> => this.request('listReviewLinks', { params: { id } }, options),
    /** Revokes a review link: its page says so from then on. */
    revokeReviewLink: (id: string, linkId: string, options?: RequestOptions): Promise<void> =>
      this.request('revokeReviewLink', { params: { id, link_id: linkId } }, options),
  }

  readonly media = {
    /**
     * Uploads a file (a path, read as a stream) or bytes, with its content type
     * (`image/jpeg`, `image/png`, `image/gif`, `image/webp`, `video/mp4`, `video/quicktime`) and
     * optional alt text; `onProgress` is told as the bytes leave. A file is read as it is sent,
     * never whole in memory, and again from its start on a retry.
     */
    upload: async (
      file: string | Buffer,
      params: { contentType: string; altText?: string; onProgress?: (sent: number, total: number) => void },
      options?: RequestOptions,
    ): Promise<Result<'uploadMedia'>> => {
      const length = typeof file === 'string' ? statSync(file).size : file.length
      const open = () => (typeof file === 'string' ? createReadStream(file) : file)
      const query = params.altText === undefined ? {} : { alt_text: params.altText }
      return this.request('uploadMedia', { query, upload: { open, contentType: params.contentType, length, onProgress: params.onProgress } }, options)
    },
    list: (options?: RequestOptions) => this.#lister('listMedia').all({}, options),
    listPage: (query: Query<'listMedia'> = {}, options?: RequestOptions) => this.#lister('listMedia').page(query, options),
    get: (id: string, options?: RequestOptions): Promise<Result<'getMedia'>> => this.request('getMedia', { params: { id } }, options),
    /** Changes the alt text (`null` removes it). */
    update: (id: string, changes: Body<'updateMedia'>, options?: RequestOptions): Promise<Result<'updateMedia'>> =>
      this.request('updateMedia', { params: { id }, body: changes }, options),
    /** The bytes behind a media's public URL, by its last segment (`<token>.<ext>`); no key is needed for it. */
    file: (file: string, options?: RequestOptions): Promise<Buffer> => this.request('getMediaFile', { params: { file } }, options) as Promise<unknown> as Promise<Buffer>,
    /** Deletes it; 409 `media_in_use` while a draft, scheduled or publishing post uses it. */
    delete: (id: string, options?: RequestOptions): Promise<void> => this.request('deleteMedia', { params: { id } }, options),
  }

  readonly platforms = {
    /** The platforms this daemon publishes to, in a fixed order, each with how it connects and its limits (one page: there are few). */
    list: (options?: RequestOptions) => this.#lister('listPlatforms').all({}, options),
  }

  readonly accounts = {
    list: (query: Omit<Query<'listAccounts'>, 'cursor'> = {}, options?: RequestOptions) => this.#lister('listAccounts').all(query, options),
    listPage: (query: Query<'listAccounts'> = {}, options?: RequestOptions) => this.#lister('listAccounts').page(query, options),
    create: (account: Body<'createAccount'>, options?: RequestOptions): Promise<Result<'createAccount'>> => this.request('createAccount', { body: account }, options),
    get: (id: string, options?: RequestOptions): Promise<Result<'getAccount'>> => this.request('getAccount', { params: { id } }, options),
    /** Renames the account (`account.updated`). */
    update: (id: string, changes: Body<'updateAccount'>, options?: RequestOptions): Promise<Result<'updateAccount'>> =>
      this.request('updateAccount', { params: { id }, body: changes }, options),
    /**
     * Deletes the account with its connections, posts and feed. One with scheduled posts is
     * deleted only with `{ cancel_posts: 'true' }` (each post gets `post.cancelled`); otherwise 409.
     */
    delete: (id: string, query: Query<'deleteAccount'> = {}, options?: RequestOptions): Promise<void> =>
      this.request('deleteAccount', { params: { id }, query }, options),
    /** Connects a platform with its credentials (verified with the platform first). */
    connect: (id: string, connection: Body<'connectAccount'>, options?: RequestOptions): Promise<Result<'connectAccount'>> =>
      this.request('connectAccount', { params: { id }, body: connection }, options),
    disconnect: (id: string, platform: string, options?: RequestOptions): Promise<void> =>
      this.request('disconnectAccount', { params: { id, platform } }, options),
    /** The account's weekly queue slots (in the user's time zone) and its next free slot times. */
    getQueue: (id: string, options?: RequestOptions): Promise<Result<'getQueue'>> => this.request('getQueue', { params: { id } }, options),
    /** Replaces the account's queue slots (`[]` empties it): `[{ day: 'monday', time: '09:00' }, …]`. */
    setQueue: (id: string, slots: Body<'setQueue'>['slots'], options?: RequestOptions): Promise<Result<'setQueue'>> =>
      this.request('setQueue', { params: { id }, body: { slots } }, options),
  }

  readonly webhooks = {
    list: (query: Omit<Query<'listWebhooks'>, 'cursor'> = {}, options?: RequestOptions) => this.#lister('listWebhooks').all(query, options),
    listPage: (query: Query<'listWebhooks'> = {}, options?: RequestOptions) => this.#lister('listWebhooks').page(query, options),
    /** Creates an endpoint; its signing `secret` is in this response only. */
    create: (webhook: Body<'createWebhook'>, options?: RequestOptions): Promise<Result<'createWebhook'>> => this.request('createWebhook', { body: webhook }, options),
    get: (id: string, options?: RequestOptions): Promise<Result<'getWebhook'>> => this.request('getWebhook', { params: { id } }, options),
    update: (id: string, changes: Body<'updateWebhook'>, options?: RequestOptions): Promise<Result<'updateWebhook'>> =>
      this.request('updateWebhook', { params: { id }, body: changes }, options),
    delete: (id: string, options?: RequestOptions): Promise<void> => this.request('deleteWebhook', { params: { id } }, options),
    /** Sends a `webhook.test` event to the endpoint. */
    test: (id: string, options?: RequestOptions): Promise<Result<'testWebhook'>> => this.request('testWebhook', { params: { id } }, options),
    /** A new signing secret (in this response only). */
    rotateSecret: (id: string, options?: RequestOptions): Promise<Result<'rotateWebhookSecret'>> => this.request('rotateWebhookSecret', { params: { id } }, options),
    /** Sends one delivery again now, same webhook-id and body; `deliveryId` is its event id (msg_…) or an attempt's (dlv_…). */
    resendDelivery: (id: string, deliveryId: string, options?: RequestOptions): Promise<Result<'resendWebhookDelivery'>> =>
      this.request('resendWebhookDelivery', { params: { id, delivery_id: deliveryId } }, options),
    /** Every delivery attempt to the endpoint, newest first, across pages. */
    deliveries: (id: string, query: Omit<Query<'listWebhookDeliveries'>, 'cursor'> = {}, options?: RequestOptions) =>
      this.paginate<Item<'listWebhookDeliveries'>>('listWebhookDeliveries', { params: { id }, query }, options),
    deliveriesPage: (id: string, query: Query<'listWebhookDeliveries'> = {}, options?: RequestOptions): Promise<Result<'listWebhookDeliveries'>> =>
      this.request('listWebhookDeliveries', { params: { id }, query }, options),
  }

  readonly apiKeys = {
    list: (query: Omit<Query<'listApiKeys'>, 'cursor'> = {}, options?: RequestOptions) => this.#lister('listApiKeys').all(query, options),
    listPage: (query: Query<'listApiKeys'> = {}, options?: RequestOptions) => this.#lister('listApiKeys').page(query, options),
    /** Creates a key; its `secret` is in this response only. */
    create: (key: WithTimes<Body<'createApiKey'>, 'expires_at'>, options?: RequestOptions): Promise<Result<'createApiKey'>> =>
      this.request('createApiKey', { body: withTimes(key, 'expires_at') }, options),
    revoke: (id: string, options?: RequestOptions): Promise<void> => this.request('revokeApiKey', { params: { id } }, options),
  }

  readonly analytics = {
    /** Totals, per platform, a series and top posts over a time range. */
    get: (query: WithTimes<Query<'getAnalytics'>, 'from' | 'to'> = {}, options?: RequestOptions): Promise<Result<'getAnalytics'>> =>
      this.request('getAnalytics', { query: withTimes(query, 'from', 'to') }, options),
  }

  readonly workspaces = {
    /** The workspaces you belong to, each with your `role`, across pages. */
    list: (query: Omit<Query<'listWorkspaces'>, 'cursor'> = {}, options?: RequestOptions) => this.#lister('listWorkspaces').all(query, options),
    listPage: (query: Query<'listWorkspaces'> = {}, options?: RequestOptions) => this.#lister('listWorkspaces').page(query, options),
    /** Creates a workspace to share accounts; you are its owner. */
    create: (workspace: Body<'createWorkspace'>, options?: RequestOptions): Promise<Result<'createWorkspace'>> => this.request('createWorkspace', { body: workspace }, options),
    get: (id: string, options?: RequestOptions): Promise<Result<'getWorkspace'>> => this.request('getWorkspace', { params: { id } }, options),
    /** Renames it, requires approval of editors' posts (`approval_required`), or changes its zone. */
    update: (id: string, changes: Body<'updateWorkspace'>, options?: RequestOptions): Promise<Result<'updateWorkspace'>> =>
      this.request('updateWorkspace', { params: { id }, body: changes }, options),
    /** Deletes a shared workspace that has no accounts left (owner only). */
    delete: (id: string, options?: RequestOptions): Promise<void> => this.request('deleteWorkspace', { params: { id } }, options),
    /** The workspace's members and their roles, across pages. */
    members: (id: string, query: Omit<Query<'listMembers'>, 'cursor'> = {}, options?: RequestOptions) =>
      this.paginate<Item<'listMembers'>>('listMembers', { params: { id }, query }, options),
    membersPage: (id: string, query: Query<'listMembers'> = {}, options?: RequestOptions): Promise<Result<'listMembers'>> =>
      this.request('listMembers', { params: { id }, query }, options),
    /** Adds a user, by `user_id` or `email`, with a role. */
    addMember: (id: string, member: Body<'addMember'>, options?: RequestOptions): Promise<Result<'addMember'>> =>
      this.request('addMember', { params: { id }, body: member }, options),
    setRole: (id: string, userId: string, role: Body<'updateMember'>['role'], options?: RequestOptions): Promise<Result<'updateMember'>> =>
      this.request('updateMember', { params: { id, user_id: userId }, body: { role } }, options),
    /** Removes a member, who loses access at once (or leaves, with your own id). */
    removeMember: (id: string, userId: string, options?: RequestOptions): Promise<void> => this.request('removeMember', { params: { id, user_id: userId } }, options),
    /** What was done in the workspace, by whom, newest first, across pages (owner, admin); `kind` filters (`post.*` for a family). */
    auditLog: (id: string, query: WithTimes<Omit<Query<'getAuditLog'>, 'cursor'>, 'from' | 'to'> = {}, options?: RequestOptions) =>
      this.paginate<Item<'getAuditLog'>>('getAuditLog', { params: { id }, query: withTimes(query, 'from', 'to') }, options),
    auditLogPage: (id: string, query: WithTimes<Query<'getAuditLog'>, 'from' | 'to'> = {}, options?: RequestOptions): Promise<Result<'getAuditLog'>> =>
      this.request('getAuditLog', { params: { id }, query: withTimes(query, 'from', 'to') }, options),
  }

  readonly ai = {
    /** Drafts posts that fit each platform. */
    generate: (request: Body<'generateContent'>, options?: RequestOptions): Promise<Result<'generateContent'>> => this.request('generateContent', { body: request }, options),
  }

  /** An account's public feed, as text. */
  readonly feeds = {
    rss: (accountId: string, options?: RequestOptions): Promise<string> => this.request('getRssFeed', { params: { account_id: accountId } }, options),
    atom: (accountId: string, options?: RequestOptions): Promise<string> => this.request('getAtomFeed', { params: { account_id: accountId } }, options),
    json: (accountId: string, options?: RequestOptions): Promise<string> => this.request('getJsonFeed', { params: { account_id: accountId } }, options),
    html: (accountId: string, options?: RequestOptions): Promise<string> => this.request('getHtmlFeed', { params: { account_id: accountId } }, options),
  }
}

/**
 * Which method of `SmmClient` calls each operation of /v1/openapi.json. A new operation is one
 * line here (and a method above); the SDK's suite fails naming any operation missing here.
 */
export const methodFor = {
  getHealth: 'health',
  getReady: 'ready',
  getOpenApi: 'openApi',
  getMe: 'me',
  updateMe: 'updateMe',
  listApiKeys: 'apiKeys.list',
  createApiKey: 'apiKeys.create',
  revokeApiKey: 'apiKeys.revoke',
  generateContent: 'ai.generate',
  listWebhooks: 'webhooks.list',
  createWebhook: 'webhooks.create',
  getWebhook: 'webhooks.get',
  updateWebhook: 'webhooks.update',
  deleteWebhook: 'webhooks.delete',
  testWebhook: 'webhooks.test',
  rotateWebhookSecret: 'webhooks.rotateSecret',
  listWebhookDeliveries: 'webhooks.deliveries',
  resendWebhookDelivery: 'webhooks.resendDelivery',
  listPlatforms: 'platforms.list',
  listAccounts: 'accounts.list',
  createAccount: 'accounts.create',
  getAccount: 'accounts.get',
  updateAccount: 'accounts.update',
  deleteAccount: 'accounts.delete',
  connectAccount: 'accounts.connect',
  disconnectAccount: 'accounts.disconnect',
  getQueue: 'accounts.getQueue',
  setQueue: 'accounts.setQueue',
  listPosts: 'posts.list',
  createPost: 'posts.create',
  validatePost: 'posts.validate',
  createPosts: 'posts.createMany',
  getPost: 'posts.get',
  updatePost: 'posts.update',
  schedulePost: 'posts.schedule',
  cancelPost: 'posts.cancel',
  retryPost: 'posts.retry',
  approvePost: 'posts.approve',
  rejectPost: 'posts.reject',
  listComments: 'posts.comments',
  addComment: 'posts.addComment',
  createReviewLink: 'posts.createReviewLink',
  listReviewLinks: 'posts.reviewLinks',
  revokeReviewLink: 'posts.revokeReviewLink',
  getRssFeed: 'feeds.rss',
  getAtomFeed: 'feeds.atom',
  getJsonFeed: 'feeds.json',
  getHtmlFeed: 'feeds.html',
  uploadMedia: 'media.upload',
  listMedia: 'media.list',
  getMedia: 'media.get',
  updateMedia: 'media.update',
  deleteMedia: 'media.delete',
  getMediaFile: 'media.file',
  getAnalytics: 'analytics.get',
  listWorkspaces: 'workspaces.list',
  createWorkspace: 'workspaces.create',
  getWorkspace: 'workspaces.get',
  updateWorkspace: 'workspaces.update',
  deleteWorkspace: 'workspaces.delete',
  listMembers: 'workspaces.members',
  addMember: 'workspaces.addMember',
  updateMember: 'workspaces.setRole',
  removeMember: 'workspaces.removeMember',
  getAuditLog: 'workspaces.auditLog',
} as const satisfies Record<OperationId, string>
