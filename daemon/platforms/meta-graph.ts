/**
 * What Facebook Pages, Threads and Instagram share: all are Meta Graph APIs (graph.facebook.com,
 * graph.threads.net, graph.instagram.com) with the same error body, throttling headers and token
 * GETs. Threads and Instagram also share their login (a short-lived token from the code, then a
 * long-lived one that refreshes itself); their publishing is in meta-containers.ts.
 */
import { createHmac } from 'node:crypto'
import type { OutboundResponse } from '../egress.js'
import { tokensOf } from './oauth2.js'
import { excerpt, jsonOrUndefined, platformRequest, retryAfterMs } from './platform-http.js'
import { PlatformError, type Connection, type OAuthApp, type OAuthTokens, type PlatformContext } from './types.js'
import { multipartBody, transferTimeouts, type Part } from './upload.js'

/** The Graph API's error body: `{"error": {"message", "type", "code", "error_subcode", "fbtrace_id"}}`. */
interface GraphErrorBody {
  error?: { message?: string; type?: string; code?: number; error_subcode?: number; is_transient?: boolean; fbtrace_id?: string }
  // api.instagram.com's token endpoint answers in an older, flat shape.
  error_type?: string
  error_message?: string
  code?: number
}

// Meta's throttling codes: 4 (app), 17 (user), 32 (page), 613 (calls within a time window),
// 80001 (a Page's business use case).
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613, 80001])
// 1 (unknown error) and 2 (service unavailable) are Meta's own trouble, worth another try, unless
// they come as an OAuthException: "Error validating client secret." is code 1 too.
const TEMPORARY_CODES = new Set([1, 2])
// 190: the access token expired, was revoked, or the password changed.
const TOKEN_INVALID = 190

/**
 * How long Meta asked us to wait: `Retry-After` where a proxy gives one, else the
 * `estimated_time_to_regain_access` (minutes) of the Business Use Case usage header.
 */
function graphWaitMs(response: OutboundResponse, now: number): number | undefined {
  const direct = retryAfterMs(response.headers, now)
  if (direct !== undefined) return direct
  const usage = response.headers['x-business-use-case-usage']
  if (!usage) return undefined
  try {
    const byId = JSON.parse(usage) as Record<string, Array<{ estimated_time_to_regain_access?: number }>>
    const minutes = Object.values(byId).flat().map((entry) => entry.estimated_time_to_regain_access ?? 0)
    const longest = Math.max(0, ...minutes)
    return longest > 0 ? longest * 60_000 : undefined
  } catch {
    // A header we cannot read gives no wait; the scheduler's own backoff applies.
    return undefined
  }
}

/**
 * Codes one Graph API gives a meaning of its own (Facebook Pages' 506 duplicate, say), read
 * before the shared ones; undefined leaves the error to them. `detail` is the error in words.
 */
export type GraphCodes = (error: { code: number; subcode?: number }, detail: string) => PlatformError | undefined

/**
 * A Graph error response as the PlatformError the scheduler understands, Meta's message kept
 * with its code, subcode and fbtrace_id (what Meta's support asks for).
 */
export function graphError(label: string, response: OutboundResponse, now: number, own?: GraphCodes): PlatformError {
  const body = jsonOrUndefined<GraphErrorBody>(response)
  const error = body?.error
  const code = error?.code ?? body?.code
  const message = error?.message ?? body?.error_message ?? excerpt(response)
  const said = `${message}${code !== undefined ? ` (code ${code}${error?.error_subcode ? `, subcode ${error.error_subcode}` : ''})` : ''}${error?.fbtrace_id ? `; fbtrace_id ${error.fbtrace_id}` : ''}`
  const detail = `${label} answered ${response.status}: ${said}`
  const special = code !== undefined ? own?.({ code, subcode: error?.error_subcode }, detail) : undefined
  if (special) return special
  if (code === TOKEN_INVALID || response.status === 401) return new PlatformError('auth', 'credentials_rejected', `${detail}. Connect the account again.`)
  if (response.status === 429 || (code !== undefined && RATE_LIMIT_CODES.has(code))) {
    return new PlatformError('transient', 'rate_limited', detail, graphWaitMs(response, now))
  }
  if (response.status >= 500 || response.status === 408 || error?.is_transient || (code !== undefined && TEMPORARY_CODES.has(code) && error?.type !== 'OAuthException')) {
    return new PlatformError('transient', 'platform_unavailable', detail, graphWaitMs(response, now))
  }
  return new PlatformError('permanent', 'platform_rejected', detail)
}

/**
 * `appsecret_proof` (HMAC-SHA256 of the token with the app secret) for a call's parameters: apps
 * that turn on "Require App Secret" refuse calls without it, and it costs nothing otherwise.
 */
export function appSecretProof(app: OAuthApp | undefined, accessToken: string): Record<string, string> {
  return app ? { appsecret_proof: createHmac('sha256', app.clientSecret).update(accessToken).digest('hex') } : {}
}

/** One Graph call: GET with the parameters in the query, POST with them as a form, as Meta documents both. */
export async function graphCall<T>(
  ctx: PlatformContext,
  label: string,
  method: 'GET' | 'POST',
  url: string,
  params: Record<string, string>,
  own?: GraphCodes,
): Promise<T> {
  const target = new URL(url)
  let body: string | undefined
  const headers: Record<string, string> = { accept: 'application/json' }
  if (method === 'GET') {
    for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value)
  } else {
    body = new URLSearchParams(params).toString()
    headers['content-type'] = 'application/x-www-form-urlencoded'
  }
  return graphAnswer<T>(ctx, label, await platformRequest(ctx, label, target.toString(), { method, headers, body }), own)
}

/** A Graph answer: its JSON on 200, else the error it means. */
function graphAnswer<T>(ctx: PlatformContext, label: string, response: OutboundResponse, own?: GraphCodes): T {
  if (response.status !== 200) throw graphError(label, response, ctx.clock.now(), own)
  const parsed = jsonOrUndefined<T>(response)
  if (parsed === undefined) throw new PlatformError('transient', 'platform_unavailable', `${label} answered 200 with a body that is not JSON: ${excerpt(response)}`)
  return parsed
}

/** A Graph POST whose parameters go as multipart/form-data with a file among them (`source`), streamed from where it is kept. */
export async function graphUpload<T>(ctx: PlatformContext, label: string, url: string, parts: Part[], own?: GraphCodes): Promise<T> {
  const { body, headers, bytes } = multipartBody(parts)
  const response = await platformRequest(ctx, label, url, { method: 'POST', body, headers: { accept: 'application/json', ...headers }, ...transferTimeouts(bytes) })
  return graphAnswer<T>(ctx, label, response, own)
}

/**
 * A refusal at the token endpoint or the token exchanges: the code was used, expired or never
 * issued, so the person must connect again; unless Meta refused the operator's app itself.
 */
function grantError(label: string, error: PlatformError): PlatformError {
  if (error.kind !== 'permanent') return error
  if (/client[_ ]?(id|secret)|application|platform app/i.test(error.message)) {
    return new PlatformError('permanent', 'app_rejected', `${error.message}. The operator's ${label} app (client id and secret) is refused; check SMM_PLATFORM_${label.toUpperCase()}_* settings.`)
  }
  return new PlatformError('auth', 'grant_refused', error.message)
}

/** Step one of Meta's login: the code for a short-lived token (an hour) and the user's id. */
export async function exchangeCode(
  ctx: PlatformContext & { app: OAuthApp },
  label: string,
  code: string,
): Promise<{ access_token: string; user_id: string; permissions?: string }> {
  const { app } = ctx
  const params = { client_id: app.clientId, client_secret: app.clientSecret, grant_type: 'authorization_code', redirect_uri: app.redirectUri, code }
  type Grant = { access_token?: string; user_id?: string | number; permissions?: string | string[] }
  const body = await graphCall<Grant & { data?: Grant[] }>(ctx, label, 'POST', app.tokenUrl, params).catch((error: PlatformError) => {
    throw grantError(label, error)
  })
  // Instagram's business login documents the grant wrapped in `data: [...]`; Threads answers flat.
  const grant = Array.isArray(body.data) ? body.data[0] : body
  if (!grant?.access_token || grant.user_id === undefined) {
    throw new PlatformError('permanent', 'platform_rejected', `${label}'s token endpoint answered without an access token and user id`)
  }
  const permissions = Array.isArray(grant.permissions) ? grant.permissions.join(',') : grant.permissions
  // Ids are 17-digit numbers: a JSON number loses digits, so only a string is safe to keep.
  return { access_token: grant.access_token, user_id: String(grant.user_id), ...(permissions ? { permissions } : {}) }
}

/**
 * A token for a GET: Threads' and Instagram's short-lived token for a long-lived one (60 days),
 * or a long-lived one refreshed for 60 more days, on the API's origin; Facebook Login's code
 * exchange and long-lived exchange, on its token URL. All answer
 * `{access_token, token_type, expires_in}`; the answer keeps `expires_at` instead.
 */
export async function tokenGrant(
  ctx: PlatformContext & { app: OAuthApp },
  label: string,
  url: string,
  params: Record<string, string>,
): Promise<Pick<OAuthTokens, 'access_token' | 'expires_at'>> {
  const body = await graphCall<{ access_token?: string; expires_in?: number }>(ctx, label, 'GET', url, params).catch(
    (error: PlatformError) => {
      throw grantError(label, error)
    },
  )
  if (!body.access_token) throw new PlatformError('permanent', 'platform_rejected', `${label}'s ${new URL(url).pathname} answered without an access token`)
  const { access_token, expires_at } = tokensOf({ access_token: body.access_token, expires_in: body.expires_in }, ctx.clock.now())
  return { access_token, ...(expires_at !== undefined ? { expires_at } : {}) }
}

/** What a Threads or Instagram connection keeps: the long-lived token (it refreshes itself) and the user it publishes as. */
export interface MetaUserTokens extends OAuthTokens {
  user_id: string
}

/** A connection's token and user id; without them, an auth error saying so (`missing`), for the person to connect again. */
export function userTokensOf(connection: Connection, missing: string): MetaUserTokens {
  const { access_token, user_id } = connection.credentials as Partial<MetaUserTokens>
  if (typeof access_token !== 'string' || typeof user_id !== 'string') throw new PlatformError('auth', 'credentials_missing', missing)
  return connection.credentials as MetaUserTokens
}

/**
 * Threads' and Instagram's login after the code: the short-lived token for a long-lived one
 * (60 days) on the API's origin, with the user id the code exchange named. `prefix` names the
 * API's grant types (`th_exchange_token`, `ig_exchange_token`).
 */
export async function longLivedLogin(ctx: PlatformContext & { app: OAuthApp }, label: string, prefix: 'th' | 'ig', code: string): Promise<MetaUserTokens> {
  const short = await exchangeCode(ctx, label, code)
  const long = await tokenGrant(ctx, label, `${ctx.app.apiUrl}/access_token`, { grant_type: `${prefix}_exchange_token`, client_secret: ctx.app.clientSecret, access_token: short.access_token })
  return { ...long, user_id: short.user_id }
}

/** The long-lived token is its own refresh token: exchanged for one valid 60 more days, the rest kept. */
export async function refreshLongLived(ctx: PlatformContext & { app: OAuthApp }, label: string, prefix: 'th' | 'ig', tokens: OAuthTokens): Promise<OAuthTokens> {
  const renewed = await tokenGrant(ctx, label, `${ctx.app.apiUrl}/refresh_access_token`, { grant_type: `${prefix}_refresh_token`, access_token: tokens.access_token })
  return { ...tokens, ...renewed }
}

/** Graph calls on one connection's behalf, its token, the API's origin and version already in. */
export type GraphCaller = <T>(method: 'GET' | 'POST', path: string, params?: Record<string, string>) => Promise<T>

/** A Graph caller for `base` (origin and version) with the token as the `access_token` parameter, as Meta documents it. */
export function graphCaller(ctx: PlatformContext, label: string, base: string, accessToken: string): GraphCaller {
  return <T>(method: 'GET' | 'POST', path: string, params: Record<string, string> = {}) => graphCall<T>(ctx, label, method, `${base}${path}`, { ...params, access_token: accessToken })
}
