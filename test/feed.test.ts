import https from 'node:https'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { graphemeLength, mastodonLength } from '../src/text-length.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { feedAccount, liftLimits } from './helpers/posts.js'

let t: TestDaemon
let account: string
const ids: string[] = []
const MIN = 60_000
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['item', 'entry', 'enclosure', 'link'].includes(name) })

beforeAll(async () => {
  t = await startTestDaemon()
  await liftLimits(t)
  account = await feedAccount(t, 'Ünïcode & <Friends>')
  const posts = [
    { content: 'First post\nwith a second line', media_urls: [] },
    { content: 'Tags <b>bold</b> & "quotes" \u0007 bell, emoji 👍🏽', media_urls: ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/clip.mp4?x=1&y=2'] },
    { content: '', media_urls: ['https://cdn.example.com/only.png'] },
  ]
  for (const body of posts) {
    const res = await t.http.post('/v1/posts', { account_id: account, ...body, scheduled_at: new Date(t.clock.now() + MIN).toISOString(), platforms: ['feed'] }, { key: t.key })
    expect(res.status).toBe(201)
    ids.push(res.body.id)
    t.clock.advance(MIN)
    await t.daemon.scheduler.tick(t.clock.now())
  }
})
afterAll(() => t.stop())

describe('the feed platform’s documents', () => {
  it('serves RSS 2.0 without a key: well-formed, required elements, newest first, media as enclosures', async () => {
    const res = await t.http.get(`/feeds/${account}.rss`)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8')
    expect(XMLValidator.validate(res.text)).toBe(true)
    const doc = parser.parse(res.text)
    expect(doc.rss['@version']).toBe('2.0')
    const channel = doc.rss.channel
    expect(channel).toMatchObject({ title: 'Ünïcode & <Friends>', link: [expect.stringMatching(/^https:\/\/.*\.html$/)], description: expect.any(String) })
    expect(channel.item.map((i: any) => i.guid['#text'])).toEqual([...ids].reverse())
    const [media, withTags, first] = channel.item
    expect(first).toMatchObject({ title: 'First post', description: 'First post\nwith a second line' })
    expect(new Date(first.pubDate).toString()).not.toBe('Invalid Date')
    expect(withTags.description).toBe('Tags <b>bold</b> & "quotes" \uFFFD bell, emoji 👍🏽')
    expect(withTags.enclosure).toEqual([
      { '@url': 'https://cdn.example.com/a.jpg', '@length': '0', '@type': 'image/jpeg' },
      { '@url': 'https://cdn.example.com/clip.mp4?x=1&y=2', '@length': '0', '@type': 'video/mp4' },
    ])
    expect(media.title).toBe('Media (1)')
  })

  it('serves Atom: well-formed, feed and entry required elements, enclosure links', async () => {
    const res = await t.http.get(`/feeds/${account}.atom`)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8')
    expect(XMLValidator.validate(res.text)).toBe(true)
    const feed = parser.parse(res.text).feed
    expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom')
    for (const field of ['id', 'title', 'updated', 'author']) expect(feed[field]).toBeDefined()
    expect(feed.entry).toHaveLength(3)
    for (const entry of feed.entry) {
      for (const field of ['id', 'title', 'updated']) expect(entry[field]).toBeDefined()
      expect(Date.parse(entry.updated)).not.toBeNaN()
    }
    expect(feed.entry[0].updated > feed.entry[1].updated).toBe(true)
    expect(feed.entry[1].link.filter((l: any) => l['@rel'] === 'enclosure').map((l: any) => l['@href'])).toEqual([
      'https://cdn.example.com/a.jpg',
      'https://cdn.example.com/clip.mp4?x=1&y=2',
    ])
  })

  it('serves JSON Feed 1.1 with attachments', async () => {
    const res = await t.http.get(`/feeds/${account}.json`)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/feed+json; charset=utf-8')
    const feed = JSON.parse(res.text)
    expect(feed).toMatchObject({ version: 'https://jsonfeed.org/version/1.1', title: 'Ünïcode & <Friends>', feed_url: expect.stringContaining(`/feeds/${account}.json`) })
    expect(feed.items.map((i: any) => i.id)).toEqual([...ids].reverse())
    for (const item of feed.items) {
      expect(typeof item.content_text).toBe('string')
      expect(Date.parse(item.date_published)).not.toBeNaN()
    }
    expect(feed.items[1].attachments).toEqual([
      { url: 'https://cdn.example.com/a.jpg', mime_type: 'image/jpeg' },
      { url: 'https://cdn.example.com/clip.mp4?x=1&y=2', mime_type: 'video/mp4' },
    ])
    expect(feed.items[2].attachments).toBeUndefined()
  })

  it('links every item, in all three feeds, to a web page that shows the post at its anchor', async () => {
    const [rss, atom, json] = await Promise.all([t.http.get(`/feeds/${account}.rss`), t.http.get(`/feeds/${account}.atom`), t.http.get(`/feeds/${account}.json`)])
    const links = [
      ...parser.parse(rss.text).rss.channel.item.map((i: any) => i.link[0]),
      ...parser.parse(atom.text).feed.entry.map((e: any) => e.link.find((l: any) => l['@rel'] === 'alternate')['@href']),
      ...json.body.items.map((i: any) => i.url),
    ]
    expect(links).toHaveLength(9)
    for (const link of links) {
      const url = new URL(link)
      expect(url.pathname).toBe(`/feeds/${account}.html`)
      const page = await t.http.get(url.pathname)
      expect(page.status).toBe(200)
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/)
      // The anchor names an article on that page, and the post's text is in it, escaped.
      expect(page.text).toContain(`<article id="${url.hash.slice(1)}">`)
    }
    const page = (await t.http.get(`/feeds/${account}.html`)).text
    expect(page).toMatch(/^<!DOCTYPE html>/)
    expect(page).toContain('Tags &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quotes&quot;')
    expect(page).not.toContain('<b>bold</b>')
    expect(page).toContain(`<a href="https://cdn.example.com/clip.mp4?x=1&amp;y=2">`)
    // And the published post's target URL is that page too.
    const post = (await t.http.get(`/v1/posts/${ids[0]}`, { key: t.key })).body
    expect(new URL(post.targets[0].url).pathname + new URL(post.targets[0].url).hash).toBe(`/feeds/${account}.html#${ids[0]}`)
  })

  it("builds every link from the daemon's URL (--public-url, else the listening one), never from the request's Host", async () => {
    const href = (link: any): string => (typeof link === 'string' ? link : link['@href'])
    const linksOf = (rss: string, atom: string, json: any) => [
      ...parser.parse(rss).rss.channel.link.map(href),
      ...(parser.parse(rss).rss.channel.item ?? []).map((i: any) => i.link[0]),
      ...parser.parse(atom).feed.link.map(href),
      ...(parser.parse(atom).feed.entry ?? []).map((e: any) => e.link.find((l: any) => l['@rel'] === 'alternate')['@href']),
      json.home_page_url,
      json.feed_url,
      ...json.items.map((i: any) => i.url),
    ]
    const withHost = (path: string, host: string) =>
      new Promise<string>((resolve, reject) => {
        const url = new URL(t.url)
        https
          .get({ host: url.hostname, port: url.port, path, ca: t.ca, servername: 'localhost', headers: { host } }, (res) => {
            let text = ''
            res.on('data', (c) => (text += c))
            res.on('end', () => resolve(text))
          })
          .on('error', reject)
      })
    const forged = await Promise.all(['rss', 'atom', 'json'].map((type) => withHost(`/feeds/${account}.${type}`, 'evil.example')))
    const links = linksOf(forged[0]!, forged[1]!, JSON.parse(forged[2]!))
    expect(links.length).toBeGreaterThan(10)
    for (const link of links) expect(link, link).toMatch(new RegExp(`^${t.url}/feeds/${account}\\.`))

    const behind = await startTestDaemon({ publicUrl: 'https://smm.example.com/' })
    try {
      const id = await feedAccount(behind)
      const [rss, atom, json] = await Promise.all(['rss', 'atom', 'json'].map((type) => behind.http.get(`/feeds/${id}.${type}`)))
      const links = linksOf(rss!.text, atom!.text, json!.body)
      expect(links.length).toBeGreaterThan(3)
      for (const link of links) expect(link, link).toMatch(new RegExp(`^https://smm\\.example\\.com/feeds/${id}\\.`))
    } finally {
      await behind.stop()
    }
  })

  it('is 404 (problem+json) for an unknown account or one not connected to feed, and empty but valid before any post', async () => {
    const missing = await t.http.get('/feeds/acc_01ARZ3NDEKTSV4RRFFQ69G5FAV.rss')
    expect(missing.status).toBe(404)
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/)
    const bare = (await t.http.post('/v1/accounts', { name: 'Bare' }, { key: t.key })).body.id
    expect((await t.http.get(`/feeds/${bare}.atom`)).status).toBe(404)
    await t.http.post(`/v1/accounts/${bare}/connections`, { platform: 'feed' }, { key: t.key })
    const empty = await t.http.get(`/feeds/${bare}.rss`)
    expect(empty.status).toBe(200)
    expect(XMLValidator.validate(empty.text)).toBe(true)
    expect(XMLValidator.validate((await t.http.get(`/feeds/${bare}.atom`)).text)).toBe(true)
  })

  it('is listed in the OpenAPI document', async () => {
    const doc = (await t.http.get('/v1/openapi.json')).body
    for (const ext of ['rss', 'atom', 'json', 'html']) expect(doc.paths[`/feeds/{account_id}.${ext}`].get).toBeDefined()
    for (const path of ['/v1/accounts', '/v1/accounts/{id}/connections', '/v1/posts', '/v1/posts/{id}', '/v1/posts/{id}/retry']) expect(doc.paths[path]).toBeDefined()
  })
})

describe('how platforms count text', () => {
  it('counts graphemes: combining marks, skin tones and families are one each', () => {
    expect(graphemeLength('e\u0301')).toBe(1)
    expect(graphemeLength('👍🏽👨‍👩‍👧')).toBe(2)
    expect(graphemeLength('plain\r\nascii')).toBe(11)
  })

  it('counts like Mastodon: any URL is 23, a remote mention counts its username only', () => {
    expect(mastodonLength(`see https://example.com/${'x'.repeat(200)} now`)).toBe(4 + 23 + 4)
    expect(mastodonLength('hi @alice@example.social!')).toBe('hi @alice!'.length)
    expect(mastodonLength('(https://a.example/b).')).toBe(1 + 23 + 2)
    // An instance may reserve another length per link (characters_reserved_per_url).
    expect(mastodonLength('see https://a.example/b', 30)).toBe(4 + 30)
    expect(mastodonLength('a=@alice@example.social')).toBe('a=@alice@example.social'.length)
  })
})
