import getRawBody from 'raw-body'
import { ApiError } from '../../src/errors.js'
import type { AppDeps, Ctx } from '../context.js'
import { imageOrigins, messagePage, reviewHeaders, reviewPage, type ReviewView } from '../review/page.js'
import type { PostRecord, ReviewLinkRecord } from '../store/index.js'
import { decidePost } from './approval.js'
import type { ApiRouter } from './bind.js'
import { REVIEW_TOKEN, reviewLinkState, reviewTokenHash } from './review-links.js'

/** The most a review form may send: a 10,000-character comment, a name and the token, encoded. */
const MAX_FORM_BYTES = 128 * 1024
const MAX_NAME = 100
const MAX_COMMENT = 10_000

/** The form's CSRF token is sealed with the daemon's key for this link and the post's version. */
const formContext = (link: ReviewLinkRecord) => `review-form:${link.id}`

function answer(ctx: Ctx, status: number, html: string, images: readonly string[] = []): void {
  ctx.status = status
  ctx.type = 'text/html; charset=utf-8'
  ctx.set(reviewHeaders(images))
  ctx.body = html
}

type Found = { link: ReviewLinkRecord; record: PostRecord } | { status: number; title: string; message: string }

/** The link a token opens and its post, or the page that says why it opens nothing. */
async function open(deps: AppDeps, token: string): Promise<Found> {
  const link = REVIEW_TOKEN.test(token) ? await deps.store.reviewLinks.byTokenHash(reviewTokenHash(token)) : undefined
  if (!link) return { status: 404, title: 'This link is not valid', message: 'No post is under review at this address. Check that the whole link was copied, or ask for a new one.' }
  const state = reviewLinkState(link, deps.clock.now())
  if (state === 'revoked') return { status: 410, title: 'This link was revoked', message: 'The team withdrew this review link, so it no longer opens the post. Ask them for a new one if you still need it.' }
  if (state === 'expired') return { status: 410, title: 'This link has expired', message: 'This review link has passed its expiry date, so it no longer opens the post. Ask the team for a new one.' }
  const record = await deps.store.posts.get([link.workspaceId], link.postId)
  if (!record) return { status: 410, title: 'This post is gone', message: 'The post this link was made for has been deleted.' }
  return { link, record }
}

async function viewOf(deps: AppDeps, link: ReviewLinkRecord, record: PostRecord, extra: Pick<ReviewView, 'problem' | 'notice'> = {}): Promise<ReviewView> {
  const scope = [link.workspaceId]
  const [workspace, account, comments] = await Promise.all([
    deps.store.workspaces.get(link.workspaceId),
    deps.store.accounts.get(scope, record.post.account_id),
    deps.store.comments.list(scope, record.post.id, '', 100),
  ])
  const post = record.post
  return {
    post,
    accountName: account?.name ?? post.account_id,
    workspaceName: workspace?.name ?? '',
    timezone: workspace?.timezone ?? 'UTC',
    labels: Object.fromEntries(post.platforms.map((p) => [p, deps.platforms.platformFor(p)?.label ?? p])),
    comments: (comments ?? []).map((c) => ({ author: c.authorName ?? (c.author === null ? 'smm' : 'A reviewer'), body: c.body, decision: c.decision, at: c.createdAt })),
    ...(post.status === 'pending_approval' ? { formToken: deps.secrets.seal({ version: record.version }, formContext(link)).toString('base64url') } : {}),
    ...extra,
  }
}

async function show(ctx: Ctx, deps: AppDeps, link: ReviewLinkRecord, record: PostRecord, status = 200, extra: Pick<ReviewView, 'problem' | 'notice'> = {}) {
  answer(ctx, status, reviewPage(await viewOf(deps, link, record, extra)), imageOrigins(record.post))
}

/** The version of the post the form was made for, if it is a form this daemon made for this link. */
function formVersion(deps: AppDeps, link: ReviewLinkRecord, token: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(token)) return undefined
  try {
    const sealed = deps.secrets.open(Buffer.from(token, 'base64url'), formContext(link)) as { version?: unknown }
    return typeof sealed.version === 'number' ? sealed.version : undefined
  } catch (error) {
    // A forged, altered or another link's token: refused below, as one without a token.
    deps.log.info({ msg: 'review form token refused', review_link_id: link.id, reason: (error as Error).message })
    return undefined
  }
}

/**
 * Whether a form post came from the page itself. Browsers say where a request comes from in
 * Sec-Fetch-Site; one that does not still sends Origin on a POST. The page's no-referrer policy
 * makes that Origin "null" even from the page itself, so "null" is let through to the CSRF
 * token, which is checked either way.
 */
function sameSite(ctx: Ctx, deps: AppDeps): boolean {
  const site = ctx.get('Sec-Fetch-Site')
  if (site !== '') return site === 'same-origin'
  const origin = ctx.get('Origin')
  return origin === '' || origin === 'null' || origin === new URL(deps.publicUrl()).origin
}

async function readForm(ctx: Ctx): Promise<URLSearchParams | undefined> {
  if (!ctx.is('application/x-www-form-urlencoded')) return undefined
  try {
    return new URLSearchParams((await getRawBody(ctx.req, { limit: MAX_FORM_BYTES, encoding: 'utf8' })).toString())
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') return undefined
    throw error
  }
}

/**
 * The page behind a review link: `GET /review/{token}` shows the post, `POST` records the
 * reviewer's decision, as made through the link (the reviewer's name with it, if given). Open
 * (no key): the token is what grants it, and only its hash is kept.
 */
export function reviewPageRoutes(router: ApiRouter, deps: AppDeps): void {
  router.get('/review/:token', async (ctx) => {
    const found = await open(deps, ctx.params.token!)
    if ('status' in found) return answer(ctx, found.status, messagePage(found.title, found.message))
    await show(ctx, deps, found.link, found.record)
  })

  router.register(
    '/review/:token',
    ['POST'],
    async (ctx) => {
      const found = await open(deps, ctx.params.token!)
      if ('status' in found) return answer(ctx, found.status, messagePage(found.title, found.message))
      const { link, record } = found
      if (!sameSite(ctx, deps)) return answer(ctx, 403, messagePage('Refused', 'This form was sent from another site, so nothing was changed. Open the review link itself to decide.'))
      const form = await readForm(ctx)
      if (!form) return answer(ctx, 400, messagePage('Refused', 'The form could not be read, so nothing was changed. Open the review link again.'))
      const version = formVersion(deps, link, form.get('csrf') ?? '')
      if (version === undefined) return answer(ctx, 403, messagePage('Refused', 'This form was not made by this review page, so nothing was changed. Open the review link again to decide.'))
      if (record.post.status !== 'pending_approval') {
        return show(ctx, deps, link, record, 409, { notice: `A decision was already made: the post is ${record.post.status.replaceAll('_', ' ')}. Nothing was changed.` })
      }
      const changed = (now: PostRecord) => show(ctx, deps, link, now, 409, { notice: 'The post changed since you opened this page, so nothing was changed: here it is as it is now. Decide again.' })
      if (version !== record.version) return changed(record)
      const decision = form.get('decision')
      const comment = (form.get('comment') ?? '').trim()
      const name = (form.get('name') ?? '').trim()
      const again = (message: string) => show(ctx, deps, link, record, 422, { problem: { message, comment, name } })
      if (decision !== 'approve' && decision !== 'reject') return again('Choose Approve or Request changes.')
      if (decision === 'reject' && comment === '') return again('Say what should change: a comment is needed to ask for changes.')
      if (comment.length > MAX_COMMENT) return again(`The comment is ${comment.length} characters long; at most ${MAX_COMMENT} fit.`)
      if (name.length > MAX_NAME) return again(`The name is ${name.length} characters long; at most ${MAX_NAME} fit.`)
      const by = { reviewLinkId: link.id, name: name === '' ? null : name }
      let decided: PostRecord
      try {
        // At the version the page showed: an edit that lands while the form is read or sent is never approved unseen.
        decided = await decidePost(deps, [link.workspaceId], link.postId, { ...(decision === 'approve' ? { approve: true, ...(comment ? { comment } : {}) } : { approve: false, comment }), version }, by)
      } catch (error) {
        // Decided by someone else, or edited, between the check and now.
        if (!(error instanceof ApiError) || (error.code !== 'post_not_pending' && error.code !== 'post_changed')) throw error
        const now = await deps.store.posts.get([link.workspaceId], link.postId)
        if (!now) return answer(ctx, 410, messagePage('This post is gone', 'The post this link was made for has been deleted.'))
        return error.code === 'post_changed' ? changed(now) : show(ctx, deps, link, now, 409, { notice: 'A decision was already made meanwhile. Nothing was changed.' })
      }
      await show(ctx, deps, link, decided, 200, { notice: decision === 'approve' ? 'Thank you: you approved this post.' : 'Thank you: the team has been asked for changes.' })
    },
    undefined,
    true,
  )
}
