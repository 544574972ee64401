import type { FeedItem } from '../store/index.js'

/** What every format says about the feed itself. */
export interface FeedChannel {
  accountId: string
  title: string
  /** Where the three documents are served, e.g. https://host:8443/feeds/acc_… (no extension). */
  base: string
}

const TITLE_CHARS = 80

// XML 1.0 allows only these characters; anything else (control characters, lone surrogates)
// would make the whole document unreadable, so it is replaced.
const XML_INVALID = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\uD800-\uDBFF\uDC00-\uDFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

function xml(text: string): string {
  return text
    .replace(XML_INVALID, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

/** A one-line title: the post's first line, shortened. */
function titleOf(item: FeedItem): string {
  const line = item.content.trim().split(/\r?\n/, 1)[0] ?? ''
  const media = item.mediaUrls.length + item.attachments.length
  if (line === '') return media ? `Media (${media})` : 'Post'
  const chars = [...line]
  return chars.length > TITLE_CHARS ? `${chars.slice(0, TITLE_CHARS - 1).join('')}…` : line
}

const MIME_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif', svg: 'image/svg+xml',
  mp4: 'video/mp4', m4v: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime',
  mp3: 'audio/mpeg', m4a: 'audio/mp4', ogg: 'audio/ogg', wav: 'audio/wav', pdf: 'application/pdf',
}

/** A media URL's type, guessed from its extension (the feed never fetches the media). */
export function mimeOf(url: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase()
  return (ext && MIME_BY_EXTENSION[ext]) || 'application/octet-stream'
}

/** Every media of an item, URLs and uploads alike: an uploaded one's type and size are known, a URL's type guessed and its size not. */
function mediaOf(item: FeedItem): { url: string; type: string; bytes: number | null; alt_text: string | null }[] {
  return [...item.mediaUrls.map((url) => ({ url, type: mimeOf(url), bytes: null, alt_text: null })), ...item.attachments]
}

// An item links to a page a person can open (the feed's web page, at the post's anchor), never
// to a document only a feed reader makes sense of.
const itemUrl = (channel: FeedChannel, item: FeedItem) => `${channel.base}.html#${item.postId}`
const updatedOf = (items: FeedItem[]) => items[0]?.publishedAt ?? 0

/** RSS 2.0; media as enclosures (length 0 where unknown, as the RSS Advisory Board recommends). */
export function renderRss(channel: FeedChannel, items: FeedItem[]): string {
  const entries = items.map((item) => {
    const enclosures = mediaOf(item).map((m) => `      <enclosure url="${xml(m.url)}" length="${m.bytes ?? 0}" type="${xml(m.type)}"/>`)
    return [
      '    <item>',
      `      <title>${xml(titleOf(item))}</title>`,
      `      <link>${xml(itemUrl(channel, item))}</link>`,
      `      <description>${xml(item.content)}</description>`,
      `      <guid isPermaLink="false">${item.postId}</guid>`,
      `      <pubDate>${new Date(item.publishedAt).toUTCString()}</pubDate>`,
      ...enclosures,
      '    </item>',
    ].join('\n')
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${xml(channel.title)}</title>`,
    `    <link>${xml(channel.base)}.html</link>`,
    `    <description>Posts of ${xml(channel.title)}, published by smm</description>`,
    `    <atom:link href="${xml(channel.base)}.rss" rel="self" type="application/rss+xml"/>`,
    `    <lastBuildDate>${new Date(updatedOf(items)).toUTCString()}</lastBuildDate>`,
    '    <generator>smm</generator>',
    ...entries,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n')
}

/** Atom (RFC 4287); media as `rel="enclosure"` links. */
export function renderAtom(channel: FeedChannel, items: FeedItem[]): string {
  const entries = items.map((item) => {
    const enclosures = mediaOf(item).map((m) => `    <link rel="enclosure" href="${xml(m.url)}" type="${xml(m.type)}"${m.bytes === null ? '' : ` length="${m.bytes}"`}${m.alt_text === null ? '' : ` title="${xml(m.alt_text)}"`}/>`)
    return [
      '  <entry>',
      `    <id>urn:smm:post:${item.postId}</id>`,
      `    <title>${xml(titleOf(item))}</title>`,
      `    <updated>${new Date(item.publishedAt).toISOString()}</updated>`,
      `    <published>${new Date(item.publishedAt).toISOString()}</published>`,
      `    <link rel="alternate" type="text/html" href="${xml(itemUrl(channel, item))}"/>`,
      `    <content type="text">${xml(item.content)}</content>`,
      ...enclosures,
      '  </entry>',
    ].join('\n')
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>urn:smm:account:${channel.accountId}</id>`,
    `  <title>${xml(channel.title)}</title>`,
    `  <updated>${new Date(updatedOf(items)).toISOString()}</updated>`,
    `  <author><name>${xml(channel.title)}</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${xml(channel.base)}.atom"/>`,
    `  <link rel="alternate" type="text/html" href="${xml(channel.base)}.html"/>`,
    '  <generator>smm</generator>',
    ...entries,
    '</feed>',
    '',
  ].join('\n')
}

/** JSON Feed 1.1; media as attachments. */
export function renderJsonFeed(channel: FeedChannel, items: FeedItem[]): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: channel.title,
    home_page_url: `${channel.base}.html`,
    feed_url: `${channel.base}.json`,
    description: `Posts of ${channel.title}, published by smm`,
    authors: [{ name: channel.title }],
    items: items.map((item) => ({
      id: item.postId,
      url: itemUrl(channel, item),
      title: titleOf(item),
      content_text: item.content,
      date_published: new Date(item.publishedAt).toISOString(),
      ...(mediaOf(item).length
        ? { attachments: mediaOf(item).map((m) => ({ url: m.url, mime_type: m.type, ...(m.bytes === null ? {} : { size_in_bytes: m.bytes }), ...(m.alt_text === null ? {} : { title: m.alt_text }) })) }
        : {}),
    })),
  }, null, 2)
}

/**
 * The web page the feeds' items link to: every post an article, its anchor the post id, with
 * links to the three feeds. Text only, escaped; the route adds a policy that runs no script.
 */
export function renderHtml(channel: FeedChannel, items: FeedItem[]): string {
  const articles = items.map((item) => {
    const when = new Date(item.publishedAt).toISOString()
    const media = mediaOf(item).map((m) => `      <li><a href="${xml(m.url)}">${xml(m.alt_text ?? m.url)}</a></li>`)
    return [
      `  <article id="${xml(item.postId)}">`,
      `    <p class="when"><a href="#${xml(item.postId)}"><time datetime="${when}">${when.slice(0, 16).replace('T', ' ')} UTC</time></a></p>`,
      `    <p class="text">${xml(item.content)}</p>`,
      ...(media.length ? ['    <ul class="media">', ...media, '    </ul>'] : []),
      '  </article>',
    ].join('\n')
  })
  return [
    '<!DOCTYPE html>',
    '<html lang="und">',
    '<head>',
    '  <meta charset="utf-8">',
    '  <meta name="viewport" content="width=device-width, initial-scale=1">',
    `  <title>${xml(channel.title)}</title>`,
    `  <link rel="alternate" type="application/rss+xml" href="${xml(channel.base)}.rss" title="RSS">`,
    `  <link rel="alternate" type="application/atom+xml" href="${xml(channel.base)}.atom" title="Atom">`,
    `  <link rel="alternate" type="application/feed+json" href="${xml(channel.base)}.json" title="JSON Feed">`,
    '  <style>body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:2em auto;padding:0 1em}article{border-top:1px solid #ddd;padding:.5em 0}.text{white-space:pre-wrap}.when a{color:#666}:target{background:#ffd}</style>',
    '</head>',
    '<body>',
    `  <h1>${xml(channel.title)}</h1>`,
    `  <p>Posts of ${xml(channel.title)}, published by smm. Follow in a feed reader: <a href="${xml(channel.base)}.rss">RSS</a>, <a href="${xml(channel.base)}.atom">Atom</a>, <a href="${xml(channel.base)}.json">JSON Feed</a>.</p>`,
    ...(articles.length ? articles : ['  <p>Nothing published yet.</p>']),
    '</body>',
    '</html>',
    '',
  ].join('\n')
}
