import { routes } from '../../src/contract.js'
import type { AppDeps } from '../context.js'
import { bind, type ApiRouter } from './bind.js'

export function meRoutes(router: ApiRouter, deps: AppDeps): void {
  bind(router, routes.getMe, async (ctx, { principal }) => {
    ctx.body = principal.user
  })

  bind(router, routes.updateMe, async (ctx, { body, principal }) => {
    ctx.body = await deps.store.users.update(principal.user.id, body)
  })
}
