import { ApiCore, type Body, type Page, type Query, type RequestOptions, type Result } from './core.js';
/** A time as the API takes it: an RFC 3339 string, or a Date. */
type Time = string | Date;
type WithTimes<T, K extends keyof T> = Omit<T, K> & {
    [P in K]?: Time;
};
export type PostCreateParams = WithTimes<Body<'createPost'>, 'scheduled_at'>;
export type PostUpdateParams = WithTimes<Body<'updatePost'>, 'scheduled_at'>;
export type PostScheduleParams = WithTimes<Body<'schedulePost'>, 'scheduled_at'>;
export type PostListParams = Omit<WithTimes<Query<'listPosts'>, 'from' | 'to'>, 'cursor'>;
/**
 * The client of the smm API: one namespace per resource, one method per operation.
 *
 * ```ts
 * const client = new SmmClient({ baseUrl: 'https://smm.example.com/v1', apiKey: 'smm_…' })
 * const post = await client.posts.create({ account_id, content: 'Hello', platforms: ['mastodon'] })
 * for await (const p of client.posts.list({ status: 'scheduled' })) console.log(p.id)
 * ```
 */
export declare class SmmClient extends ApiCore {
    #private;
    /** The authenticated user's profile. */
    me(options?: RequestOptions): Promise<Result<'getMe'>>;
    /** Changes your own name or IANA time zone (needs the `profile:write` scope). */
    updateMe(changes: Body<'updateMe'>, options?: RequestOptions): Promise<Result<'updateMe'>>;
    /** Whether the daemon is up (no key needed). */
    health(options?: RequestOptions): Promise<Result<'getHealth'>>;
    /** Whether the daemon can serve: its database answers within a second (no key needed; 503 `store_unavailable` when not). */
    ready(options?: RequestOptions): Promise<Result<'getReady'>>;
    /** The daemon's OpenAPI 3.1 document. */
    openApi(options?: RequestOptions): Promise<Result<'getOpenApi'>>;
    readonly posts: {
        /** Every post matching the filters, across pages (`limit` is the page size). */
        list: (query?: PostListParams, options?: RequestOptions) => AsyncGenerator<import("./generated.js").Post, any, any>;
        /** One page; pass the previous page's `next_cursor` as `cursor` for the next. */
        listPage: (query?: PostListParams & {
            cursor?: string;
        }, options?: RequestOptions) => Promise<Page<import("./generated.js").Post>>;
        /** Schedules a post (no `scheduled_at`: now). A retry with the same `idempotencyKey` never makes a second post. */
        create: (post: PostCreateParams, options?: RequestOptions) => Promise<Result<"createPost">>;
        /** Checks a post as `create` would, creating nothing: each platform's length and limit, or the same 422 `SmmApiError`. */
        validate: (post: PostCreateParams, options?: RequestOptions) => Promise<Result<"validatePost">>;
        /** Schedules up to 500 posts in one request: all, or none (a 422 points at `#/posts/<index>/…`). Answers them in order. */
        createMany: (posts: PostCreateParams[], options?: RequestOptions) => Promise<Extract<Result<"createPosts">, {
            data: unknown;
        }>>;
        /** Checks up to 500 posts as `createMany` would, creating nothing: `{ valid: true, count }` or the same 422. */
        validateMany: (posts: PostCreateParams[], options?: RequestOptions) => Promise<Extract<Result<"createPosts">, {
            valid: true;
        }>>;
        get: (id: string, options?: RequestOptions) => Promise<Result<"getPost">>;
        /** A post with its version (ETag), to pass as `ifMatch` to `update`. */
        getWithEtag: (id: string, options?: RequestOptions) => Promise<{
            post: Result<"getPost">;
            etag: string | undefined;
        }>;
        /** Changes a scheduled post; with `{ ifMatch: etag }` it fails (412) if the post changed since that read. */
        update: (id: string, changes: PostUpdateParams, options?: RequestOptions) => Promise<Result<"updatePost">>;
        /**
         * Schedules a draft: at `scheduled_at`, at the account's next free queue slot (`{ queue: true }`),
         * or now (`{}`); with `{ ifMatch: etag }` it fails (412) if the draft changed since that read.
         */
        schedule: (id: string, when?: PostScheduleParams, options?: RequestOptions) => Promise<Result<"schedulePost">>;
        /**
         * Cancels a scheduled post or a draft. An occurrence of a series is cancelled alone (the series goes on
         * with the next); with `{ series: 'true' }` the series stops too: every scheduled occurrence is
         * cancelled and none follows (`post.series_ended`).
         */
        cancel: (id: string, query?: Query<"cancelPost">, options?: RequestOptions) => Promise<Result<"cancelPost">>;
        /** Publishes the failed targets of a failed or partially published post again, now. */
        retry: (id: string, options?: RequestOptions) => Promise<Result<"retryPost">>;
        /** Approves a post waiting for approval (admin, owner): it is scheduled, or published at once if its time has passed. */
        approve: (id: string, approval?: Body<"approvePost">, options?: RequestOptions) => Promise<Result<"approvePost">>;
        /** Asks for changes to a post waiting for approval (admin, owner): `comment` says what; the post is `rejected` until edited. */
        reject: (id: string, comment: string, options?: RequestOptions) => Promise<Result<"rejectPost">>;
        /** The post's comments, oldest first, across pages: the team's, reviewers', and each decision's. */
        comments: (id: string, query?: Omit<Query<"listComments">, "cursor">, options?: RequestOptions) => AsyncGenerator<import("./generated.js").Comment, any, any>;
        commentsPage: (id: string, query?: Query<"listComments">, options?: RequestOptions) => Promise<Result<"listComments">>;
        /** Comments on a post (any member, viewers too). */
        addComment: (id: string, body: string, options?: RequestOptions) => Promise<Result<"addComment">>;
        /** Makes a review link (admin, owner): `url` lets someone without an account approve the post or ask for changes; shown only here. */
        createReviewLink: (id: string, link?: Body<"createReviewLink">, options?: RequestOptions) => Promise<Result<"createReviewLink">>;
        /** The post's review links, oldest first, each with its `state` (admin, owner). */
        reviewLinks: (id: string, options?: RequestOptions) => Promise<Result<"listReviewLinks">>;
        /** Revokes a review link: its page says so from then on. */
        revokeReviewLink: (id: string, linkId: string, options?: RequestOptions) => Promise<void>;
    };
    readonly media: {
        /**
         * Uploads a file (a path, read as a stream) or bytes, with its content type
         * (`image/jpeg`, `image/png`, `image/gif`, `image/webp`, `video/mp4`, `video/quicktime`) and
         * optional alt text; `onProgress` is told as the bytes leave. A file is read as it is sent,
         * never whole in memory, and again from its start on a retry.
         */
        upload: (file: string | Buffer, params: {
            contentType: string;
            altText?: string;
            onProgress?: (sent: number, total: number) => void;
        }, options?: RequestOptions) => Promise<Result<"uploadMedia">>;
        list: (options?: RequestOptions) => AsyncGenerator<import("./generated.js").Media, any, any>;
        listPage: (query?: Query<"listMedia">, options?: RequestOptions) => Promise<Page<import("./generated.js").Media>>;
        get: (id: string, options?: RequestOptions) => Promise<Result<"getMedia">>;
        /** Changes the alt text (`null` removes it). */
        update: (id: string, changes: Body<"updateMedia">, options?: RequestOptions) => Promise<Result<"updateMedia">>;
        /** The bytes behind a media's public URL, by its last segment (`<token>.<ext>`); no key is needed for it. */
        file: (file: string, options?: RequestOptions) => Promise<Buffer>;
        /** Deletes it; 409 `media_in_use` while a draft, scheduled or publishing post uses it. */
        delete: (id: string, options?: RequestOptions) => Promise<void>;
    };
    readonly platforms: {
        /** The platforms this daemon publishes to, in a fixed order, each with how it connects and its limits (one page: there are few). */
        list: (options?: RequestOptions) => AsyncGenerator<import("./generated.js").Platform, any, any>;
    };
    readonly accounts: {
        list: (query?: Omit<Query<"listAccounts">, "cursor">, options?: RequestOptions) => AsyncGenerator<import("./generated.js").Account, any, any>;
        listPage: (query?: Query<"listAccounts">, options?: RequestOptions) => Promise<Page<import("./generated.js").Account>>;
        create: (account: Body<"createAccount">, options?: RequestOptions) => Promise<Result<"createAccount">>;
        get: (id: string, options?: RequestOptions) => Promise<Result<"getAccount">>;
        /** Renames the account (`account.updated`). */
        update: (id: string, changes: Body<"updateAccount">, options?: RequestOptions) => Promise<Result<"updateAccount">>;
        /**
         * Deletes the account with its connections, posts and feed. One with scheduled posts is
         * deleted only with `{ cancel_posts: 'true' }` (each post gets `post.cancelled`); otherwise 409.
         */
        delete: (id: string, query?: Query<"deleteAccount">, options?: RequestOptions) => Promise<void>;
        /** Connects a platform with its credentials (verified with the platform first). */
        connect: (id: string, connection: Body<"connectAccount">, options?: RequestOptions) => Promise<Result<"connectAccount">>;
        disconnect: (id: string, platform: string, options?: RequestOptions) => Promise<void>;
        /** The account's weekly queue slots (in the user's time zone) and its next free slot times. */
        getQueue: (id: string, options?: RequestOptions) => Promise<Result<"getQueue">>;
        /** Replaces the account's queue slots (`[]` empties it): `[{ day: 'monday', time: '09:00' }, …]`. */
        setQueue: (id: string, slots: Body<"setQueue">["slots"], options?: RequestOptions) => Promise<Result<"setQueue">>;
    };
    readonly webhooks: {
        list: (query?: Omit<Query<"listWebhooks">, "cursor">, options?: RequestOptions) => AsyncGenerator<import("./generated.js").Webhook, any, any>;
        listPage: (query?: Query<"listWebhooks">, options?: RequestOptions) => Promise<Page<import("./generated.js").Webhook>>;
        /** Creates an endpoint; its signing `secret` is in this response only. */
        create: (webhook: Body<"createWebhook">, options?: RequestOptions) => Promise<Result<"createWebhook">>;
        get: (id: string, options?: RequestOptions) => Promise<Result<"getWebhook">>;
        update: (id: string, changes: Body<"updateWebhook">, options?: RequestOptions) => Promise<Result<"updateWebhook">>;
        delete: (id: string, options?: RequestOptions) => Promise<void>;
        /** Sends a `webhook.test` event to the endpoint. */
        test: (id: string, options?: RequestOptions) => Promise<Result<"testWebhook">>;
        /** A new signing secret (in this response only). */
        rotateSecret: (id: string, options?: RequestOptions) => Promise<Result<"rotateWebhookSecret">>;
        /** Sends one delivery again now, same webhook-id and body; `deliveryId` is its event id (msg_…) or an attempt's (dlv_…). */
        resendDelivery: (id: string, deliveryId: string, options?: RequestOptions) => Promise<Result<"resendWebhookDelivery">>;
        /** Every delivery attempt to the endpoint, newest first, across pages. */
        deliveries: (id: string, query?: Omit<Query<"listWebhookDeliveries">, "cursor">, options?: RequestOptions) => AsyncGenerator<import("./generated.js").WebhookDeliveryAttempt, any, any>;
        deliveriesPage: (id: string, query?: Query<"listWebhookDeliveries">, options?: RequestOptions) => Promise<Result<"listWebhookDeliveries">>;
    };
    readonly apiKeys: {
        list: (query?: Omit<Query<"listApiKeys">, "cursor">, options?: RequestOptions) => AsyncGenerator<import("./generated.js").ApiKey, any, any>;
        listPage: (query?: Query<"listApiKeys">, options?: RequestOptions) => Promise<Page<import("./generated.js").ApiKey>>;
        /** Creates a key; its `secret` is in this response only. */
        create: (key: WithTimes<Body<"createApiKey">, "expires_at">, options?: RequestOptions) => Promise<Result<"createApiKey">>;
        revoke: (id: string, options?: RequestOptions) => Promise<void>;
    };
    readonly analytics: {
        /** Totals, per platform, a series and top posts over a time range. */
        get: (query?: WithTimes<Query<"getAnalytics">, "from" | "to">, options?: RequestOptions) => Promise<Result<"getAnalytics">>;
    };
    readonly workspaces: {
        /** The workspaces you belong to, each with your `role`, across pages. */
        list: (query?: Omit<Query<"listWorkspaces">, "cursor">, options?: RequestOptions) => AsyncGenerator<import("./generated.js").Workspace, any, any>;
        listPage: (query?: Query<"listWorkspaces">, options?: RequestOptions) => Promise<Page<import("./generated.js").Workspace>>;
        /** Creates a workspace to share accounts; you are its owner. */
        create: (workspace: Body<"createWorkspace">, options?: RequestOptions) => Promise<Result<"createWorkspace">>;
        get: (id: string, options?: RequestOptions) => Promise<Result<"getWorkspace">>;
        /** Renames it, requires approval of editors' posts (`approval_required`), or changes its zone. */
        update: (id: string, changes: Body<"updateWorkspace">, options?: RequestOptions) => Promise<Result<"updateWorkspace">>;
        /** Deletes a shared workspace that has no accounts left (owner only). */
        delete: (id: string, options?: RequestOptions) => Promise<void>;
        /** The workspace's members and their roles, across pages. */
        members: (id: string, query?: Omit<Query<"listMembers">, "cursor">, options?: RequestOptions) => AsyncGenerator<import("./generated.js").Member, any, any>;
        membersPage: (id: string, query?: Query<"listMembers">, options?: RequestOptions) => Promise<Result<"listMembers">>;
        /** Adds a user, by `user_id` or `email`, with a role. */
        addMember: (id: string, member: Body<"addMember">, options?: RequestOptions) => Promise<Result<"addMember">>;
        setRole: (id: string, userId: string, role: Body<"updateMember">["role"], options?: RequestOptions) => Promise<Result<"updateMember">>;
        /** Removes a member, who loses access at once (or leaves, with your own id). */
        removeMember: (id: string, userId: string, options?: RequestOptions) => Promise<void>;
        /** What was done in the workspace, by whom, newest first, across pages (owner, admin); `kind` filters (`post.*` for a family). */
        auditLog: (id: string, query?: WithTimes<Omit<Query<"getAuditLog">, "cursor">, "from" | "to">, options?: RequestOptions) => AsyncGenerator<import("./generated.js").AuditEntry, any, any>;
        auditLogPage: (id: string, query?: WithTimes<Query<"getAuditLog">, "from" | "to">, options?: RequestOptions) => Promise<Result<"getAuditLog">>;
    };
    readonly ai: {
        /** Drafts posts that fit each platform. */
        generate: (request: Body<"generateContent">, options?: RequestOptions) => Promise<Result<"generateContent">>;
    };
    /** An account's public feed, as text. */
    readonly feeds: {
        rss: (accountId: string, options?: RequestOptions) => Promise<string>;
        atom: (accountId: string, options?: RequestOptions) => Promise<string>;
        json: (accountId: string, options?: RequestOptions) => Promise<string>;
        html: (accountId: string, options?: RequestOptions) => Promise<string>;
    };
}
/**
 * Which method of `SmmClient` calls each operation of /v1/openapi.json. A new operation is one
 * line here (and a method above); the SDK's suite fails naming any operation missing here.
 */
export declare const methodFor: {
    readonly getHealth: "health";
    readonly getReady: "ready";
    readonly getOpenApi: "openApi";
    readonly getMe: "me";
    readonly updateMe: "updateMe";
    readonly listApiKeys: "apiKeys.list";
    readonly createApiKey: "apiKeys.create";
    readonly revokeApiKey: "apiKeys.revoke";
    readonly generateContent: "ai.generate";
    readonly listWebhooks: "webhooks.list";
    readonly createWebhook: "webhooks.create";
    readonly getWebhook: "webhooks.get";
    readonly updateWebhook: "webhooks.update";
    readonly deleteWebhook: "webhooks.delete";
    readonly testWebhook: "webhooks.test";
    readonly rotateWebhookSecret: "webhooks.rotateSecret";
    readonly listWebhookDeliveries: "webhooks.deliveries";
    readonly resendWebhookDelivery: "webhooks.resendDelivery";
    readonly listPlatforms: "platforms.list";
    readonly listAccounts: "accounts.list";
    readonly createAccount: "accounts.create";
    readonly getAccount: "accounts.get";
    readonly updateAccount: "accounts.update";
    readonly deleteAccount: "accounts.delete";
    readonly connectAccount: "accounts.connect";
    readonly disconnectAccount: "accounts.disconnect";
    readonly getQueue: "accounts.getQueue";
    readonly setQueue: "accounts.setQueue";
    readonly listPosts: "posts.list";
    readonly createPost: "posts.create";
    readonly validatePost: "posts.validate";
    readonly createPosts: "posts.createMany";
    readonly getPost: "posts.get";
    readonly updatePost: "posts.update";
    readonly schedulePost: "posts.schedule";
    readonly cancelPost: "posts.cancel";
    readonly retryPost: "posts.retry";
    readonly approvePost: "posts.approve";
    readonly rejectPost: "posts.reject";
    readonly listComments: "posts.comments";
    readonly addComment: "posts.addComment";
    readonly createReviewLink: "posts.createReviewLink";
    readonly listReviewLinks: "posts.reviewLinks";
    readonly revokeReviewLink: "posts.revokeReviewLink";
    readonly getRssFeed: "feeds.rss";
    readonly getAtomFeed: "feeds.atom";
    readonly getJsonFeed: "feeds.json";
    readonly getHtmlFeed: "feeds.html";
    readonly uploadMedia: "media.upload";
    readonly listMedia: "media.list";
    readonly getMedia: "media.get";
    readonly updateMedia: "media.update";
    readonly deleteMedia: "media.delete";
    readonly getMediaFile: "media.file";
    readonly getAnalytics: "analytics.get";
    readonly listWorkspaces: "workspaces.list";
    readonly createWorkspace: "workspaces.create";
    readonly getWorkspace: "workspaces.get";
    readonly updateWorkspace: "workspaces.update";
    readonly deleteWorkspace: "workspaces.delete";
    readonly listMembers: "workspaces.members";
    readonly addMember: "workspaces.addMember";
    readonly updateMember: "workspaces.setRole";
    readonly removeMember: "workspaces.removeMember";
    readonly getAuditLog: "workspaces.auditLog";
};
export {};
