import * as v from 'valibot'
import { listOf, PLATFORM_NAMES } from './common.js'
import { route } from './route.js'

/**
 * How a platform counts a "character": user-perceived characters (`graphemes`), Unicode
 * `code_points`, UTF-16 units (`utf16`, what JavaScript's length and Telegram count), or
 * Mastodon's way (graphemes, each link as `url_length`, a remote mention by its username only).
 */
export const TEXT_COUNTS = ['graphemes', 'code_points', 'utf16', 'mastodon', 'x_weighted', 'threads'] as const
export type TextCount = (typeof TEXT_COUNTS)[number]

const Count = (description: string) => v.pipe(v.number(), v.integer(), v.minValue(0), v.description(description))

/** A platform's text rules: its limit, counted its own way. */
export const TextLimits = v.object({
  max: Count('The most characters a post may have, counted as `count` says'),
  count: v.pipe(v.picklist(TEXT_COUNTS), v.description('How a character is counted: graphemes, code_points, utf16 (UTF-16 units), mastodon (graphemes, each link as url_length, a remote mention by its username), x_weighted (X\'s weighted count: most scripts 1, CJK and emoji 2, each link 23), or threads (graphemes, an emoji counting as its UTF-8 bytes)')),
  caption_max: v.optional(v.nullable(Count('The limit when the post has media (the text is then a caption); null: max applies')), null),
  url_length: v.optional(v.nullable(Count('Every link counts this many characters, however long it is; null: links count as written')), null),
  max_bytes: v.optional(v.nullable(Count('A second limit, in bytes of UTF-8, that binds on text of long multi-byte characters; null: none')), null),
  media_links: v.optional(v.pipe(v.boolean(), v.description('true: the media URLs are sent in the text, one a line, and count toward max')), false),
})
/** As a module declares it (the fields it does not need left out); the API answers every field. */
export type TextLimits = v.InferInput<typeof TextLimits>

const Ratio = (description: string) => v.optional(v.nullable(v.pipe(v.number(), v.minValue(0), v.description(description))), null)
const Bound = (description: string) => v.optional(v.nullable(Count(description)), null)

/** What one kind of uploaded media (images, or videos) must be to go to a platform; null in a field: no such rule. */
export const MediaKindRules = v.pipe(
  v.object({
    types: v.pipe(v.array(v.string()), v.description('The content types of this kind the platform takes')),
    max: Bound('The most of this kind one post may have'),
    max_bytes: Bound('The largest file'),
    max_bytes_by_type: v.optional(
      v.pipe(
        v.nullable(v.record(v.string(), Count('Bytes'))),
        v.description('The largest file of a type that has a limit of its own, by type (X: {"image/gif": 15728640}, against 5 MB for its other images); null: max_bytes for every type'),
      ),
      null,
    ),
    min_width: Bound('Pixels across, at least'),
    max_width: Bound('Pixels across, at most'),
    min_height: Bound('Pixels down, at least'),
    max_height: Bound('Pixels down, at most'),
    max_pixels: Bound('Width times height, at most'),
    min_aspect_ratio: Ratio('Width divided by height, at least (0.8 is 4:5)'),
    max_aspect_ratio: Ratio('Width divided by height, at most (1.91 is 1.91:1)'),
    min_duration_ms: Bound('A video’s length, at least'),
    max_duration_ms: Bound('A video’s length, at most'),
    alt_text: v.optional(
      v.pipe(v.boolean(), v.description('false: the platform keeps no alt text for this kind, though it does for others (X and Instagram videos); alt text given is not sent, and validation says so')),
      true,
    ),
  }),
  v.title('MediaKindRules'),
)
export type MediaKindRules = v.InferInput<typeof MediaKindRules>

/** How a platform gets uploaded media: their bytes by its upload API, their public URL for it to fetch, or a link in the text. */
export const MEDIA_DELIVERIES = ['upload', 'url', 'link'] as const

/** A platform's media rules. */
export const MediaLimits = v.object({
  max: v.pipe(v.nullable(Count('The most media URLs a post may have')), v.description('The most media items (media_urls and uploaded media together) a post may have; null when smm enforces none')),
  required: v.optional(v.pipe(v.boolean(), v.description('true: a post without media is refused')), false),
  types: v.optional(v.pipe(v.nullable(v.array(v.string())), v.description('The media types the platform takes (checked when the media is fetched at publish time); null: any the platform links to')), null),
  image: v.optional(v.pipe(v.nullable(MediaKindRules), v.description('What an uploaded image must be; null: the platform takes no images')), null),
  video: v.optional(v.pipe(v.nullable(MediaKindRules), v.description('What an uploaded video must be; null: the platform takes no videos')), null),
  mixed: v.optional(v.pipe(v.boolean(), v.description('false: one post holds images or a video, not both')), true),
  alt_text_max: v.optional(v.pipe(v.nullable(Count('Characters')), v.description('The longest alt text the platform keeps; null: it has no alt text (what is given is not sent, and validation says so)')), null),
  send: v.optional(
    v.pipe(
      v.picklist(MEDIA_DELIVERIES),
      v.description("How uploaded media reach the platform: upload (their bytes, by its upload API), url (it fetches their public URL, which must then be reachable from the internet), link (their URL goes in the text)"),
    ),
    'upload',
  ),
})
export type MediaLimits = v.InferInput<typeof MediaLimits>

/**
 * What a platform allows in one post, declared once by its module: the validator checks posts
 * against it, the AI writes under it, and clients (the calendar's form) count with it. A
 * connection may have its own (a Mastodon instance's limit); these are the defaults.
 */
export const PlatformLimits = v.pipe(v.object({ text: TextLimits, media: MediaLimits }), v.title('PlatformLimits'))
/** Limits as a module declares them: what it does not need left out. */
export type PlatformLimits = v.InferInput<typeof PlatformLimits>
/** Limits as the API answers them: every field, null where a rule does not apply. */
export type PlatformLimitsOutput = v.InferOutput<typeof PlatformLimits>

export const PLATFORM_AUTH = ['credentials', 'oauth2'] as const

/** A platform this daemon publishes to, how it is connected and what a post on it may hold. */
export const PlatformInfo = v.pipe(
  v.object({
    name: v.picklist(PLATFORM_NAMES),
    label: v.pipe(v.string(), v.description('Its name for people: "Mastodon", "X"')),
    auth: v.pipe(v.picklist(PLATFORM_AUTH), v.description('credentials: the connect call takes them; oauth2: the person approves in their browser')),
    credentials: v.pipe(v.array(v.string()), v.description('The credential fields POST /v1/accounts/{id}/connections takes (empty for oauth2 and feed)')),
    limits: PlatformLimits,
    thread: v.pipe(
      v.picklist(['replies', 'consecutive']),
      v.description("How a post's thread parts go out: replies, each a reply to the part before (a thread as the platform shows one); consecutive, posts or messages one after another"),
    ),
    first_comment: v.pipe(
      v.nullable(v.picklist(['reply', 'comment'])),
      v.description('How a first comment goes out: a reply to the post, or a comment on it; null: the platform has neither, and a post with a first_comment for it is refused'),
    ),
    uploads_media: v.pipe(
      v.boolean(),
      v.description('true: this daemon publishes uploaded media (`media` of a post) to the platform, as limits.media.send says; false: not yet, and a post with uploaded media for it is refused (media_urls still work)'),
    ),
  }),
  v.title('Platform'),
)
export type PlatformInfo = v.InferOutput<typeof PlatformInfo>

export const platformRoutes = {
  listPlatforms: route({
    method: 'GET',
    path: '/v1/platforms',
    summary: 'List the platforms this daemon publishes to: how each connects and its limits',
    description: "Every platform this daemon has, in a fixed order, on one page (there are few: `has_more` is false). A connection may have limits of its own (a Mastodon instance's); these are the platform's defaults.",
    tag: 'platforms',
    scope: 'accounts:read',
    status: 200,
    response: listOf(PlatformInfo),
  }),
}
