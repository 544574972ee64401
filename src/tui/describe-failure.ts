// One status-line sentence for anything a request can throw: an API problem with its field
// errors, a rate limit with its wait, or a daemon that cannot be reached at all.

import { ApiError } from '../errors.js'

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET'])

function networkCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code
  }
  return undefined
}

function header(error: ApiError, name: string): string | undefined {
  const found = Object.entries(error.headers).find(([k]) => k.toLowerCase() === name)
  return found?.[1]
}

/** "<doing> failed: <why>", in one line a person can act on. */
export function describeFailure(doing: string, error: unknown): string {
  if (error instanceof ApiError) {
    const fields = error.errors.map((e) => `${e.pointer.replace(/^#\//, '') || 'body'}: ${e.detail}`)
    const retry = error.status === 429 ? header(error, 'retry-after') : undefined
    const wait = retry ? ` Try again in ${retry} s.` : ''
    return `${doing} failed: ${error.message}${fields.length ? ` (${fields.join('; ')})` : ''}${wait}`
  }
  const code = networkCode(error)
  if (code) return `${doing} failed: cannot reach the smm daemon (${code}). Is it running? The calendar keeps trying every 30 s; r retries now.`
  return `${doing} failed: ${error instanceof Error ? error.message : String(error)}`
}
