import { createReadStream, statSync } from 'node:fs';
import { ApiCore } from './core.js';
const iso = (t) => (t instanceof Date ? t.toISOString() : t);
/** The input with its Date fields as RFC 3339 text, as the API reads them. */
function withTimes(input, ...keys) {
    const out = { ...input };
    for (const key of keys)
        if (out[key] !== undefined)
            out[key] = iso(out[key]);
    return out;
}
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
    me(options) {
        return this.request('getMe', {}, options);
    }
    /** Changes your own name or IANA time zone (needs the `profile:write` scope). */
    updateMe(changes, options) {
        return this.request('updateMe', { body: changes }, options);
    }
    /** Whether the daemon is up (no key needed). */
    health(options) {
        return this.request('getHealth', {}, options);
    }
    /** Whether the daemon can serve: its database answers within a second (no key needed; 503 `store_unavailable` when not). */
    ready(options) {
        return this.request('getReady', {}, options);
    }
    /** The daemon's OpenAPI 3.1 document. */
    openApi(options) {
        return this.request('getOpenApi', {}, options);
    }
    /** Every item of a list, page after page, with `page(…)` for one page at a time. */
    #lister(operationId) {
        return {
            all: (query = {}, options) => this.paginate(operationId, { query: { ...query } }, options),
            page: (query = {}, options) => this.request(operationId, { query: { ...query } }, options),
        };
    }
    posts = {
        /** Every post matching the filters, across pages (`limit` is the page size). */
        list: (query = {}, options) => this.#lister('listPosts').all(withTimes(query, 'from', 'to'), options),
        /** One page; pass the previous page's `next_cursor` as `cursor` for the next. */
        listPage: (query = {}, options) => this.#lister('listPosts').page(withTimes(query, 'from', 'to'), options),
        /** Schedules a post (no `scheduled_at`: now). A retry with the same `idempotencyKey` never makes a second post. */
        create: (post, options) => this.request('createPost', { body: withTimes(post, 'scheduled_at') }, options),
        /** Checks a post as `create` would, creating nothing: each platform's length and limit, or the same 422 `SmmApiError`. */
        validate: (post, options) => this.request('validatePost', { body: withTimes(post, 'scheduled_at') }, options),
        /** Schedules up to 500 posts in one request: all, or none (a 422 points at `#/posts/<index>/…`). Answers them in order. */
        createMany: (posts, options) => this.request('createPosts', { body: { posts: posts.map((p) => withTimes(p, 'scheduled_at')) } }, options),
        /** Checks up to 500 posts as `createMany` would, creating nothing: `{ valid: true, count }` or the same 422. */
        validateMany: (posts, options) => this.request('createPosts', { body: { posts: posts.map((p) => withTimes(p, 'scheduled_at')), dry_run: true } }, options),
        get: (id, options) => this.request('getPost', { params: { id } }, options),
        /** A post with its version (ETag), to pass as `ifMatch` to `update`. */
        getWithEtag: async (id, options) => {
            let etag;
            const post = await this.request('getPost', { params: { id } }, { ...options, onHeaders: (h) => ((etag = h.etag), options?.onHeaders?.(h)) });
            return { post, etag };
        },
        /** Changes a scheduled post; with `{ ifMatch: etag }` it fails (412) if the post changed since that read. */
        update: (id, changes, options) => this.request('updatePost', { params: { id }, body: withTimes(changes, 'scheduled_at') }, options),
        /**
         * Schedules a draft: at `scheduled_at`, at the account's next free queue slot (`{ queue: true }`),
         * or now (`{}`); with `{ ifMatch: etag }` it fails (412) if the draft changed since that read.
         */
        schedule: (id, when = {}, options) => this.request('schedulePost', { params: { id }, body: withTimes(when, 'scheduled_at') }, options),
        /**
         * Cancels a scheduled post or a draft. An occurrence of a series is cancelled alone (the series goes on
         * with the next); with `{ series: 'true' }` the series stops too: every scheduled occurrence is
         * cancelled and none follows (`post.series_ended`).
         */
        cancel: (id, query = {}, options) => this.request('cancelPost', { params: { id }, query }, options),
        /** Publishes the failed targets of a failed or partially published post again, now. */
        retry: (id, options) => this.request('retryPost', { params: { id } }, options),
        /** Approves a post waiting for approval (admin, owner): it is scheduled, or published at once if its time has passed. */
        approve: (id, approval = {}, options) => this.request('approvePost', { params: { id }, body: approval }, options),
        /** Asks for changes to a post waiting for approval (admin, owner): `comment` says what; the post is `rejected` until edited. */
        reject: (id, comment, options) => this.request('rejectPost', { params: { id }, body: { comment } }, options),
        /** The post's comments, oldest first, across pages: the team's, reviewers', and each decision's. */
        comments: (id, query = {}, options) => this.paginate('listComments', { params: { id }, query }, options),
        commentsPage: (id, query = {}, options) => this.request('listComments', { params: { id }, query }, options),
        /** Comments on a post (any member, viewers too). */
        addComment: (id, body, options) => this.request('addComment', { params: { id }, body: { body } }, options),
        /** Makes a review link (admin, owner): `url` lets someone without an account approve the post or ask for changes; shown only here. */
        createReviewLink: (id, link = {}, options) => this.request('createReviewLink', { params: { id }, body: link }, options),
        /** The post's review links, oldest first, each with its `state` (admin, owner). */
        reviewLinks: (id, options) => this.request('listReviewLinks', { params: { id } }, options),
        /** Revokes a review link: its page says so from then on. */
        revokeReviewLink: (id, linkId, options) => this.request('revokeReviewLink', { params: { id, link_id: linkId } }, options),
    };
    media = {
        /**
         * Uploads a file (a path, read as a stream) or bytes, with its content type
         * (`image/jpeg`, `image/png`, `image/gif`, `image/webp`, `video/mp4`, `video/quicktime`) and
         * optional alt text; `onProgress` is told as the bytes leave. A file is read as it is sent,
         * never whole in memory, and again from its start on a retry.
         */
        upload: async (file, params, options) => {
            const length = typeof file === 'string' ? statSync(file).size : file.length;
            const open = () => (typeof file === 'string' ? createReadStream(file) : file);
            const query = params.altText === undefined ? {} : { alt_text: params.altText };
            return this.request('uploadMedia', { query, upload: { open, contentType: params.contentType, length, onProgress: params.onProgress } }, options);
        },
        list: (options) => this.#lister('listMedia').all({}, options),
        listPage: (query = {}, options) => this.#lister('listMedia').page(query, options),
        get: (id, options) => this.request('getMedia', { params: { id } }, options),
        /** Changes the alt text (`null` removes it). */
        update: (id, changes, options) => this.request('updateMedia', { params: { id }, body: changes }, options),
        /** The bytes behind a media's public URL, by its last segment (`<token>.<ext>`); no key is needed for it. */
        file: (file, options) => this.request('getMediaFile', { params: { file } }, options),
        /** Deletes it; 409 `media_in_use` while a draft, scheduled or publishing post uses it. */
        delete: (id, options) => this.request('deleteMedia', { params: { id } }, options),
    };
    platforms = {
        /** The platforms this daemon publishes to, in a fixed order, each with how it connects and its limits (one page: there are few). */
        list: (options) => this.#lister('listPlatforms').all({}, options),
    };
    accounts = {
        list: (query = {}, options) => this.#lister('listAccounts').all(query, options),
        listPage: (query = {}, options) => this.#lister('listAccounts').page(query, options),
        create: (account, options) => this.request('createAccount', { body: account }, options),
        get: (id, options) => this.request('getAccount', { params: { id } }, options),
        /** Renames the account (`account.updated`). */
        update: (id, changes, options) => this.request('updateAccount', { params: { id }, body: changes }, options),
        /**
         * Deletes the account with its connections, posts and feed. One with scheduled posts is
         * deleted only with `{ cancel_posts: 'true' }` (each post gets `post.cancelled`); otherwise 409.
         */
        delete: (id, query = {}, options) => this.request('deleteAccount', { params: { id }, query }, options),
        /** Connects a platform with its credentials (verified with the platform first). */
        connect: (id, connection, options) => this.request('connectAccount', { params: { id }, body: connection }, options),
        disconnect: (id, platform, options) => this.request('disconnectAccount', { params: { id, platform } }, options),
        /** The account's weekly queue slots (in the user's time zone) and its next free slot times. */
        getQueue: (id, options) => this.request('getQueue', { params: { id } }, options),
        /** Replaces the account's queue slots (`[]` empties it): `[{ day: 'monday', time: '09:00' }, …]`. */
        setQueue: (id, slots, options) => this.request('setQueue', { params: { id }, body: { slots } }, options),
    };
    webhooks = {
        list: (query = {}, options) => this.#lister('listWebhooks').all(query, options),
        listPage: (query = {}, options) => this.#lister('listWebhooks').page(query, options),
        /** Creates an endpoint; its signing `secret` is in this response only. */
        create: (webhook, options) => this.request('createWebhook', { body: webhook }, options),
        get: (id, options) => this.request('getWebhook', { params: { id } }, options),
        update: (id, changes, options) => this.request('updateWebhook', { params: { id }, body: changes }, options),
        delete: (id, options) => this.request('deleteWebhook', { params: { id } }, options),
        /** Sends a `webhook.test` event to the endpoint. */
        test: (id, options) => this.request('testWebhook', { params: { id } }, options),
        /** A new signing secret (in this response only). */
        rotateSecret: (id, options) => this.request('rotateWebhookSecret', { params: { id } }, options),
        /** Sends one delivery again now, same webhook-id and body; `deliveryId` is its event id (msg_…) or an attempt's (dlv_…). */
        resendDelivery: (id, deliveryId, options) => this.request('resendWebhookDelivery', { params: { id, delivery_id: deliveryId } }, options),
        /** Every delivery attempt to the endpoint, newest first, across pages. */
        deliveries: (id, query = {}, options) => this.paginate('listWebhookDeliveries', { params: { id }, query }, options),
        deliveriesPage: (id, query = {}, options) => this.request('listWebhookDeliveries', { params: { id }, query }, options),
    };
    apiKeys = {
        list: (query = {}, options) => this.#lister('listApiKeys').all(query, options),
        listPage: (query = {}, options) => this.#lister('listApiKeys').page(query, options),
        /** Creates a key; its `secret` is in this response only. */
        create: (key, options) => this.request('createApiKey', { body: withTimes(key, 'expires_at') }, options),
        revoke: (id, options) => this.request('revokeApiKey', { params: { id } }, options),
    };
    analytics = {
        /** Totals, per platform, a series and top posts over a time range. */
        get: (query = {}, options) => this.request('getAnalytics', { query: withTimes(query, 'from', 'to') }, options),
    };
    workspaces = {
        /** The workspaces you belong to, each with your `role`, across pages. */
        list: (query = {}, options) => this.#lister('listWorkspaces').all(query, options),
        listPage: (query = {}, options) => this.#lister('listWorkspaces').page(query, options),
        /** Creates a workspace to share accounts; you are its owner. */
        create: (workspace, options) => this.request('createWorkspace', { body: workspace }, options),
        get: (id, options) => this.request('getWorkspace', { params: { id } }, options),
        /** Renames it, requires approval of editors' posts (`approval_required`), or changes its zone. */
        update: (id, changes, options) => this.request('updateWorkspace', { params: { id }, body: changes }, options),
        /** Deletes a shared workspace that has no accounts left (owner only). */
        delete: (id, options) => this.request('deleteWorkspace', { params: { id } }, options),
        /** The workspace's members and their roles, across pages. */
        members: (id, query = {}, options) => this.paginate('listMembers', { params: { id }, query }, options),
        membersPage: (id, query = {}, options) => this.request('listMembers', { params: { id }, query }, options),
        /** Adds a user, by `user_id` or `email`, with a role. */
        addMember: (id, member, options) => this.request('addMember', { params: { id }, body: member }, options),
        setRole: (id, userId, role, options) => this.request('updateMember', { params: { id, user_id: userId }, body: { role } }, options),
        /** Removes a member, who loses access at once (or leaves, with your own id). */
        removeMember: (id, userId, options) => this.request('removeMember', { params: { id, user_id: userId } }, options),
        /** What was done in the workspace, by whom, newest first, across pages (owner, admin); `kind` filters (`post.*` for a family). */
        auditLog: (id, query = {}, options) => this.paginate('getAuditLog', { params: { id }, query: withTimes(query, 'from', 'to') }, options),
        auditLogPage: (id, query = {}, options) => this.request('getAuditLog', { params: { id }, query: withTimes(query, 'from', 'to') }, options),
    };
    ai = {
        /** Drafts posts that fit each platform. */
        generate: (request, options) => this.request('generateContent', { body: request }, options),
    };
    /** An account's public feed, as text. */
    feeds = {
        rss: (accountId, options) => this.request('getRssFeed', { params: { account_id: accountId } }, options),
        atom: (accountId, options) => this.request('getAtomFeed', { params: { account_id: accountId } }, options),
        json: (accountId, options) => this.request('getJsonFeed', { params: { account_id: accountId } }, options),
        html: (accountId, options) => this.request('getHtmlFeed', { params: { account_id: accountId } }, options),
    };
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
};
