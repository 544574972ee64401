import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../src/time.js'
import { loopbackTls } from './fixtures/loopback.js'
import { sql, type TestDaemon } from './helpers/daemon.js'
import { CLIENT_SECRET, FakeOAuthProvider, oauthEnv, startOAuthDaemon } from './helpers/loopback-oauth.js'
import { eventsOf } from './helpers/posts.js'
import { scrape, valueOf } from './helpers/prometheus.js'

// The real daemon over TLS, with a loopback OAuth platform registered as `x` whose app the
// operator configured by environment, endpoints pointing at a fake authorization server.
const MIN = 60_000
let t: TestDaemon
let clock: ManualClock
let provider: FakeOAuthProvider
let env: NodeJS.ProcessEnv
let accountId: string

/** Starts a connection over the API: the 202 answer. */
async function startConnect(id = accountId, body: Record<string, unknown> = { platform: 'x' }) {
  const res = await t.http.post(`/v1/accounts/${id}/connections`, body, { key: t.key })
  expect(res.status, JSON.stringify(res.body)).toBe(202)
  return res.body as { platform: string; status: string; authorize_url: string; expires_at: string }
}

/** What the person's browser does: opens the authorize URL at the fake, follows its redirect to our callback. */
async function approveInBrowser(authorizeUrl: string): Promise<{ status: number; text: string; callback: string }> {
  const back = provider.authorizeRedirect(authorizeUrl)
  const callback = back.pathname + back.search
  const res = await t.http.get(callback)
  return { status: res.status, text: res.text, callback }
}

async function connectionOf(id = accountId, platform = 'x') {
  const account = await t.http.get(`/v1/accounts/${id}`, { key: t.key })
  return (account.body.connections as { platform: string; status: string; handle: string; connected_at: string; expires_at?: string }[]).find((c) => c.platform === platform)
}

/** How many refreshes of `x` tokens the daemon's metrics count with this outcome. */
async function refreshesCounted(outcome: 'refreshed' | 'refused' | 'failed'): Promise<number> {
  return valueOf((await scrape(t.daemon.metricsUrl!)).text, 'smm_oauth_refresh_total', { platform: 'x', outcome })!
}

async function connectX(): Promise<void> {
  const pending = await startConnect()
  expect((await approveInBrowser(pending.authorize_url)).status).toBe(200)
  expect((await connectionOf())?.status).toBe('active')
}

async function publishNow(content: string) {
  const post = await t.http.post('/v1/posts', { account_id: accountId, content, platforms: ['x'] }, { key: t.key })
  expect(post.status, JSON.stringify(post.body)).toBe(201)
  await t.daemon.scheduler.tick(clock.now())
  return (await t.http.get(`/v1/posts/${post.body.id}`, { key: t.key })).body
}

beforeAll(async () => {
  clock = new ManualClock()
  provider = await FakeOAuthProvider.start(clock)
  env = oauthEnv('x', provider)
  t = await startOAuthDaemon(clock, env, { metricsPort: 0 })
  accountId = (await t.http.post('/v1/accounts', { name: 'Brand' }, { key: t.key })).body.id
})

afterAll(async () => {
  await t?.stop()
  await provider?.close()
})

describe('connecting an OAuth platform through the browser', () => {
  it('answers 202 with an authorize URL carrying the app, redirect URI, scopes, a state and a PKCE S256 challenge', async () => {
    const pending = await startConnect()
    expect(pending).toMatchObject({ platform: 'x', status: 'pending' })
    expect(Date.parse(pending.expires_at)).toBe(clock.now() + 10 * MIN)
    const url = new URL(pending.authorize_url)
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.url}/authorize`)
    const p = Object.fromEntries(url.searchParams)
    expect(p).toMatchObject({ response_type: 'code', client_id: 'loopback-client', redirect_uri: `${t.url}/oauth/callback`, scope: 'read write offline.access', code_challenge_method: 'S256', prompt: 'consent' })
    // 32 random bytes, base64url: 43 characters; the challenge is a SHA-256, also 43.
    expect(p.state).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(p.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(JSON.stringify(p)).not.toContain(CLIENT_SECRET)
  })

  it('lists the connection as pending with its expiry until the person approves, then active, with account.connected', async () => {
    const id = (await t.http.post('/v1/accounts', { name: 'Approver' }, { key: t.key })).body.id
    const pending = await startConnect(id)
    expect(await connectionOf(id)).toMatchObject({ platform: 'x', status: 'pending', handle: '', expires_at: pending.expires_at })
    const before = (await eventsOf(t, 'account.connected')).length

    // The browser goes to the fake authorization server for real, and comes back with its redirect.
    const res = await fetchAuthorize(pending.authorize_url)
    expect(res.status).toBe(302)
    const back = new URL(res.location)
    expect(`${back.origin}${back.pathname}`).toBe(`${t.url}/oauth/callback`)
    const page = await t.http.get(back.pathname + back.search)
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.text).toContain('Loopback X is connected to account Approver. You may close this tab.')
    expect(page.text).not.toMatch(/<script/i)

    const connection = await connectionOf(id)
    expect(connection).toMatchObject({ platform: 'x', status: 'active', handle: '@brand' })
    expect(connection!.expires_at).toBeUndefined()
    const events = await eventsOf(t, 'account.connected')
    expect(events.length).toBe(before + 1)
    expect(events.at(-1)!.data).toMatchObject({ id, platform: 'x' })
    // The PKCE verifier went to the token endpoint and matched the challenge (the fake checks it).
    expect(provider.tokenRequests.at(-1)).toEqual({ grantType: 'authorization_code', status: 200 })
  })

  it('keeps an active connection as it is while a reconnect is pending', async () => {
    await connectX()
    const active = await connectionOf()
    await startConnect()
    expect(await connectionOf()).toEqual(active)
  })

  it('refuses a used, unknown or expired state, and a denial, changing nothing', async () => {
    await connectX()
    const active = await connectionOf()
    const connectedEvents = (await eventsOf(t, 'account.connected')).length

    clock.advance(1_000)
    const pending = await startConnect()
    const first = await approveInBrowser(pending.authorize_url)
    expect(first.status).toBe(200)
    const settled = await connectionOf()
    const reused = await t.http.get(first.callback)
    expect(reused.status).toBe(400)
    expect(reused.text).toContain('unknown or was already used')

    const wrong = await t.http.get('/oauth/callback?code=whatever&state=' + 'A'.repeat(43))
    expect(wrong.status).toBe(400)
    expect(wrong.text).toContain('unknown or was already used')

    provider.decision = 'deny'
    const denied = await approveInBrowser((await startConnect()).authorize_url)
    provider.decision = { approve: 'brand' }
    expect(denied.status).toBe(400)
    expect(denied.text).toContain('You did not allow smm to publish for you, so nothing was connected.')

    const late = await startConnect()
    clock.advance(10 * MIN + 1)
    const expired = await approveInBrowser(late.authorize_url)
    expect(expired.status).toBe(400)
    expect(expired.text).toContain('took longer than 10 minutes')

    expect(await connectionOf()).toEqual(settled)
    expect(settled!.connected_at).not.toBe(active!.connected_at)
    expect((await eventsOf(t, 'account.connected')).length).toBe(connectedEvents + 1)
  })

  it("shows no token endpoint's words on the page, and logs them without a credential the exchange sent", async () => {
    const id = (await t.http.post('/v1/accounts', { name: 'Echoed' }, { key: t.key })).body.id
    provider.echoTokenRequests = true
    try {
      const pending = await startConnect(id)
      const page = await approveInBrowser(pending.authorize_url)
      expect(page.status).toBe(502)
      expect(page.text).toContain('Loopback X could not be reached to complete the connection (platform_unavailable); try again in a minute. Nothing was connected;')
      const code = new URL(page.callback, t.url).searchParams.get('code')!
      const basic = Buffer.from(`loopback-client:${CLIENT_SECRET}`).toString('base64')
      const logged = t.logs.filter((line) => line.includes('oauth code exchange refused'))
      expect(logged).toHaveLength(1)
      // The echo was quoted (the log has the details), each credential in it left out.
      expect(logged[0]).toContain('authorization: Basic [redacted]')
      expect(logged[0]).toContain('code=[redacted]')
      for (const text of [page.text, ...logged]) {
        for (const secret of [CLIENT_SECRET, basic, code]) expect(text).not.toContain(secret)
        expect(text).not.toMatch(/code_verifier=(?!\[redacted\])/)
      }
      expect(await connectionOf(id)).toBeUndefined()
    } finally {
      provider.echoTokenRequests = false
    }
  })

  it("puts no text of a link's on the page: without a state of ours it is not valid, with one only RFC 6749's codes are named", async () => {
    const phishing = `Your account is suspended.\n\u202eCall +1 555 0100 now ${'and pay '.repeat(500)}`
    for (const query of [`error=${encodeURIComponent(phishing)}`, `error=${encodeURIComponent(phishing)}&state=${'B'.repeat(43)}`, `error=access_denied&error_description=${encodeURIComponent(phishing)}`]) {
      const res = await t.http.get(`/oauth/callback?${query}`)
      expect(res.status).toBe(400)
      expect(res.text).toContain('<h1>This link is not valid</h1>')
      expect(res.text).not.toMatch(/suspended|555|\u202e/)
    }
    const id = (await t.http.post('/v1/accounts', { name: 'Phished' }, { key: t.key })).body.id
    const stateOf = async () => new URL((await startConnect(id)).authorize_url).searchParams.get('state')!
    const free = await t.http.get(`/oauth/callback?state=${await stateOf()}&error=${encodeURIComponent(phishing)}&error_description=${encodeURIComponent(phishing)}`)
    expect(free.status).toBe(400)
    expect(free.text).toContain('Loopback X did not grant access, so nothing was connected.')
    expect(free.text).not.toMatch(/suspended|555|\u202e/)
    const listed = await t.http.get(`/oauth/callback?state=${await stateOf()}&error=temporarily_unavailable&error_description=${encodeURIComponent(phishing)}`)
    expect(listed.text).toContain('Loopback X did not grant access (temporarily_unavailable), so nothing was connected.')
    expect(listed.text).not.toMatch(/suspended|555/)
  })

  it('keeps the newest three approval links of an account and platform: repeated connects do not pile up', async () => {
    const id = (await t.http.post('/v1/accounts', { name: 'Impatient' }, { key: t.key })).body.id
    const links: string[] = []
    for (let i = 0; i < 40; i++) {
      links.push((await startConnect(id)).authorize_url)
      clock.advance(10)
    }
    const grants = sql(t).prepare('SELECT COUNT(*) AS n FROM oauth_grants WHERE account_id = ?').get(id) as { n: number }
    expect(grants.n).toBe(3)
    const oldest = await approveInBrowser(links[0]!)
    expect(oldest.status).toBe(400)
    expect(oldest.text).toContain('unknown or was already used')
    expect((await approveInBrowser(links.at(-1)!)).status).toBe(200)
    expect((await connectionOf(id))?.status).toBe('active')
  })

  it('stops listing a pending connection once it expires', async () => {
    const id = (await t.http.post('/v1/accounts', { name: 'Slow' }, { key: t.key })).body.id
    await startConnect(id)
    expect((await connectionOf(id))?.status).toBe('pending')
    clock.advance(10 * MIN)
    expect(await connectionOf(id)).toBeUndefined()
  })

  it('refuses credentials for an OAuth platform, and a platform whose app is not configured', async () => {
    const withCredentials = await t.http.post(`/v1/accounts/${accountId}/connections`, { platform: 'x', credentials: { access_token: 'mine' } }, { key: t.key })
    expect(withCredentials.status).toBe(422)
    expect(withCredentials.body.errors[0]).toMatchObject({ pointer: '#/credentials', code: 'oauth_platform' })
    expect(withCredentials.body.errors[0].detail).toContain('connects through the browser')

    const unconfigured = await t.http.post(`/v1/accounts/${accountId}/connections`, { platform: 'linkedin' }, { key: t.key })
    expect(unconfigured.status).toBe(422)
    expect(unconfigured.body.code).toBe('platform_not_configured')
    expect(unconfigured.body.errors[0]).toMatchObject({ pointer: '#/platform', code: 'platform_not_configured' })
    for (const words of ['SMM_PLATFORM_LINKEDIN_CLIENT_ID', 'SMM_PLATFORM_LINKEDIN_CLIENT_SECRET', 'smm admin platforms set linkedin']) expect(unconfigured.body.detail).toContain(words)
  })
})

describe('tokens at publish time', () => {
  it('refreshes tokens about to expire before publishing, and stores the new ones at once', async () => {
    await connectX()
    const refreshes = provider.refreshes()
    const counted = await refreshesCounted('refreshed')
    clock.advance(7200_000 - 4 * MIN)
    const post = await publishNow('refreshed first')
    expect(post.status).toBe('published')
    expect(provider.refreshes()).toBe(refreshes + 1)
    expect(await refreshesCounted('refreshed')).toBe(counted + 1)
    // Published with the new token, which the next publish uses without refreshing again.
    expect(provider.access.has(provider.published.at(-1)!.token)).toBe(true)
    expect((await publishNow('no refresh needed')).status).toBe('published')
    expect(provider.refreshes()).toBe(refreshes + 1)
  })

  it('refreshes once when the platform refuses the access token, then publishes', async () => {
    await connectX()
    const refreshes = provider.refreshes()
    provider.revokeAccess('brand')
    const post = await publishNow('after a 401')
    expect(post.status).toBe('published')
    expect(provider.refreshes()).toBe(refreshes + 1)
  })

  it('marks the connection reauth_required, with its event, when the refresh is refused', async () => {
    await connectX()
    provider.revokeGrant('brand')
    const before = (await eventsOf(t, 'account.reauth_required')).length
    const refused = await refreshesCounted('refused')
    const post = await publishNow('grant revoked')
    expect(post.status).toBe('failed')
    expect(await refreshesCounted('refused')).toBe(refused + 1)
    expect(post.targets[0].error.detail).toContain('invalid_grant')
    expect((await connectionOf())?.status).toBe('reauth_required')
    expect((await eventsOf(t, 'account.reauth_required')).length).toBe(before + 1)
  })

  it('refreshes a connection once when two publishes find its tokens expiring together', async () => {
    await connectX()
    const refreshes = provider.refreshes()
    const requests = provider.tokenRequests.length
    clock.advance(7200_000 - MIN)
    provider.refreshDelayMs = 300
    try {
      const a = await t.http.post('/v1/posts', { account_id: accountId, content: 'one', platforms: ['x'] }, { key: t.key })
      const b = await t.http.post('/v1/posts', { account_id: accountId, content: 'two', platforms: ['x'] }, { key: t.key })
      await t.daemon.scheduler.tick(clock.now())
      for (const id of [a.body.id, b.body.id]) expect((await t.http.get(`/v1/posts/${id}`, { key: t.key })).body.status).toBe('published')
    } finally {
      provider.refreshDelayMs = 0
    }
    // A second refresh would have spent the rotated token and been refused (reauth_required).
    expect(provider.refreshes()).toBe(refreshes + 1)
    expect(provider.tokenRequests.slice(requests).filter((r) => r.status !== 200)).toEqual([])
    expect((await connectionOf())?.status).toBe('active')
  })

  it('fails the target platform_not_configured when the app is gone at publish time', async () => {
    await connectX()
    const saved = { ...env }
    delete env.SMM_PLATFORM_X_CLIENT_ID
    try {
      const post = await publishNow('no app')
      expect(post.status).toBe('failed')
      expect(post.targets[0].error.code).toBe('platform_not_configured')
      expect(post.targets[0].error.detail).toContain('SMM_PLATFORM_X_CLIENT_ID')
    } finally {
      Object.assign(env, saved)
    }
    expect((await connectionOf())?.status).toBe('active')
  })

  it('reads metrics with refreshed tokens', async () => {
    await connectX()
    const post = await publishNow('counted')
    expect(post.status).toBe('published')
    const refreshes = provider.refreshes()
    provider.revokeAccess('brand')
    const collector = t.daemon.workers.find((w) => w.name === 'metrics-collector') as unknown as { tick(now: number): Promise<void> }
    clock.advance(2 * 3_600_000)
    await collector.tick(clock.now())
    expect(provider.refreshes()).toBe(refreshes + 1)
    const history = await t.daemon.store.metrics.history(post.id, 'x')
    expect(history.at(-1)).toMatchObject({ likes: 3, reposts: 1, replies: 2 })
  })

  it('counts a refresh the token endpoint fails to answer as failed, and leaves the connection as it is', async () => {
    await connectX()
    const failed = await refreshesCounted('failed')
    const refreshed = await refreshesCounted('refreshed')
    clock.advance(7200_000 - MIN)
    provider.echoTokenRequests = true
    try {
      const post = await publishNow('token endpoint down')
      // Its target waits for a retry (no later test ticks the scheduler).
      expect(post.status).toBe('publishing')
    } finally {
      provider.echoTokenRequests = false
    }
    expect(await refreshesCounted('failed')).toBe(failed + 1)
    expect(await refreshesCounted('refreshed')).toBe(refreshed)
    expect((await connectionOf())?.status).toBe('active')
  })

  it('never shows or logs a token, a code, a state or the client secret', async () => {
    const secrets = [CLIENT_SECRET, ...provider.access.keys(), ...provider.codes.keys(), ...[...provider.refresh.values()]]
    expect(secrets.length).toBeGreaterThan(5)
    const logs = t.logs.join('\n')
    for (const secret of secrets) expect(logs).not.toContain(secret)
    // Nor a query or a form that holds one (the echoing endpoint's, quoted in the log, has it left out).
    expect(logs).not.toMatch(/state=(?!\[redacted\])|code=(?!\[redacted\])/)
    const accounts = JSON.stringify((await t.http.get('/v1/accounts', { key: t.key })).body)
    for (const secret of secrets) expect(accounts).not.toContain(secret)
  })
})

/** A real HTTPS GET of the authorize URL at the fake, without following its redirect. */
async function fetchAuthorize(url: string): Promise<{ status: number; location: string }> {
  const https = await import('node:https')
  const { cert } = await loopbackTls()
  return new Promise((resolve, reject) => {
    https.get(url, { ca: cert }, (res) => {
      res.resume()
      resolve({ status: res.statusCode!, location: String(res.headers.location) })
    }).on('error', reject)
  })
}
