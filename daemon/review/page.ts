import type { Post, PostMedia } from '../../src/api/posts.js'
import type { PlatformName } from '../../src/api/common.js'
import { partsOf, versionFor, type PartPlan } from '../../src/post-parts.js'
import { escapeHtml, styleHash } from '../routes/html.js'

/**
 * The review page: a post as each of its platforms will show it, and a form to approve it or ask
 * for changes. Plain HTML that runs nothing: every text the post, its comments or a reviewer
 * wrote is escaped, the one style element is allowed by its hash, and images only from where
 * the post's media are.
 */

const CSS =
  'body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}' +
  'section{border:1px solid #ccc;border-radius:.5rem;padding:.5rem 1rem;margin:1rem 0}' +
  '.part{border-left:3px solid #ddd;padding-left:.75rem;margin:.75rem 0}.text{white-space:pre-wrap;overflow-wrap:anywhere}' +
  'img{max-width:100%;height:auto;display:block;margin:.25rem 0}figcaption,.meta{color:#555;font-size:.9em}' +
  'label{display:block;margin-top:.75rem}textarea,input[type=text]{width:100%;box-sizing:border-box;font:inherit}' +
  'button{font:inherit;margin:1rem .5rem 0 0;padding:.4rem 1rem}.error{color:#a00}'

/** The security headers of every answer of the review page, whatever it says. */
export function reviewHeaders(imageOrigins: readonly string[]): Record<string, string> {
  const img = imageOrigins.length > 0 ? imageOrigins.join(' ') : "'none'"
  return {
    'Content-Security-Policy': `default-src 'none'; img-src ${img}; style-src ${styleHash(CSS)}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    // The URL is a password: no cache keeps the page, no Referer carries it to the media's hosts.
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  }
}

/** Everything the page shows of a post. */
export interface ReviewView {
  post: Post
  accountName: string
  workspaceName: string
  timezone: string
  /** Platforms' names for people, by platform. */
  labels: Partial<Record<PlatformName, string>>
  comments: { author: string; body: string; decision: 'approved' | 'rejected' | null; at: number }[]
  /** The form's CSRF token when the post waits for a decision; absent otherwise. */
  formToken?: string
  /** Why the last form was refused, with what it said, to show it again. */
  problem?: { message: string; comment: string; name: string }
  /** Said above the post: what just happened. */
  notice?: string
}

/** The origins of the images the page shows: its img-src. */
export function imageOrigins(post: Post): string[] {
  const origins = new Set<string>()
  for (const url of imageUrls(post)) {
    const parsed = URL.canParse(url) ? new URL(url) : undefined
    if (parsed && (parsed.protocol === 'https:' || parsed.protocol === 'http:')) origins.add(parsed.origin)
  }
  return [...origins]
}

const IMAGE_PATH = /\.(?:png|jpe?g|gif|webp|avif)(?:$|\?)/i

function imageUrls(post: Post): string[] {
  const media = [...post.media, ...post.thread.flatMap((p) => p.media ?? [])].filter((m) => m.content_type.startsWith('image/')).map((m) => m.url)
  const linked = [post.media_urls, ...post.thread.map((p) => p.media_urls), ...Object.values(post.overrides).map((o) => o?.media_urls ?? [])].flat()
  return [...media, ...linked.filter((url) => IMAGE_PATH.test(url))]
}

export function when(at: number, timezone: string): string {
  const text = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, dateStyle: 'full', timeStyle: 'short' }).format(at)
  return `${text} (${timezone})`
}

function mediaHtml(part: PartPlan, byId: ReadonlyMap<string, PostMedia>): string {
  const items: string[] = []
  for (const ref of part.media) {
    const media = byId.get(ref.id)
    const alt = ref.alt_text ?? media?.alt_text ?? ''
    if (media?.content_type.startsWith('image/')) {
      items.push(`<figure><img src="${escapeHtml(media.url)}" alt="${escapeHtml(alt)}"><figcaption>Alt text: ${alt ? escapeHtml(alt) : '<em>none</em>'}</figcaption></figure>`)
    } else {
      items.push(`<p class="meta">${media ? `A ${escapeHtml(media.content_type)} file` : 'A media file'}${alt ? `, alt text: ${escapeHtml(alt)}` : ', no alt text'}</p>`)
    }
  }
  for (const url of part.mediaUrls) {
    items.push(IMAGE_PATH.test(url) ? `<img src="${escapeHtml(url)}" alt="">` : `<p class="meta">Media: ${escapeHtml(url)}</p>`)
  }
  return items.join('')
}

const PART_TITLES = { post: 'Post', first_comment: 'First comment', thread: 'Thread part' } as const

function platformHtml(view: ReviewView, platform: PlatformName): string {
  const byId = new Map([...view.post.media, ...view.post.thread.flatMap((p) => p.media ?? [])].map((m) => [m.id, m]))
  const parts = partsOf(versionFor(view.post, platform)).map((part) => {
    const title = part.kind === 'thread' ? `${PART_TITLES.thread} ${part.index}` : PART_TITLES[part.kind]
    return `<div class="part"><p class="meta">${title}</p><p class="text">${escapeHtml(part.content)}</p>${mediaHtml(part, byId)}</div>`
  })
  return `<section><h2>${escapeHtml(view.labels[platform] ?? platform)}</h2>${parts.join('')}</section>`
}

const DECIDED = { approved: 'approved', rejected: 'asked for changes' } as const

function commentsHtml(view: ReviewView): string {
  if (view.comments.length === 0) return ''
  const items = view.comments.map(
    (c) => `<li><span class="meta">${escapeHtml(c.author)}${c.decision ? ` ${DECIDED[c.decision]}` : ''}, ${escapeHtml(when(c.at, view.timezone))}:</span><p class="text">${escapeHtml(c.body)}</p></li>`,
  )
  return `<h2>Comments</h2><ul>${items.join('')}</ul>`
}

function formHtml(view: ReviewView): string {
  if (view.formToken === undefined) return ''
  const problem = view.problem
  return `<h2>Your decision</h2>
<form method="post">
<input type="hidden" name="csrf" value="${escapeHtml(view.formToken)}">
${problem ? `<p class="error" role="alert">${escapeHtml(problem.message)}</p>` : ''}
<label for="comment">Comment (needed to ask for changes)</label>
<textarea id="comment" name="comment" rows="4" maxlength="10000">${escapeHtml(problem?.comment ?? '')}</textarea>
<label for="name">Your name (optional, shown to the team)</label>
<input type="text" id="name" name="name" maxlength="100" value="${escapeHtml(problem?.name ?? '')}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="reject">Request changes</button>
</form>`
}

/** The page of a post under review. */
export function reviewPage(view: ReviewView): string {
  const { post } = view
  const at = post.scheduled_at === null ? 'No time set yet' : `To go out ${when(Date.parse(post.scheduled_at), view.timezone)}`
  const status = post.status === 'pending_approval' ? 'Waiting for approval' : `This post is ${post.status.replaceAll('_', ' ')}: there is nothing to decide now`
  const body = `${view.notice ? `<p role="status"><strong>${escapeHtml(view.notice)}</strong></p>` : ''}
<p class="meta">${escapeHtml(view.workspaceName)} · ${escapeHtml(view.accountName)}</p>
<p>${escapeHtml(at)}</p>
<p id="status">${escapeHtml(status)}</p>
${post.platforms.map((p) => platformHtml(view, p)).join('\n')}
${commentsHtml(view)}
${formHtml(view)}`
  return document('Review a post', body)
}

/** A page that only says something: a link that no longer works, a form refused. */
export function messagePage(title: string, message: string): string {
  return document(title, `<p>${escapeHtml(message)}</p>`)
}

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · smm</title>
<style>${CSS}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`
}
