import { routes } from '../../src/contract.js'
import { bind, type ApiRouter } from './bind.js'

export function meRoutes(router: ApiRouter): void {
  bind(router, routes.getMe, async (ctx, { principal }) => {
    ctx.body = principal.user
  })
}
