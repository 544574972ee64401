import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ManualClock } from '../src/time.js'
import { cliHomeFor, runCli, type CliResult } from './helpers/cli.js'
import type { TestDaemon } from './helpers/daemon.js'
import { CLIENT_SECRET, FakeOAuthProvider, oauthEnv, startOAuthDaemon } from './helpers/loopback-oauth.js'

const root = resolve(import.meta.dirname, '..')
let t: TestDaemon
let provider: FakeOAuthProvider
let home: ReturnType<typeof cliHomeFor>
let accountId: string

beforeAll(async () => {
  const clock = new ManualClock()
  provider = await FakeOAuthProvider.start(clock)
  t = await startOAuthDaemon(clock, oauthEnv('x', provider))
  accountId = (await t.http.post('/v1/accounts', { name: 'Brand' }, { key: t.key })).body.id
  home = cliHomeFor(t)
})

afterAll(async () => {
  await t?.stop()
  await provider?.close()
  home?.remove()
})

/**
 * Runs `smm accounts connect` and, when it prints the approval link, does what the person does in
 * their browser: `browser(url)` (approve or deny at the fake, then follow its redirect to the daemon).
 */
function connectWithBrowser(args: string[], browser: (url: string) => Promise<void>): Promise<CliResult & { url: string }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin/run.js'), 'accounts', 'connect', ...args], { cwd: root, env: home.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let url = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')))
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8')
      // The whole line: output may arrive cut anywhere, the link included.
      const found = /^\s+(https:\/\/\S+\/authorize\?\S+)\n/m.exec(stderr)
      if (found && !url) {
        url = found[1]!
        browser(url).catch(reject)
      }
    })
    child.on('error', reject)
    child.on('close', (code) => done({ code, stdout, stderr, url }))
  })
}

async function followAuthorize(url: string): Promise<void> {
  const back = provider.authorizeRedirect(url)
  const page = await t.http.get(back.pathname + back.search)
  expect(page.headers['content-type']).toMatch(/^text\/html/)
}

describe('smm accounts connect for an OAuth platform', () => {
  it('prints the link, waits while the person approves, then prints the connection (--json: the connection only)', async () => {
    const result = await connectWithBrowser([accountId, '--platform', 'x', '--no-browser', '--json'], followAuthorize)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain('Open this link to approve smm on x')
    expect(new URL(result.url).searchParams.get('redirect_uri')).toBe(`${t.url}/oauth/callback`)
    const connection = JSON.parse(result.stdout)
    expect(connection).toMatchObject({ platform: 'x', status: 'active', handle: '@brand' })
    expect(result.stdout + result.stderr).not.toContain(CLIENT_SECRET)
  })

  it('says what to do and exits non-zero when the person denies', async () => {
    const id = (await t.http.post('/v1/accounts', { name: 'Denier' }, { key: t.key })).body.id
    provider.decision = 'deny'
    try {
      const result = await connectWithBrowser([id, '--platform', 'x', '--no-browser'], followAuthorize)
      expect(result.code).toBe(1)
      expect(result.stderr).toContain('x was not connected')
      expect(result.stderr).toContain(`smm accounts connect ${id} --platform x`)
      expect(result.stdout).toBe('')
    } finally {
      provider.decision = { approve: 'brand' }
    }
  })

  it('keeps waiting while the daemon exchanges the code, however long the platform takes to answer', async () => {
    const id = (await t.http.post('/v1/accounts', { name: 'Slow platform' }, { key: t.key })).body.id
    let release!: () => void
    provider.exchangeHold = new Promise((resolve) => (release = resolve))
    try {
      const result = await connectWithBrowser([id, '--platform', 'x', '--no-browser'], async (url) => {
        const back = provider.authorizeRedirect(url)
        // The person is back at the daemon; the daemon is exchanging the code, and waits for the platform.
        const page = t.http.get(back.pathname + back.search)
        await vi.waitFor(() => expect(provider.exchangesWaiting).toBe(1), { timeout: 10_000, interval: 10 })
        expect((await t.http.get(`/v1/accounts/${id}`, { key: t.key })).body.connections).toEqual([expect.objectContaining({ platform: 'x', status: 'pending' })])
        // The CLI asks twice more meanwhile, and goes on waiting.
        const polls = () => t.logs.filter((line) => line.includes('"method":"GET","route":"/v1/accounts/:id"')).length
        const before = polls()
        await vi.waitFor(() => expect(polls()).toBeGreaterThanOrEqual(before + 2), { timeout: 10_000, interval: 20 })
        release()
        expect((await page).status).toBe(200)
      })
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout).toContain(`Connected x to account ${id} as @brand`)
    } finally {
      release()
      provider.exchangeHold = undefined
    }
  })

  it('prints a human line for a reconnect, passing --page-id on as an option', async () => {
    t.clock.advance(1_000)
    const result = await connectWithBrowser([accountId, '--platform', 'x', '--no-browser', '--page-id', '1234'], followAuthorize)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain(`Connected x to account ${accountId} as @brand`)
    expect((await t.daemon.store.accounts.connection(accountId, 'x'))?.settings).toEqual({ page_id: '1234' })
  })
})

describe('smm admin platforms', () => {
  const admin = (args: string[], input?: string) => runCli(['admin', 'platforms', ...args, '--data-dir', t.dataDir], { env: home.env, input })

  it('stores an app the daemon then uses, lists it without its secret, and removes it', async () => {
    const set = await admin(['set', 'linkedin', '--client-id', 'loopback-client', '--client-secret-stdin'], `${CLIENT_SECRET}\n`)
    expect(set.code, set.stderr).toBe(0)
    expect(set.stdout).toContain('Stored the linkedin app')

    const list = await admin(['list', '--json', '--public-url', 'https://smm.example.com'])
    expect(list.code, list.stderr).toBe(0)
    const apps = JSON.parse(list.stdout).data as { name: string; configured: boolean; source: string | null; redirect_uri: string }[]
    expect(apps.find((a) => a.name === 'linkedin')).toEqual({ name: 'linkedin', configured: true, source: 'stored', client_id: 'loopback-client', redirect_uri: 'https://smm.example.com/oauth/callback' })
    expect(apps.find((a) => a.name === 'threads')).toMatchObject({ configured: false, source: null })
    expect(list.stdout).not.toContain(CLIENT_SECRET)
    const table = await admin(['list'])
    expect(table.stdout).toMatch(/linkedin\s+yes\s+stored/)

    const started = await t.http.post(`/v1/accounts/${accountId}/connections`, { platform: 'linkedin' }, { key: t.key })
    expect(started.status).toBe(202)
    expect(new URL(started.body.authorize_url).searchParams.get('client_id')).toBe('loopback-client')
    // No PKCE for a platform that does not take it.
    expect(new URL(started.body.authorize_url).searchParams.has('code_challenge')).toBe(false)

    const removed = await admin(['remove', 'linkedin'])
    expect(removed.code, removed.stderr).toBe(0)
    expect((await admin(['remove', 'linkedin'])).code).toBe(4)
    const refused = await t.http.post(`/v1/accounts/${accountId}/connections`, { platform: 'linkedin' }, { key: t.key })
    expect(refused.body.code).toBe('platform_not_configured')
    // The CLI says it once, naming what the operator must set, and exits 2.
    const cli = await runCli(['accounts', 'connect', accountId, '--platform', 'linkedin', '--no-browser'], { env: home.env })
    expect(cli.code).toBe(2)
    expect(cli.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^Error: .*SMM_PLATFORM_LINKEDIN_CLIENT_ID and SMM_PLATFORM_LINKEDIN_CLIENT_SECRET.*smm admin platforms set linkedin/)])
  })
})
