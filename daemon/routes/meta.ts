import { routes } from '../../src/contract.js'
import { buildOpenApi } from '../../src/openapi.js'
import type { AppDeps } from '../context.js'
import { bind, type ApiRouter } from './bind.js'

export function metaRoutes(router: ApiRouter, deps: AppDeps): void {
  // Built on first request and kept: the document is a pure function of the code.
  let openapi: Record<string, unknown> | undefined

  bind(router, routes.getHealth, async (ctx) => {
    ctx.body = { status: 'ok', version: deps.version }
  })

  bind(router, routes.getOpenApi, async (ctx) => {
    openapi ??= buildOpenApi(routes, deps.version)
    ctx.body = openapi
  })
}
