import { bodyParser } from '@koa/bodyparser'
import type Koa from 'koa'
import { ApiError, badRequest } from '../../src/errors.js'
import type { State } from '../context.js'

/** The largest request body the API reads. */
export const MAX_BODY_BYTES = 1024 * 1024

function hasBody(ctx: Koa.Context): boolean {
  const length = ctx.get('Content-Length')
  return (length !== '' && length !== '0') || ctx.get('Transfer-Encoding') !== ''
}

/**
 * Reads JSON bodies only: a body of another type is 415, one over 1 MiB is 413 (refused from
 * its declared length before it is read, or as soon as a chunked one passes the limit), and
 * malformed JSON is 400.
 */
export function jsonBody(): Koa.Middleware<State> {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: MAX_BODY_BYTES,
    jsonStrict: true,
    onError(error) {
      const status = (error as { status?: number }).status
      if (status === 413) {
        throw new ApiError(413, 'payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`)
      }
      if (status === 415) throw new ApiError(415, 'unsupported_media_type', 'The request body must be UTF-8 JSON.')
      throw badRequest('invalid_json', `The request body is not valid JSON: ${(error as Error).message}`)
    },
  })
  return async (ctx, next) => {
    if (!['POST', 'PUT', 'PATCH'].includes(ctx.method)) return next()
    if (hasBody(ctx)) {
      const length = Number(ctx.get('Content-Length') || 0)
      if (length > MAX_BODY_BYTES) {
        throw new ApiError(413, 'payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`)
      }
      if (!ctx.is('application/json')) {
        throw new ApiError(415, 'unsupported_media_type', `Request bodies must be sent as "Content-Type: application/json" (got "${ctx.get('Content-Type') || 'none'}").`)
      }
    }
    return parse(ctx as Koa.ParameterizedContext, next)
  }
}
