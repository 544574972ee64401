import { createHash, randomBytes } from 'node:crypto'
import { REVIEW_LINK_DEFAULT_SECONDS, type ReviewLink } from '../../src/api/review-links.js'
import { routes } from '../../src/contract.js'
import { notFound } from '../../src/errors.js'
import { newId } from '../../src/ids.js'
import { toIso } from '../../src/time.js'
import { accessOf } from '../access.js'
import type { AppDeps } from '../context.js'
import type { ReviewLinkRecord } from '../store/index.js'
import { actorView } from './approval.js'
import { bind, type ApiRouter } from './bind.js'
import { postFor } from './posts.js'

/** A review link's token: 32 random bytes in base64url (256 bits, 43 characters). */
export const REVIEW_TOKEN = /^[A-Za-z0-9_-]{43}$/

/** Only this is kept: someone reading the database cannot open a link. */
export const reviewTokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex')

export function reviewLinkState(link: ReviewLinkRecord, now: number): ReviewLink['state'] {
  return link.revokedAt !== null ? 'revoked' : link.expiresAt <= now ? 'expired' : 'active'
}

function reviewLinkView(link: ReviewLinkRecord, now: number, creatorName: string | null): ReviewLink {
  return {
    id: link.id,
    post_id: link.postId,
    created_by: actorView(link.createdBy, creatorName),
    created_at: toIso(link.createdAt),
    expires_at: toIso(link.expiresAt),
    revoked_at: link.revokedAt === null ? null : toIso(link.revokedAt),
    state: reviewLinkState(link, now),
  }
}

/**
 * Review links to a post: made, listed and revoked by whoever may approve it (an admin or an
 * owner), since the link approves in their stead. An editor cannot make one: it would let them
 * approve their own post through it.
 */
export function reviewLinkRoutes(router: ApiRouter, deps: AppDeps): void {
  /** The name of the user who made a link, as it is now. */
  const creatorName = async (link: ReviewLinkRecord) => {
    const by = link.createdBy
    return by !== null && 'userId' in by ? ((await deps.store.users.get(by.userId))?.name ?? null) : null
  }

  bind(router, routes.createReviewLink, async (ctx, { params, body, principal }) => {
    const access = accessOf(principal)
    const post = await postFor(deps, access, params.id, 'approve')
    const now = deps.clock.now()
    const token = randomBytes(32).toString('base64url')
    const link = await deps.store.reviewLinks.create(
      [post.workspaceId],
      params.id,
      { id: newId('rvl', now), tokenHash: reviewTokenHash(token), expiresAt: now + (body.expires_in ?? REVIEW_LINK_DEFAULT_SECONDS) * 1000 },
      now,
      access.actor,
    )
    // Deleted between the two reads.
    if (!link) throw notFound('post', params.id)
    ctx.status = 201
    ctx.body = { ...reviewLinkView(link, now, principal.user.name), url: `${deps.publicUrl()}/review/${token}` }
  })

  bind(router, routes.listReviewLinks, async (ctx, { params, principal }) => {
    const post = await postFor(deps, accessOf(principal), params.id, 'approve')
    const links = (await deps.store.reviewLinks.list([post.workspaceId], params.id)) ?? []
    const now = deps.clock.now()
    ctx.body = { data: await Promise.all(links.map(async (l) => reviewLinkView(l, now, await creatorName(l)))), has_more: false, next_cursor: null }
  })

  bind(router, routes.revokeReviewLink, async (ctx, { params, principal }) => {
    const access = accessOf(principal)
    const post = await postFor(deps, access, params.id, 'approve')
    const link = await deps.store.reviewLinks.revoke([post.workspaceId], params.id, params.link_id, deps.clock.now(), access.actor)
    if (!link) throw notFound('review link', params.link_id)
    ctx.status = 204
  })
}
