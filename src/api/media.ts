import * as v from 'valibot'
import { IdParams, listOf, PageQueryEntries, Timestamp } from './common.js'
import { route } from './route.js'

/** The types a media object may have: what platforms take and the bytes can be checked as. */
export const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'video/quicktime'] as const
export type MediaType = (typeof MEDIA_TYPES)[number]

/** Whether a type is one smm takes. */
export const isMediaType = (type: string): type is MediaType => (MEDIA_TYPES as readonly string[]).includes(type)

/** Names a sniffer (file-type) gives that are one of our types under another name. */
const SAME_TYPE: Record<string, MediaType> = { 'image/apng': 'image/png', 'video/x-m4v': 'video/mp4' }

/** A sniffed type as smm names it: one of MEDIA_TYPES when it is one under another name. */
export const mediaTypeOf = (sniffed: string): string => SAME_TYPE[sniffed] ?? sniffed

/** The types smm takes, in words, for a message that says what to use instead. */
export const MEDIA_TYPES_IN_WORDS = 'JPEG, PNG, GIF and WebP images, MP4 and QuickTime (.mov) videos'

/** The file name extension a media URL ends in, by type. */
export const MEDIA_EXTENSIONS: Record<MediaType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
}

/** The longest alt text smm keeps; each platform's own (shorter) limit is checked where a post goes. */
export const MAX_ALT_TEXT = 5_000

export const AltText = v.pipe(v.string(), v.maxLength(MAX_ALT_TEXT, `must be at most ${MAX_ALT_TEXT} characters`))

const Count = (description: string) => v.pipe(v.number(), v.integer(), v.description(description))

/** A file a user uploaded: an image or a video smm keeps and serves. */
export const Media = v.pipe(
  v.object({
    id: v.string(),
    content_type: v.pipe(v.picklist(MEDIA_TYPES), v.description('The type, as checked against the bytes')),
    bytes: Count('Its size in bytes'),
    sha256: v.pipe(v.string(), v.description('SHA-256 of the bytes, hex')),
    width: v.pipe(v.nullable(Count('Pixels')), v.description('Pixels across; null where it could not be read')),
    height: v.pipe(v.nullable(Count('Pixels')), v.description('Pixels down; null where it could not be read')),
    duration_ms: v.pipe(v.nullable(Count('Milliseconds')), v.description('A video’s length; null for an image')),
    alt_text: v.pipe(v.nullable(v.string()), v.description('The description read to people who cannot see it; a post may give its own')),
    url: v.pipe(
      v.string(),
      v.description('Where anyone with the link can fetch it, without a key (`<public-url>/media/<token>.<ext>`, the token unguessable): what platforms that fetch media and feed readers are given. It answers 404 once the media is deleted.'),
    ),
    created_at: Timestamp,
  }),
  v.title('Media'),
)
export type Media = v.InferOutput<typeof Media>

export const MediaUpdate = v.strictObject({
  alt_text: v.pipe(v.nullable(AltText), v.description('The new alt text; null removes it')),
})
export type MediaUpdate = v.InferOutput<typeof MediaUpdate>

export const MediaListQuery = v.strictObject({ ...PageQueryEntries })

/** The file part of a public media URL: the token and the extension. */
export const MediaFileParams = v.object({ file: v.string() })

/** How long caches may keep a media file: its bytes never change, and a deleted one's URL answers 404 once they let go. */
export const MEDIA_CACHE_CONTROL = 'public, max-age=86400'

export const mediaRoutes = {
  uploadMedia: route({
    method: 'POST',
    path: '/v1/media',
    summary: 'Upload an image or a video: the raw bytes as the body, with their Content-Type',
    description:
      'The body is the file itself (not JSON, not multipart), streamed to storage and hashed on the way. Its type is read from the bytes: a body that is not what its Content-Type says is 422 `media_type_mismatch`; any type but JPEG, PNG, GIF, WebP, MP4 and QuickTime is 415 `unsupported_media_type`.',
    tag: 'media',
    scope: 'media:write',
    query: v.strictObject({ alt_text: v.optional(v.pipe(AltText, v.description('Its alt text (PATCH /v1/media/{id} changes it later)'))) }),
    rawBody: { types: [...MEDIA_TYPES], description: 'The bytes of the file' },
    status: 201,
    response: Media,
    problems: {
      413: '`media_too_large`: over the limit for its kind (the limit is named); `media_quota_exceeded`: over the storage your plan allows (the figures are given)',
      415: '`unsupported_media_type`: not one of the types smm takes, or no Content-Type',
      422: '`media_type_mismatch`: the bytes are not what Content-Type says; `media_empty`: no bytes; `media_unreadable`: a truncated or damaged file',
    },
  }),
  listMedia: route({
    method: 'GET',
    path: '/v1/media',
    summary: 'List your media, newest first',
    tag: 'media',
    scope: 'media:read',
    query: MediaListQuery,
    status: 200,
    response: listOf(Media),
  }),
  getMedia: route({
    method: 'GET',
    path: '/v1/media/{id}',
    summary: 'Get one media object',
    tag: 'media',
    scope: 'media:read',
    params: IdParams,
    status: 200,
    response: Media,
  }),
  updateMedia: route({
    method: 'PATCH',
    path: '/v1/media/{id}',
    summary: 'Change a media object’s alt text',
    tag: 'media',
    scope: 'media:write',
    params: IdParams,
    body: MediaUpdate,
    status: 200,
    response: Media,
  }),
  deleteMedia: route({
    method: 'DELETE',
    path: '/v1/media/{id}',
    summary: 'Delete a media object; 409 media_in_use while a draft, scheduled or publishing post uses it',
    description: 'Its URL answers 404 at once and its bytes are removed. Published posts keep what the platforms received.',
    tag: 'media',
    scope: 'media:write',
    params: IdParams,
    status: 204,
    problems: { 409: '`media_in_use`: a draft, scheduled or publishing post uses it (the posts are named): remove it from them, or cancel them, first' },
  }),
  getMediaFile: route({
    method: 'GET',
    path: '/media/{file}',
    summary: 'The bytes of a media object, by the capability URL in its `url` (no key needed)',
    description:
      'Served with its Content-Type, `X-Content-Type-Options: nosniff`, `Content-Disposition: inline`, an ETag (its SHA-256) and Cache-Control; `Range` answers 206 with the bytes asked for. A deleted media’s URL answers 404.',
    tag: 'media',
    params: MediaFileParams,
    status: 200,
    response: v.string(),
    produces: [...MEDIA_TYPES],
    cacheControl: MEDIA_CACHE_CONTROL,
    problems: { 416: '`range_not_satisfiable`: the Range asked for starts past the end of the file (Content-Range says its size)' },
  }),
}
