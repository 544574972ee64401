import https from 'node:https'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FakeFacebook } from './fixtures/facebook-server.js'
import { FakeInstagram } from './fixtures/instagram-server.js'
import { FakeLinkedIn } from './fixtures/linkedin-server.js'
import { loopbackTls } from './fixtures/loopback.js'
import { FakeThreads } from './fixtures/threads-server.js'
import { FakeX } from './fixtures/x-server.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { eventsOf, liftLimits } from './helpers/posts.js'

// The real daemon with the five real OAuth platform modules, each app configured by the
// operator's environment with its endpoints pointed at a loopback server that plays the
// platform: connected through the API and the callback as a person would, then one post
// published everywhere at once, with feed.
const MIN = 60_000
// What the operator registered with every platform as the redirect URI: the daemon's public URL.
const PUBLIC_URL = 'https://smm.example'
let t: TestDaemon
let ca: string
let fakes: { x: FakeX; linkedin: FakeLinkedIn; facebook: FakeFacebook; threads: FakeThreads; instagram: FakeInstagram }

function appEnv(name: string, app: { clientId: string; clientSecret: string }, url: string, paths: { authorize: string; token: string }): NodeJS.ProcessEnv {
  const prefix = `SMM_PLATFORM_${name.toUpperCase()}_`
  return {
    [`${prefix}CLIENT_ID`]: app.clientId,
    [`${prefix}CLIENT_SECRET`]: app.clientSecret,
    [`${prefix}AUTHORIZE_URL`]: `${url}${paths.authorize}`,
    [`${prefix}TOKEN_URL`]: `${url}${paths.token}`,
    [`${prefix}API_URL`]: url,
  }
}

beforeAll(async () => {
  const [x, linkedin, facebook, threads, instagram] = await Promise.all([FakeX.start(), FakeLinkedIn.start(), FakeFacebook.start(), FakeThreads.start(), FakeInstagram.start()])
  fakes = { x, linkedin, facebook, threads, instagram }
  ;({ cert: ca } = await loopbackTls())
  const env = {
    ...appEnv('x', x, x.url, { authorize: '/i/oauth2/authorize', token: '/2/oauth2/token' }),
    ...appEnv('linkedin', linkedin, linkedin.url, { authorize: '/oauth/v2/authorization', token: '/oauth/v2/accessToken' }),
    ...appEnv('facebook', facebook, facebook.url, { authorize: '/v26.0/dialog/oauth', token: '/v26.0/oauth/access_token' }),
    ...appEnv('threads', threads.app, threads.url, { authorize: '/oauth/authorize', token: '/oauth/access_token' }),
    ...appEnv('instagram', instagram.app, instagram.url, { authorize: '/oauth/authorize', token: '/oauth/access_token' }),
  }
  t = await startTestDaemon({ publicUrl: PUBLIC_URL, allowPrivateNetwork: true, egress: { ca: [ca] }, overrides: { env } })
  await liftLimits(t)
})

afterAll(async () => {
  await t?.stop()
  await Promise.all(Object.values(fakes ?? {}).map((fake) => fake.server.close()))
})

/** The person's browser at X's consent page: approved at once, sent back with a code. */
function consentAtX(authorizeUrl: string): Promise<URL> {
  return new Promise((resolve, reject) => {
    https
      .get(authorizeUrl, { ca }, (res) => {
        res.resume()
        if (res.statusCode !== 302 || !res.headers.location) return reject(new Error(`X's consent page answered ${res.statusCode}`))
        resolve(new URL(res.headers.location))
      })
      .on('error', reject)
  })
}

/** A code as each platform's consent page hands it back, for the state our authorize URL carries. */
async function approve(platform: keyof typeof fakes, authorizeUrl: string): Promise<{ code: string; state: string }> {
  const state = new URL(authorizeUrl).searchParams.get('state')!
  switch (platform) {
    case 'x': {
      const back = await consentAtX(authorizeUrl)
      expect(`${back.origin}${back.pathname}`).toBe(`${PUBLIC_URL}/oauth/callback`)
      return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! }
    }
    case 'linkedin':
      return { code: fakes.linkedin.authorize(), state }
    case 'facebook':
      return { code: fakes.facebook.authorize([{ id: '1122334455', name: 'Corner Bakery' }]), state }
    case 'threads':
      return { code: fakes.threads.issueCode('1234567890'), state }
    case 'instagram':
      return { code: fakes.instagram.issueCode('2711000000'), state }
  }
}

describe('the five OAuth platforms, end to end', () => {
  it('connects each in the browser, then publishes one post with an image to all five and feed at once', async () => {
    const account = (await t.http.post('/v1/accounts', { name: 'Bakery' }, { key: t.key })).body.id as string
    expect((await t.http.post(`/v1/accounts/${account}/connections`, { platform: 'feed' }, { key: t.key })).status).toBe(201)

    for (const platform of Object.keys(fakes) as (keyof typeof fakes)[]) {
      const pending = await t.http.post(`/v1/accounts/${account}/connections`, { platform }, { key: t.key })
      expect(pending.status, JSON.stringify(pending.body)).toBe(202)
      const authorize = new URL(pending.body.authorize_url)
      expect(authorize.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/oauth/callback`)
      // PKCE where the platform takes it (X), never where it does not.
      expect(authorize.searchParams.has('code_challenge'), platform).toBe(platform === 'x')
      const { code, state } = await approve(platform, pending.body.authorize_url)
      const page = await t.http.get(`/oauth/callback?${new URLSearchParams({ code, state })}`)
      expect(page.status, `${platform}: ${page.text}`).toBe(200)
      expect(page.text).toContain('You may close this tab')
    }
    const connections = (await t.http.get(`/v1/accounts/${account}`, { key: t.key })).body.connections as { platform: string; status: string; handle: string }[]
    expect(Object.fromEntries(connections.map((c) => [c.platform, c.status]))).toEqual({
      facebook: 'active',
      feed: 'active',
      instagram: 'active',
      linkedin: 'active',
      threads: 'active',
      x: 'active',
    })

    const platforms = ['feed', 'x', 'linkedin', 'threads', 'facebook', 'instagram']
    const image = fakes.instagram.image('cat.jpg')
    const content = 'Fresh sourdough at 7 (today only) #bread'
    const created = await t.http.post(
      '/v1/posts',
      { account_id: account, content, media_urls: [image], platforms, scheduled_at: new Date(t.clock.now() + MIN).toISOString() },
      { key: t.key },
    )
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    t.clock.advance(MIN)
    await t.daemon.scheduler.tick(t.clock.now())
    const post = (await t.http.get(`/v1/posts/${created.body.id}`, { key: t.key })).body
    expect(post.targets.map((target: { platform: string; status: string; error: unknown }) => [target.platform, target.status, target.error])).toEqual(
      expect.arrayContaining(platforms.map((platform) => [platform, 'published', null])),
    )
    expect(post.status).toBe('published')

    // Each platform got the post as it documents it.
    const tweet = [...fakes.x.posts.values()].at(-1)!
    expect(tweet).toMatchObject({ text: content, mediaIds: [expect.any(String)] })
    const share = [...fakes.linkedin.posts.values()].at(-1)!
    // LinkedIn's little text format: the parentheses escaped, the hashtag left a hashtag.
    expect(share.commentary).toBe('Fresh sourdough at 7 \\(today only\\) #bread')
    expect(share.content).toMatchObject({ media: { id: expect.stringMatching(/^urn:li:image:/) } })
    const pagePost = [...fakes.facebook.photos.values()].at(-1)!
    expect(pagePost).toMatchObject({ pageId: '1122334455', url: image, caption: content })
    for (const meta of [fakes.threads, fakes.instagram]) {
      const published = [...meta.containers.values()].filter((c) => c.published)
      expect(published.length).toBeGreaterThan(0)
    }
    const targetsPublished = (await eventsOf(t, 'post.target.published')).filter((e) => e.data.id === created.body.id)
    expect(targetsPublished.map((e) => e.data.platform).sort()).toEqual([...platforms].sort())
    // No token the platforms issued is in the API's answers or the daemon's logs.
    const accountAnswer = JSON.stringify((await t.http.get(`/v1/accounts/${account}`, { key: t.key })).body)
    for (const token of [...fakes.linkedin.accessTokens.keys()]) {
      expect(accountAnswer).not.toContain(token)
      expect(t.logs.join('\n')).not.toContain(token)
    }
  })
})
