import { randomUUID } from 'node:crypto'
import { setTimeout as delay } from 'node:timers/promises'
import type { Logger } from 'pino'
import { OAUTH_PLATFORM_NAMES } from '../../src/api/common.js'
import { counterChildren, metricSet, type Prometheus } from '../prometheus/registry.js'
import type { Clock } from '../../src/time.js'
import type { SecretBox } from '../secret-box.js'
import type { Store, StoredConnection } from '../store/index.js'
import { notConfiguredDetail, type OAuthApps } from './oauth-apps.js'
import { PlatformError, type Connection, type OAuthApp, type OAuthPlatform, type OAuthTokens, type Platform, type PlatformContext } from './types.js'

/** Tokens that expire within this are refreshed before they are used: a publish must not race the expiry. */
export const REFRESH_AHEAD_MS = 5 * 60_000
/** How long a node's refresh claim holds if it dies mid-refresh; a refresh is one token request. */
const CLAIM_LEASE_MS = 30_000
/** While another node holds the claim: how often, and how many times, to look for its new tokens. */
const WAIT_STEP_MS = 100
const WAIT_STEPS = 30

export interface TokenDeps {
  store: Store
  secrets: SecretBox
  clock: Clock
  log: Logger
  oauthApps: OAuthApps
  prometheus?: Prometheus
}

/** How a token refresh ended: `refreshed`, `refused` (the platform refused the grant: the person must reconnect) or `failed` (anything else). */
const REFRESH_OUTCOMES = ['refreshed', 'refused', 'failed'] as const

export const oauthRefreshMetrics = metricSet(({ Counter }, registers) =>
  counterChildren(
    new Counter({
      name: 'smm_oauth_refresh_total',
      help: 'OAuth token refreshes this node asked a platform for, by platform and outcome: refreshed, refused (the grant is gone: the account must be reconnected) or failed.',
      labelNames: ['platform', 'outcome'],
      registers,
    }),
    OAUTH_PLATFORM_NAMES,
    REFRESH_OUTCOMES,
  ),
)

const sealContext = (connection: StoredConnection) => `${connection.accountId}:${connection.platform}`

/**
 * Calls a platform (publish, metrics) with a connection's credentials. For an OAuth platform,
 * with its app in `ctx.app` and tokens refreshed first when they are about to expire, and once
 * more when the platform answers that they no longer work (a token revoked or expired early).
 * An app no longer configured is a permanent `platform_not_configured`; a refresh the platform
 * refuses is its `auth` error, which the caller turns into `reauth_required` as for any refusal.
 */
export async function callWithConnection<T>(
  deps: TokenDeps,
  platform: Platform,
  stored: StoredConnection,
  credentials: Record<string, unknown>,
  ctx: PlatformContext,
  call: (connection: Connection, ctx: PlatformContext) => Promise<T>,
): Promise<T> {
  const connectionWith = (c: Record<string, unknown>): Connection => ({
    accountId: stored.accountId,
    platform: stored.platform,
    credentials: c,
    settings: stored.settings,
    handle: stored.handle,
  })
  if (platform.auth !== 'oauth2') return call(connectionWith(credentials), ctx)
  const app = await deps.oauthApps.resolve(platform)
  if (!app) throw new PlatformError('permanent', 'platform_not_configured', notConfiguredDetail(platform))
  const appCtx = { ...ctx, app }
  let tokens = credentials as OAuthTokens
  let refreshed = false
  if (platform.oauth.refresh && tokens.expires_at !== undefined && tokens.expires_at - deps.clock.now() <= REFRESH_AHEAD_MS) {
    tokens = await refreshTokens(deps, platform, stored, tokens, appCtx)
    refreshed = true
  }
  try {
    return await call(connectionWith(tokens), appCtx)
  } catch (error) {
    if (!(error instanceof PlatformError && error.kind === 'auth') || !platform.oauth.refresh || refreshed) throw error
    deps.log.info({ account_id: stored.accountId, platform: stored.platform }, 'access token refused; refreshing once')
    tokens = await refreshTokens(deps, platform, stored, tokens, appCtx)
    return call(connectionWith(tokens), appCtx)
  }
}

/**
 * New tokens for a connection, under the store's refresh claim: a rotating refresh token is good
 * for one refresh, so two nodes refreshing at once would lose the grant. A node that finds the
 * claim held waits for the holder's tokens; a holder that finds newer tokens than its own (the
 * previous holder just finished) uses them. The new tokens are stored before they are used.
 */
async function refreshTokens(
  deps: TokenDeps,
  platform: OAuthPlatform,
  stored: StoredConnection,
  tokens: OAuthTokens,
  ctx: PlatformContext & { app: OAuthApp },
): Promise<OAuthTokens> {
  const { accountId, platform: name } = stored
  const holder = randomUUID()
  for (let step = 0; !(await deps.store.oauth.claimRefresh(accountId, name, holder, deps.clock.now(), CLAIM_LEASE_MS)); step++) {
    if (step === WAIT_STEPS) {
      throw new PlatformError('transient', 'token_refresh_in_progress', `Another smm node is refreshing this ${platform.label} connection's tokens.`, 5_000)
    }
    // Real time, not the daemon's clock: this waits for another process's network call.
    await delay(WAIT_STEP_MS)
    const newer = await newerTokens(deps, stored, tokens)
    if (newer) return newer
  }
  try {
    const newer = await newerTokens(deps, stored, tokens)
    if (newer) {
      await deps.store.oauth.releaseRefresh(accountId, name, holder)
      return newer
    }
    const counted = oauthRefreshMetrics(deps.prometheus)
    const fresh = await platform.oauth.refresh!(tokens, ctx).catch((error: unknown) => {
      counted.get(`${name} ${error instanceof PlatformError && error.kind === 'auth' ? 'refused' : 'failed'}`)?.inc()
      throw error
    })
    counted.get(`${name} refreshed`)?.inc()
    // What the module kept beside the tokens (a user id, a Page) stays; a platform that does not
    // rotate refresh tokens answers none, and the one we had stays good.
    const merged: OAuthTokens = { ...tokens, ...fresh, refresh_token: fresh.refresh_token ?? tokens.refresh_token }
    if (fresh.expires_at === undefined) delete merged.expires_at
    if (merged.refresh_token === undefined) delete merged.refresh_token
    const saved = await deps.store.oauth.saveRefreshed(accountId, name, holder, deps.secrets.seal(merged, sealContext(stored)), stored.connectedAt)
    // Not saved: the person reconnected meanwhile (their new connection keeps its own tokens), or
    // this node was stopped past its claim's lease and another took the claim over (its tokens stand).
    if (saved === 'claim_lost') deps.log.warn({ account_id: accountId, platform: name }, 'refreshed tokens not stored: the refresh claim lapsed and another node took it over')
    else deps.log.info({ account_id: accountId, platform: name, saved: saved === 'saved' }, 'access token refreshed')
    return merged
  } catch (error) {
    await deps.store.oauth.releaseRefresh(accountId, name, holder)
    throw error
  }
}

/** The connection's stored tokens, if another refresh (or a reconnect) replaced the ones we hold. */
async function newerTokens(deps: TokenDeps, stored: StoredConnection, tokens: OAuthTokens): Promise<OAuthTokens | undefined> {
  const now = await deps.store.accounts.connection(stored.accountId, stored.platform)
  if (!now || now.status !== 'active') return undefined
  const current = deps.secrets.open(now.sealedCredentials, sealContext(stored)) as OAuthTokens
  return current.access_token !== tokens.access_token ? current : undefined
}
