import { Readable } from 'node:stream'
import { routes } from '../../src/contract.js'
import { MAX_ALT_TEXT } from '../../src/api/media.js'
import { MEDIA_ID_HEADER, TUS_EXTENSIONS, TUS_VERSION, UPLOADS_PATH } from '../../src/api/uploads.js'
import { ApiError, badRequest, invalidField, notFound } from '../../src/errors.js'
import { newId } from '../../src/ids.js'
import type { AppDeps, Ctx } from '../context.js'
import { whileStreaming } from '../heap.js'
import { inspection, isMediaType, unsupportedType, type Inspection } from '../media/ingest.js'
import { mediaKey, STREAM_AHEAD_BYTES, UploadClaimLost } from '../media/port.js'
import { patchBytes } from '../media/resumable.js'
import { limitFor } from '../media/settings.js'
import type { UploadRecord } from '../store/index.js'
import { MEDIA_GRACE_MS } from '../store/rows.js'
import { bind, type ApiRouter } from './bind.js'
import { reserveUpload, tooLarge } from './media.js'

/** A PATCH's claim on its upload: renewed while bytes keep coming, so a stalled client loses it and another request may resume. */
const CLAIM_LEASE_MS = 60_000
/** A PATCH whose claim another request took over (it stalled), or that the upload's termination ended. */
const takenOver = (id: string) =>
  new ApiError(423, 'upload_busy', `Upload ${id} was taken over by another request, or terminated, while this one was sending. Ask HEAD where it is.`)

/**
 * How many uploads' running checks a daemon keeps between PATCHes (the oldest goes first): an
 * upload without one has its bytes read once more when its last PATCH arrives.
 */
const RUNNING_CHECKS = 16

/** The type tus sends an upload's bytes as. */
const OFFSET_STREAM = 'application/offset+octet-stream'
/** The keys of Upload-Metadata smm reads. */
const METADATA_KEYS = ['content_type', 'alt_text']

/** 412 unless the request speaks the tus version smm does; every answer says which it speaks. */
function speakTus(ctx: Ctx): void {
  ctx.set('Tus-Resumable', TUS_VERSION)
  const asked = ctx.get('Tus-Resumable')
  if (asked !== TUS_VERSION) {
    throw new ApiError(412, 'unsupported_tus_version', `${asked ? `tus ${asked} is not spoken here` : 'The Tus-Resumable header is missing'}: send "Tus-Resumable: ${TUS_VERSION}".`, {
      headers: { 'Tus-Version': TUS_VERSION },
    })
  }
}

/** A header that must be a whole number of bytes; 400 `code` otherwise. */
function byteCount(ctx: Ctx, name: string, code: string): number {
  const value = ctx.get(name)
  if (!/^\d{1,15}$/.test(value)) throw badRequest(code, `${name} must be a whole number of bytes${value ? `, not "${value}"` : ': it is missing'}.`)
  return Number(value)
}

/**
 * tus's Upload-Metadata: `key base64value` pairs, comma-separated (a value may be empty, its
 * space then left out). Only smm's keys are taken: a typo must not be silently ignored.
 */
export function parseMetadata(header: string): Record<string, string> {
  const bad = (why: string) => badRequest('invalid_upload_metadata', `Upload-Metadata ${why}. It takes "content_type <base64>" and optionally ",alt_text <base64>", each value base64 as tus writes them.`)
  const out: Record<string, string> = {}
  if (header.trim() === '') return out
  for (const pair of header.split(',')) {
    const [key = '', value = '', ...rest] = pair.trim().split(' ')
    if (!key || rest.length > 0) throw bad(`holds "${pair.trim()}", which is not a key and one base64 value`)
    if (!METADATA_KEYS.includes(key)) throw bad(`names "${key}", which smm does not take`)
    if (key in out) throw bad(`names "${key}" twice`)
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) throw bad(`gives ${key} a value that is not base64`)
    try {
      out[key] = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'base64'))
    } catch {
      throw bad(`gives ${key} a value that is not UTF-8 text once decoded`)
    }
  }
  return out
}

/** An upload's type and alt text as Upload-Metadata writes them. */
const metadataOf = (upload: UploadRecord) =>
  [['content_type', upload.contentType] as const, ...(upload.altText === null ? [] : [['alt_text', upload.altText] as const])]
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',')

/** Where an upload is, on every answer about it: its offset, its expiry, and its media once made. */
function describe(ctx: Ctx, upload: UploadRecord): void {
  ctx.set('Upload-Offset', String(upload.offset))
  ctx.set('Upload-Expires', new Date(upload.expiresAt).toUTCString())
  if (upload.offset === upload.length) ctx.set(MEDIA_ID_HEADER, upload.mediaId)
}

/**
 * tus 1.0 resumable uploads (core, creation, termination, expiration) at /v1/uploads. The
 * upload's state is a store row and its bytes are in the media store, so any daemon can take the
 * next PATCH; each PATCH holds a claim on the upload (its token fences what it writes), and the
 * last one makes the media of the upload's bytes, through the same checks as POST /v1/media.
 */
export function uploadRoutes(router: ApiRouter, deps: AppDeps): void {
  const { store, clock } = deps
  const gone = (id: string) => notFound('upload', id)
  /**
   * The checks of uploads whose bytes, from the first, all went through this daemon, each with
   * the offset it has seen up to: the next PATCH at that offset goes on from there, and the last
   * one makes the media without reading its bytes again. A PATCH takes its upload's checks out
   * while it runs and puts them back once its bytes are recorded. A PATCH at any other offset
   * (its predecessor reached another daemon, or this one restarted), or one that failed, leaves
   * the upload without them, and its bytes are checked when they are whole, read back once.
   */
  const running = new Map<string, { offset: number; check: Inspection }>()
  const keepRunning = (uploadId: string, offset: number, check: Inspection) => {
    running.set(uploadId, { offset, check })
    if (running.size > RUNNING_CHECKS) running.delete(running.keys().next().value!)
  }

  bind(router, routes.describeUploads, async (ctx) => {
    ctx.set('Tus-Resumable', TUS_VERSION)
    ctx.set('Tus-Version', TUS_VERSION)
    ctx.set('Tus-Extension', TUS_EXTENSIONS.join(','))
    ctx.set('Tus-Max-Size', String(Math.max(deps.media.limits.imageBytes, deps.media.limits.videoBytes)))
    ctx.status = 204
  })

  bind(router, routes.createUpload, async (ctx, { principal }) => {
    speakTus(ctx)
    if (ctx.get('Upload-Defer-Length')) throw badRequest('invalid_upload_length', 'An upload of a length not yet known (Upload-Defer-Length) is not taken: send Upload-Length, the size of the whole file.')
    const length = byteCount(ctx, 'Upload-Length', 'invalid_upload_length')
    const metadata = parseMetadata(ctx.get('Upload-Metadata'))
    const type = metadata.content_type ?? ''
    if (!isMediaType(type)) throw unsupportedType(type)
    const altText = metadata.alt_text ?? null
    if (altText !== null && altText.length > MAX_ALT_TEXT) throw invalidField('#/alt_text', `must be at most ${MAX_ALT_TEXT} characters`, 'too_long')
    const id = newId('upl', clock.now())
    const expiresAt = clock.now() + MEDIA_GRACE_MS
    await reserveUpload(deps, principal, type, length, altText, (media, quota) => store.media.createUpload(principal.user.id, { id, length, expiresAt }, media, quota, clock.now()))
    // No body: tus clients read the headers. (A null body first, or Koa would make the 201 a 204.)
    ctx.body = null
    ctx.status = 201
    ctx.set('Location', `${UPLOADS_PATH}/${id}`)
    ctx.set('Upload-Expires', new Date(expiresAt).toUTCString())
  })

  bind(router, routes.getUpload, async (ctx, { params, principal }) => {
    speakTus(ctx)
    const upload = await store.media.getUpload(principal.user.id, params.id, clock.now())
    if (!upload) throw gone(params.id)
    describe(ctx, upload)
    ctx.set('Upload-Length', String(upload.length))
    ctx.set('Upload-Metadata', metadataOf(upload))
    ctx.status = 200
  })

  bind(router, routes.appendUpload, async (ctx, { params, principal }) => {
    speakTus(ctx)
    const sent = ctx.get('Content-Type')
    if (sent.split(';')[0]!.trim().toLowerCase() !== OFFSET_STREAM) {
      throw new ApiError(415, 'unsupported_media_type', `A PATCH sends the upload's bytes as "Content-Type: ${OFFSET_STREAM}" (got "${sent || 'none'}").`)
    }
    const offset = byteCount(ctx, 'Upload-Offset', 'invalid_upload_offset')
    const userId = principal.user.id
    const claim = await store.media.lockUpload(userId, params.id, offset, clock.now(), CLAIM_LEASE_MS, ctx.state.requestId)
    if (claim.kind === 'not_found') throw gone(params.id)
    if (claim.kind === 'busy') throw new ApiError(423, 'upload_busy', `Another request is sending bytes of upload ${params.id}. Retry in a moment (HEAD says where it is).`, { headers: { 'Retry-After': '1' } })
    if (claim.kind === 'offset_mismatch') {
      const upload = await store.media.getUpload(userId, params.id, clock.now())
      if (!upload) throw gone(params.id)
      // The last PATCH again (its answer was lost): the upload is whole, and says so.
      if (offset === upload.length && upload.offset === upload.length) {
        describe(ctx, upload)
        ctx.status = 204
        return
      }
      throw new ApiError(409, 'upload_offset_mismatch', `Upload-Offset ${offset} is not where upload ${params.id} is: ${upload.offset} of ${upload.length} bytes are stored. Send the bytes from ${upload.offset}.`, {
        headers: { 'Upload-Offset': String(upload.offset) },
        extensions: { upload_offset: upload.offset },
      })
    }
    const { upload } = claim
    let lease = claim.lease
    // While bytes keep coming the claim is renewed; once it is lost (a stall let another request take over), this one stops.
    const keep = async () => {
      const now = clock.now()
      if (now < lease - CLAIM_LEASE_MS / 2) return
      if (!(await store.media.extendUpload(upload.id, lease, now + CLAIM_LEASE_MS))) throw takenOver(upload.id)
      lease = now + CLAIM_LEASE_MS
    }
    // The claim's first lease is its fencing token: what it writes is named by it.
    const token = claim.lease
    const newCheck = () => inspection(upload.contentType, { bytes: upload.length, error: () => tooLarge(upload.contentType, limitFor(deps.media.limits, upload.contentType)) })
    // The upload's checks, if every byte before this PATCH's went through them here; the first PATCH starts them.
    const kept = running.get(upload.id)
    running.delete(upload.id)
    let check = kept?.offset === offset ? kept.check : offset === 0 ? newCheck() : undefined
    const arriving = patchBytes(ctx.req, upload.length - offset, keep)
    let bytes: number
    try {
      bytes = await whileStreaming(() => deps.media.store.writeUpload(upload.id, offset, token, Readable.from(check ? check.pass(arriving) : arriving, { objectMode: false, highWaterMark: STREAM_AHEAD_BYTES })))
    } catch (error) {
      await store.media.unlockUpload(upload.id, lease)
      if (!ctx.req.complete) ctx.set('Connection', 'close')
      throw error instanceof UploadClaimLost ? takenOver(upload.id) : error
    }
    // The checks saw exactly the upload's bytes up to here, or they are of no more use.
    if (check && check.bytes !== offset + bytes) check = undefined

    if (offset + bytes < upload.length) {
      const advanced = bytes > 0 ? await store.media.advanceUpload(upload.id, lease, bytes) : undefined
      if (!advanced) {
        // Nothing arrived, or the claim was lost meanwhile: what this request wrote is not the upload's.
        if (bytes > 0) throw takenOver(upload.id)
        await store.media.unlockUpload(upload.id, lease)
        describe(ctx, upload)
      } else describe(ctx, advanced)
      if (check && (advanced || bytes === 0)) keepRunning(upload.id, offset + bytes, check)
      ctx.status = 204
      return
    }

    // The last byte arrived: the upload's bytes went through the checks POST /v1/media makes on
    // the way in, or go through them now, in order (read once more). Where the store can, they
    // become the media without being written again.
    let made
    const key = mediaKey(upload.mediaId)
    try {
      let facts
      if (check) {
        facts = await check.finish()
        await deps.media.store.assembleUpload(upload.id, upload.length, token, key, upload.contentType)
      } else {
        const reading = newCheck()
        const checked = async function* (bytes: AsyncIterable<Buffer>) {
          const passing = await reading.open(bytes)
          for await (const chunk of passing) {
            await keep()
            yield chunk
          }
        }
        await whileStreaming(() => deps.media.store.assembleUpload(upload.id, upload.length, token, key, upload.contentType, checked))
        try {
          facts = reading.facts()
        } catch (error) {
          await deps.media.store.delete(key)
          throw error
        }
      }
      made = await store.media.finishUpload(upload.id, lease, facts, clock.now())
      if (!made) throw new ApiError(423, 'upload_busy', `Upload ${upload.id} was terminated, or taken over by another request, while its last bytes were checked. Ask HEAD where it is.`)
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        // Bytes that are not what the upload said it was are refused for good: the upload goes, and the cleanup removes its bytes.
        await store.media.terminateUpload(userId, upload.id, clock.now())
      } else await store.media.unlockUpload(upload.id, lease)
      throw error instanceof UploadClaimLost ? takenOver(upload.id) : error
    }
    await deps.media.store.removeUpload(upload.id).catch((error: unknown) => {
      // Left for the cleanup, which removes them with the media.
      deps.log.warn({ err: error, upload_id: upload.id }, 'could not remove the bytes of a finished upload')
    })
    describe(ctx, { ...upload, offset: upload.length })
    ctx.status = 204
  })

  bind(router, routes.terminateUpload, async (ctx, { params, principal }) => {
    speakTus(ctx)
    if (!(await store.media.terminateUpload(principal.user.id, params.id, clock.now()))) throw gone(params.id)
    ctx.status = 204
  })
}
