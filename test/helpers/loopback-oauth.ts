import { createHash, randomBytes } from 'node:crypto'
import { jsonOrUndefined, platformRequest, statusError } from '../../daemon/platforms/platform-http.js'
import { tokenRequest } from '../../daemon/platforms/oauth2.js'
import type { Metrics, OAuthPlatform, PlatformName } from '../../daemon/platforms/types.js'
import type { Clock, ManualClock } from '../../src/time.js'
import { loopbackTls, sendJson, startLoopbackServer, type LoopbackServer } from '../fixtures/loopback.js'
import { startTestDaemon, type TestDaemon } from './daemon.js'
import { liftLimits } from './posts.js'

export const CLIENT_ID = 'loopback-client'
export const CLIENT_SECRET = 'loopback-client-secret-7f3a'

interface IssuedCode {
  clientId: string
  redirectUri: string
  challenge: string | undefined
  used: boolean
}

interface Token {
  user: string
  expiresAt: number
}

/**
 * An OAuth 2.0 authorization server and API on 127.0.0.1 that behaves as RFC 6749 and RFC 7636
 * describe: `/authorize` redirects back with a code (or `error=access_denied`), `/token` takes
 * the code once with its PKCE verifier (S256) and HTTP Basic client authentication, and refreshes
 * with rotating refresh tokens (a used one is `invalid_grant`); `/me`, `/publish` and `/metrics`
 * answer 401 `invalid_token` for an access token that expired or was revoked.
 */
export class FakeOAuthProvider {
  readonly codes = new Map<string, IssuedCode>()
  readonly access = new Map<string, Token>()
  /** The one refresh token that works now, per user: each refresh replaces it. */
  readonly refresh = new Map<string, string>()
  /** Every token request, as the grant type and whether it succeeded. */
  readonly tokenRequests: { grantType: string; status: number }[] = []
  readonly published: { token: string; content: string }[] = []
  /** What `/authorize` does with the next requests: approve as this user, or deny. */
  decision: { approve: string } | 'deny' = { approve: 'brand' }
  /** Seconds an access token lives. */
  expiresIn = 7200
  /** How long a refresh takes to answer: long enough for a second node to try meanwhile. */
  refreshDelayMs = 0
  /** While set, a code exchange waits for it (a platform slow to answer), counted in `exchangesWaiting`. */
  exchangeHold: Promise<void> | undefined
  exchangesWaiting = 0
  /**
   * While true, `/token` is answered as by a misconfigured gateway in front of it: 502 with the
   * request echoed back as plain text, its Authorization header and form (secret, code, verifier) included.
   */
  echoTokenRequests = false
  private serial = 0

  private constructor(
    readonly server: LoopbackServer,
    private readonly clock: Clock,
  ) {}

  static async start(clock: Clock): Promise<FakeOAuthProvider> {
    let provider: FakeOAuthProvider | undefined
    const server = await startLoopbackServer((req, res) => provider!.handle(req, res))
    provider = new FakeOAuthProvider(server, clock)
    return provider
  }

  get url(): string {
    return this.server.url
  }

  /** Makes a user's current access token stop working before its time (revoked, say). */
  revokeAccess(user: string): void {
    for (const [token, t] of this.access) if (t.user === user) this.access.delete(token)
  }

  /** Makes the user's refresh token stop working: the grant was revoked. */
  revokeGrant(user: string): void {
    this.refresh.delete(user)
    this.revokeAccess(user)
  }

  refreshes(): number {
    return this.tokenRequests.filter((r) => r.grantType === 'refresh_token' && r.status === 200).length
  }

  /** What a browser does with the authorize URL: follows it and gets the redirect back. */
  authorizeRedirect(authorizeUrl: string): URL {
    const url = new URL(authorizeUrl)
    const p = url.searchParams
    const back = new URL(p.get('redirect_uri')!)
    if (p.get('response_type') !== 'code' || p.get('client_id') !== CLIENT_ID) throw new Error(`bad authorize request: ${url.search}`)
    if (this.decision === 'deny') {
      back.searchParams.set('error', 'access_denied')
      back.searchParams.set('error_description', 'The user denied the request')
    } else {
      const code = `code-${++this.serial}-${randomBytes(6).toString('hex')}`
      if (p.get('code_challenge') && p.get('code_challenge_method') !== 'S256') throw new Error('only S256')
      this.codes.set(code, { clientId: CLIENT_ID, redirectUri: back.toString(), challenge: p.get('code_challenge') ?? undefined, used: false })
      this.lastUser = this.decision.approve
      back.searchParams.set('code', code)
    }
    back.searchParams.set('state', p.get('state')!)
    return back
  }

  private lastUser = 'brand'

  private issue(user: string): Record<string, unknown> {
    const accessToken = `at-${++this.serial}-${randomBytes(8).toString('hex')}`
    const refreshToken = `rt-${this.serial}-${randomBytes(8).toString('hex')}`
    this.access.set(accessToken, { user, expiresAt: this.clock.now() + this.expiresIn * 1000 })
    this.refresh.set(user, refreshToken)
    return { token_type: 'bearer', access_token: accessToken, refresh_token: refreshToken, expires_in: this.expiresIn, scope: 'read write' }
  }

  private bearer(authorization: string | undefined): Token | undefined {
    const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1]
    const found = token ? this.access.get(token) : undefined
    return found && found.expiresAt > this.clock.now() ? found : undefined
  }

  private async handle(req: import('../fixtures/loopback.js').FixtureRequest, res: import('node:http').ServerResponse): Promise<void> {
    const path = req.url.pathname
    if (req.method === 'GET' && path === '/authorize') {
      const back = this.authorizeRedirect(req.url.toString())
      res.writeHead(302, { location: back.toString() })
      res.end()
      return
    }
    if (req.method === 'POST' && path === '/token' && this.echoTokenRequests) {
      res.writeHead(502, { 'content-type': 'text/plain' })
      res.end(`${req.method} ${req.url.pathname}\nauthorization: ${req.headers.authorization ?? ''}\n\n${req.body.toString('utf8')}`)
      return
    }
    if (req.method === 'POST' && path === '/token') return this.token(req, res)
    const who = this.bearer(req.headers.authorization)
    if (!who) return sendJson(res, 401, { error: 'invalid_token', error_description: 'The access token expired or was revoked' }, { 'www-authenticate': 'Bearer error="invalid_token"' })
    if (req.method === 'GET' && path === '/me') return sendJson(res, 200, { id: `id-${who.user}`, username: who.user, name: `${who.user} (loopback)` })
    if (req.method === 'POST' && path === '/publish') {
      const body = req.json<{ content: string }>()
      this.published.push({ token: /^Bearer (\S+)$/.exec(req.headers.authorization!)![1]!, content: body.content })
      return sendJson(res, 201, { id: `post-${this.published.length}`, url: `https://loopback.example/p/${this.published.length}` })
    }
    if (req.method === 'GET' && path === '/metrics') {
      const ids = (req.url.searchParams.get('ids') ?? '').split(',').filter(Boolean)
      return sendJson(res, 200, { data: ids.map((id) => ({ id, likes: 3, reposts: 1, replies: 2 })) })
    }
    sendJson(res, 404, { error: 'not_found' })
  }

  private async token(req: import('../fixtures/loopback.js').FixtureRequest, res: import('node:http').ServerResponse): Promise<void> {
    const form = new URLSearchParams(req.body.toString('utf8'))
    const grantType = form.get('grant_type') ?? ''
    const answer = (status: number, body: Record<string, unknown>) => {
      this.tokenRequests.push({ grantType, status })
      sendJson(res, status, body, { 'cache-control': 'no-store' })
    }
    // RFC 6749 section 2.3.1: HTTP Basic, each part form-encoded.
    const basic = /^Basic (\S+)$/.exec(req.headers.authorization ?? '')?.[1]
    const [id, secret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':').map((s) => decodeURIComponent(s.replace(/\+/g, ' '))) : []
    if (id !== CLIENT_ID || secret !== CLIENT_SECRET) return answer(401, { error: 'invalid_client', error_description: 'Client authentication failed' })
    if (grantType === 'authorization_code') {
      if (this.exchangeHold) {
        this.exchangesWaiting++
        await this.exchangeHold
        this.exchangesWaiting--
      }
      const issued = this.codes.get(form.get('code') ?? '')
      if (!issued || issued.used) return answer(400, { error: 'invalid_grant', error_description: 'The authorization code is invalid or was already used' })
      issued.used = true
      if (form.get('redirect_uri') !== issued.redirectUri.replace(/\?.*$/, '')) return answer(400, { error: 'invalid_grant', error_description: 'redirect_uri does not match' })
      if (issued.challenge !== undefined) {
        const verifier = form.get('code_verifier') ?? ''
        const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url')
        if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || computed !== issued.challenge) {
          return answer(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' })
        }
      }
      return answer(200, this.issue(this.lastUser))
    }
    if (grantType === 'refresh_token') {
      const given = form.get('refresh_token')
      const user = [...this.refresh].find(([, token]) => token === given)?.[0]
      if (!user) return answer(400, { error: 'invalid_grant', error_description: 'The refresh token is invalid, expired or was already used' })
      // Rotated at once: the token just given can never be used again.
      this.refresh.delete(user)
      const issued = this.issue(user)
      await new Promise((resolve) => setTimeout(resolve, this.refreshDelayMs))
      return answer(200, issued)
    }
    answer(400, { error: 'unsupported_grant_type' })
  }

  close(): Promise<void> {
    return this.server.close()
  }
}

/**
 * A platform module for that provider, connected through OAuth 2.0 (PKCE S256, Basic client
 * auth, rotating refresh tokens), registered under a real platform's name. Its documented
 * endpoints are unreachable on purpose: tests reach the fake through the operator's overrides.
 */
export function loopbackOAuthPlatform(name: PlatformName, options: { pkce?: boolean } = {}): OAuthPlatform {
  const label = `Loopback ${name.toUpperCase()}`
  return {
    name,
    label,
    auth: 'oauth2',
    idempotencyWindowMs: 0,
    thread: 'consecutive',
    firstComment: null,
    limits: { text: { max: 500, count: 'utf16' }, media: { max: null } },
    measure: (draft) => ({ length: draft.content.length, limit: 500 }),
    check: () => [],
    oauth: {
      endpoints: { authorizeUrl: 'https://oauth.invalid/authorize', tokenUrl: 'https://oauth.invalid/token', apiUrl: 'https://oauth.invalid' },
      scopes: ['read', 'write', 'offline.access'],
      scopeSeparator: ' ',
      pkce: options.pkce ?? true,
      authorizeParams: { prompt: 'consent' },
      async exchange(grant, ctx) {
        const params: Record<string, string> = { grant_type: 'authorization_code', code: grant.code, redirect_uri: ctx.app.redirectUri }
        if (grant.codeVerifier) params.code_verifier = grant.codeVerifier
        const tokens = await tokenRequest(ctx, label, params, 'basic')
        const me = await platformRequest(ctx, label, `${ctx.app.apiUrl}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })
        const user = jsonOrUndefined<{ id: string; username: string; name: string }>(me)
        if (me.status !== 200 || !user) throw statusError(label, me, 'could not read the user', ctx.clock.now())
        const { scope: _scope, token_type: _type, ...kept } = tokens
        return {
          handle: `@${user.username}`,
          display_name: user.name,
          settings: { ...(grant.options.page_id ? { page_id: grant.options.page_id } : {}) },
          credentials: { ...kept, user_id: user.id },
        }
      },
      async refresh(tokens, ctx) {
        const fresh = await tokenRequest(ctx, label, { grant_type: 'refresh_token', refresh_token: String(tokens.refresh_token) }, 'basic')
        const { scope: _scope, token_type: _type, ...kept } = fresh
        return kept
      },
    },
    async publish(connection, request, ctx) {
      const res = await platformRequest(ctx, label, `${ctx.app!.apiUrl}/publish`, {
        method: 'POST',
        headers: { authorization: `Bearer ${connection.credentials.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: request.content }),
      })
      const body = jsonOrUndefined<{ id: string; url: string; error?: string }>(res)
      if (res.status !== 201 || !body) throw statusError(label, res, body?.error ?? 'publish failed', ctx.clock.now())
      return { platform_post_id: body.id, url: body.url }
    },
    async metrics(connection, ids, ctx) {
      const res = await platformRequest(ctx, label, `${ctx.app!.apiUrl}/metrics?ids=${ids.join(',')}`, { headers: { authorization: `Bearer ${connection.credentials.access_token}` } })
      const body = jsonOrUndefined<{ data: { id: string; likes: number; reposts: number; replies: number }[]; error?: string }>(res)
      if (res.status !== 200 || !body) throw statusError(label, res, body?.error ?? 'metrics failed', ctx.clock.now())
      const out = new Map<string, Metrics>()
      for (const m of body.data) out.set(m.id, { impressions: null, likes: m.likes, reposts: m.reposts, replies: m.replies, quotes: null, clicks: null })
      return out
    },
  }
}

/** The environment an operator sets for the loopback platform: its app, and endpoints at the fake. */
export function oauthEnv(name: PlatformName, provider: FakeOAuthProvider): NodeJS.ProcessEnv {
  const prefix = `SMM_PLATFORM_${name.toUpperCase()}_`
  return {
    [`${prefix}CLIENT_ID`]: CLIENT_ID,
    [`${prefix}CLIENT_SECRET`]: CLIENT_SECRET,
    [`${prefix}AUTHORIZE_URL`]: `${provider.url}/authorize`,
    [`${prefix}TOKEN_URL`]: `${provider.url}/token`,
    [`${prefix}API_URL`]: provider.url,
  }
}

/**
 * A test daemon (no background workers: tests tick it) with the loopback OAuth platform
 * registered as `x` (PKCE) and `linkedin` (no PKCE), their apps configured by `env`, trusting the
 * fake's certificate on loopback, its owner's limits lifted.
 */
export async function startOAuthDaemon(clock: ManualClock, env: NodeJS.ProcessEnv, options: { metricsPort?: number } = {}): Promise<TestDaemon> {
  const { cert } = await loopbackTls()
  const t = await startTestDaemon({
    ...options,
    clock,
    allowPrivateNetwork: true,
    egress: { ca: [cert] },
    backgroundWorkers: false,
    overrides: { platforms: [loopbackOAuthPlatform('x'), loopbackOAuthPlatform('linkedin', { pkce: false })], env },
  })
  await liftLimits(t)
  return t
}
