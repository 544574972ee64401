import type { Logger } from 'pino'
import type * as v from 'valibot'
import type { FieldError } from '../../src/errors.js'
import type { Clock } from '../../src/time.js'
import type { HttpClient } from '../egress.js'

import type { Readable } from 'node:stream'
import type { PlatformName } from '../../src/api/common.js'
import type { MediaType } from '../../src/api/media.js'
import type { PlatformLimits } from '../../src/api/platforms.js'

export { PLATFORM_NAMES, type PlatformName } from '../../src/api/common.js'
export type { PlatformLimits, TextLimits, MediaLimits, MediaKindRules } from '../../src/api/platforms.js'

/** What a platform module is given to do its work. */
export interface PlatformContext {
  /** Outbound HTTP through the egress policy (user-supplied URLs are never trusted). */
  http: HttpClient
  clock: Clock
  log: Logger
  /**
   * For an OAuth platform: the operator's app and the endpoints in force (the platform's own or
   * the operator's overrides). Absent for platforms that take credentials.
   */
  app?: OAuthApp
}

/** An uploaded media of a post, as far as a platform's rules are concerned: what its bytes are. */
export interface DraftMedia {
  content_type: MediaType
  bytes: number
  width: number | null
  height: number | null
  /** A video's length; null for an image. */
  duration_ms: number | null
  /** The alt text it goes out with (the post's, else the media's own). */
  alt_text: string | null
}

/** What a post is, as far as a platform's rules are concerned. */
export interface Draft {
  content: string
  media_urls: string[]
  /** Uploaded media, in order, after the media URLs; absent: none. */
  media?: DraftMedia[]
}

/**
 * An uploaded media as `publish` gets it: what it is, and how to reach its bytes. A module whose
 * `limits.media.send` is `upload` streams `open()` to the platform's upload API (with
 * `contentType`, `bytes` and `filename` for its multipart part or INIT call); one whose send is
 * `url` hands the platform `url` to fetch; `link` puts `url` in the text. Its rules were checked
 * at validation; the bytes are whole and of this type.
 */
export interface MediaAttachment extends DraftMedia {
  /** `med_…`: stable across attempts, a seed for a platform's own idempotency where it has one. */
  id: string
  /** SHA-256 of the bytes, hex. */
  sha256: string
  /** A file name to send with the bytes: `<id>.<ext>`. */
  filename: string
  kind: 'image' | 'video'
  /** Its public capability URL (`<public-url>/media/<token>.<ext>`), served by this daemon without a key. */
  url: string
  /** Opens the bytes (or `range`, both ends included) as a stream; each call is a new stream. */
  open(range?: { start: number; end: number }): Promise<Readable>
}

/** A stored connection with its decrypted credentials, as a platform module sees it. */
export interface Connection {
  accountId: string
  platform: PlatformName
  credentials: Record<string, unknown>
  /** What `verify` learned and asked to keep: limits of a Mastodon instance, a Bluesky DID… */
  settings: Record<string, unknown>
  handle: string
}

/** The result of checking credentials with the platform. */
export interface Verified {
  handle: string
  display_name: string
  /** Kept with the connection and handed back as `Connection.settings`. */
  settings: Record<string, unknown>
  /** Credentials to store instead of the ones given (a refreshed session, say). */
  credentials?: Record<string, unknown>
}

/** A part that is out, as a later part replying to it needs it. */
export interface PartRef {
  platform_post_id: string | null
  /** What `Published.ref` said of it (a Bluesky record's CID); null if nothing. */
  ref: string | null
}

/** A part after the post itself: what it is and what it follows. */
export interface FollowUp {
  /** Its index among the target's parts (1 and on): with the post id, the seed of its own key. */
  index: number
  kind: 'first_comment' | 'thread'
  /** The post itself (part 0). */
  root: PartRef
  /** What this part replies to where the platform chains replies: the post for a first comment and the first thread part, else the thread part before. */
  parent: PartRef
}

export interface PublishRequest {
  /** Our post id (`pst_…`): the seed of a platform idempotency key or record key. */
  postId: string
  content: string
  mediaUrls: string[]
  /**
   * Uploaded media, in order after `mediaUrls` (the platform's limits count both); absent or empty:
   * none. Only a module that declares `uploadsMedia` gets any: validation refuses uploaded media
   * for a platform that does not.
   */
  media?: MediaAttachment[]
  /** Absent for the post itself; set for a first comment or a thread part. */
  followUp?: FollowUp
}

export interface Published {
  /** The platform's id of the published item; null where the platform returns none (Slack). */
  platform_post_id: string | null
  /** The public URL; null where the platform gives none. */
  url: string | null
  /** What a later part needs to reply to this one beyond its id (a Bluesky record's CID). */
  ref?: string
  /** Credentials to store from now on, when publishing changed them (a refreshed session). */
  credentials?: Record<string, unknown>
}

/** Engagement counts; a count the platform does not report is null, never 0. */
export interface Metrics {
  impressions: number | null
  likes: number | null
  reposts: number | null
  replies: number | null
  quotes: number | null
  clicks: number | null
}

/**
 * How a platform said no. `transient` is worth retrying (network, 5xx, 429 with its wait),
 * `permanent` is not (the platform rejected this post), `auth` means the credentials no longer
 * work: the connection needs the user to reconnect.
 */
export class PlatformError extends Error {
  constructor(
    readonly kind: 'transient' | 'permanent' | 'auth',
    /** A stable snake_case code, e.g. `platform_rejected`, `rate_limited`, `media_too_large`. */
    readonly code: string,
    /** What the platform said, for the target's `error.detail`. */
    detail: string,
    /** For transient errors: how long the platform asked us to wait. */
    readonly retryAfterMs?: number,
    /**
     * For transient errors: the request may have reached the platform before it failed (a
     * timeout, a connection broken after sending), so the platform may have acted on it.
     */
    readonly outcomeUnknown = false,
  ) {
    super(detail)
    this.name = 'PlatformError'
  }
}

/** A text's length as a platform counts it, against its limit. */
export interface TextMeasure {
  length: number
  limit: number
}

/**
 * An operator's app registered with an OAuth platform, and where that platform lives: the
 * platform's documented endpoints unless the operator replaced them
 * (`SMM_PLATFORM_<NAME>_AUTHORIZE_URL`, `_TOKEN_URL`, `_API_URL`).
 */
export interface OAuthApp {
  clientId: string
  clientSecret: string
  /** Where the person approves the grant. */
  authorizeUrl: string
  /** The token endpoint (code exchange and refresh). */
  tokenUrl: string
  /** The API's origin, no trailing slash; paths are appended as the platform documents them. */
  apiUrl: string
  /** `<public-url>/oauth/callback`, registered with the platform by the operator. */
  redirectUri: string
}

/**
 * What an OAuth connection keeps, sealed, as its credentials: the tokens, and whatever the
 * platform module needs to publish (a user id, a person URN, a Page's id).
 */
export interface OAuthTokens {
  access_token: string
  refresh_token?: string
  /** When the access token expires, in ms since the epoch; absent when it does not (a Page token). */
  expires_at?: number
  [extra: string]: unknown
}

/** How one platform runs the OAuth 2.0 authorization code grant (RFC 6749 section 4.1). */
export interface OAuthFlow {
  /** The platform's documented endpoints, used unless the operator overrides them. */
  endpoints: { authorizeUrl: string; tokenUrl: string; apiUrl: string }
  /** The scopes asked for, and how the platform wants them joined in `scope`. */
  scopes: readonly string[]
  scopeSeparator: ' ' | ','
  /** Whether the platform takes PKCE (RFC 7636, S256). */
  pkce: boolean
  /** Further query parameters of the authorize URL, where the platform documents some. */
  authorizeParams?: Record<string, string>
  /**
   * Exchanges the code the callback received for tokens, and learns whom they speak for: the
   * connection's credentials (a long-lived token, the Page chosen…) and identity. `options`
   * are those the connect request gave (a Facebook `page_id`, say). A refused code or grant
   * throws PlatformError of kind `auth` or `permanent`, with a detail a person can read.
   */
  exchange(
    grant: { code: string; codeVerifier?: string; options: Record<string, string> },
    ctx: PlatformContext & { app: OAuthApp },
  ): Promise<Verified & { credentials: OAuthTokens }>
  /**
   * New tokens for ones about to expire. Absent where tokens do not expire. A refresh the
   * platform refuses (a revoked grant) throws PlatformError of kind `auth`.
   */
  refresh?(tokens: OAuthTokens, ctx: PlatformContext & { app: OAuthApp }): Promise<OAuthTokens>
}

/** What every platform module declares, however it is connected. */
interface PlatformBase {
  name: PlatformName
  /** Its name for people: "Mastodon", "X", "LinkedIn". */
  label: string
  /**
   * How long after a publish request the platform still knows it, so that sending it again
   * cannot create a second item: an idempotency key's lifetime (Mastodon's hour), `Infinity`
   * for a deterministic record key, 0 where a re-send would post twice. A publish whose outcome
   * is unknown is re-sent only inside this window; past it the target becomes `unconfirmed`.
   */
  idempotencyWindowMs: number
  /**
   * How many publishes may run at once on this platform, and for one connection (one account
   * on it), on each daemon, where the scheduler's defaults (32 and 4) do not fit: a platform
   * served by the daemon itself has no one to overwhelm.
   */
  concurrency?: { perPlatform: number; perConnection: number }
  /**
   * What a post on this platform may hold, declared once: text length and how it is counted,
   * media count and types. `checkLimits` and `measureDraft` (limits.ts) enforce it, clients read
   * it from `GET /v1/platforms`. Where a connection has its own (a Mastodon instance's), these
   * are the defaults, and `measure` and `check` read the connection's from `settings`.
   */
  limits: PlatformLimits
  /**
   * Whether `publish` sends uploaded media (`request.media`), as `limits.media.send` says. Absent or
   * false: it does not yet, and validation refuses a post with uploaded media for this platform
   * rather than publish it without them.
   */
  uploadsMedia?: boolean
  /**
   * The text's length counted the platform's way and the most it allows for this draft (a
   * caption under media may be shorter): the one rule `check` enforces on length, and what
   * AI drafting aims under. `settings` as in `check` (an instance's own limit, say). Most
   * modules answer `measureDraft(limits, draft)`.
   */
  measure(draft: Draft, settings: Record<string, unknown>): TextMeasure
  /**
   * Checks a post against the platform's rules: `checkLimits` on its limits (length counted the
   * platform's way, media count), then the rules only this platform has (blank text, say).
   * Pointers are into the post body (`#/content`, `#/media_urls`); details name the platform.
   */
  check(draft: Draft, settings: Record<string, unknown>): FieldError[]
  /**
   * How the parts after the post go out: `replies`, each a reply to the part before (a thread
   * as the platform shows one), or `consecutive` posts or messages where it has no replies.
   */
  thread: 'replies' | 'consecutive'
  /**
   * How a first comment goes out: as a `reply` to the post, as a `comment` on it, or null where
   * the platform has neither (validation refuses a first comment there).
   */
  firstComment: 'reply' | 'comment' | null
  /**
   * Publishes the post, or one part after it (`request.followUp`): a reply to the part it
   * names where `thread` is `replies`, a comment where `firstComment` is `comment`.
   */
  publish(connection: Connection, request: PublishRequest, ctx: PlatformContext): Promise<Published>
  /**
   * Set by a platform whose publish is nothing but an item in the daemon's own feed store (the
   * built-in feed): what publishing the item of the post `postId` on `accountId`'s feed answers.
   * A due post of one part with no uploaded media, on such platforms only, is then claimed,
   * published and recorded by the store in one transaction (`PublishingStore.claimDue`), with
   * no attempt, lease or commit of its own: it can be neither sent twice nor lost.
   */
  inStore?(accountId: string, postId: string): Published
  /** Counts for published items, by platform id. Absent for platforms that report none. */
  metrics?(connection: Connection, platformPostIds: string[], ctx: PlatformContext): Promise<Map<string, Metrics>>
}

/** A platform connected with credentials the user gives (a token, a webhook URL), checked live. */
export interface CredentialPlatform extends PlatformBase {
  auth: 'credentials'
  /** The credentials `POST /v1/accounts/{id}/connections` takes for this platform. */
  credentials: v.GenericSchema<unknown, Record<string, unknown>>
  verify(credentials: Record<string, unknown>, ctx: PlatformContext): Promise<Verified>
}

/**
 * A platform connected by the person approving an operator's app in their browser (OAuth 2.0).
 * `publish` and `metrics` get `ctx.app`, and credentials that are `OAuthTokens` refreshed in time.
 */
export interface OAuthPlatform extends PlatformBase {
  auth: 'oauth2'
  oauth: OAuthFlow
}

/** One platform: a module behind this interface, registered by name. The scheduler knows no more. */
export type Platform = CredentialPlatform | OAuthPlatform
