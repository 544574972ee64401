import { routes } from '../../src/contract.js'
import { buildOpenApi } from '../../src/openapi.js'
import type { AppDeps } from '../context.js'
import { storeUnavailable } from '../middleware/errors.js'
import { StoreUnavailableError, type Store } from '../store/index.js'
import { bind, type ApiRouter } from './bind.js'

export function metaRoutes(router: ApiRouter, deps: AppDeps): void {
  // Built on first request and kept: the document is a pure function of the code.
  let openapi: Record<string, unknown> | undefined

  bind(router, routes.getHealth, async (ctx) => {
    ctx.body = { status: 'ok', version: deps.version }
  })

  bind(router, routes.getReady, async (ctx) => {
    await answersWithin(deps.store, READY_WITHIN_MS)
    ctx.body = { status: 'ready', version: deps.version }
  })

  bind(router, routes.getOpenApi, async (ctx) => {
    openapi ??= buildOpenApi(routes, deps.version)
    ctx.body = openapi
  })
}

/** How long the store may take to answer a readiness check. */
const READY_WITHIN_MS = 1_000

/** Resolves if the store answers within `ms`; else 503 `store_unavailable`, saying why. */
async function answersWithin(store: Store, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new StoreUnavailableError(`no answer within ${ms} ms`)), ms)))
  try {
    await Promise.race([store.ping(), late])
  } catch (error) {
    const cause = error instanceof StoreUnavailableError ? error.reason : (error as Error).message
    throw storeUnavailable(`Not ready: the database did not answer (${cause}).`)
  } finally {
    clearTimeout(timer)
  }
}
