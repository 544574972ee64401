import { routes } from '../../src/contract.js'
import { notFound } from '../../src/errors.js'
import { freeSlots, QUEUE_HORIZON_MS, type Slot } from '../../src/queue-slots.js'
import { toIso } from '../../src/time.js'
import { accessOf } from '../access.js'
import type { AppDeps } from '../context.js'
import { bind, type ApiRouter } from './bind.js'

/** How many upcoming free slot times GET …/queue shows. */
const NEXT_SHOWN = 10

export function queueRoutes(router: ApiRouter, deps: AppDeps): void {
  const { store, clock } = deps

  /** The queue as the API shows it: slots, and the next free times they give in the account's workspace's zone. */
  async function queueOf(accountId: string, workspaceId: string, slots: Slot[]) {
    const now = clock.now()
    const timeZone = (await store.workspaces.get(workspaceId))!.timezone
    const taken = new Set(await store.queues.taken(accountId, now, now + QUEUE_HORIZON_MS))
    return { timezone: timeZone, slots, next: freeSlots(slots, timeZone, now, taken, NEXT_SHOWN).map(toIso) }
  }

  bind(router, routes.getQueue, async (ctx, { params, principal }) => {
    const account = await store.accounts.get(accessOf(principal).where('read'), params.id)
    const slots = account && (await store.queues.get([account.workspace_id], params.id))
    if (!account || !slots) throw notFound('account', params.id)
    ctx.body = await queueOf(params.id, account.workspace_id, slots)
  })

  bind(router, routes.setQueue, async (ctx, { params, body, principal }) => {
    const account = await accessOf(principal).find('manage_accounts', (scope) => store.accounts.get(scope, params.id), (a) => a.workspace_id, () => notFound('account', params.id))
    const slots = await store.queues.set([account.workspace_id], params.id, body.slots)
    if (!slots) throw notFound('account', params.id)
    ctx.body = await queueOf(params.id, account.workspace_id, slots)
  })
}
