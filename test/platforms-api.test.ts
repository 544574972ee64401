import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PlatformInfo } from '../src/api/platforms.js'
import { measureText } from '../src/text-length.js'
import { bluesky } from '../daemon/platforms/bluesky.js'
import { discord } from '../daemon/platforms/discord.js'
import { mastodon } from '../daemon/platforms/mastodon.js'
import { slack } from '../daemon/platforms/slack.js'
import { telegram } from '../daemon/platforms/telegram.js'
import { facebook } from '../daemon/platforms/facebook.js'
import { instagram } from '../daemon/platforms/instagram.js'
import { linkedin } from '../daemon/platforms/linkedin.js'
import { threads } from '../daemon/platforms/threads.js'
import { x } from '../daemon/platforms/x.js'
import { PLATFORM_NAMES } from '../src/api/common.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon()
})
afterAll(() => t.stop())

const list = async (key = t.key) => (await t.http.get('/v1/platforms', { key })).body.data as PlatformInfo[]

describe('GET /v1/platforms', () => {
  it('lists every platform the daemon has, in a fixed order, with how it connects', async () => {
    const res = await t.http.get('/v1/platforms', { key: t.key })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ has_more: false, next_cursor: null })
    const platforms = res.body.data as PlatformInfo[]
    expect(platforms.map((p) => p.name)).toEqual(['feed', 'mastodon', 'bluesky', 'telegram', 'discord', 'slack', 'x', 'linkedin', 'threads', 'facebook', 'instagram'])
    const byName = Object.fromEntries(platforms.map((p) => [p.name, p]))
    expect(byName.feed).toMatchObject({ label: 'Feed', auth: 'credentials', credentials: [] })
    expect(byName.mastodon).toMatchObject({ label: 'Mastodon', credentials: ['instance_url', 'access_token'] })
    expect(byName.bluesky!.credentials).toEqual(['service_url', 'identifier', 'app_password'])
    expect(byName.telegram!.credentials).toEqual(['bot_token', 'chat_id', 'api_url'])
    // Connected in the browser: no credentials to give.
    for (const name of ['x', 'linkedin', 'threads', 'facebook', 'instagram']) expect(byName[name]).toMatchObject({ auth: 'oauth2', credentials: [] })
    expect(byName.x!.label).toBe('X')
  })

  it('gives each limit and how text is counted: graphemes and bytes, a caption, links at a fixed length', async () => {
    const byName = Object.fromEntries((await list()).map((p) => [p.name, p.limits]))
    // Every field is there, null or false where a rule does not apply.
    expect(byName.feed).toEqual({
      text: { max: 10_000, count: 'graphemes', caption_max: null, url_length: null, max_bytes: null, media_links: false },
      // The feed's readers fetch uploaded media from the daemon: any image or video smm takes, each alt text kept.
      media: {
        max: null,
        required: false,
        types: null,
        image: expect.objectContaining({ types: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'], max_bytes: null }),
        video: expect.objectContaining({ types: ['video/mp4', 'video/quicktime'], max_duration_ms: null }),
        mixed: true,
        alt_text_max: 5_000,
        send: 'link',
      },
    })
    expect(byName.bluesky).toMatchObject({ text: { max: 300, count: 'graphemes', max_bytes: 3000 }, media: { max: 4, types: expect.arrayContaining(['image/png']) } })
    expect(byName.mastodon).toMatchObject({ text: { max: 500, count: 'mastodon', url_length: 23 }, media: { max: 4 } })
    expect(byName.telegram).toMatchObject({ text: { max: 4096, count: 'utf16', caption_max: 1024 }, media: { max: 10 } })
    expect(byName.discord).toMatchObject({ text: { max: 2000, count: 'code_points' }, media: { max: 10 } })
    expect(byName.slack).toMatchObject({ text: { max: 4000, count: 'utf16', media_links: true }, media: { max: null } })
    expect(byName.x).toMatchObject({ text: { max: 280, count: 'x_weighted', url_length: 23 }, media: { max: 4 } })
    expect(byName.threads).toMatchObject({ text: { max: 500, count: 'threads' }, media: { max: 20 } })
    expect(byName.instagram).toMatchObject({ text: { max: 2200 }, media: { max: 10, required: true, types: ['image/jpeg'] } })
  })

  it('says what validation enforces: a text one over the listed limit, counted the listed way, is refused', async () => {
    const modules = { mastodon, bluesky, telegram, discord, slack, x, linkedin, threads, facebook, instagram }
    const text = `👍🏽 see https://example.com/${'a'.repeat(80)} `
    for (const info of await list()) {
      const module = modules[info.name as keyof typeof modules]
      if (!module) continue
      for (const media of [[], ['https://m.example/a.png']]) {
        const { limit } = measureText(info.limits, text, media)
        const over = text.repeat(Math.ceil((limit + 1) / measureText(info.limits, text).length))
        expect(module.check({ content: over, media_urls: media }, {}).some((e) => e.code === 'too_long'), `${info.name}, ${media.length} media`).toBe(true)
        expect(module.measure({ content: over, media_urls: media }, {})).toEqual(measureText(info.limits, over, media))
      }
    }
  })

  it('needs accounts:read: a key that may only post cannot read it', async () => {
    const poster = await t.http.post('/v1/api-keys', { name: 'poster', scopes: ['posts:write'] }, { key: t.key })
    const refused = await t.http.get('/v1/platforms', { key: poster.body.secret })
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'accounts:read' })
    const reader = await t.http.post('/v1/api-keys', { name: 'reader', scopes: ['accounts:read'] }, { key: t.key })
    expect((await list(reader.body.secret)).length).toBe(PLATFORM_NAMES.length)
  })
})
