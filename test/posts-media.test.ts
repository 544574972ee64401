import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { XMLParser } from 'fast-xml-parser'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { loopbackPlatform } from './helpers/loopback-platform.js'
import { jpeg, mp4, png } from './helpers/media-files.js'
import { feedAccount, liftLimits, otherUser } from './helpers/posts.js'
import type { Platform } from '../daemon/platforms/types.js'

let t: TestDaemon
let account: string

/** A platform that fetches media by URL (as Instagram and Threads do), and sends uploaded media. */
const fetching: Platform = {
  ...loopbackPlatform('threads', { idempotent: false }),
  uploadsMedia: true,
  limits: { text: { max: 500, count: 'utf16' }, media: { max: 20, image: { types: ['image/jpeg', 'image/png'] }, video: null, send: 'url' } },
}

/** A platform that keeps the alt text of images, not of videos (as X and Instagram), and sends uploaded media. */
const describing: Platform = {
  ...loopbackPlatform('telegram', { idempotent: false }),
  uploadsMedia: true,
  limits: { text: { max: 500, count: 'utf16' }, media: { max: 10, image: { types: ['image/jpeg', 'image/png'] }, video: { types: ['video/mp4'], alt_text: false }, alt_text_max: 1_000 } },
}

async function uploadMedia(bytes: Buffer, type: string, alt?: string, key = t.key): Promise<any> {
  const res = await t.http.request('POST', `/v1/media${alt ? `?alt_text=${encodeURIComponent(alt)}` : ''}`, { key, raw: bytes, headers: { 'content-type': type } })
  expect(res.status).toBe(201)
  return res.body
}

beforeAll(async () => {
  // Discord as a module that does not send uploaded media yet; Threads as one that fetches them by URL.
  t = await startTestDaemon({ backgroundWorkers: false, overrides: { platforms: [loopbackPlatform('discord', { idempotent: false }), fetching, describing] } })
  await liftLimits(t)
  account = await feedAccount(t)
  for (const platform of ['discord', 'threads', 'telegram']) {
    const connected = await t.http.post(`/v1/accounts/${account}/connections`, { platform, credentials: { webhook_url: 'https://127.0.0.1:9/hook' } }, { key: t.key })
    expect(connected.status).toBe(201)
  }
})
afterAll(() => t.stop())

describe('posts with uploaded media', () => {
  it('takes media by id, the post’s alt text winning over the media’s own, shows them on the post, and publishes them to the feed as enclosures', async () => {
    const photo = await uploadMedia(png(1200, 800), 'image/png', 'The media’s own words')
    const clip = await uploadMedia(mp4(1280, 720, 4_000), 'video/mp4')
    const created = await t.http.post(
      '/v1/posts',
      {
        account_id: account,
        content: 'With pictures',
        media: [{ id: photo.id }, { id: clip.id, alt_text: 'A short clip' }],
        thread: [{ content: 'More', media: [{ id: photo.id, alt_text: 'Again' }] }],
        platforms: ['feed'],
        scheduled_at: new Date(t.clock.now() + 60_000).toISOString(),
      },
      { key: t.key },
    )
    expect(created.status).toBe(201)
    expect(created.body.media).toEqual([
      { id: photo.id, url: photo.url, content_type: 'image/png', width: 1200, height: 800, alt_text: 'The media’s own words' },
      { id: clip.id, url: clip.url, content_type: 'video/mp4', width: 1280, height: 720, alt_text: 'A short clip' },
    ])
    expect(created.body.thread[0].media).toEqual([{ id: photo.id, url: photo.url, content_type: 'image/png', width: 1200, height: 800, alt_text: 'Again' }])
    expect(created.body.media_urls).toEqual([])
    // The media's own alt text, changed later, is what the post shows where it gave none.
    await t.http.patch(`/v1/media/${photo.id}`, { alt_text: 'Better words' }, { key: t.key })
    expect((await t.http.get(`/v1/posts/${created.body.id}`, { key: t.key })).body.media[0].alt_text).toBe('Better words')

    await t.daemon.scheduler.tick(t.clock.now() + 120_000)
    const post = (await t.http.get(`/v1/posts/${created.body.id}`, { key: t.key })).body
    expect(post.status).toBe('published')
    const json = JSON.parse((await t.http.get(`/feeds/${account}.json`)).text)
    const item = json.items.find((i: { content_text: string }) => i.content_text === 'With pictures')
    expect(item.attachments).toEqual([
      { url: photo.url, mime_type: 'image/png', size_in_bytes: photo.bytes, title: 'Better words' },
      { url: clip.url, mime_type: 'video/mp4', size_in_bytes: clip.bytes, title: 'A short clip' },
    ])
    const rss = new XMLParser({ ignoreAttributes: false }).parse((await t.http.get(`/feeds/${account}.rss`)).text)
    const rssItem = [rss.rss.channel.item].flat().find((i: { description: string }) => i.description === 'With pictures')
    expect([rssItem.enclosure].flat()).toEqual([
      { '@_url': photo.url, '@_length': String(photo.bytes), '@_type': 'image/png' },
      { '@_url': clip.url, '@_length': String(clip.bytes), '@_type': 'video/mp4' },
    ])
    // A feed reader fetches the enclosure from the daemon.
    const file = await t.http.get(new URL(clip.url).pathname)
    expect([file.status, file.headers['content-type']]).toEqual([200, 'video/mp4'])
  })

  it('points at a media id that is not the user’s (never saying it exists), wherever it is named', async () => {
    const other = await otherUser(t)
    const theirs = await t.daemon.store.apiKeys.create((await t.daemon.store.users.get(other.userId))!.id, { name: 'm', scopes: ['media:write', 'media:read'] }, t.clock.now(), null)
    const foreign = await uploadMedia(png(10, 10), 'image/png', undefined, theirs.secret)
    const res = await t.http.post(
      '/v1/posts/validate',
      {
        account_id: account,
        content: 'x',
        media: [{ id: foreign.id }],
        thread: [{ content: 'y', media: [{ id: 'med_01NOSUCHMEDIA000000000000000' }] }],
        overrides: { feed: { media: [{ id: foreign.id }] } },
        platforms: ['feed'],
      },
      { key: t.key },
    )
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual([
      { pointer: '#/media/0', code: 'not_found', detail: `${foreign.id} is not one of your media: upload the file with POST /v1/media (or smm media upload) and use the id it answers` },
      { pointer: '#/thread/0/media/0', code: 'not_found', detail: expect.stringContaining('med_01NOSUCHMEDIA000000000000000 is not one of your media') },
      { pointer: '#/overrides/feed/media/0', code: 'not_found', detail: expect.stringContaining(foreign.id) },
    ])
    const twice = await t.http.post('/v1/posts/validate', { account_id: account, media: [{ id: foreign.id }, { id: foreign.id }], platforms: ['feed'] }, { key: t.key })
    expect(twice.body.errors).toContainEqual({ pointer: '#/media', code: 'invalid_value', detail: 'must not name a media twice' })
  })

  it('refuses uploaded media for a platform that cannot take them yet, rather than publish without them; media_urls still go', async () => {
    const photo = await uploadMedia(png(20, 20), 'image/png')
    const res = await t.http.post('/v1/posts', { account_id: account, content: 'x', media: [{ id: photo.id }], platforms: ['feed', 'discord'] }, { key: t.key })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual([
      {
        pointer: '#/media',
        code: 'media_not_supported',
        detail: 'discord (loopback) cannot be sent uploaded media by this smm yet: give the media to discord as media_urls (https URLs of your own host), or leave them out for discord with "overrides": {"discord": {"media": []}}',
      },
    ])
    const without = await t.http.post('/v1/posts/validate', { account_id: account, content: 'x', media: [{ id: photo.id }], overrides: { discord: { media: [] } }, platforms: ['feed', 'discord'] }, { key: t.key })
    expect(without.status).toBe(200)
  })

  it('validates a post whose alt text a platform has no place for, and says which media go out without it', async () => {
    const photo = await uploadMedia(png(20, 20), 'image/png', 'A red square')
    const clip = await uploadMedia(mp4(320, 240, 2_000), 'video/mp4', 'Waves on the wall')
    const body = {
      account_id: account,
      content: 'Described',
      media: [{ id: photo.id }, { id: clip.id }],
      thread: [{ content: 'More', media: [{ id: clip.id, alt_text: 'Said again' }] }],
      platforms: ['feed', 'telegram'],
    }
    const res = await t.http.post('/v1/posts/validate', body, { key: t.key })
    expect(res.status).toBe(200)
    const warnings = Object.fromEntries(res.body.targets.map((target: { platform: string; warnings: unknown[] }) => [target.platform, target.warnings]))
    const detail = 'has alt text, but telegram (loopback) keeps alt text for images only: this video goes out without it'
    expect(warnings).toEqual({
      feed: [],
      telegram: [
        { pointer: '#/media/1', code: 'alt_text_not_sent', detail },
        { pointer: '#/thread/0/media/0', code: 'alt_text_not_sent', detail },
      ],
    })
    // Where the platform's media come from its override, the note points there; media without alt text need none.
    const overridden = await t.http.post('/v1/posts/validate', { ...body, thread: [], overrides: { telegram: { media: [{ id: photo.id }, { id: clip.id, alt_text: 'Only here' }] } } }, { key: t.key })
    expect(overridden.body.targets.find((target: { platform: string }) => target.platform === 'telegram').warnings).toEqual([{ pointer: '#/overrides/telegram/media/1', code: 'alt_text_not_sent', detail }])
    const plain = await uploadMedia(mp4(320, 240, 2_000), 'video/mp4')
    const quiet = await t.http.post('/v1/posts/validate', { ...body, media: [{ id: plain.id }], thread: [] }, { key: t.key })
    expect(quiet.body.targets.map((target: { warnings: unknown[] }) => target.warnings)).toEqual([[], []])
  })

  it('refuses a platform that fetches media by URL while the daemon’s public URL is loopback', async () => {
    const photo = await uploadMedia(jpeg(100, 100), 'image/jpeg')
    const res = await t.http.post('/v1/posts/validate', { account_id: account, content: 'x', thread: [{ media: [{ id: photo.id }] }], platforms: ['threads'] }, { key: t.key })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual([
      {
        pointer: '#/thread/0/media',
        code: 'media_url_not_public',
        detail: `threads (loopback) fetches media from their URL, and this daemon's public URL (${t.url}) cannot be reached from the internet: start the daemon with --public-url set to an https address the internet reaches (behind a proxy, say)`,
      },
    ])
  })

  it('refuses to delete media a draft or scheduled post uses (409, naming the posts), and deletes it once they are done', async () => {
    const photo = await uploadMedia(png(30, 30), 'image/png')
    const draft = (await t.http.post('/v1/posts', { account_id: account, content: 'Draft', media: [{ id: photo.id }], platforms: ['feed'], draft: true }, { key: t.key })).body
    const refused = await t.http.delete(`/v1/media/${photo.id}`, { key: t.key })
    expect([refused.status, refused.body.code, refused.body.post_ids]).toEqual([409, 'media_in_use', [draft.id]])
    expect(refused.body.detail).toBe(`Media ${photo.id} is used by a post not yet published: ${draft.id}. Remove it from them (or cancel them) first.`)
    // An edit that drops it frees it.
    const edited = await t.http.put(`/v1/posts/${draft.id}`, { media: [] }, { key: t.key })
    expect(edited.body.media).toEqual([])
    expect((await t.http.delete(`/v1/media/${photo.id}`, { key: t.key })).status).toBe(204)
    // A post that names a media deleted since is refused, as any unknown id.
    const late = await t.http.put(`/v1/posts/${draft.id}`, { media: [{ id: photo.id }] }, { key: t.key })
    expect(late.body.errors).toEqual([expect.objectContaining({ pointer: '#/media/0', code: 'not_found' })])
  })

  it('keeps media a post uses past the 24 hours, and lets the cleanup remove what only a deleted account used', async () => {
    const brand = await feedAccount(t, 'Short-lived')
    const photo = await uploadMedia(png(40, 40), 'image/png')
    const post = (await t.http.post('/v1/posts', { account_id: brand, content: 'Later', media: [{ id: photo.id }], platforms: ['feed'], scheduled_at: new Date(t.clock.now() + 7 * 86_400_000).toISOString() }, { key: t.key })).body
    const cleanup = t.daemon.workers.find((w) => w.name === 'media-cleanup')!
    await cleanup.tick!(t.clock.now() + 3 * 86_400_000)
    expect((await t.http.get(`/v1/media/${photo.id}`, { key: t.key })).status).toBe(200)
    expect((await t.http.delete(`/v1/accounts/${brand}?cancel_posts=true`, { key: t.key })).status).toBe(204)
    expect((await t.http.get(`/v1/posts/${post.id}`, { key: t.key })).status).toBe(404)
    await cleanup.tick!(t.clock.now())
    expect((await t.http.get(`/v1/media/${photo.id}`, { key: t.key })).status).toBe(404)
  })
})
