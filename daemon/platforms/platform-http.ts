import { EgressError, type OutboundRequest, type OutboundResponse } from '../egress.js'
import { PlatformError, type PlatformContext } from './types.js'

/**
 * One request to a platform through the egress client. A network failure becomes a transient
 * PlatformError, a refused address or URL a permanent one: the scheduler only ever sees
 * PlatformError from a platform module.
 */
export async function platformRequest(ctx: PlatformContext, label: string, url: string, request: OutboundRequest = {}): Promise<OutboundResponse> {
  let response: OutboundResponse
  try {
    response = await ctx.http(url, request)
  } catch (error) {
    throw fromEgress(error, label)
  }
  const credentials = credentialsOf(url, request)
  if (credentials.length > 0) carried.set(response, credentials)
  return response
}

/** Form and query fields whose values are credentials (OAuth 2.0's, Meta's). */
const CREDENTIAL_FIELDS = new Set(['client_secret', 'code', 'code_verifier', 'refresh_token', 'access_token', 'fb_exchange_token', 'appsecret_proof', 'password'])

/** The credentials each answer's request carried, which `excerpt` never quotes back. */
const carried = new WeakMap<OutboundResponse, string[]>()

/** The credentials a request carries: its Authorization header's, and credential fields of its query or form body. */
function credentialsOf(url: string, request: OutboundRequest): string[] {
  const found: string[] = []
  const fields = (params: URLSearchParams) => {
    for (const [name, value] of params) if (CREDENTIAL_FIELDS.has(name)) found.push(value)
  }
  fields(new URL(url).searchParams)
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const header = name.toLowerCase()
    if (header === 'authorization') found.push(value.replace(/^\S+\s+/, ''))
    if (header === 'content-type' && value.startsWith('application/x-www-form-urlencoded') && typeof request.body === 'string') fields(new URLSearchParams(request.body))
  }
  // A value so short would be found in any text (and no credential is).
  return found.filter((value) => value.length >= 8)
}

/** Turns what the egress client threw into the PlatformError the scheduler understands. */
export function fromEgress(error: unknown, label: string): PlatformError {
  if (error instanceof PlatformError) return error
  if (error instanceof EgressError) {
    if (error.transient) {
      return new PlatformError('transient', error.code === 'timeout' ? 'platform_timeout' : 'platform_unreachable', `${label}: ${error.message}`, undefined, error.connected)
    }
    return new PlatformError('permanent', error.code === 'too_large' ? 'response_too_large' : 'address_refused', `${label}: ${error.message}`)
  }
  throw error
}

/**
 * How long a platform asked us to wait, from `Retry-After` (seconds or an HTTP date) or a
 * reset time (`X-RateLimit-Reset` as an ISO date or epoch seconds, `RateLimit-Reset`).
 */
export function retryAfterMs(headers: Record<string, string>, now: number): number | undefined {
  const retryAfter = headers['retry-after']
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter)
    if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds * 1000))
    const at = Date.parse(retryAfter)
    if (!Number.isNaN(at)) return Math.max(0, at - now)
  }
  const reset = headers['x-ratelimit-reset'] ?? headers['ratelimit-reset']
  if (reset !== undefined) {
    const numeric = Number(reset)
    if (Number.isFinite(numeric)) {
      // Epoch seconds if it looks like a date, else seconds from now (the IETF draft's form).
      return Math.max(0, numeric > 1e9 ? numeric * 1000 - now : numeric * 1000)
    }
    const at = Date.parse(reset)
    if (!Number.isNaN(at)) return Math.max(0, at - now)
  }
  return undefined
}

/**
 * The usual reading of an HTTP status: 401/403 mean the credentials no longer work, 408, 429
 * and 5xx are worth retrying, any other 4xx is the platform rejecting this request for good.
 * `reason` is the platform's own message, kept for the target's error detail.
 */
export function statusError(label: string, response: OutboundResponse, reason: string, now: number): PlatformError {
  const { status } = response
  const detail = `${label} answered ${status}: ${reason}`
  if (status === 401 || status === 403) return new PlatformError('auth', 'credentials_rejected', detail)
  if (status === 429) return new PlatformError('transient', 'rate_limited', detail, retryAfterMs(response.headers, now))
  if (status === 408 || status >= 500) return new PlatformError('transient', 'platform_unavailable', detail, retryAfterMs(response.headers, now))
  return new PlatformError('permanent', 'platform_rejected', detail)
}

/** The body as JSON, or undefined when it is not (an HTML error page from a proxy, say). */
export function jsonOrUndefined<T>(response: OutboundResponse): T | undefined {
  try {
    return response.json<T>()
  } catch {
    // Not JSON: callers fall back to the raw text for the detail.
    return undefined
  }
}

/**
 * A short excerpt of a body for an error detail, never a whole HTML page, and never a credential
 * its request carried: a gateway or a misconfigured endpoint that echoes the request would
 * otherwise put a client secret, a code or a token into an error that is logged and shown.
 */
export function excerpt(response: OutboundResponse): string {
  let text = response.text()
  for (const credential of carried.get(response) ?? []) {
    // As sent, and as a form or a URL writes it.
    for (const form of new Set([credential, encodeURIComponent(credential), new URLSearchParams({ v: credential }).toString().slice(2)])) text = text.replaceAll(form, '[redacted]')
  }
  text = text.replace(/\s+/g, ' ').trim()
  return text.length > 200 ? `${text.slice(0, 200)}…` : text || '(empty body)'
}
