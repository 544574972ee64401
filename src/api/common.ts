import * as v from 'valibot'
import { decodeCursor } from '../pagination.js'
import { isRfc3339, parseRfc3339, toIso } from '../time.js'

/** Every scope a key can hold. A key created without a list holds them all. */
export const SCOPES = [
  'profile:read',
  'profile:write',
  'accounts:read',
  'accounts:write',
  'posts:read',
  'posts:write',
  'media:read',
  'media:write',
  'analytics:read',
  'ai:generate',
  'webhooks:read',
  'webhooks:write',
  'keys:write',
  'workspaces:read',
  'workspaces:write',
  'posts:approve',
] as const
export type Scope = (typeof SCOPES)[number]

/** Every platform smm can publish to (the API's names for them). */
export const PLATFORM_NAMES = ['feed', 'mastodon', 'bluesky', 'telegram', 'discord', 'slack', 'x', 'linkedin', 'threads', 'facebook', 'instagram'] as const
export type PlatformName = (typeof PLATFORM_NAMES)[number]

/** The platforms connected through an operator's OAuth app (`SMM_PLATFORM_<NAME>_CLIENT_ID`…), not with credentials. */
export const OAUTH_PLATFORM_NAMES = ['x', 'linkedin', 'threads', 'facebook', 'instagram'] as const satisfies readonly PlatformName[]

export const PLANS = ['standard', 'business', 'enterprise'] as const
export type Plan = (typeof PLANS)[number]

/**
 * For single-line text (names, descriptions): no control characters (C0 with tab, newline and NUL,
 * DEL, C1). They would reach terminals through the CLI's tables as line breaks or escape sequences.
 */
export const singleLine = () => v.regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, 'must be one line of text, without control characters (newline, tab, NUL, escape)')

/**
 * An array whose items all differ (by `key`, the item itself by default), as two pipe actions:
 * the check, and `uniqueItems` for the document (which compares whole items: where `key` is a
 * part of one, the server is the stricter).
 */
export function distinct<T>(message: string, key: (item: T) => unknown = (item) => item) {
  return [v.check((list: T[]) => new Set(list.map(key)).size === list.length, message), v.metadata<T[], { uniqueItems: true }>({ uniqueItems: true })] as const
}

/** The name of a user, an account or a key: one line, 1 to 100 characters once trimmed. */
export const Name = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100, 'must be at most 100 characters'), singleLine())

/**
 * An `Idempotency-Key` header as sent: 1 to 255 printable ASCII characters (RFC 9110's VCHAR and
 * space), not only spaces, bare or in double quotes. The daemon checks it and the document states it.
 */
export const IdempotencyKey = v.pipe(
  v.string(),
  v.regex(/^(?!"? *"?$)(?:"[\x20-\x7e]{1,255}"|[\x20-\x7e]{1,255})$/, 'must be 1 to 255 printable ASCII characters, bare or in double quotes'),
  v.description('Makes the request safe to retry: the first response is replayed for 24 h.'),
)

/** A timestamp as the API writes it: RFC 3339, UTC, `Z`. */
export const Timestamp = v.pipe(v.string(), v.isoTimestamp(), v.description('RFC 3339 date-time in UTC, e.g. 2026-11-21T09:00:00.000Z'))
export const NullableTimestamp = v.nullable(Timestamp)

/**
 * A timestamp as the API reads it: RFC 3339 with `Z` or an offset, normalised to UTC, and said
 * in the document as `format: date-time` with what the field means (`description`): the
 * document describes a field up to its first transformation, so both come before it.
 * A time with no zone is rejected: "09:00" means something different on every server.
 */
export function timestampInput(description = 'RFC 3339 date-time with Z or an offset; converted to UTC') {
  return v.pipe(
    v.string(),
    v.check(isRfc3339, 'must be an RFC 3339 date-time with a zone, e.g. 2026-11-21T09:00:00Z or 2026-11-21T10:00:00+01:00'),
    v.metadata({ format: 'date-time' }),
    v.description(description),
    v.transform((value) => toIso(parseRfc3339(value)!)),
  )
}
export const TimestampInput = timestampInput()

export const ProblemFieldError = v.object({
  pointer: v.string(),
  code: v.string(),
  detail: v.string(),
})

/** RFC 9457 problem details, the body of every error response. */
export const Problem = v.pipe(
  v.object({
    type: v.string(),
    title: v.string(),
    status: v.pipe(v.number(), v.integer()),
    detail: v.string(),
    instance: v.optional(v.string()),
    code: v.string(),
    errors: v.optional(v.array(ProblemFieldError)),
  }),
  v.title('Problem'),
)

/** The envelope of every list: a page of items, and the cursor of the next page. */
export function listOf<S extends v.GenericSchema>(item: S) {
  return v.object({
    data: v.array(item),
    has_more: v.boolean(),
    next_cursor: v.nullable(v.string()),
  })
}

/** `?limit=1..100` (default 20) and `?cursor=`, shared by every list. */
export const PageQueryEntries = {
  // A pattern, not a number's bounds after a transform: the document can state it.
  limit: v.optional(v.pipe(v.string(), v.regex(/^0*(?:[1-9]\d?|100)$/, 'must be a whole number from 1 to 100'), v.transform(Number)), '20'),
  cursor: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[\w-]+$/, 'is not a cursor from a previous page of this list'),
      v.check((c) => decodeCursor(c) !== undefined, 'is not a cursor from a previous page of this list'),
      v.description('The next_cursor of the previous page'),
      v.transform((c) => decodeCursor(c)!),
    ),
  ),
}

/** `{id}` in a path. */
export const IdParams = v.object({ id: v.string() })
