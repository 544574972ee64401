import { IdParams } from './common.js'
import { route, type HeaderDoc } from './route.js'

/** The tus protocol version smm speaks, the only one (https://tus.io/protocols/resumable-upload). */
export const TUS_VERSION = '1.0.0'

/** The tus extensions smm implements. */
export const TUS_EXTENSIONS = ['creation', 'termination', 'expiration'] as const

/** Where tus uploads are created; each upload's URL is under it. */
export const UPLOADS_PATH = '/v1/uploads'

/** The header a finished upload's answers name its media in. */
export const MEDIA_ID_HEADER = 'Smm-Media-Id'

const tusResumable: HeaderDoc = { description: `The tus version of the request: \`${TUS_VERSION}\`, else 412`, required: true }
const answeredResumable: Record<string, HeaderDoc> = { 'Tus-Resumable': { description: `\`${TUS_VERSION}\`, on every answer`, required: true } }
const expires: HeaderDoc = { description: 'When the upload expires (RFC 9110 date): past it, an unfinished upload is removed', required: true }
const offset = (description: string): HeaderDoc => ({ description, required: true, type: 'integer' })
const mediaId: HeaderDoc = { description: 'The media the upload made (`med_…`), once its last byte has arrived and checked out' }

const unsupportedVersion = `\`unsupported_tus_version\`: Tus-Resumable is missing or not ${TUS_VERSION} (Tus-Version says which versions are spoken)`

/**
 * tus 1.0 resumable uploads (core, creation, termination, expiration): for large files and
 * unreliable links, sent in as many PATCHes as it takes, each resuming at the offset the upload
 * reached. Any tus client speaks them; the bytes go through the same checks as POST /v1/media.
 */
export const uploadRoutes = {
  describeUploads: route({
    method: 'OPTIONS',
    path: UPLOADS_PATH,
    summary: 'What this server speaks of tus: its versions, extensions and largest upload',
    tag: 'media',
    scope: 'media:write',
    protocol: 'tus',
    status: 204,
    responseHeaders: {
      ...answeredResumable,
      'Tus-Version': { description: `The tus versions spoken: \`${TUS_VERSION}\``, required: true },
      'Tus-Extension': { description: `The extensions spoken: \`${TUS_EXTENSIONS.join(',')}\``, required: true },
      'Tus-Max-Size': { description: 'The largest upload this daemon takes, in bytes (a video’s limit; an image’s is lower)', required: true, type: 'integer' },
    },
  }),
  createUpload: route({
    method: 'POST',
    path: UPLOADS_PATH,
    summary: 'Start a resumable upload (tus creation): its length and type now, its bytes by PATCH',
    description:
      'Upload-Metadata carries `content_type` (one of the types POST /v1/media takes) and optionally `alt_text`, each value base64 as tus writes them. The length is checked against the limit for its type and reserved against your plan’s storage at once. The answer’s Location is the upload’s URL.',
    tag: 'media',
    scope: 'media:write',
    protocol: 'tus',
    requestHeaders: {
      'Tus-Resumable': tusResumable,
      'Upload-Length': { description: 'The size of the whole file in bytes (deferring it is not supported)', required: true, type: 'integer' },
      'Upload-Metadata': { description: '`content_type <base64>` and optionally `,alt_text <base64>`', required: true },
    },
    status: 201,
    responseHeaders: { ...answeredResumable, 'Upload-Expires': expires },
    problems: {
      400: '`invalid_upload_length`: Upload-Length is missing or not a whole number of bytes; `invalid_upload_metadata`: Upload-Metadata is not tus’s `key base64,…`, or names a key smm does not take',
      412: unsupportedVersion,
      413: '`media_too_large`: the length is over the limit for its kind (the limit is named); `media_quota_exceeded`: it does not fit in your plan’s storage (the figures are given)',
      415: '`unsupported_media_type`: `content_type` is missing or not one of the types smm takes',
      422: '`media_empty`: Upload-Length is 0; `validation_error`: the alt text is too long',
    },
  }),
  getUpload: route({
    method: 'HEAD',
    path: `${UPLOADS_PATH}/{id}`,
    summary: 'Where an upload is (tus core): the offset to resume at, its length and metadata',
    tag: 'media',
    scope: 'media:write',
    protocol: 'tus',
    params: IdParams,
    requestHeaders: { 'Tus-Resumable': tusResumable },
    status: 200,
    responseHeaders: {
      ...answeredResumable,
      'Upload-Offset': offset('The bytes stored so far: the next PATCH starts there; the length once the upload is finished'),
      'Upload-Length': offset('The size of the whole file'),
      'Upload-Metadata': { description: 'The upload’s `content_type` and `alt_text`, as tus writes them', required: true },
      'Upload-Expires': expires,
      [MEDIA_ID_HEADER]: mediaId,
    },
    problems: { 404: 'No such upload, or not yours, or terminated or expired', 412: unsupportedVersion },
  }),
  appendUpload: route({
    method: 'PATCH',
    path: `${UPLOADS_PATH}/{id}`,
    summary: 'Send bytes of an upload from its offset (tus core); the last ones make the media',
    description:
      'The body is the next bytes of the file, as many as the client likes, from Upload-Offset, which must be where the upload is (HEAD says). A connection that breaks keeps what arrived: ask HEAD for the offset and resume from there. When the last byte arrives the whole file is checked as POST /v1/media checks it, and the answer names the media in Smm-Media-Id. Several daemons may take successive PATCHes of one upload.',
    tag: 'media',
    scope: 'media:write',
    protocol: 'tus',
    params: IdParams,
    rawBody: { types: ['application/offset+octet-stream'], description: 'The next bytes of the file, from Upload-Offset' },
    requestHeaders: { 'Tus-Resumable': tusResumable, 'Upload-Offset': offset('Where these bytes start: where the upload is') },
    status: 204,
    responseHeaders: { ...answeredResumable, 'Upload-Offset': offset('Where the upload is now'), 'Upload-Expires': expires, [MEDIA_ID_HEADER]: mediaId },
    problems: {
      400: '`invalid_upload_offset`: Upload-Offset is missing or not a whole number',
      404: 'No such upload, or not yours, or terminated or expired',
      409: '`upload_offset_mismatch`: Upload-Offset is not where the upload is (the answer’s Upload-Offset is): ask HEAD and resume from there',
      412: unsupportedVersion,
      413: '`upload_too_long`: more bytes than the upload’s length leaves',
      415: '`unsupported_media_type`: the body is not sent as application/offset+octet-stream',
      422: '`media_type_mismatch`, `media_unreadable`: the file is not what its content_type says, or is damaged (the upload is terminated)',
      423: '`upload_busy`: another request is writing to this upload; retry in a moment',
    },
  }),
  terminateUpload: route({
    method: 'DELETE',
    path: `${UPLOADS_PATH}/{id}`,
    summary: 'Terminate an upload (tus termination): an unfinished one’s bytes are removed and its storage given back',
    description: 'Its URL answers 404 from then on. A finished upload’s media stays: delete it with DELETE /v1/media/{id}.',
    tag: 'media',
    scope: 'media:write',
    protocol: 'tus',
    params: IdParams,
    requestHeaders: { 'Tus-Resumable': tusResumable },
    status: 204,
    responseHeaders: answeredResumable,
    problems: { 404: 'No such upload, or not yours, or already terminated or expired', 412: unsupportedVersion },
  }),
}
