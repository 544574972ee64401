/**
 * What the platform modules share to send media: one shape for an item whatever its origin (a
 * media URL downloaded at publish, or a file uploaded to smm), multipart bodies that stream each
 * file from where it is kept, upload requests timed by their size, and waiting on a platform's
 * processing on the injected clock.
 */
import { Readable } from 'node:stream'
import { FormDataEncoder, type FileLike, type FormDataLike } from 'form-data-encoder'
import { formatNumber } from '../../src/numbers.js'
import { sleep } from '../../src/time.js'
import type { OutboundRequest, OutboundResponse } from '../egress.js'
import { platformRequest } from './platform-http.js'
import { PlatformError, type MediaAttachment, type PlatformContext } from './types.js'

/**
 * One media item as a module sends it: its kind, type, size and name, its alt text and
 * dimensions where known (null for a downloaded media URL), the URL it is fetched from (the
 * media URL, or an upload's public URL), and its bytes a stream away, whole or a byte range.
 */
export type Sendable = Pick<MediaAttachment, 'kind' | 'bytes' | 'filename' | 'url' | 'alt_text' | 'width' | 'height' | 'duration_ms' | 'open'> & {
  /** As sniffed: one of smm's types for an upload, any the platform takes for a media URL. */
  content_type: string
}

/** A multipart/form-data part: a field's text, or a file's bytes. */
export type Part = readonly [name: string, value: string | Sendable]

/** The shape form-data-encoder reads: entries in order, nothing more. */
class Parts implements FormDataLike {
  readonly [Symbol.toStringTag] = 'FormData'
  constructor(private readonly list: [string, string | FileLike][]) {}
  append(name: string, value: unknown): void {
    this.list.push([name, value as string | FileLike])
  }
  getAll(name: string): (string | FileLike)[] {
    return this.list.filter(([n]) => n === name).map(([, value]) => value)
  }
  entries(): IterableIterator<[string, string | FileLike]> {
    return this.list[Symbol.iterator]()
  }
  [Symbol.iterator](): IterableIterator<[string, string | FileLike]> {
    return this.entries()
  }
}

/** A file part whose bytes are opened only when the body reaches it. */
function fileOf(item: Sendable): FileLike {
  return {
    [Symbol.toStringTag]: 'File',
    name: item.filename,
    type: item.content_type,
    size: item.bytes,
    lastModified: 0,
    stream: async function* () {
      yield* await item.open()
    },
  }
}

/**
 * A multipart/form-data body (RFC 7578, as browsers write it) that streams: each file part is
 * read from its store as the request goes, never held whole. Its headers carry the exact length.
 */
export function multipartBody(parts: readonly Part[]): { body: Readable; headers: Record<string, string>; bytes: number } {
  const encoder = new FormDataEncoder(new Parts(parts.map(([name, value]) => [name, typeof value === 'string' ? value : fileOf(value)])))
  const bytes = Number(encoder.contentLength)
  return { body: Readable.from(encoder.encode()), headers: { 'content-type': encoder.contentType, 'content-length': String(bytes) }, bytes }
}

/** A byte range of an item, both ends included, as a stream. */
export const rangeOf = (item: Sendable, start: number, end: number): Promise<Readable> => item.open({ start, end })

/** An item's bytes whole: only for a platform that takes them in one buffer (small images). */
export async function bytesOf(item: Sendable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of await item.open()) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** Time for a body of this many bytes: two minutes and a slow link's pace (256 kB/s), and a minute without a byte moving at most. */
export function transferTimeouts(bytes: number): Pick<OutboundRequest, 'timeoutMs' | 'idleTimeoutMs'> {
  return { timeoutMs: 120_000 + Math.ceil(bytes / 256), idleTimeoutMs: 60_000 }
}

/**
 * A request that sends media to a platform's upload API, the step before the post: given time by
 * its size, and failing, never of unknown outcome. An upload makes nothing anyone sees (an
 * upload that reached the platform unanswered is an unused file there), so a later attempt may
 * always send it again; only the request that publishes can have published.
 */
export async function uploadRequest(ctx: PlatformContext, label: string, url: string, request: OutboundRequest & { bytes: number }): Promise<OutboundResponse> {
  const { bytes, ...rest } = request
  try {
    return await platformRequest(ctx, label, url, { ...transferTimeouts(bytes), ...rest })
  } catch (error) {
    if (error instanceof PlatformError && error.outcomeUnknown) throw new PlatformError(error.kind, error.code, error.message, error.retryAfterMs)
    throw error
  }
}

/** What a look at an upload's processing found: done, with what the module needs next; or not yet, with the wait the platform asked for. */
export type Processing<T> = { done: true; value: T } | { done: false; afterMs?: number }

function duration(ms: number): string {
  return ms >= 60_000 ? `${formatNumber(Math.round(ms / 60_000))} min` : `${formatNumber(Math.round(ms / 1000))} s`
}

/**
 * Waits while a platform processes an upload (a transcoded video, a media container): `check`
 * looks at once, then after each wait, the platform's own (`afterMs`) where it gives one, else
 * the next of `waits`, slept on the injected clock. `check` throws a PlatformError for a failed
 * upload. Past the last wait, a transient `media_processing` error: a later attempt tries again.
 * `what` names it for that error ("Mastodon's processing of med_…").
 */
export async function awaitProcessing<T>(ctx: PlatformContext, what: string, waits: readonly number[], check: () => Promise<Processing<T>>): Promise<T> {
  let waited = 0
  for (let attempt = 0; ; attempt++) {
    const state = await check()
    if (state.done) return state.value
    const wait = waits[attempt] === undefined ? undefined : (state.afterMs ?? waits[attempt]!)
    if (wait === undefined) throw new PlatformError('transient', 'media_processing', `${what} was not done after ${duration(waited)}; trying again later`)
    await sleep(ctx.clock, wait)
    waited += wait
  }
}
