import { personalWorkspaceId } from '../src/ids.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openSqliteStore } from '../daemon/store/sqlite/index.js'

let dir = ''
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('the SQLite outbox', () => {
  it('keeps each event appended until it is dispatched to the endpoints that existed, once, and drops one whose event is gone', async () => {
    dir = mkdtempSync(join(tmpdir(), 'smm-outbox-'))
    const store = openSqliteStore(join(dir, 'smm.db'))
    try {
      const user = (await store.users.create({ name: 'Ada' }, 0)).id
      const webhook = (await store.webhooks.create(personalWorkspaceId(user), user, { url: 'https://example.com/hook', events: ['*'], description: null, sealedSecret: 'sealed' }, 0)).id
      const gone = await store.events.append(personalWorkspaceId(user), 'post.scheduled', { id: 'pst_1' }, 1, null)
      const kept = await store.events.append(personalWorkspaceId(user), 'post.updated', { id: 'pst_1' }, 2, null)
      expect(await store.webhookDeliveries.hasWork(3)).toBe(true)
      // Its user's deletion takes an event with it; its place in the outbox is dropped at dispatch.
      store.db.prepare('DELETE FROM events WHERE id = ?').run(gone.id)
      expect(await store.webhookDeliveries.dispatch(3)).toBe(2)
      const deliveries = () => store.db.prepare('SELECT webhook_id, event_id FROM webhook_deliveries').all()
      expect(deliveries()).toEqual([{ webhook_id: webhook, event_id: kept.id }])
      // Dispatched once: nothing is left to dispatch, and the event's row was not rewritten.
      expect(await store.webhookDeliveries.dispatch(4)).toBe(0)
      expect(deliveries()).toHaveLength(1)
      expect(store.db.prepare('SELECT dispatched_at FROM events WHERE id = ?').pluck().get(kept.id)).toBeNull()
    } finally {
      await store.close()
    }
  })
})
