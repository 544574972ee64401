import { excerpt, jsonOrUndefined, platformRequest, retryAfterMs } from './platform-http.js'
import { PlatformError, type OAuthApp, type OAuthTokens, type PlatformContext } from './types.js'

/** RFC 6749 section 5.1: a successful token response. */
interface TokenResponse {
  access_token?: string
  refresh_token?: string
  expires_in?: number | string
  scope?: string
}

/** RFC 6749 section 5.2: an error response. */
interface TokenError {
  error?: string
  error_description?: string
}

/**
 * How the client authenticates at the token endpoint (RFC 6749 section 2.3.1): HTTP Basic with
 * the client id and secret (X), or both as form fields (LinkedIn, Meta).
 */
export type ClientAuth = 'basic' | 'body'

/**
 * One request to a token endpoint (the code exchange, a refresh): a form POST as RFC 6749
 * describes, answered with the tokens, their expiry as a time, and the response's other fields
 * for the platform module to keep (a user id). A refused grant (`invalid_grant`: a code reused
 * or expired, a refresh token revoked) is an `auth` error: the person must connect again. A
 * refused client (`invalid_client`) is the operator's app, a permanent error naming it.
 */
export async function tokenRequest(
  ctx: PlatformContext & { app: OAuthApp },
  label: string,
  params: Record<string, string>,
  clientAuth: ClientAuth,
): Promise<OAuthTokens & Record<string, unknown>> {
  const { app } = ctx
  const form = new URLSearchParams(params)
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }
  if (clientAuth === 'basic') {
    // RFC 6749 section 2.3.1: each part form-encoded, then Base64 of "id:secret".
    const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+')
    headers.authorization = `Basic ${Buffer.from(`${encode(app.clientId)}:${encode(app.clientSecret)}`).toString('base64')}`
  } else {
    form.set('client_id', app.clientId)
    form.set('client_secret', app.clientSecret)
  }
  const response = await platformRequest(ctx, label, app.tokenUrl, { method: 'POST', headers, body: form.toString() })
  const body = jsonOrUndefined<TokenResponse & TokenError & Record<string, unknown>>(response)
  if (response.status === 200 && body?.access_token) return tokensOf(body, ctx.clock.now())
  throw tokenError(label, response.status, body, excerpt(response), retryAfterMs(response.headers, ctx.clock.now()))
}

/** A token response's fields as stored credentials: `expires_in` becomes `expires_at`. */
export function tokensOf(body: TokenResponse & Record<string, unknown>, now: number): OAuthTokens & Record<string, unknown> {
  const { expires_in, ...rest } = body
  const seconds = Number(expires_in)
  return { ...rest, access_token: body.access_token!, ...(Number.isFinite(seconds) && seconds > 0 ? { expires_at: now + seconds * 1000 } : {}) }
}

/** What a token endpoint's refusal means for the connection, in words a person can act on. */
function tokenError(label: string, status: number, body: TokenError | undefined, raw: string, waitMs?: number): PlatformError {
  const said = body?.error ? `${body.error}${body.error_description ? `: ${body.error_description}` : ''}` : raw
  const detail = `${label}'s token endpoint answered ${status}: ${said}`
  if (status === 429) return new PlatformError('transient', 'rate_limited', detail, waitMs)
  if (status >= 500 || status === 408) return new PlatformError('transient', 'platform_unavailable', detail, waitMs)
  if (body?.error === 'invalid_client' || body?.error === 'unauthorized_client') {
    return new PlatformError('permanent', 'app_rejected', `${detail}. The operator's ${label} app (client id and secret) is refused; check SMM_PLATFORM_* settings.`)
  }
  return new PlatformError('auth', 'grant_refused', detail)
}
