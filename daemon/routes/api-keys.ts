import { routes } from '../../src/contract.js'
import { invalidField, notFound } from '../../src/errors.js'
import { afterId, toPage } from '../../src/pagination.js'
import { SCOPES } from '../../src/api/common.js'
import type { AppDeps } from '../context.js'
import { bind, type ApiRouter } from './bind.js'

export function apiKeyRoutes(router: ApiRouter, { store, clock }: AppDeps): void {
  bind(router, routes.listApiKeys, async (ctx, { query, principal }) => {
    const rows = await store.apiKeys.listPage(principal.user.id, afterId(query.cursor), query.limit + 1)
    ctx.body = toPage(rows, query.limit)
  })

  bind(router, routes.createApiKey, async (ctx, { body, principal }) => {
    const expiresAt = body.expires_at ? Date.parse(body.expires_at) : null
    if (expiresAt !== null && expiresAt <= clock.now()) throw invalidField('#/expires_at', 'must be in the future')
    const key = await store.apiKeys.create(principal.user.id, { name: body.name, scopes: body.scopes ?? SCOPES, expiresAt }, clock.now())
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
