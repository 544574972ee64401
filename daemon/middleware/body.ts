import type Koa from 'koa'
import getRawBody from 'raw-body'
import { ApiError, badRequest, invalidField } from '../../src/errors.js'
import type { State } from '../context.js'

/** The largest request body the API reads. */
export const MAX_BODY_BYTES = 1024 * 1024

const tooLarge = () => new ApiError(413, 'payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`)
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })
/** The methods whose body is read. */
const WRITES = new Set(['POST', 'PUT', 'PATCH'])
/** With the `u` flag a surrogate pair is one code point, so this finds only lone surrogates. */
const LONE_SURROGATE = /\p{Cs}/u

function hasBody(ctx: Koa.Context): boolean {
  const length = ctx.get('Content-Length')
  return (length !== '' && length !== '0') || ctx.get('Transfer-Encoding') !== ''
}

/**
 * How deep a body may nest objects and arrays. The deepest the API takes is a few levels (a bulk
 * of posts with threads and media); JSON.parse reads any depth, but every walk after it (this
 * check, validation, hashing, storing) would recurse once per level and run out of stack.
 */
export const MAX_BODY_DEPTH = 32

/**
 * What is wrong with a parsed body beyond JSON's own grammar, walked without recursion: nesting
 * deeper than MAX_BODY_DEPTH, or a lone surrogate (`"\ud800"`) in a key or a string.
 */
function bodyFault(body: unknown): 'body_too_deep' | 'lone_surrogate' | undefined {
  const values: unknown[] = [body]
  const depths: number[] = [1]
  while (values.length > 0) {
    const value = values.pop()
    const depth = depths.pop()!
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return 'lone_surrogate'
    } else if (value !== null && typeof value === 'object') {
      if (depth > MAX_BODY_DEPTH) return 'body_too_deep'
      for (const key in value) {
        if (LONE_SURROGATE.test(key)) return 'lone_surrogate'
        values.push((value as Record<string, unknown>)[key])
        depths.push(depth + 1)
      }
    }
  }
  return undefined
}

/** Reads the bytes, refusing more than the limit (from the declared length, or as they arrive). */
async function readBytes(ctx: Koa.Context): Promise<Buffer> {
  const length = ctx.get('Content-Length')
  try {
    return await getRawBody(ctx.req, { limit: MAX_BODY_BYTES, length: length === '' ? undefined : length })
  } catch (error) {
    const type = (error as { type?: string }).type
    if (type === 'entity.too.large') throw tooLarge()
    if (type === 'request.size.invalid') throw badRequest('invalid_body', `The request body is not as long as its Content-Length (${length} bytes).`)
    throw error
  }
}

/**
 * Reads JSON bodies exactly: a body of another type or charset is 415, one over 1 MiB is 413,
 * and one that is not strict UTF-8 JSON (invalid or overlong bytes, lone surrogates, escaped
 * or not) is 400 `invalid_json`, never stored with U+FFFD in place of what was sent. Every
 * endpoint takes a JSON object; PUT and PATCH must send one. No body leaves `ctx.request.body`
 * undefined. A route that takes bytes (`rawBody` says which) is left alone.
 */
export function jsonBody(): Koa.Middleware<State> {
  const read: Koa.Middleware<State> = async (ctx, next) => {
    if (!hasBody(ctx)) {
      if (ctx.method !== 'POST') throw invalidField('#', `${ctx.method} needs a JSON object body: the fields to change.`, 'required')
      return next()
    }
    if (Number(ctx.get('Content-Length') || 0) > MAX_BODY_BYTES) throw tooLarge()
    const charset = ctx.request.charset
    if (!ctx.is('application/json') || (charset !== '' && charset.toLowerCase() !== 'utf-8')) {
      throw new ApiError(415, 'unsupported_media_type', `Request bodies must be sent as "Content-Type: application/json" in UTF-8 (got "${ctx.get('Content-Type') || 'none'}").`)
    }
    let text: string
    try {
      text = utf8.decode(await readBytes(ctx))
    } catch (error) {
      if (error instanceof ApiError) throw error
      throw badRequest('invalid_json', 'The request body is not valid UTF-8 (invalid, overlong or surrogate byte sequences).')
    }
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch (error) {
      throw badRequest('invalid_json', `The request body is not valid JSON: ${(error as Error).message}`)
    }
    const fault = bodyFault(body)
    if (fault === 'lone_surrogate') throw badRequest('invalid_json', 'The request body holds a lone UTF-16 surrogate escape (e.g. "\\ud800"), which is not a character.')
    if (fault === 'body_too_deep') throw badRequest('body_too_deep', `The request body nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep; no field of the API needs more than a few.`)
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw invalidField('#', `The request body must be a JSON object, not ${Array.isArray(body) ? 'an array' : body === null ? 'null' : `a ${typeof body}`}.`, 'type')
    }
    ctx.request.body = body
    return next()
  }
  // Not async: a GET or DELETE passes straight on, its promise not wrapped in another. An upload's
  // bytes are its handler's to stream.
  return (ctx, next) => (WRITES.has(ctx.method) && !ctx.state.rawBody ? read(ctx, next) : next())
}

declare module 'koa' {
  interface Request {
    /** The parsed JSON object of a POST, PUT or PATCH (see `jsonBody`); undefined when none was sent. */
    body?: unknown
  }
}
