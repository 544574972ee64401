import { routes } from '../../src/contract.js'
import { newId } from '../../src/ids.js'
import { generate } from '../ai/index.js'
import { platformFitCheck } from '../ai/limits.js'
import type { AppDeps } from '../context.js'
import { bind, type ApiRouter } from './bind.js'

export function aiRoutes(router: ApiRouter, { ai, clock, platforms }: AppDeps): void {
  // One source of truth: drafts are measured by the same modules that validate posts.
  const fit = platformFitCheck(platforms)
  // Drafts are answered, not stored: the id names this answer (and Idempotency-Key replays it).
  bind(router, routes.generateContent, async (ctx, { body }) => {
    const generation = await generate(ai, body, fit)
    ctx.body = { id: newId('gen', clock.now()), ...generation }
  })
}
