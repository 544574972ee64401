import { createHash, randomBytes } from 'node:crypto'
import type { Account, Connection, PendingConnection } from '../../src/api/accounts.js'
import { ApiError } from '../../src/errors.js'
import { toIso } from '../../src/time.js'
import { allows } from '../access.js'
import type { AppDeps, Ctx } from '../context.js'
import { EgressError } from '../egress.js'
import { notConfiguredDetail } from '../platforms/oauth-apps.js'
import { PlatformError, type OAuthPlatform } from '../platforms/types.js'
import type { OAuthGrant, Principal } from '../store/index.js'
import type { ApiRouter } from './bind.js'
import { escapeHtml } from './html.js'

/** How long a person has to approve in their browser: long enough to log in, short enough to not linger. */
export const GRANT_TTL_MS = 10 * 60_000
/**
 * Approval links kept per account and platform: a few tabs' worth. Starting another forgets the
 * oldest, so repeated connects (a script's loop, a flood) cannot grow the table.
 */
export const PENDING_GRANTS_KEPT = 3

const base64url = (bytes: Buffer) => bytes.toString('base64url')
/** The state is kept only as this hash: someone reading the database cannot complete a grant. */
const stateHashOf = (state: string) => createHash('sha256').update(state, 'utf8').digest('hex')
const grantContext = (stateHash: string) => `oauth-grant:${stateHash}`

/** What a grant keeps sealed until the callback. */
interface GrantSecrets {
  codeVerifier?: string
  options: Record<string, string>
}

/**
 * Starts an OAuth connection: a single-use state bound to the user, account and platform, a PKCE
 * verifier where the platform takes PKCE (RFC 7636, S256), and the URL where the person approves.
 */
export async function startOAuthConnect(
  deps: AppDeps,
  principal: Principal,
  account: Account,
  platform: OAuthPlatform,
  options: Record<string, string>,
): Promise<PendingConnection> {
  const app = await deps.oauthApps.resolve(platform)
  if (!app) {
    const detail = notConfiguredDetail(platform)
    throw new ApiError(422, 'platform_not_configured', detail, { errors: [{ pointer: '#/platform', code: 'platform_not_configured', detail }] })
  }
  const flow = platform.oauth
  const now = deps.clock.now()
  const state = base64url(randomBytes(32))
  const stateHash = stateHashOf(state)
  const codeVerifier = flow.pkce ? base64url(randomBytes(32)) : undefined
  const secrets: GrantSecrets = { ...(codeVerifier ? { codeVerifier } : {}), options }
  const grant: OAuthGrant = {
    stateHash,
    userId: principal.user.id,
    accountId: account.id,
    platform: platform.name,
    sealedSecrets: deps.secrets.seal(secrets, grantContext(stateHash)),
    createdAt: now,
    expiresAt: now + GRANT_TTL_MS,
  }
  await deps.store.oauth.createGrant(grant, now, PENDING_GRANTS_KEPT)
  const url = new URL(app.authorizeUrl)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('client_id', app.clientId)
  url.searchParams.set('redirect_uri', app.redirectUri)
  url.searchParams.set('scope', flow.scopes.join(flow.scopeSeparator))
  url.searchParams.set('state', state)
  if (codeVerifier) {
    url.searchParams.set('code_challenge', base64url(createHash('sha256').update(codeVerifier, 'ascii').digest()))
    url.searchParams.set('code_challenge_method', 'S256')
  }
  for (const [name, value] of Object.entries(flow.authorizeParams ?? {})) url.searchParams.set(name, value)
  return { platform: platform.name, status: 'pending', authorize_url: url.toString(), expires_at: toIso(grant.expiresAt) }
}

/**
 * Accounts with their pending OAuth connections added: a platform being approved is listed as
 * `pending` unless the account already has a connection there (which stays as it is until the
 * approval replaces it). Expired grants are not listed.
 */
export async function withPending<A extends Account>(deps: AppDeps, accounts: A[]): Promise<A[]> {
  const pending = await deps.store.oauth.pendingGrants(
    accounts.map((a) => a.id),
    deps.clock.now(),
  )
  if (pending.length === 0) return accounts
  return accounts.map((account) => {
    const mine = new Map<string, Connection>()
    // Newest last: a second request for the same platform shows its own expiry.
    for (const grant of pending.filter((g) => g.accountId === account.id)) {
      if (account.connections.some((c) => c.platform === grant.platform)) continue
      mine.set(grant.platform, { platform: grant.platform, handle: '', display_name: '', status: 'pending', connected_at: toIso(grant.createdAt), expires_at: toIso(grant.expiresAt) })
    }
    if (mine.size === 0) return account
    return { ...account, connections: [...account.connections, ...mine.values()].sort((a, b) => a.platform.localeCompare(b.platform)) }
  })
}

/** The callback page: plain words, no script, nothing loaded from elsewhere. */
function page(ctx: Ctx, status: number, title: string, message: string): void {
  ctx.status = status
  ctx.type = 'text/html; charset=utf-8'
  // The URL carries a code: it must not leave in a Referer, and the page runs nothing.
  ctx.set('Referrer-Policy', 'no-referrer')
  ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; form-action 'none'; base-uri 'none'")
  ctx.body = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · smm</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}</style></head>
<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body>
</html>
`
}

const queryValue = (ctx: Ctx, name: string): string | undefined => {
  const value = ctx.query[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/**
 * `GET /oauth/callback`: where the platform sends the person back after they approved (or not).
 * Open (the browser has no API key): the state is what proves the request is ours, and it is
 * taken on first use (and forgotten once the connection is stored or refused), so a reused,
 * unknown or expired one changes nothing.
 */
export function oauthCallbackRoute(router: ApiRouter, deps: AppDeps): void {
  router.get('/oauth/callback', async (ctx) => {
    const state = queryValue(ctx, 'state')
    const grant = state ? await deps.store.oauth.takeGrant(stateHashOf(state)) : undefined
    try {
      await callback(ctx, deps, grant)
    } finally {
      // Listed as pending until here: the connection is stored, or the page says why not.
      if (grant) await deps.store.oauth.finishGrant(grant.stateHash)
    }
  })
}

/** RFC 6749 section 4.1.2.1: the errors an authorization server sends back. Nothing else it sends is shown. */
const AUTHORIZATION_ERRORS = new Set(['invalid_request', 'unauthorized_client', 'access_denied', 'unsupported_response_type', 'invalid_scope', 'server_error', 'temporarily_unavailable'])

async function callback(ctx: Ctx, deps: AppDeps, grant: OAuthGrant | undefined): Promise<void> {
  // Without a grant of ours the request is anyone's: nothing it carries goes on a page of the
  // daemon's origin (an `error` text would be phishing words under the daemon's name).
  if (!grant) {
    return page(ctx, 400, 'This link is not valid', 'This approval link is unknown or was already used, so nothing was changed. Start again with smm accounts connect.')
  }
  const denied = queryValue(ctx, 'error')
  const platform = deps.platforms.platformFor(grant.platform) as OAuthPlatform | undefined
  const label = platform?.label ?? grant.platform
  const again = `Run smm accounts connect ${grant.accountId} --platform ${grant.platform} to start again.`
  if (denied) {
    // The code when it is one of RFC 6749's, never the free text (error_description included).
    const why = denied === 'access_denied' ? 'You did not allow smm to publish for you' : `${label} did not grant access${AUTHORIZATION_ERRORS.has(denied) ? ` (${denied})` : ''}`
    return page(ctx, 400, 'Not connected', `${why}, so nothing was connected. ${again}`)
  }
  if (grant.expiresAt <= deps.clock.now()) {
    return page(ctx, 400, 'This link has expired', `The approval took longer than 10 minutes, so nothing was connected. ${again}`)
  }
  if (!platform || platform.auth !== 'oauth2') return page(ctx, 400, 'Not connected', `This smm no longer has ${grant.platform}; nothing was connected.`)
  const code = queryValue(ctx, 'code')
  if (!code) return page(ctx, 400, 'Not connected', `${label} sent no authorization code back, so nothing was connected. ${again}`)
  const app = await deps.oauthApps.resolve(platform)
  if (!app) return page(ctx, 400, 'Not connected', `${notConfiguredDetail(platform)} Nothing was connected.`)
  const secrets = deps.secrets.open(grant.sealedSecrets, grantContext(grant.stateHash)) as GrantSecrets
  let verified
  try {
    verified = await platform.oauth.exchange(
      { code, ...(secrets.codeVerifier ? { codeVerifier: secrets.codeVerifier } : {}), options: secrets.options },
      { http: deps.http, clock: deps.clock, log: deps.log, app },
    )
  } catch (error) {
    if (!(error instanceof PlatformError || error instanceof EgressError)) throw error
    // The page (open to anyone with the link) says only our code for what happened; the detail,
    // the token endpoint's words, goes to the operator's log. It quotes no credential the
    // exchange sent (excerpt leaves them out), should the endpoint have echoed the request.
    deps.log.warn({ msg: 'oauth code exchange refused', platform: grant.platform, account_id: grant.accountId, code: error.code, detail: error.message })
    const transient = error instanceof PlatformError ? error.kind === 'transient' : error.transient
    const what = transient ? `could not be reached to complete the connection (${error.code}); try again in a minute` : `refused to complete the connection (${error.code})`
    return page(ctx, transient ? 502 : 400, 'Not connected', `${label} ${what}. Nothing was connected; the daemon's log has the details. ${again}`)
  }
  const now = deps.clock.now()
  // The person who started the grant must still be allowed to manage the account's connections.
  const memberships = await deps.store.workspaces.memberships(grant.userId)
  const scope = memberships.filter((m) => allows(m.role, 'manage_accounts')).map((m) => m.workspaceId)
  const connection = await deps.store.accounts.connect(
    scope,
    grant.accountId,
    {
      platform: platform.name,
      handle: verified.handle,
      displayName: verified.display_name,
      sealedCredentials: deps.secrets.seal(verified.credentials, `${grant.accountId}:${platform.name}`),
      settings: verified.settings,
    },
    now,
    // The approval came from a browser, with no key: the user who started it made the connection.
    { userId: grant.userId, keyId: null },
  )
  const account = connection && (await deps.store.accounts.get(scope, grant.accountId))
  if (!account) return page(ctx, 410, 'Not connected', 'The account was deleted meanwhile, or you may no longer manage it; nothing was connected.')
  page(ctx, 200, `${label} is connected`, `${label} is connected to account ${account.name}. You may close this tab.`)
}
