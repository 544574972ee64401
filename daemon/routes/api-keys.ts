import { routes } from '../../src/contract.js'
import { insufficientScope, invalidField, notFound } from '../../src/errors.js'
import { afterId, toPage } from '../../src/pagination.js'
import { SCOPES } from '../../src/api/common.js'
import { accessOf } from '../access.js'
import type { AppDeps } from '../context.js'
import { bind, type ApiRouter } from './bind.js'

export function apiKeyRoutes(router: ApiRouter, { store, clock }: AppDeps): void {
  bind(router, routes.listApiKeys, async (ctx, { query, principal }) => {
    const rows = await store.apiKeys.listPage(principal.user.id, afterId(query.cursor), query.limit + 1)
    ctx.body = toPage(rows, query.limit)
  })

  bind(router, routes.createApiKey, async (ctx, { body, principal }) => {
    // A key grants at most what it holds, for at most as long as it lives: keys:write alone
    // must not be a way to mint a key with every scope, or one that outlives the key making it.
    const scopes = body.scopes ?? SCOPES.filter((s) => principal.scopes.has(s))
    const extra = scopes.filter((s) => !principal.scopes.has(s))
    if (extra.length) {
      throw insufficientScope(
        extra.join(' '),
        `This API key cannot grant scopes it does not hold: ${extra.join(', ')}. Create the key with one that holds them.`,
        extra.map((scope) => ({ pointer: `#/scopes/${scopes.indexOf(scope)}`, code: 'scope_not_held', detail: `"${scope}" is not held by the key making this one` })),
      )
    }
    const ownExpiry = principal.key.expires_at === null ? null : Date.parse(principal.key.expires_at)
    const expiresAt = body.expires_at ? Date.parse(body.expires_at) : body.expires_at === null ? null : ownExpiry
    if (expiresAt !== null && expiresAt <= clock.now()) throw invalidField('#/expires_at', 'must be in the future')
    if (ownExpiry !== null && (expiresAt === null || expiresAt > ownExpiry)) {
      throw invalidField('#/expires_at', `must be no later than ${principal.key.expires_at}, when the key making it expires`, 'outlives_key')
    }
    const key = await store.apiKeys.create(principal.user.id, { name: body.name, scopes, expiresAt }, clock.now(), accessOf(principal).actor)
    ctx.status = 201
    ctx.set('Location', `/v1/api-keys/${key.id}`)
    ctx.body = key
  })

  bind(router, routes.revokeApiKey, async (ctx, { params, principal }) => {
    const key = await store.apiKeys.revoke(principal.user.id, params.id, clock.now())
    if (!key) throw notFound('API key', params.id)
    ctx.status = 204
  })
}
