import { createHash } from 'node:crypto'
import type Koa from 'koa'
import * as v from 'valibot'
import { IdempotencyKey } from '../../src/api/common.js'
import { ApiError, conflict } from '../../src/errors.js'
import { headerOf } from '../application.js'
import type { AppDeps, State } from '../context.js'

/** Response headers worth replaying: the ones that describe the stored body or the resource. */
const REPLAYED_HEADERS = ['content-type', 'location', 'etag', 'upload-expires', 'tus-resumable']

function parseKey(header: string): string {
  if (!v.is(IdempotencyKey, header)) {
    throw new ApiError(400, 'invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters, bare or in double quotes.')
  }
  return /^"(.*)"$/s.exec(header)?.[1] ?? header
}

/** The response as it may be kept: a secret shown once is not stored beside its hash for 24 h. */
function withoutShownOnce(body: unknown, fields: readonly string[] | undefined): unknown {
  if (!fields?.length || typeof body !== 'object' || body === null) return body
  return Object.fromEntries(Object.entries(body).filter(([name]) => !fields.includes(name)))
}

/**
 * Makes a POST safe to retry. The first response to a key (a success, or a handler's own error)
 * is stored for 24 h (less its shown-once fields); the same request again replays it, the key with another request is 422,
 * and a retry while the first is running is 409. An unexpected failure (a bug, a crash) stores
 * nothing, so the retry runs afresh.
 */
export function idempotency(deps: AppDeps): Koa.Middleware<State> {
  const store = deps.store.idempotency
  // Bound to the user and key, so a sealed answer cannot be replayed to anyone else.
  const seal = (userId: string, key: string, headers: Record<string, string>, body: string) =>
    deps.secrets.seal({ headers, body }, `idempotency:${userId}:${key}`)
  const open = (userId: string, key: string, sealed: Buffer) =>
    deps.secrets.open(sealed, `idempotency:${userId}:${key}`) as { headers: Record<string, string>; body: string }
  const once: Koa.Middleware<State> = async (ctx, next) => {
    const principal = ctx.state.principal!
    const key = parseKey(String(ctx.req.headers['idempotency-key']))
    const userId = principal.user.id
    // An upload's bytes are not read yet: its type and length stand for them.
    const upload = ctx.request.body === undefined && ctx.get('Content-Length') ? ` ${ctx.get('Content-Type')} ${ctx.get('Content-Length')}` : ''
    const bodyHash = createHash('sha256').update(JSON.stringify(ctx.request.body ?? null) + upload).digest('hex')
    const claim = await store.begin(userId, key, ctx.method, ctx.path, bodyHash, deps.clock.now())
    if (claim.kind === 'mismatch') {
      throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was used with a different request (path or body). Use a new key for a new request.')
    }
    if (claim.kind === 'in_flight') {
      throw conflict('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed. Retry shortly.', { 'Retry-After': '1' })
    }
    if (claim.kind === 'replay') {
      const stored = open(userId, key, claim.response.sealed)
      ctx.status = claim.response.status
      ctx.set(stored.headers)
      ctx.set('Idempotent-Replayed', 'true')
      ctx.body = stored.body
      return
    }
    try {
      await next()
    } catch (error) {
      if (!(error instanceof ApiError)) {
        await store.release(userId, key)
        throw error
      }
      const headers: Record<string, string> = { 'content-type': 'application/problem+json', ...error.headers }
      await store.complete(userId, key, { status: error.status, sealed: seal(userId, key, headers, JSON.stringify(error.toProblem(ctx.state.requestId))) })
      throw error
    }
    const headers: Record<string, string> = {}
    for (const name of REPLAYED_HEADERS) {
      const value = headerOf(ctx.res, name)
      if (value) headers[name] = String(value)
    }
    const body = ctx.body === undefined || ctx.body === null ? '' : typeof ctx.body === 'string' ? ctx.body : JSON.stringify(withoutShownOnce(ctx.body, ctx.state.shownOnce))
    await store.complete(userId, key, { status: ctx.status, sealed: seal(userId, key, headers, body) })
  }
  // Not async: a request without a key passes straight on, its promise not wrapped in another.
  // Present but empty or blank is a mistake to report (parseKey), not a request without a key.
  return (ctx, next) => (ctx.method === 'POST' && ctx.req.headers['idempotency-key'] !== undefined && ctx.state.principal ? once(ctx, next) : next())
}
