import { routes } from '../../src/contract.js'
import { notFound } from '../../src/errors.js'
import { freeSlots, QUEUE_HORIZON_MS, type Slot } from '../../src/queue-slots.js'
import { toIso } from '../../src/time.js'
import type { AppDeps } from '../context.js'
import { bind, type ApiRouter } from './bind.js'

/** How many upcoming free slot times GET …/queue shows. */
const NEXT_SHOWN = 10

export function queueRoutes(router: ApiRouter, deps: AppDeps): void {
  const { store, clock } = deps

  /** The queue as the API shows it: slots, and the next free times they give in the user's zone. */
  async function queueOf(accountId: string, slots: Slot[], timeZone: string) {
    const now = clock.now()
    const taken = new Set(await store.queues.taken(accountId, now, now + QUEUE_HORIZON_MS))
    return { timezone: timeZone, slots, next: freeSlots(slots, timeZone, now, taken, NEXT_SHOWN).map(toIso) }
  }

  bind(router, routes.getQueue, async (ctx, { params, principal }) => {
    const slots = await store.queues.get(principal.user.id, params.id)
    if (!slots) throw notFound('account', params.id)
    ctx.body = await queueOf(params.id, slots, principal.user.timezone)
  })

  bind(router, routes.setQueue, async (ctx, { params, body, principal }) => {
    const slots = await store.queues.set(principal.user.id, params.id, body.slots)
    if (!slots) throw notFound('account', params.id)
    ctx.body = await queueOf(params.id, slots, principal.user.timezone)
  })
}
