import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordKeyFor } from '../daemon/platforms/record-key.js'
import { ReferencePds } from './fixtures/bluesky-server.js'
import { FakeDiscord } from './fixtures/discord-server.js'
import { loopbackTls, PDS_HOST, sendJson, startLoopbackServer, type LoopbackServer } from './fixtures/loopback.js'
import { FakeMastodon } from './fixtures/mastodon-server.js'
import { startMediaHost } from './fixtures/media-host.js'
import { FakeSlack } from './fixtures/slack-server.js'
import { FakeTelegram } from './fixtures/telegram-server.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { eventsOf, liftLimits } from './helpers/posts.js'

// The real daemon, configured with --allow-private-network against loopback servers that speak
// each platform's protocol (the reference PDS for Bluesky: one instance for the whole file).
let t: TestDaemon
let masto: FakeMastodon
let pds: ReferencePds
let telegram: FakeTelegram
let discord: FakeDiscord
let slack: FakeSlack
let media: Awaited<ReturnType<typeof startMediaHost>>
let alice: Awaited<ReturnType<ReferencePds['createAccount']>>
const MIN = 60_000
const iso = (ms: number) => new Date(ms).toISOString()

const PLATFORMS = ['mastodon', 'bluesky', 'telegram', 'discord', 'slack'] as const
type Name = (typeof PLATFORMS)[number]
const credentials: Record<Name, () => Record<string, string>> = {
  mastodon: () => ({ instance_url: masto.url, access_token: 'token-alice' }),
  bluesky: () => ({ service_url: pds.url, identifier: 'alice.test', app_password: alice.appPassword }),
  telegram: () => ({ bot_token: '123456:ABC-def_ghi', chat_id: '@smmnews', api_url: telegram.apiUrl }),
  discord: () => ({ webhook_url: discord.hookUrl() }),
  slack: () => ({ webhook_url: slack.hookUrl() }),
}
const SECRETS = () => ['token-alice', alice.appPassword, 'ABC-def_ghi', 'hook-token', 'secretsecret']

beforeAll(async () => {
  ;[masto, pds, telegram, discord, slack, media] = await Promise.all([
    FakeMastodon.start(),
    ReferencePds.start(),
    FakeTelegram.start(),
    FakeDiscord.start(),
    FakeSlack.start(),
    startMediaHost(),
  ])
  alice = await pds.createAccount('alice.test', 'Alice Example')
  const { cert } = await loopbackTls()
  // The PDS fixture's name stands for 127.0.0.1, as a DNS server would say.
  const resolve = async (host: string) => [{ address: host === PDS_HOST || host === 'localhost' ? '127.0.0.1' : host, family: 4 }]
  t = await startTestDaemon({ allowPrivateNetwork: true, egress: { ca: [cert], resolve } })
  await liftLimits(t)
})

afterAll(async () => {
  await t?.stop()
  await Promise.all([masto?.server.close(), pds?.close(), telegram?.server.close(), discord?.server.close(), slack?.server.close(), media?.close()])
})

const connect = (account: string, platform: string, creds: Record<string, string>) => t.http.post(`/v1/accounts/${account}/connections`, { platform, credentials: creds }, { key: t.key })
const get = async (id: string) => (await t.http.get(`/v1/posts/${id}`, { key: t.key })).body
const targetOf = (post: any, platform: string) => post.targets.find((target: any) => target.platform === platform)
const tick = () => t.daemon.scheduler.tick(t.clock.now())

async function account(name: string, connections: Partial<Record<Name, Record<string, string>>>): Promise<string> {
  const created = await t.http.post('/v1/accounts', { name }, { key: t.key })
  expect(created.status).toBe(201)
  for (const [platform, creds] of Object.entries(connections)) expect((await connect(created.body.id, platform, creds)).status).toBe(201)
  return created.body.id
}

async function schedule(accountId: string, platforms: string[], content: string, mediaUrls: string[] = []): Promise<string> {
  const res = await t.http.post('/v1/posts', { account_id: accountId, content, media_urls: mediaUrls, scheduled_at: iso(t.clock.now() + MIN), platforms }, { key: t.key })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  t.clock.advance(MIN)
  return res.body.id
}

describe('connecting', () => {
  it('checks each platform live, shows what the platform says, and never returns or stores the credentials in the clear', async () => {
    const created = await t.http.post('/v1/accounts', { name: 'Everywhere' }, { key: t.key })
    const expected: Record<Name, [string, string]> = {
      mastodon: ['@alice@social.example', 'Alice Example'],
      bluesky: ['@alice.test', 'Alice Example'],
      telegram: ['@smmnews', 'smm news (via @smm_test_bot)'],
      discord: ['smm announcements', 'smm announcements'],
      slack: ['T0001/B0001', 'Slack incoming webhook'],
    }
    for (const platform of PLATFORMS) {
      const res = await connect(created.body.id, platform, credentials[platform]())
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      expect(res.body).toEqual({ platform, handle: expected[platform][0], display_name: expected[platform][1], status: 'active', connected_at: expect.any(String) })
    }
    const shown = JSON.stringify([(await t.http.get(`/v1/accounts/${created.body.id}`, { key: t.key })).body, await eventsOf(t, 'account.connected')])
    const stored = readdirSync(t.dataDir)
      .filter((file) => file.startsWith('smm.db'))
      .map((file) => readFileSync(join(t.dataDir, file)).toString('latin1'))
      .join('')
    for (const secret of SECRETS()) {
      expect(shown).not.toContain(secret)
      expect(stored).not.toContain(secret)
    }
  })

  it("refuses credentials the platform rejects with 422 and the platform's reason, and a platform outage with 502", async () => {
    const created = await t.http.post('/v1/accounts', { name: 'Wrong keys' }, { key: t.key })
    const wrong: Array<[Name, Record<string, string>, string]> = [
      ['mastodon', { ...credentials.mastodon(), access_token: 'revoked' }, 'The access token is invalid'],
      ['bluesky', { ...credentials.bluesky(), app_password: 'aaaa-bbbb-cccc-dddd' }, 'Invalid identifier or password'],
      ['telegram', { ...credentials.telegram(), bot_token: '999:nope' }, 'Unauthorized'],
      ['telegram', { ...credentials.telegram(), chat_id: '@nosuchchannel' }, 'chat not found'],
      ['discord', { webhook_url: discord.hookUrl('1100', 'wrong-token') }, 'Invalid Webhook Token'],
      ['slack', { webhook_url: slack.hookUrl('T0001/B0001/wrong') }, 'no_service'],
    ]
    for (const [platform, creds, reason] of wrong) {
      const res = await connect(created.body.id, platform, creds)
      expect(res.status).toBe(422)
      expect(res.body.errors).toEqual([{ pointer: '#/credentials', code: 'credentials_rejected', detail: expect.stringContaining(reason) }])
    }
    masto.failNext('GET /api/v1/accounts/verify_credentials', { status: 503, body: { error: 'Service Unavailable' } })
    const down = await connect(created.body.id, 'mastodon', credentials.mastodon())
    expect(down.status).toBe(502)
    expect(down.body).toMatchObject({ code: 'platform_unavailable', detail: expect.stringContaining('Service Unavailable') })
    expect((await t.http.get(`/v1/accounts/${created.body.id}`, { key: t.key })).body.connections).toEqual([])
  })
})

describe('publishing through the scheduler', () => {
  it('publishes one post with an image to every platform at once, recording each id and URL', async () => {
    const all = Object.fromEntries(PLATFORMS.map((p) => [p, credentials[p]()]))
    const acc = await account('Launch', all)
    const sealedBefore = (await t.daemon.store.accounts.connection(acc, 'bluesky'))!.sealedCredentials
    const content = 'Launch day! Details at https://example.com/launch #smm'
    const id = await schedule(acc, [...PLATFORMS], content, [media.media('cat.png')])
    await tick()
    const post = await get(id)
    expect(post.status).toBe('published')

    const status = [...masto.statuses.values()].at(-1)!
    expect(status).toMatchObject({ content, media_ids: [expect.any(String)] })
    expect(targetOf(post, 'mastodon')).toMatchObject({ status: 'published', attempts: 1, platform_post_id: status.id, url: `${masto.url}/@alice/${status.id}` })

    const rkey = recordKeyFor(id)
    expect(targetOf(post, 'bluesky')).toMatchObject({ status: 'published', platform_post_id: `at://${alice.did}/app.bsky.feed.post/${rkey}`, url: `https://bsky.app/profile/${alice.did}/post/${rkey}` })
    const record = await pds.getRecord(targetOf(post, 'bluesky').platform_post_id)
    expect(record.value).toMatchObject({ text: content, embed: { $type: 'app.bsky.embed.images' } })

    const photo = telegram.sent.at(-1)!
    expect(photo).toMatchObject({ method: 'sendPhoto', caption: content, files: [{ field: 'photo', name: 'cat.png', type: 'image/png' }] })
    const messageId = Number(targetOf(post, 'telegram').platform_post_id.split(':')[1])
    expect(targetOf(post, 'telegram')).toMatchObject({ status: 'published', platform_post_id: `-1001234567890:${messageId}`, url: `https://t.me/smmnews/${messageId}` })

    const message = discord.messages.at(-1)!
    expect(message).toMatchObject({ content, files: [{ name: 'cat.png', type: 'image/png' }], attachments: [{ filename: 'cat.png', content_type: 'image/png' }] })
    expect(targetOf(post, 'discord')).toMatchObject({ status: 'published', platform_post_id: message.id, url: `https://discord.com/channels/800/900/${message.id}` })

    // Slack's incoming webhook answers "ok" and nothing else: no id, no link to record.
    expect(slack.messages.at(-1)).toBe(`${content}\n${media.media('cat.png')}`)
    expect(targetOf(post, 'slack')).toMatchObject({ status: 'published', platform_post_id: null, url: null, error: null })

    // Resuming the Bluesky session refreshed it: the new session is stored (sealed) for the next start.
    expect((await t.daemon.store.accounts.connection(acc, 'bluesky'))!.sealedCredentials.equals(sealedBefore)).toBe(false)
    expect((await eventsOf(t, 'post.target.published')).filter((e) => e.data.id === id)).toHaveLength(5)
  })

  it("retries transient failures after the platform's wait or the backoff, then publishes once", async () => {
    const acc = await account('Flaky', { mastodon: credentials.mastodon(), telegram: credentials.telegram() })
    masto.failNext('POST /api/v1/statuses', { status: 503, body: { error: 'Service Unavailable' } })
    telegram.faults.push({ status: 429, body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 300', parameters: { retry_after: 300 } } })
    const sentBefore = telegram.sent.length
    const id = await schedule(acc, ['mastodon', 'telegram'], 'Eventually')
    await tick()
    let post = await get(id)
    expect(post.status).toBe('publishing')
    expect(targetOf(post, 'mastodon')).toMatchObject({ status: 'pending', attempts: 1, error: { code: 'platform_unavailable', detail: expect.stringContaining('Service Unavailable') } })
    expect(targetOf(post, 'telegram')).toMatchObject({ status: 'pending', attempts: 1, error: { code: 'rate_limited', detail: expect.stringContaining('retry after 300') } })

    t.clock.advance(90_000)
    await tick()
    post = await get(id)
    expect(targetOf(post, 'mastodon')).toMatchObject({ status: 'published', attempts: 2, error: null })
    // Telegram asked for 5 minutes, longer than the first backoff.
    expect(targetOf(post, 'telegram')).toMatchObject({ status: 'pending', attempts: 1 })

    t.clock.advance(300_000 - 90_000)
    await tick()
    post = await get(id)
    expect(post.status).toBe('published')
    expect(targetOf(post, 'telegram')).toMatchObject({ status: 'published', attempts: 2, url: expect.stringMatching(/^https:\/\/t\.me\/smmnews\/\d+$/) })
    expect(telegram.sent.slice(sentBefore).filter((m) => m.text === 'Eventually')).toHaveLength(1)
  })

  it("fails only the target a platform rejects or whose media is bad, with the platform's own message", async () => {
    const acc = await account('Picky', { mastodon: credentials.mastodon(), discord: credentials.discord(), slack: credentials.slack() })
    discord.faults.push({
      status: 400,
      body: { code: 50035, errors: { content: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 2000 in length.' }] } }, message: 'Invalid Form Body' },
    })
    const rejected = await schedule(acc, ['discord', 'slack'], 'Rejected on Discord')
    await tick()
    const post = await get(rejected)
    expect(post.status).toBe('partially_published')
    expect(targetOf(post, 'discord')).toMatchObject({ status: 'failed', attempts: 1, error: { code: 'platform_rejected', detail: expect.stringContaining('Invalid Form Body; content: Must be between 1 and 2000 in length.') } })
    expect(targetOf(post, 'slack')).toMatchObject({ status: 'published' })

    // An HTML page labelled image/png: Mastodon would get a broken upload; Slack only links it.
    const badMedia = await schedule(acc, ['mastodon', 'slack'], 'Bad picture', [media.media('not-really.png')])
    await tick()
    const withMedia = await get(badMedia)
    expect(withMedia.status).toBe('partially_published')
    expect(targetOf(withMedia, 'mastodon')).toMatchObject({ status: 'failed', error: { code: 'media_type_unsupported', detail: expect.stringContaining('not-really.png') } })
    expect(targetOf(withMedia, 'slack')).toMatchObject({ status: 'published' })
  })

  it('a revoked token fails the target, marks the connection reauth_required with its event, until reconnected', async () => {
    masto.tokens.add('token-bob')
    const acc = await account('Revoked', { mastodon: { ...credentials.mastodon(), access_token: 'token-bob' } })
    const id = await schedule(acc, ['mastodon'], 'Too late')
    masto.tokens.delete('token-bob')
    await tick()
    const post = await get(id)
    expect(post.status).toBe('failed')
    expect(post.targets[0]).toMatchObject({ status: 'failed', error: { code: 'credentials_rejected', detail: expect.stringContaining('The access token is invalid') } })
    const connection = (await t.http.get(`/v1/accounts/${acc}`, { key: t.key })).body.connections[0]
    expect(connection).toMatchObject({ platform: 'mastodon', status: 'reauth_required' })
    const events = (await eventsOf(t, 'account.reauth_required')).filter((e) => e.data.id === acc)
    expect(events.map((e) => e.data.platform)).toEqual(['mastodon'])

    const refused = await t.http.post('/v1/posts', { account_id: acc, content: 'Again', platforms: ['mastodon'], scheduled_at: iso(t.clock.now() + MIN) }, { key: t.key })
    expect(refused.status).toBe(422)
    expect(refused.body.errors[0]).toMatchObject({ pointer: '#/platforms/0', code: 'platform_not_connected' })
    expect((await connect(acc, 'mastodon', credentials.mastodon())).body.status).toBe('active')
  })
})

describe('network failures on platforms without idempotency', () => {
  let dropping: LoopbackServer
  let posts = 0
  beforeAll(async () => {
    // A Discord webhook whose server reads the message, then drops the connection unanswered.
    dropping = await startLoopbackServer((req, res) => {
      if (req.method === 'GET') return sendJson(res, 200, { id: '1300', name: 'flaky hook', channel_id: '900', guild_id: '800', type: 1 })
      posts++
      res.destroy()
    })
  })
  afterAll(() => dropping?.close())

  it('never re-sends a message whose connection dropped after sending: it may have been posted', async () => {
    const acc = await account('Dropped', { discord: { webhook_url: `${dropping.url}/api/webhooks/1300/token` } })
    const id = await schedule(acc, ['discord'], 'Maybe posted')
    await tick()
    expect(await get(id)).toMatchObject({ status: 'failed', targets: [{ status: 'unconfirmed', attempts: 1, error: { code: 'unconfirmed', detail: expect.stringContaining('may or may not have published') } }] })
    t.clock.advance(2 * 3_600_000)
    await tick()
    expect(posts).toBe(1)
  })

  it('retries one whose connection was never made: nothing can have been posted', async () => {
    const gone = await FakeTelegram.start()
    const acc = await account('Unreachable', { telegram: { ...credentials.telegram(), api_url: gone.apiUrl } })
    await gone.server.close()
    const id = await schedule(acc, ['telegram'], 'Not yet')
    await tick()
    expect(await get(id)).toMatchObject({ status: 'publishing', targets: [{ status: 'pending', attempts: 1, error: { code: 'platform_unreachable' } }] })
  })
})
