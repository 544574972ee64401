import type { ServerResponse } from 'node:http'
import { Readable, Stream, pipeline } from 'node:stream'
import Koa from 'koa'

/**
 * Header fields set with `presetHeader`, as a flat [name, value, …] list, not yet on Node's response.
 */
const PRESET = Symbol('smm.presetHeaders')
type Preset = ServerResponse & { [PRESET]?: (string | number)[] }

/**
 * Sets a field of the answer (lowercase `name`) as `res.setHeader` would, but keeps it aside:
 * a JSON answer with no other field set writes them all with its `Content-Length` in one
 * `res.writeHead(status, [name, value, …])` (Node validates each there, as `setHeader` does),
 * without the name's lowercasing, the [name, value] pair and the headers object `setHeader` makes
 * per field (about 1.2 µs of the 9 µs of the daemon's own work per GET /v1/me, in process; the
 * order of the fields is the same). Any other answer, and any body
 * handed to Koa's setter, sets them first with `setHeader`, each unless the field was set since:
 * a field set later wins, as it would. `headerOf` reads them.
 */
export function presetHeader(res: ServerResponse, name: string, value: string): void {
  const preset = (res as Preset)[PRESET]
  if (preset === undefined) (res as Preset)[PRESET] = [name, value]
  else preset.push(name, value)
}

/** A field of the answer, as `res.getHeader` reads it, or as preset (`name` lowercase). */
export function headerOf(res: ServerResponse, name: string): string | number | string[] | undefined {
  const value = res.getHeader(name)
  if (value !== undefined) return value
  const preset = (res as Preset)[PRESET]
  if (preset) for (let i = 0; i < preset.length; i += 2) if (preset[i] === name) return preset[i + 1]
  return undefined
}

/** Sets the preset fields on Node's response, each unless set since. */
function settle(res: ServerResponse): void {
  const preset = (res as Preset)[PRESET]
  if (preset === undefined) return
  ;(res as Preset)[PRESET] = undefined
  if (res.headersSent) return
  for (let i = 0; i < preset.length; i += 2) if (!res.hasHeader(preset[i] as string)) res.setHeader(preset[i] as string, preset[i + 1]!)
}

/** Statuses whose answer has no body (the `statuses` package's `empty`, which Koa reads). */
const EMPTY = new Set([204, 205, 304])

/** Koa's test for a body to pipe (koa/lib/is-stream.js). */
function isStream(value: unknown): value is NodeJS.ReadableStream {
  if (value instanceof Stream) return true
  const s = value as Record<string, unknown> | null
  return (
    s !== null &&
    typeof s === 'object' &&
    !!s.readable &&
    typeof s.pipe === 'function' &&
    typeof s.read === 'function' &&
    typeof s.readable === 'boolean' &&
    typeof s.readableObjectMode === 'boolean' &&
    typeof s.destroy === 'function' &&
    typeof s.destroyed === 'boolean'
  )
}

/**
 * Koa's `respond` (koa/lib/application.js, 3.x), which Koa keeps to itself: writes `ctx.body` as
 * the answer, by its type. Koa's own logic, whole, for `handleRequest` below.
 */
function respond(ctx: Koa.Context): void {
  const res = ctx.res
  // The case of nearly every answer: JSON, every field preset (see presetHeader).
  const value: unknown = ctx.body
  if (ctx.respond !== false && isPlainJson(value) && !isStream(value) && !EMPTY.has(ctx.status) && ctx.method !== 'HEAD' && !res.headersSent && ctx.writable && res.getHeaderNames().length === 0) {
    const json = JSON.stringify(value)
    const fields = (res as Preset)[PRESET] ?? []
    ;(res as Preset)[PRESET] = undefined
    fields.push('content-length', Buffer.byteLength(json))
    res.writeHead(res.statusCode, fields)
    res.end(json)
    return
  }
  settle(res)
  if (ctx.respond === false) return
  if (!ctx.writable) {
    res.end()
    return
  }
  const body: unknown = ctx.body
  const code = ctx.status
  if (EMPTY.has(code)) {
    ctx.body = null
    res.end()
    return
  }
  if (ctx.method === 'HEAD') {
    if (!res.headersSent && !res.hasHeader('Content-Length')) {
      const { length } = ctx.response
      if (Number.isInteger(length)) ctx.length = length
    }
    res.end()
    return
  }
  if (body === null || body === undefined) {
    if ((ctx.response as { _explicitNullBody?: boolean })._explicitNullBody) {
      ctx.response.remove('Content-Type')
      ctx.response.remove('Transfer-Encoding')
      ctx.length = 0
      res.end()
      return
    }
    const text = ctx.req.httpVersionMajor >= 2 ? String(code) : ctx.message || String(code)
    if (!res.headersSent) {
      ctx.type = 'text'
      ctx.length = Buffer.byteLength(text)
    }
    res.end(text)
    return
  }
  if (Buffer.isBuffer(body) || typeof body === 'string') {
    res.end(body)
    return
  }
  let stream: NodeJS.ReadableStream | undefined
  if (body instanceof Blob) stream = Readable.from(body.stream())
  else if (body instanceof ReadableStream) stream = Readable.from(body)
  else if (body instanceof Response) stream = Readable.from(body.body ?? '')
  else if (isStream(body)) stream = body
  if (stream) {
    pipeline(stream, res, (error) => {
      if (error && ctx.app.listenerCount('error')) ctx.onerror(error)
    })
    return
  }
  const json = JSON.stringify(body)
  // Koa's `ctx.length = …`, straight to Node: Koa's setter makes two arrays to set one header.
  if (!res.headersSent && !res.hasHeader('transfer-encoding')) res.setHeader('content-length', Buffer.byteLength(json))
  res.end(json)
}

/** A value Koa answers as JSON: an object or array of JSON's own kind (not a Buffer, stream, Blob or Response). */
function isPlainJson(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === Array.prototype || prototype === null
}

const JSON_TYPE = /\bjson\b/i

/**
 * Koa's `response.body` setter, with the case of nearly every answer taken first: a plain object
 * or array replacing no body or another such value. Koa's own setter tests it against every other
 * kind of body (a string, a Buffer, a stream, a Blob, a Response), removes a `Content-Length`,
 * then reads and sets the type through its header helpers (arrays made per header set); this one
 * does what those steps amount to for JSON, straight on Node's response: the status 200 unless one
 * was set, no `Content-Length` (respond sets it), and `application/json` unless the type set
 * already names JSON (`application/problem+json`), preset when no type is set (see presetHeader). Any other body goes to Koa's setter.
 */
function jsonFirst(response: Koa['response']): void {
  const koa = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(response), 'body')!
  const set = koa.set!
  Object.defineProperty(response, 'body', {
    get: koa.get,
    set(this: Koa.Response & { _body: unknown; _explicitStatus?: boolean }, value: unknown) {
      const original = this._body
      if (!isPlainJson(value) || (original !== undefined && original !== null && !isPlainJson(original))) {
        // Koa's setter reads and removes fields: the preset ones are set first.
        settle(this.res)
        return set.call(this, value)
      }
      this._body = value
      if (!this._explicitStatus) this.status = 200
      const res = this.res
      if (res.headersSent) return
      if (res.hasHeader('content-length')) res.removeHeader('content-length')
      const type = headerOf(res, 'content-type')
      if (typeof type !== 'string' || !JSON_TYPE.test(type.split(';', 1)[0]!)) {
        if (type === undefined) presetHeader(res, 'content-type', 'application/json; charset=utf-8')
        else res.setHeader('content-type', 'application/json; charset=utf-8')
      }
    },
    configurable: true,
  })
}

/**
 * Koa, serving each request as Koa does (its context, its middleware composition, its errors to
 * `ctx.onerror`, its `respond`) less one thing: Koa's `handleRequest` also hangs `on-finished`
 * listeners on every response and its socket (an AsyncResource, two listeners added and two
 * removed per request, about 5 % of the daemon's CPU on GET /v1/me), only to hand a socket's error
 * to `ctx.onerror`, whose one effect then is the app's `error` event. Nothing here listens to it:
 * the app is silent, the error renderer answers and logs every failure of a request, and the
 * listener logs socket errors (daemon/listener.ts). A body that is a stream still has Koa's own
 * `on-finished` listener, set by Koa's response when the body is assigned, to destroy it.
 */
export class Application<S> extends Koa<S> {
  /**
   * Called with each request's context once it is answered (its answer handed to Node, or Koa's
   * own rendered for an error that escaped every middleware), when set: the request log's line
   * and metrics (daemon/middleware/request-log.ts). A middleware that awaited the others to see
   * the end cost each request a promise and an async frame of its own.
   */
  answered?: (ctx: Koa.ParameterizedContext<S>) => void

  constructor(options?: { proxy?: boolean }) {
    super(options)
    jsonFirst(this.response)
  }

  handleRequest(ctx: Koa.ParameterizedContext<S>, fnMiddleware: (ctx: Koa.ParameterizedContext<S>) => Promise<unknown>): Promise<void> {
    ctx.res.statusCode = 404
    const answered = this.answered
    return fnMiddleware(ctx)
      .then(() => {
        respond(ctx as Koa.Context)
        answered?.(ctx)
      })
      .catch((error: unknown) => {
        ctx.onerror(error as Error)
        answered?.(ctx)
      })
  }
}
