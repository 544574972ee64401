export interface Problem {
    type: string;
    title: string;
    status: number;
    detail: string;
    instance?: string;
    code: string;
    errors?: Array<{
        pointer: string;
        code: string;
        detail: string;
    }>;
}
export interface Health {
    status: "ok";
    version: string;
}
export interface Ready {
    status: "ready";
    version: string;
}
export interface User {
    id: string;
    name: string;
    email: string | null;
    plan: "standard" | "business" | "enterprise";
    limits: {
        per_minute: number;
        per_hour: number;
        per_day: number;
    };
    timezone: string;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    created_at: string;
}
export interface ApiKey {
    id: string;
    name: string;
    scopes: Array<"profile:read" | "profile:write" | "accounts:read" | "accounts:write" | "posts:read" | "posts:write" | "media:read" | "media:write" | "analytics:read" | "ai:generate" | "webhooks:read" | "webhooks:write" | "keys:write" | "workspaces:read" | "workspaces:write" | "posts:approve">;
    /** The first 12 characters of the key, for recognising it */
    prefix: string;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    created_at: string;
    expires_at: string | null;
    last_used_at: string | null;
    revoked_at: string | null;
}
export interface ApiKeyWithSecret {
    id: string;
    name: string;
    scopes: Array<"profile:read" | "profile:write" | "accounts:read" | "accounts:write" | "posts:read" | "posts:write" | "media:read" | "media:write" | "analytics:read" | "ai:generate" | "webhooks:read" | "webhooks:write" | "keys:write" | "workspaces:read" | "workspaces:write" | "posts:approve">;
    /** The first 12 characters of the key, for recognising it */
    prefix: string;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    created_at: string;
    expires_at: string | null;
    last_used_at: string | null;
    revoked_at: string | null;
    /** The key itself, in this response only: store it now. Absent when an Idempotency-Key replays the response (it is never stored). */
    secret?: string;
}
export interface AiGeneration {
    id: string;
    /** builtin: the offline drafting helper; openai: the configured chat-completions server */
    provider: "builtin" | "openai";
    model: string;
    variants: Array<{
        content: string;
        /** null for the platform-neutral set */
        platform: "feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram" | null;
        /** Length counted the platform's way (graphemes, URLs as 23 on Mastodon…); graphemes for a platform-neutral draft */
        characters: number;
    }>;
    /** Token counts as the model server reported them; null where it reported none */
    usage: {
        /** Calls made to the model (0 for the builtin helper) */
        requests: number;
        prompt_tokens: number | null;
        completion_tokens: number | null;
        total_tokens: number | null;
    };
    /** What the provider could not do as asked (a language it cannot write, say) */
    notes: string[];
}
export interface Webhook {
    id: string;
    /** The workspace whose events it receives */
    workspace_id: string;
    url: string;
    events: Array<"*" | "post.drafted" | "post.scheduled" | "post.updated" | "post.cancelled" | "post.published" | "post.partially_published" | "post.failed" | "post.target.published" | "post.target.failed" | "post.series_ended" | "post.approval_requested" | "post.approved" | "post.rejected" | "post.commented" | "post.review_link_created" | "post.review_link_revoked" | "account.updated" | "account.deleted" | "account.connected" | "account.disconnected" | "account.reauth_required" | "workspace.updated" | "workspace.member_added" | "workspace.member_updated" | "workspace.member_removed" | "key.created" | "webhook.test">;
    description: string | null;
    enabled: boolean;
    /** Why smm stopped delivering (410 Gone, 5 days of failures…), or null */
    disabled_reason: string | null;
    disabled_at: string | null;
    /** Until when deliveries also carry a signature with the secret before the last rotation */
    previous_secret_expires_at: string | null;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    created_at: string;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    updated_at: string;
}
export interface WebhookWithSecret {
    id: string;
    /** The workspace whose events it receives */
    workspace_id: string;
    url: string;
    events: Array<"*" | "post.drafted" | "post.scheduled" | "post.updated" | "post.cancelled" | "post.published" | "post.partially_published" | "post.failed" | "post.target.published" | "post.target.failed" | "post.series_ended" | "post.approval_requested" | "post.approved" | "post.rejected" | "post.commented" | "post.review_link_created" | "post.review_link_revoked" | "account.updated" | "account.deleted" | "account.connected" | "account.disconnected" | "account.reauth_required" | "workspace.updated" | "workspace.member_added" | "workspace.member_updated" | "workspace.member_removed" | "key.created" | "webhook.test">;
    description: string | null;
    enabled: boolean;
    /** Why smm stopped delivering (410 Gone, 5 days of failures…), or null */
    disabled_reason: string | null;
    disabled_at: string | null;
    /** Until when deliveries also carry a signature with the secret before the last rotation */
    previous_secret_expires_at: string | null;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    created_at: string;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    updated_at: string;
    /** `whsec_` + base64 of 32 random bytes, for the Standard Webhooks `verify`. In this response only: store it now. Absent when an Idempotency-Key replays the response (it is never stored). */
    secret?: string;
}
export interface WebhookTestAccepted {
    /** The `webhook-id` the test delivery carries */
    event_id: string;
}
export interface WebhookDeliveryAttempt {
    id: string;
    webhook_id: string;
    /** The `webhook-id` header sent: the same on every retry of this event */
    event_id: string;
    event_type: "post.drafted" | "post.scheduled" | "post.updated" | "post.cancelled" | "post.published" | "post.partially_published" | "post.failed" | "post.target.published" | "post.target.failed" | "post.series_ended" | "post.approval_requested" | "post.approved" | "post.rejected" | "post.commented" | "post.review_link_created" | "post.review_link_revoked" | "account.updated" | "account.deleted" | "account.connected" | "account.disconnected" | "account.reauth_required" | "workspace.updated" | "workspace.member_added" | "workspace.member_updated" | "workspace.member_removed" | "key.created" | "webhook.test";
    /** 1 for the first try of this event, 2 for the first retry… */
    attempt: number;
    succeeded: boolean;
    /** The HTTP status answered, or null when no answer came */
    status_code: number | null;
    duration_ms: number;
    /** The first 1 KiB of the answer */
    response_body: string | null;
    /** Why the attempt failed, or null */
    error: string | null;
    /** When the event is tried again, or null if this attempt was the last */
    next_attempt_at: string | null;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    created_at: string;
}
export interface MediaKindRules {
    /** The content types of this kind the platform takes */
    types: string[];
    max?: number | null;
    max_bytes?: number | null;
    /** The largest file of a type that has a limit of its own, by type (X: {"image/gif": 15728640}, against 5 MB for its other images); null: max_bytes for every type */
    max_bytes_by_type?: Record<string, number> | null;
    min_width?: number | null;
    max_width?: number | null;
    min_height?: number | null;
    max_height?: number | null;
    max_pixels?: number | null;
    min_aspect_ratio?: number | null;
    max_aspect_ratio?: number | null;
    min_duration_ms?: number | null;
    max_duration_ms?: number | null;
    /** false: the platform keeps no alt text for this kind, though it does for others (X and Instagram videos); alt text given is not sent, and validation says so */
    alt_text?: boolean;
}
export interface PlatformLimits {
    text: {
        /** The most characters a post may have, counted as `count` says */
        max: number;
        /** How a character is counted: graphemes, code_points, utf16 (UTF-16 units), mastodon (graphemes, each link as url_length, a remote mention by its username), x_weighted (X's weighted count: most scripts 1, CJK and emoji 2, each link 23), or threads (graphemes, an emoji counting as its UTF-8 bytes) */
        count: "graphemes" | "code_points" | "utf16" | "mastodon" | "x_weighted" | "threads";
        caption_max?: number | null;
        url_length?: number | null;
        max_bytes?: number | null;
        /** true: the media URLs are sent in the text, one a line, and count toward max */
        media_links?: boolean;
    };
    media: {
        /** The most media items (media_urls and uploaded media together) a post may have; null when smm enforces none */
        max: number | null;
        /** true: a post without media is refused */
        required?: boolean;
        /** The media types the platform takes (checked when the media is fetched at publish time); null: any the platform links to */
        types?: string[] | null;
        /** What an uploaded image must be; null: the platform takes no images */
        image?: MediaKindRules | null;
        /** What an uploaded video must be; null: the platform takes no videos */
        video?: MediaKindRules | null;
        /** false: one post holds images or a video, not both */
        mixed?: boolean;
        /** The longest alt text the platform keeps; null: it has no alt text (what is given is not sent, and validation says so) */
        alt_text_max?: number | null;
        /** How uploaded media reach the platform: upload (their bytes, by its upload API), url (it fetches their public URL, which must then be reachable from the internet), link (their URL goes in the text) */
        send?: "upload" | "url" | "link";
    };
}
export interface Platform {
    name: "feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram";
    /** Its name for people: "Mastodon", "X" */
    label: string;
    /** credentials: the connect call takes them; oauth2: the person approves in their browser */
    auth: "credentials" | "oauth2";
    /** The credential fields POST /v1/accounts/{id}/connections takes (empty for oauth2 and feed) */
    credentials: string[];
    limits: PlatformLimits;
    /** How a post's thread parts go out: replies, each a reply to the part before (a thread as the platform shows one); consecutive, posts or messages one after another */
    thread: "replies" | "consecutive";
    /** How a first comment goes out: a reply to the post, or a comment on it; null: the platform has neither, and a post with a first_comment for it is refused */
    first_comment: "reply" | "comment" | null;
    /** true: this daemon publishes uploaded media (`media` of a post) to the platform, as limits.media.send says; false: not yet, and a post with uploaded media for it is refused (media_urls still work) */
    uploads_media: boolean;
}
export interface Connection {
    platform: "feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram";
    handle: string;
    display_name: string;
    /** reauth_required: the platform refused the credentials; connect again. pending: waiting for the person to approve in their browser (OAuth platforms); handle and display_name are empty until then */
    status: "active" | "reauth_required" | "pending";
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    connected_at: string;
    /** Pending connections only: when the browser approval lapses */
    expires_at?: string;
}
export interface Account {
    id: string;
    /** The workspace it belongs to: its members act on it by their role */
    workspace_id: string;
    name: string;
    connections: Connection[];
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    created_at: string;
}
export interface PendingConnection {
    platform: "feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram";
    status: "pending";
    /** Open this in a browser and approve; the platform sends the person back to <public-url>/oauth/callback */
    authorize_url: string;
    /** The approval must happen before this (10 minutes) */
    expires_at: string;
}
export interface QueueSlot {
    day: "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";
    /** HH:MM, 24-hour, in the user’s time zone (GET /v1/me `timezone`) */
    time: string;
}
export interface Queue {
    /** The user’s IANA time zone, the one the slots are wall-clock times in */
    timezone: string;
    /** Monday first, then by time */
    slots: QueueSlot[];
    /** Up to 10 upcoming slot times no scheduled post of the account takes, within 366 days: where "queue": true posts go, in order */
    next: string[];
}
export interface PostMedia {
    id: string;
    /** The media's public URL */
    url: string;
    content_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp" | "video/mp4" | "video/quicktime";
    width: number | null;
    height: number | null;
    /** The alt text it goes out with: the post's own, else the media's */
    alt_text: string | null;
}
export interface MediaRef {
    /** A media object of yours (`med_…`), from POST /v1/media or a finished upload */
    id: string;
    /** Alt text for this post, in place of the media's own; absent or null: the media's own */
    alt_text?: string | null;
}
export interface ThreadPart {
    content?: string;
    media_urls?: string[];
    /** Uploaded media, in order, beside (after) any media_urls */
    media?: MediaRef[];
}
export interface PlatformOverride {
    content?: string;
    media_urls?: string[];
    /** Uploaded media, in order, beside (after) any media_urls */
    media?: MediaRef[];
    /** Up to 24 parts published after the post, in order: a chain of replies where the platform has replies (GET /v1/platforms: thread "replies"), consecutive posts or messages elsewhere. [] or absent: no thread. */
    thread?: ThreadPart[];
    /** Published right after the post, before any thread part: as a reply to the post, or a comment on it where the platform has comments (GET /v1/platforms: first_comment). Refused on a platform with neither. null: none. */
    first_comment?: string | null;
}
export interface PublishedPart {
    /** 0 the post, then the first comment (if any), then the thread parts in order */
    index: number;
    kind: "post" | "first_comment" | "thread";
    platform_post_id: string | null;
    url: string | null;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    published_at: string;
}
export interface Target {
    platform: "feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram";
    /** unconfirmed: the platform was asked but no answer came; it is not re-sent automatically */
    status: "pending" | "publishing" | "published" | "failed" | "unconfirmed";
    attempts: number;
    /** The platform's id of the published item; null while unpublished, and on platforms that return none (a Slack incoming webhook answers only "ok") */
    platform_post_id: string | null;
    /** Where the published item can be seen; null while unpublished, and where the platform gives no link (Slack; a Telegram chat that is neither a channel nor a supergroup) */
    url: string | null;
    published_at: string | null;
    error: {
        code: string;
        detail: string;
        /** In a post of several parts: the index (in `parts` order: 0 the post) of the part that failed; the parts before it are out */
        part?: number;
    } | null;
    /** The parts already out, in order (the post, its first comment, its thread parts): a retry resumes after the last of them and never sends one again */
    parts: PublishedPart[];
}
export interface Repeat {
    interval: string;
    count: number | null;
    until: string | null;
    /** The time zone whose wall-clock time calendar intervals keep: the user’s when the series was created */
    timezone: string;
    /** The first occurrence’s time: every occurrence’s time counts from it, so editing one occurrence moves no other */
    starts_at: string;
}
export interface Post {
    id: string;
    /** Its account’s workspace */
    workspace_id: string;
    account_id: string;
    content: string;
    media_urls: string[];
    /** Uploaded media, in order (a media deleted since is left out) */
    media: PostMedia[];
    platforms: Array<"feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram">;
    thread: Array<{
        content: string;
        media_urls: string[];
        /** Uploaded media of the part; absent when it has none */
        media?: PostMedia[];
    }>;
    first_comment: string | null;
    /** Per-platform versions as given; {} when there are none */
    overrides: {
        /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
        feed?: PlatformOverride;
        /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
        mastodon?: PlatformOverride;
        /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
        bluesky?: PlatformOverride;
        /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
        telegram?: PlatformOverride;
        /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
        discord?: PlatformOverride;
        /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
        slack?: PlatformOverride;
        /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
        x?: PlatformOverride;
        /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
        linkedin?: PlatformOverride;
        /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
        threads?: PlatformOverride;
        /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
        facebook?: PlatformOverride;
        /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
        instagram?: PlatformOverride;
    };
    /** When the post is (or was) to be published; null only for a draft given no time yet, or such a draft cancelled (it lists as if scheduled at its created_at) */
    scheduled_at: string | null;
    /** draft: kept, never published until scheduled (POST /v1/posts/{id}/schedule); pending_approval: an editor’s post in a workspace that requires approval, never published until an admin or owner approves it (POST /v1/posts/{id}/approve); rejected: sent back with a comment, waiting for an edit (which makes it pending_approval again) */
    status: "draft" | "pending_approval" | "rejected" | "scheduled" | "publishing" | "published" | "partially_published" | "failed" | "cancelled";
    targets: Target[];
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    created_at: string;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    updated_at: string;
    published_at: string | null;
    cancelled_at: string | null;
    /** The series (`ser_…`) this post is an occurrence of; null for a one-off post */
    series_id: string | null;
    /** Which occurrence of its series this is, from 1 (skipped occurrences leave gaps); null for a one-off post */
    occurrence: number | null;
    /** How the series repeats; null for a one-off post */
    repeat: Repeat | null;
}
export interface TargetMeasure {
    platform: "feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram";
    /** The text's length as this platform counts it (its links, emoji and CJK rules) */
    length: number;
    /** The most this platform allows for this post (a caption under media may be shorter; a Mastodon instance may allow more) */
    limit: number;
    /** The parts after the post on this platform (its version, overrides applied), each measured likewise; index as in a target's `parts` */
    parts: Array<{
        index: number;
        kind: "first_comment" | "thread";
        length: number;
        limit: number;
    }>;
    /** What goes out on this platform otherwise than given, though the post is valid: `alt_text_not_sent` at an uploaded media (`#/media/0`, `#/thread/1/media/0`, `#/overrides/telegram/media/0`) whose alt text the platform has no place for. Empty: nothing */
    warnings: Array<{
        pointer: string;
        code: string;
        detail: string;
    }>;
}
export interface PostValidation {
    valid: true;
    /** When the post would be published, as create would store it (now, when the request gave none; the next free slot, with queue); for a draft its planned time, null if it has none */
    scheduled_at: string | null;
    targets: TargetMeasure[];
}
export interface BulkValidation {
    valid: true;
    count: number;
}
export interface Media {
    id: string;
    /** The type, as checked against the bytes */
    content_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp" | "video/mp4" | "video/quicktime";
    /** Its size in bytes */
    bytes: number;
    /** SHA-256 of the bytes, hex */
    sha256: string;
    /** Pixels across; null where it could not be read */
    width: number | null;
    /** Pixels down; null where it could not be read */
    height: number | null;
    /** A video’s length; null for an image */
    duration_ms: number | null;
    /** The description read to people who cannot see it; a post may give its own */
    alt_text: string | null;
    /** Where anyone with the link can fetch it, without a key (`<public-url>/media/<token>.<ext>`, the token unguessable): what platforms that fetch media and feed readers are given. It answers 404 once the media is deleted. */
    url: string;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    created_at: string;
}
export interface AnalyticsMetrics {
    /** Targets (one post on one platform) whose post is scheduled in the range, cancelled posts excluded, whatever their state. */
    posts_scheduled: number;
    /** Of those, targets published. */
    posts_published: number;
    /** Of those, targets failed for good (unconfirmed, pending and publishing ones are neither published nor failed). */
    posts_failed: number;
    /** posts_published / (posts_published + posts_failed), 0..1; null when neither happened. */
    publish_success_rate: number | null;
    /** Median over published targets of (target published_at − post scheduled_at), in ms (the mean of the middle two for an even count, rounded); null when none was published. */
    median_publish_delay_ms: number | null;
    /** Sum of the latest impressions count of each target. Null when no platform in scope reports it (never 0 for unknown). */
    impressions: number | null;
    /** Sum of the latest likes (Mastodon favourites) of each target. Null when no platform in scope reports it (never 0 for unknown). */
    likes: number | null;
    /** Sum of the latest reposts (Mastodon reblogs) of each target. Null when no platform in scope reports it (never 0 for unknown). */
    reposts: number | null;
    /** Sum of the latest replies of each target. Null when no platform in scope reports it (never 0 for unknown). */
    replies: number | null;
    /** Sum of the latest quotes of each target. Null when no platform in scope reports it (never 0 for unknown). */
    quotes: number | null;
    /** Sum of the latest link clicks of each target. Null when no platform in scope reports it (never 0 for unknown). */
    clicks: number | null;
    /** Sum over targets of likes + reposts + replies + quotes + clicks, each target counting the ones its platform reports. Null when no platform in scope reports it (never 0 for unknown). */
    engagements: number | null;
    /** Engagements / impressions over the targets that report both; null when none does or their impressions are 0. */
    engagement_rate: number | null;
}
export interface AnalyticsReport {
    /** Start of the range (inclusive) */
    from: string;
    /** End of the range (exclusive) */
    to: string;
    interval: "day" | "week" | "month";
    totals: AnalyticsMetrics;
    /** One entry per platform with targets in the range, in the order of the platform list */
    by_platform: Array<{
        platform: "feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram";
        /** Targets (one post on one platform) whose post is scheduled in the range, cancelled posts excluded, whatever their state. */
        posts_scheduled: number;
        /** Of those, targets published. */
        posts_published: number;
        /** Of those, targets failed for good (unconfirmed, pending and publishing ones are neither published nor failed). */
        posts_failed: number;
        /** posts_published / (posts_published + posts_failed), 0..1; null when neither happened. */
        publish_success_rate: number | null;
        /** Median over published targets of (target published_at − post scheduled_at), in ms (the mean of the middle two for an even count, rounded); null when none was published. */
        median_publish_delay_ms: number | null;
        /** Sum of the latest impressions count of each target. Null when no platform in scope reports it (never 0 for unknown). */
        impressions: number | null;
        /** Sum of the latest likes (Mastodon favourites) of each target. Null when no platform in scope reports it (never 0 for unknown). */
        likes: number | null;
        /** Sum of the latest reposts (Mastodon reblogs) of each target. Null when no platform in scope reports it (never 0 for unknown). */
        reposts: number | null;
        /** Sum of the latest replies of each target. Null when no platform in scope reports it (never 0 for unknown). */
        replies: number | null;
        /** Sum of the latest quotes of each target. Null when no platform in scope reports it (never 0 for unknown). */
        quotes: number | null;
        /** Sum of the latest link clicks of each target. Null when no platform in scope reports it (never 0 for unknown). */
        clicks: number | null;
        /** Sum over targets of likes + reposts + replies + quotes + clicks, each target counting the ones its platform reports. Null when no platform in scope reports it (never 0 for unknown). */
        engagements: number | null;
        /** Engagements / impressions over the targets that report both; null when none does or their impressions are 0. */
        engagement_rate: number | null;
    }>;
    /** Every bucket from the one holding `from` to the one holding the end of the range, empty ones included */
    series: Array<{
        /** Start of the day, week (Monday) or month in the user’s timezone; the first may begin before `from`, whose targets it does not count */
        start: string;
        /** Targets (one post on one platform) whose post is scheduled in the range, cancelled posts excluded, whatever their state. */
        posts_scheduled: number;
        /** Of those, targets published. */
        posts_published: number;
        /** Of those, targets failed for good (unconfirmed, pending and publishing ones are neither published nor failed). */
        posts_failed: number;
        /** posts_published / (posts_published + posts_failed), 0..1; null when neither happened. */
        publish_success_rate: number | null;
        /** Median over published targets of (target published_at − post scheduled_at), in ms (the mean of the middle two for an even count, rounded); null when none was published. */
        median_publish_delay_ms: number | null;
        /** Sum of the latest impressions count of each target. Null when no platform in scope reports it (never 0 for unknown). */
        impressions: number | null;
        /** Sum of the latest likes (Mastodon favourites) of each target. Null when no platform in scope reports it (never 0 for unknown). */
        likes: number | null;
        /** Sum of the latest reposts (Mastodon reblogs) of each target. Null when no platform in scope reports it (never 0 for unknown). */
        reposts: number | null;
        /** Sum of the latest replies of each target. Null when no platform in scope reports it (never 0 for unknown). */
        replies: number | null;
        /** Sum of the latest quotes of each target. Null when no platform in scope reports it (never 0 for unknown). */
        quotes: number | null;
        /** Sum of the latest link clicks of each target. Null when no platform in scope reports it (never 0 for unknown). */
        clicks: number | null;
        /** Sum over targets of likes + reposts + replies + quotes + clicks, each target counting the ones its platform reports. Null when no platform in scope reports it (never 0 for unknown). */
        engagements: number | null;
        /** Engagements / impressions over the targets that report both; null when none does or their impressions are 0. */
        engagement_rate: number | null;
    }>;
    /** Up to 10 targets with the most engagements (latest counts), most first; targets with no reported engagement are left out */
    top_posts: Array<{
        post_id: string;
        platform: "feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram";
        url: string | null;
        engagements: number;
    }>;
}
export interface Workspace {
    id: string;
    name: string;
    /** true: an editor's posts wait (status pending_approval) until an admin or owner approves them */
    approval_required: boolean;
    /** The workspace every user has for themselves: never shared, never deleted */
    personal: boolean;
    /** The IANA zone its queue slots, series and review links keep wall-clock time in; a personal workspace follows its user’s (PATCH /v1/me) */
    timezone: string;
    /** Your role in it */
    role: "owner" | "admin" | "editor" | "viewer";
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    created_at: string;
}
export interface Member {
    user_id: string;
    name: string;
    email: string | null;
    role: "owner" | "admin" | "editor" | "viewer";
    /** When they joined */
    created_at: string;
}
export interface Comment {
    id: string;
    post_id: string;
    author: unknown;
    body: string;
    /** Set on the comment that came with an approval or a rejection */
    decision: "approved" | "rejected" | null;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    created_at: string;
}
export interface AuditEntry {
    /** The event’s id (msg_…): a webhook delivery of it carries the same id */
    id: string;
    /** What was done: the event’s type */
    kind: "post.drafted" | "post.scheduled" | "post.updated" | "post.cancelled" | "post.published" | "post.partially_published" | "post.failed" | "post.target.published" | "post.target.failed" | "post.series_ended" | "post.approval_requested" | "post.approved" | "post.rejected" | "post.commented" | "post.review_link_created" | "post.review_link_revoked" | "account.updated" | "account.deleted" | "account.connected" | "account.disconnected" | "account.reauth_required" | "workspace.updated" | "workspace.member_added" | "workspace.member_updated" | "workspace.member_removed" | "key.created" | "webhook.test";
    actor: unknown;
    /** What it was done to */
    object: {
        type: "post" | "account" | "member" | "workspace" | "key" | "webhook";
        id: string;
    };
    /** One line saying it, for people */
    summary: string;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    created_at: string;
}
export interface ReviewLinkWithUrl {
    /** rvl_… */
    id: string;
    post_id: string;
    created_by: unknown;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    created_at: string;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    expires_at: string;
    revoked_at: string | null;
    /** Whether the link opens the post now */
    state: "active" | "expired" | "revoked";
    /** The page to send the reviewer: anyone holding it may approve the post or ask for changes until it expires or is revoked. Shown only here */
    url: string;
}
export interface ReviewLink {
    /** rvl_… */
    id: string;
    post_id: string;
    created_by: unknown;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    created_at: string;
    /** RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z */
    expires_at: string;
    revoked_at: string | null;
    /** Whether the link opens the post now */
    state: "active" | "expired" | "revoked";
}
/** What each operation takes (path parameters, query, body) and answers. */
export interface Operations {
    /** Liveness check (no authentication) */
    getHealth: {
        response: Health;
    };
    /** Readiness check (no authentication): the store answers within a second */
    getReady: {
        response: Ready;
    };
    /** This OpenAPI 3.1 document (no authentication) */
    getOpenApi: {
        response: Record<string, unknown>;
    };
    /** Get the authenticated user profile */
    getMe: {
        response: User;
    };
    /** Change your own name or time zone */
    updateMe: {
        body: {
            name?: string;
            /** IANA time zone, e.g. Europe/Berlin; the zone analytics days and the CLI and calendar times follow */
            timezone?: string;
        };
        response: User;
    };
    /** List the user's API keys (never their secrets) */
    listApiKeys: {
        query: {
            limit?: string;
            /** The next_cursor of the previous page */
            cursor?: string;
        };
        response: {
            data: ApiKey[];
            has_more: boolean;
            next_cursor: string | null;
        };
    };
    /** Create an API key; its secret is in this response only */
    createApiKey: {
        body: {
            name: string;
            scopes?: Array<"profile:read" | "profile:write" | "accounts:read" | "accounts:write" | "posts:read" | "posts:write" | "media:read" | "media:write" | "analytics:read" | "ai:generate" | "webhooks:read" | "webhooks:write" | "keys:write" | "workspaces:read" | "workspaces:write" | "posts:approve">;
            expires_at?: string | null;
        };
        response: ApiKeyWithSecret;
    };
    /** Revoke an API key; requests with it are refused from now on */
    revokeApiKey: {
        params: {
            id: string;
        };
        response: void;
    };
    /** Draft posts that fit each platform, from the configured model or the offline helper */
    generateContent: {
        body: {
            /** What the posts should say: a topic, an announcement, notes to turn into a post */
            prompt: string;
            /** Draft for each of these, fitting its rules; left out: one platform-neutral set that fits every platform */
            platforms?: Array<"feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram">;
            tone?: "neutral" | "friendly" | "professional" | "witty" | "enthusiastic";
            /** Drafts per platform (default 1) */
            variants?: number;
            /** BCP 47 tag of the language to write in (default: the language of the prompt) */
            language?: string;
            hashtags?: boolean;
        };
        response: AiGeneration;
    };
    /** List the webhook endpoints of your workspaces (never their secrets) */
    listWebhooks: {
        query: {
            limit?: string;
            /** The next_cursor of the previous page */
            cursor?: string;
            /** Only this workspace’s (default: every workspace you belong to) */
            workspace_id?: string;
        };
        response: {
            data: Webhook[];
            has_more: boolean;
            next_cursor: string | null;
        };
    };
    /** Register an HTTPS endpoint for events; its signing secret is in this response only */
    createWebhook: {
        body: {
            /** The workspace it belongs to (default: your personal workspace) */
            workspace_id?: string;
            url: string;
            events: Array<"*" | "post.drafted" | "post.scheduled" | "post.updated" | "post.cancelled" | "post.published" | "post.partially_published" | "post.failed" | "post.target.published" | "post.target.failed" | "post.series_ended" | "post.approval_requested" | "post.approved" | "post.rejected" | "post.commented" | "post.review_link_created" | "post.review_link_revoked" | "account.updated" | "account.deleted" | "account.connected" | "account.disconnected" | "account.reauth_required" | "workspace.updated" | "workspace.member_added" | "workspace.member_updated" | "workspace.member_removed" | "key.created" | "webhook.test">;
            description?: string | null;
        };
        response: WebhookWithSecret;
    };
    /** One webhook endpoint */
    getWebhook: {
        params: {
            id: string;
        };
        response: Webhook;
    };
    /** Change an endpoint (url, events, description) or enable/disable it; enabling clears disabled_reason */
    updateWebhook: {
        params: {
            id: string;
        };
        body: {
            url?: string;
            events?: Array<"*" | "post.drafted" | "post.scheduled" | "post.updated" | "post.cancelled" | "post.published" | "post.partially_published" | "post.failed" | "post.target.published" | "post.target.failed" | "post.series_ended" | "post.approval_requested" | "post.approved" | "post.rejected" | "post.commented" | "post.review_link_created" | "post.review_link_revoked" | "account.updated" | "account.deleted" | "account.connected" | "account.disconnected" | "account.reauth_required" | "workspace.updated" | "workspace.member_added" | "workspace.member_updated" | "workspace.member_removed" | "key.created" | "webhook.test">;
            description?: string | null;
            enabled?: boolean;
        };
        response: Webhook;
    };
    /** Delete an endpoint and its delivery history; pending deliveries are dropped */
    deleteWebhook: {
        params: {
            id: string;
        };
        response: void;
    };
    /** Send a webhook.test event to this endpoint only */
    testWebhook: {
        params: {
            id: string;
        };
        response: WebhookTestAccepted;
    };
    /** Replace the signing secret; for 24 h deliveries are signed with both the old and the new one */
    rotateWebhookSecret: {
        params: {
            id: string;
        };
        response: WebhookWithSecret;
    };
    /** Send one delivery again now (same webhook-id and body), whether it succeeded or failed; its attempts keep counting */
    resendWebhookDelivery: {
        params: {
            id: string;
            /** The event id of the delivery (msg_…, its webhook-id header), or the id of one of its attempts (dlv_…) */
            delivery_id: string;
        };
        response: WebhookTestAccepted;
    };
    /** The endpoint's delivery attempts, newest first: status codes, durations, answers and errors */
    listWebhookDeliveries: {
        params: {
            id: string;
        };
        query: {
            limit?: string;
            /** The next_cursor of the previous page */
            cursor?: string;
        };
        response: {
            data: WebhookDeliveryAttempt[];
            has_more: boolean;
            next_cursor: string | null;
        };
    };
    /** List the platforms this daemon publishes to: how each connects and its limits */
    listPlatforms: {
        response: {
            data: Platform[];
            has_more: boolean;
            next_cursor: string | null;
        };
    };
    /** List the accounts, optionally those connected to one platform */
    listAccounts: {
        query: {
            limit?: string;
            /** The next_cursor of the previous page */
            cursor?: string;
            platform?: "feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram";
            /** Only this workspace’s (default: every workspace you belong to) */
            workspace_id?: string;
        };
        response: {
            data: Account[];
            has_more: boolean;
            next_cursor: string | null;
        };
    };
    /** Create an account (a brand or person) to connect platforms to */
    createAccount: {
        body: {
            name: string;
            /** The workspace it belongs to (default: your personal workspace) */
            workspace_id?: string;
        };
        response: Account;
    };
    /** Get an account and its connections */
    getAccount: {
        params: {
            id: string;
        };
        response: Account;
    };
    /** Rename an account (sends account.updated) */
    updateAccount: {
        params: {
            id: string;
        };
        body: {
            name: string;
        };
        response: Account;
    };
    /** Delete an account, its connections, posts and feed (sends account.deleted); refused while it has scheduled posts unless cancel_posts=true */
    deleteAccount: {
        params: {
            id: string;
        };
        query: {
            /** true: cancel the account’s scheduled posts and drafts too (each gets post.cancelled); otherwise they make the delete 409 */
            cancel_posts?: "true" | "false";
        };
        response: void;
    };
    /** Connect a platform (credentials are verified with it, then stored encrypted); replaces an existing connection */
    connectAccount: {
        params: {
            id: string;
        };
        body: {
            platform: "feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram";
            /** The platform's credentials (see the platform table); feed and OAuth platforms need none */
            credentials?: Record<string, unknown>;
            /** OAuth platforms: choices for the connection, e.g. {"page_id": "…"} for the Facebook Page to publish to */
            options?: Record<string, string>;
        };
        response: Connection | PendingConnection;
    };
    /** Disconnect a platform and forget its credentials */
    disconnectAccount: {
        params: {
            id: string;
            platform: "feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram";
        };
        response: void;
    };
    /** Get an account’s weekly queue slots and its next free slot times */
    getQueue: {
        params: {
            id: string;
        };
        response: Queue;
    };
    /** Replace an account’s weekly queue slots (wall-clock times in the user’s time zone) */
    setQueue: {
        params: {
            id: string;
        };
        body: {
            /** 0 to 100 weekly slots; [] empties the queue */
            slots: QueueSlot[];
        };
        response: Queue;
    };
    /** List posts by scheduled time (drafts with no time by creation time), filtered by status, account, platform and time range */
    listPosts: {
        query: {
            limit?: string;
            /** The next_cursor of the previous page */
            cursor?: string;
            /** Only posts in this state, or in any of several separated by commas (scheduled,publishing) */
            status?: string;
            account_id?: string;
            /** Only this workspace’s (default: every workspace you belong to) */
            workspace_id?: string;
            platform?: "feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram";
            /** Only the occurrences of this series (`ser_…`) */
            series_id?: string;
            /** Posts scheduled at or after this time (a draft with no time: created at or after) */
            from?: string;
            /** Posts scheduled before this time (a draft with no time: created before) */
            to?: string;
            /** By scheduled_at (a draft with no time by its created_at), then id; default asc */
            order?: "asc" | "desc";
            /** true: the answer also says how many posts match (`total`), this page and the rest */
            count?: "true" | "false";
        };
        response: {
            data: Post[];
            has_more: boolean;
            next_cursor: string | null;
            /** With ?count=true: how many posts match the filters, from this page on */
            total?: number;
        };
    };
    /** Create and schedule a post (no scheduled_at: publish now; queue: the next free slot), or keep it as a draft */
    createPost: {
        body: {
            account_id: string;
            content?: string;
            media_urls?: string[];
            /** Uploaded media, in order, beside (after) any media_urls */
            media?: MediaRef[];
            /** When to publish; omitted: now (or, with queue, the next free slot). At most 5 minutes in the past. For a draft: the planned time, optional, not checked against the clock until the draft is scheduled. */
            scheduled_at?: string;
            platforms: Array<"feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram">;
            /** true: keep the post as a draft (status `draft`, event `post.drafted`): checked as any post is except for its time, never published until POST /v1/posts/{id}/schedule */
            draft?: boolean;
            /** true: publish at the account's next free queue slot (GET /v1/accounts/{id}/queue) instead of at scheduled_at; 422 queue_empty when the account has no slots */
            queue?: boolean;
            /** Makes the post the first occurrence of a series (recurring or evergreen): when an occurrence is published, partly published or fails, the next is scheduled as a new post with the same series_id. It must end: count or until, at most a year (366 days) after the first occurrence. */
            repeat?: {
                /** ISO 8601 duration between occurrences: PT#H or PT#M are exact; P#D, P#W, P#M, P#Y keep the wall-clock time in your time zone across DST (P1M keeps the day of the month, clamped: 31 January, 28 February, 31 March). At least PT1H. */
                interval: string;
                /** How many occurrences in all, the first included */
                count?: number;
                /** No occurrence after this time */
                until?: string;
            };
            /** Up to 24 parts published after the post, in order: a chain of replies where the platform has replies (GET /v1/platforms: thread "replies"), consecutive posts or messages elsewhere. [] or absent: no thread. */
            thread?: ThreadPart[];
            /** Published right after the post, before any thread part: as a reply to the post, or a comment on it where the platform has comments (GET /v1/platforms: first_comment). Refused on a platform with neither. null: none. */
            first_comment?: string | null;
            /** Per-platform versions: each key a platform the post targets, its fields replacing the post's for that platform only */
            overrides?: {
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                feed?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                mastodon?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                bluesky?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                telegram?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                discord?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                slack?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                x?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                linkedin?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                threads?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                facebook?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                instagram?: PlatformOverride;
            };
        };
        response: Post;
    };
    /** Check a post as POST /v1/posts would, creating nothing: 200 with each platform’s length and limit, or the same 422 */
    validatePost: {
        body: {
            account_id: string;
            content?: string;
            media_urls?: string[];
            /** Uploaded media, in order, beside (after) any media_urls */
            media?: MediaRef[];
            /** When to publish; omitted: now (or, with queue, the next free slot). At most 5 minutes in the past. For a draft: the planned time, optional, not checked against the clock until the draft is scheduled. */
            scheduled_at?: string;
            platforms: Array<"feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram">;
            /** true: keep the post as a draft (status `draft`, event `post.drafted`): checked as any post is except for its time, never published until POST /v1/posts/{id}/schedule */
            draft?: boolean;
            /** true: publish at the account's next free queue slot (GET /v1/accounts/{id}/queue) instead of at scheduled_at; 422 queue_empty when the account has no slots */
            queue?: boolean;
            /** Makes the post the first occurrence of a series (recurring or evergreen): when an occurrence is published, partly published or fails, the next is scheduled as a new post with the same series_id. It must end: count or until, at most a year (366 days) after the first occurrence. */
            repeat?: {
                /** ISO 8601 duration between occurrences: PT#H or PT#M are exact; P#D, P#W, P#M, P#Y keep the wall-clock time in your time zone across DST (P1M keeps the day of the month, clamped: 31 January, 28 February, 31 March). At least PT1H. */
                interval: string;
                /** How many occurrences in all, the first included */
                count?: number;
                /** No occurrence after this time */
                until?: string;
            };
            /** Up to 24 parts published after the post, in order: a chain of replies where the platform has replies (GET /v1/platforms: thread "replies"), consecutive posts or messages elsewhere. [] or absent: no thread. */
            thread?: ThreadPart[];
            /** Published right after the post, before any thread part: as a reply to the post, or a comment on it where the platform has comments (GET /v1/platforms: first_comment). Refused on a platform with neither. null: none. */
            first_comment?: string | null;
            /** Per-platform versions: each key a platform the post targets, its fields replacing the post's for that platform only */
            overrides?: {
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                feed?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                mastodon?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                bluesky?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                telegram?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                discord?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                slack?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                x?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                linkedin?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                threads?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                facebook?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                instagram?: PlatformOverride;
            };
        };
        response: PostValidation;
    };
    /** Create up to 500 posts at once: all, or none if any is invalid */
    createPosts: {
        body: {
            /** 1 to 500 posts, each exactly what POST /v1/posts takes */
            posts: Array<{
                account_id: string;
                content?: string;
                media_urls?: string[];
                /** Uploaded media, in order, beside (after) any media_urls */
                media?: MediaRef[];
                /** When to publish; omitted: now (or, with queue, the next free slot). At most 5 minutes in the past. For a draft: the planned time, optional, not checked against the clock until the draft is scheduled. */
                scheduled_at?: string;
                platforms: Array<"feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram">;
                /** true: keep the post as a draft (status `draft`, event `post.drafted`): checked as any post is except for its time, never published until POST /v1/posts/{id}/schedule */
                draft?: boolean;
                /** true: publish at the account's next free queue slot (GET /v1/accounts/{id}/queue) instead of at scheduled_at; 422 queue_empty when the account has no slots */
                queue?: boolean;
                /** Makes the post the first occurrence of a series (recurring or evergreen): when an occurrence is published, partly published or fails, the next is scheduled as a new post with the same series_id. It must end: count or until, at most a year (366 days) after the first occurrence. */
                repeat?: {
                    /** ISO 8601 duration between occurrences: PT#H or PT#M are exact; P#D, P#W, P#M, P#Y keep the wall-clock time in your time zone across DST (P1M keeps the day of the month, clamped: 31 January, 28 February, 31 March). At least PT1H. */
                    interval: string;
                    /** How many occurrences in all, the first included */
                    count?: number;
                    /** No occurrence after this time */
                    until?: string;
                };
                /** Up to 24 parts published after the post, in order: a chain of replies where the platform has replies (GET /v1/platforms: thread "replies"), consecutive posts or messages elsewhere. [] or absent: no thread. */
                thread?: ThreadPart[];
                /** Published right after the post, before any thread part: as a reply to the post, or a comment on it where the platform has comments (GET /v1/platforms: first_comment). Refused on a platform with neither. null: none. */
                first_comment?: string | null;
                /** Per-platform versions: each key a platform the post targets, its fields replacing the post's for that platform only */
                overrides?: {
                    /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                    feed?: PlatformOverride;
                    /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                    mastodon?: PlatformOverride;
                    /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                    bluesky?: PlatformOverride;
                    /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                    telegram?: PlatformOverride;
                    /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                    discord?: PlatformOverride;
                    /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                    slack?: PlatformOverride;
                    /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                    x?: PlatformOverride;
                    /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                    linkedin?: PlatformOverride;
                    /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                    threads?: PlatformOverride;
                    /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                    facebook?: PlatformOverride;
                    /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                    instagram?: PlatformOverride;
                };
            }>;
            /** true: validate every post and answer 200 {valid, count}, creating nothing */
            dry_run?: boolean;
        };
        response: BulkValidation | {
            data: Post[];
        };
    };
    /** Get a post, its status and each platform’s result (with an ETag) */
    getPost: {
        params: {
            id: string;
        };
        response: Post;
    };
    /** Update a scheduled post or a draft (If-Match honoured); 409 post_not_editable once it is neither */
    updatePost: {
        params: {
            id: string;
        };
        body: {
            /** If present, must be the post’s own account: a post cannot move */
            account_id?: string;
            content?: string;
            media_urls?: string[];
            /** Uploaded media, in order, beside (after) any media_urls */
            media?: MediaRef[];
            /** RFC 3339 date-time with Z or an offset; converted to UTC */
            scheduled_at?: string;
            platforms?: Array<"feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram">;
            /** Up to 24 parts published after the post, in order: a chain of replies where the platform has replies (GET /v1/platforms: thread "replies"), consecutive posts or messages elsewhere. [] or absent: no thread. */
            thread?: ThreadPart[];
            /** Published right after the post, before any thread part: as a reply to the post, or a comment on it where the platform has comments (GET /v1/platforms: first_comment). Refused on a platform with neither. null: none. */
            first_comment?: string | null;
            /** Replaces the whole set of overrides ({} removes them all) */
            overrides?: {
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                feed?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                mastodon?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                bluesky?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                telegram?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                discord?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                slack?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                x?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                linkedin?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                threads?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                facebook?: PlatformOverride;
                /** Replaces these fields for this one platform: thread [] drops the thread there, first_comment null drops the comment there */
                instagram?: PlatformOverride;
            };
        };
        response: Post;
    };
    /** Cancel a scheduled post or a draft; cancelling again answers the cancelled post */
    cancelPost: {
        params: {
            id: string;
        };
        query: {
            /** true: also stop the post’s series: no occurrence follows (post.series_ended) */
            series?: "true" | "false";
        };
        response: Post;
    };
    /** Schedule a draft: at scheduled_at, at the next free queue slot (queue), or now ({}); If-Match honoured */
    schedulePost: {
        params: {
            id: string;
        };
        body: {
            /** When to publish; at most 5 minutes in the past. Omitted (and no queue): now */
            scheduled_at?: string;
            /** true: at the account's next free queue slot */
            queue?: boolean;
        };
        response: Post;
    };
    /** Re-queue the failed and unconfirmed targets of a failed or partially published post, now */
    retryPost: {
        params: {
            id: string;
        };
        response: Post;
    };
    /** Upload an image or a video: the raw bytes as the body, with their Content-Type */
    uploadMedia: {
        query: {
            /** Its alt text (PATCH /v1/media/{id} changes it later) */
            alt_text?: string;
        };
        response: Media;
    };
    /** List your media, newest first */
    listMedia: {
        query: {
            limit?: string;
            /** The next_cursor of the previous page */
            cursor?: string;
        };
        response: {
            data: Media[];
            has_more: boolean;
            next_cursor: string | null;
        };
    };
    /** Get one media object */
    getMedia: {
        params: {
            id: string;
        };
        response: Media;
    };
    /** Change a media object’s alt text */
    updateMedia: {
        params: {
            id: string;
        };
        body: {
            /** The new alt text; null removes it */
            alt_text: string | null;
        };
        response: Media;
    };
    /** Delete a media object; 409 media_in_use while a draft, scheduled or publishing post uses it */
    deleteMedia: {
        params: {
            id: string;
        };
        response: void;
    };
    /** The bytes of a media object, by the capability URL in its `url` (no key needed) */
    getMediaFile: {
        params: {
            file: string;
        };
        response: string;
    };
    /** The account's feed as RSS 2.0 (media as enclosures) */
    getRssFeed: {
        params: {
            account_id: string;
        };
        response: string;
    };
    /** The account's feed as Atom (media as enclosure links) */
    getAtomFeed: {
        params: {
            account_id: string;
        };
        response: string;
    };
    /** The account's feed as a web page: each post an article whose anchor is its id (what the feeds' item links open) */
    getHtmlFeed: {
        params: {
            account_id: string;
        };
        response: string;
    };
    /** The account's feed as JSON Feed 1.1 (media as attachments) */
    getJsonFeed: {
        params: {
            account_id: string;
        };
        response: string;
    };
    /** Publishing performance and engagement over a time range, in total, per platform, as a series and top posts */
    getAnalytics: {
        query: {
            /** Start (inclusive). A date is the start of that day in the user’s timezone. Default: 30 days before `to`, at the start of a day. */
            from?: string;
            /** End (exclusive). A date is included: the range ends at the start of the next day. Default: the end of today in the user’s timezone. */
            to?: string;
            /** The workspace reported on (default: the account’s or post’s, if one is named, else your personal workspace) */
            workspace_id?: string;
            /** Only this account’s posts */
            account_id?: string;
            /** Only targets on this platform */
            platform?: "feed" | "mastodon" | "bluesky" | "telegram" | "discord" | "slack" | "x" | "linkedin" | "threads" | "facebook" | "instagram";
            /** Only this post */
            post_id?: string;
            /** Series bucket size, aligned to the user’s timezone: days from midnight, weeks from Monday, months from the 1st */
            interval?: "day" | "week" | "month";
        };
        response: AnalyticsReport;
    };
    /** List the workspaces you belong to, each with your role */
    listWorkspaces: {
        query: {
            limit?: string;
            /** The next_cursor of the previous page */
            cursor?: string;
        };
        response: {
            data: Workspace[];
            has_more: boolean;
            next_cursor: string | null;
        };
    };
    /** Create a workspace to share accounts with others; you are its owner */
    createWorkspace: {
        body: {
            name: string;
            approval_required?: boolean;
            /** IANA time zone, e.g. Europe/Berlin; the zone analytics days and the CLI and calendar times follow */
            timezone?: string;
        };
        response: Workspace;
    };
    /** Get a workspace you belong to */
    getWorkspace: {
        params: {
            id: string;
        };
        response: Workspace;
    };
    /** Rename a workspace, require approval of editors’ posts, or change its time zone (owner, admin) */
    updateWorkspace: {
        params: {
            id: string;
        };
        body: {
            name?: string;
            approval_required?: boolean;
            /** IANA time zone, e.g. Europe/Berlin; the zone analytics days and the CLI and calendar times follow */
            timezone?: string;
        };
        response: Workspace;
    };
    /** Delete a workspace with its webhooks and members (owner); refused while it has accounts */
    deleteWorkspace: {
        params: {
            id: string;
        };
        response: void;
    };
    /** List a workspace’s members and their roles */
    listMembers: {
        params: {
            id: string;
        };
        query: {
            limit?: string;
            /** The next_cursor of the previous page */
            cursor?: string;
        };
        response: {
            data: Member[];
            has_more: boolean;
            next_cursor: string | null;
        };
    };
    /** Add a user to a workspace with a role (owner, admin; only an owner makes owners) */
    addMember: {
        params: {
            id: string;
        };
        body: {
            user_id?: string;
            email?: string;
            /** owner: everything, and there is always one; admin: accounts, connections, webhooks, members, approving; editor: writes posts (which wait for approval where the workspace asks for it); viewer: reads and comments */
            role: "owner" | "admin" | "editor" | "viewer";
        };
        response: Member;
    };
    /** Change a member’s role (owner, admin; only an owner makes or unmakes owners) */
    updateMember: {
        params: {
            id: string;
            user_id: string;
        };
        body: {
            /** owner: everything, and there is always one; admin: accounts, connections, webhooks, members, approving; editor: writes posts (which wait for approval where the workspace asks for it); viewer: reads and comments */
            role: "owner" | "admin" | "editor" | "viewer";
        };
        response: Member;
    };
    /** Remove a member, who loses access at once (owner, admin; only an owner removes owners); anyone may leave */
    removeMember: {
        params: {
            id: string;
            user_id: string;
        };
        response: void;
    };
    /** Approve a post waiting for approval: it is scheduled (published at once if its time has passed); admin or owner */
    approvePost: {
        params: {
            id: string;
        };
        body: {
            /** Kept with the post as a comment of the approval */
            comment?: string;
        };
        response: Post;
    };
    /** Ask for changes to a post waiting for approval, with a comment: it is rejected until edited; admin or owner */
    rejectPost: {
        params: {
            id: string;
        };
        body: {
            /** What to change: kept with the post as a comment of the rejection */
            comment: string;
        };
        response: Post;
    };
    /** List a post’s comments, oldest first: the team’s, a reviewer’s, and those of each approval and rejection */
    listComments: {
        params: {
            id: string;
        };
        query: {
            limit?: string;
            /** The next_cursor of the previous page */
            cursor?: string;
        };
        response: {
            data: Comment[];
            has_more: boolean;
            next_cursor: string | null;
        };
    };
    /** Comment on a post (any member, viewers too) */
    addComment: {
        params: {
            id: string;
        };
        body: {
            body: string;
        };
        response: Comment;
    };
    /** What was done in a workspace, by whom, newest first (owner, admin) */
    getAuditLog: {
        params: {
            id: string;
        };
        query: {
            limit?: string;
            /** The next_cursor of the previous page */
            cursor?: string;
            /** Only these kinds, separated by commas; `post.*` is every post kind */
            kind?: string;
            /** At or after this time */
            from?: string;
            /** Before this time */
            to?: string;
        };
        response: {
            data: AuditEntry[];
            has_more: boolean;
            next_cursor: string | null;
        };
    };
    /** Make a link that lets someone without an account see the post and approve it or ask for changes (admin, owner) */
    createReviewLink: {
        params: {
            id: string;
        };
        body: {
            /** Seconds until the link stops working (default 604800, a week) */
            expires_in?: number;
        };
        response: ReviewLinkWithUrl;
    };
    /** List a post’s review links, oldest first, with whether each still works (admin, owner) */
    listReviewLinks: {
        params: {
            id: string;
        };
        response: {
            data: ReviewLink[];
            has_more: boolean;
            next_cursor: string | null;
        };
    };
    /** Revoke a review link: its page says so from then on (admin, owner) */
    revokeReviewLink: {
        params: {
            id: string;
            link_id: string;
        };
        response: void;
    };
}
export type OperationId = keyof Operations;
/** Every operation of the API: its HTTP method and path. */
export declare const operations: {
    readonly getHealth: {
        readonly method: "GET";
        readonly path: "/healthz";
    };
    readonly getReady: {
        readonly method: "GET";
        readonly path: "/readyz";
    };
    readonly getOpenApi: {
        readonly method: "GET";
        readonly path: "/v1/openapi.json";
    };
    readonly getMe: {
        readonly method: "GET";
        readonly path: "/v1/me";
    };
    readonly updateMe: {
        readonly method: "PATCH";
        readonly path: "/v1/me";
    };
    readonly listApiKeys: {
        readonly method: "GET";
        readonly path: "/v1/api-keys";
    };
    readonly createApiKey: {
        readonly method: "POST";
        readonly path: "/v1/api-keys";
    };
    readonly revokeApiKey: {
        readonly method: "DELETE";
        readonly path: "/v1/api-keys/{id}";
    };
    readonly generateContent: {
        readonly method: "POST";
        readonly path: "/v1/ai/generate";
    };
    readonly listWebhooks: {
        readonly method: "GET";
        readonly path: "/v1/webhooks";
    };
    readonly createWebhook: {
        readonly method: "POST";
        readonly path: "/v1/webhooks";
    };
    readonly getWebhook: {
        readonly method: "GET";
        readonly path: "/v1/webhooks/{id}";
    };
    readonly updateWebhook: {
        readonly method: "PATCH";
        readonly path: "/v1/webhooks/{id}";
    };
    readonly deleteWebhook: {
        readonly method: "DELETE";
        readonly path: "/v1/webhooks/{id}";
    };
    readonly testWebhook: {
        readonly method: "POST";
        readonly path: "/v1/webhooks/{id}/test";
    };
    readonly rotateWebhookSecret: {
        readonly method: "POST";
        readonly path: "/v1/webhooks/{id}/rotate-secret";
    };
    readonly resendWebhookDelivery: {
        readonly method: "POST";
        readonly path: "/v1/webhooks/{id}/deliveries/{delivery_id}/resend";
    };
    readonly listWebhookDeliveries: {
        readonly method: "GET";
        readonly path: "/v1/webhooks/{id}/deliveries";
    };
    readonly listPlatforms: {
        readonly method: "GET";
        readonly path: "/v1/platforms";
    };
    readonly listAccounts: {
        readonly method: "GET";
        readonly path: "/v1/accounts";
    };
    readonly createAccount: {
        readonly method: "POST";
        readonly path: "/v1/accounts";
    };
    readonly getAccount: {
        readonly method: "GET";
        readonly path: "/v1/accounts/{id}";
    };
    readonly updateAccount: {
        readonly method: "PATCH";
        readonly path: "/v1/accounts/{id}";
    };
    readonly deleteAccount: {
        readonly method: "DELETE";
        readonly path: "/v1/accounts/{id}";
    };
    readonly connectAccount: {
        readonly method: "POST";
        readonly path: "/v1/accounts/{id}/connections";
    };
    readonly disconnectAccount: {
        readonly method: "DELETE";
        readonly path: "/v1/accounts/{id}/connections/{platform}";
    };
    readonly getQueue: {
        readonly method: "GET";
        readonly path: "/v1/accounts/{id}/queue";
    };
    readonly setQueue: {
        readonly method: "PUT";
        readonly path: "/v1/accounts/{id}/queue";
    };
    readonly listPosts: {
        readonly method: "GET";
        readonly path: "/v1/posts";
    };
    readonly createPost: {
        readonly method: "POST";
        readonly path: "/v1/posts";
    };
    readonly validatePost: {
        readonly method: "POST";
        readonly path: "/v1/posts/validate";
    };
    readonly createPosts: {
        readonly method: "POST";
        readonly path: "/v1/posts/bulk";
    };
    readonly getPost: {
        readonly method: "GET";
        readonly path: "/v1/posts/{id}";
    };
    readonly updatePost: {
        readonly method: "PUT";
        readonly path: "/v1/posts/{id}";
    };
    readonly cancelPost: {
        readonly method: "DELETE";
        readonly path: "/v1/posts/{id}";
    };
    readonly schedulePost: {
        readonly method: "POST";
        readonly path: "/v1/posts/{id}/schedule";
    };
    readonly retryPost: {
        readonly method: "POST";
        readonly path: "/v1/posts/{id}/retry";
    };
    readonly uploadMedia: {
        readonly method: "POST";
        readonly path: "/v1/media";
    };
    readonly listMedia: {
        readonly method: "GET";
        readonly path: "/v1/media";
    };
    readonly getMedia: {
        readonly method: "GET";
        readonly path: "/v1/media/{id}";
    };
    readonly updateMedia: {
        readonly method: "PATCH";
        readonly path: "/v1/media/{id}";
    };
    readonly deleteMedia: {
        readonly method: "DELETE";
        readonly path: "/v1/media/{id}";
    };
    readonly getMediaFile: {
        readonly method: "GET";
        readonly path: "/media/{file}";
    };
    readonly getRssFeed: {
        readonly method: "GET";
        readonly path: "/feeds/{account_id}.rss";
    };
    readonly getAtomFeed: {
        readonly method: "GET";
        readonly path: "/feeds/{account_id}.atom";
    };
    readonly getHtmlFeed: {
        readonly method: "GET";
        readonly path: "/feeds/{account_id}.html";
    };
    readonly getJsonFeed: {
        readonly method: "GET";
        readonly path: "/feeds/{account_id}.json";
    };
    readonly getAnalytics: {
        readonly method: "GET";
        readonly path: "/v1/analytics";
    };
    readonly listWorkspaces: {
        readonly method: "GET";
        readonly path: "/v1/workspaces";
    };
    readonly createWorkspace: {
        readonly method: "POST";
        readonly path: "/v1/workspaces";
    };
    readonly getWorkspace: {
        readonly method: "GET";
        readonly path: "/v1/workspaces/{id}";
    };
    readonly updateWorkspace: {
        readonly method: "PATCH";
        readonly path: "/v1/workspaces/{id}";
    };
    readonly deleteWorkspace: {
        readonly method: "DELETE";
        readonly path: "/v1/workspaces/{id}";
    };
    readonly listMembers: {
        readonly method: "GET";
        readonly path: "/v1/workspaces/{id}/members";
    };
    readonly addMember: {
        readonly method: "POST";
        readonly path: "/v1/workspaces/{id}/members";
    };
    readonly updateMember: {
        readonly method: "PATCH";
        readonly path: "/v1/workspaces/{id}/members/{user_id}";
    };
    readonly removeMember: {
        readonly method: "DELETE";
        readonly path: "/v1/workspaces/{id}/members/{user_id}";
    };
    readonly approvePost: {
        readonly method: "POST";
        readonly path: "/v1/posts/{id}/approve";
    };
    readonly rejectPost: {
        readonly method: "POST";
        readonly path: "/v1/posts/{id}/reject";
    };
    readonly listComments: {
        readonly method: "GET";
        readonly path: "/v1/posts/{id}/comments";
    };
    readonly addComment: {
        readonly method: "POST";
        readonly path: "/v1/posts/{id}/comments";
    };
    readonly getAuditLog: {
        readonly method: "GET";
        readonly path: "/v1/workspaces/{id}/audit-log";
    };
    readonly createReviewLink: {
        readonly method: "POST";
        readonly path: "/v1/posts/{id}/review-links";
    };
    readonly listReviewLinks: {
        readonly method: "GET";
        readonly path: "/v1/posts/{id}/review-links";
    };
    readonly revokeReviewLink: {
        readonly method: "DELETE";
        readonly path: "/v1/posts/{id}/review-links/{link_id}";
    };
};
