import { routes } from '../../src/contract.js'
import { newId } from '../../src/ids.js'
import { generate } from '../ai/index.js'
import type { AppDeps } from '../context.js'
import { bind, type ApiRouter } from './bind.js'

export function aiRoutes(router: ApiRouter, { ai, clock, platforms }: AppDeps): void {
  // Drafts are answered, not stored: the id names this answer (and Idempotency-Key replays it).
  bind(router, routes.generateContent, async (ctx, { body }) => {
    const generation = await generate(ai, body, platforms) // measured by the modules that validate posts
    ctx.body = { id: newId('gen', clock.now()), ...generation }
  })
}
