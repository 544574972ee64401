import { expect } from 'vitest'
import { SCOPES } from '../../src/api/common.js'
import type { TestDaemon } from './daemon.js'

/**
 * The owner's key without the per-minute limit in the way: these tests send more than 100
 * requests in one minute of their frozen clock. Returns the owner's user id.
 */
export async function liftLimits(t: TestDaemon): Promise<string> {
  const me = await t.http.get('/v1/me', { key: t.key })
  await t.daemon.store.users.setPlan(me.body.id, 'enterprise', { per_minute: 1_000_000, per_hour: 1_000_000, per_day: 1_000_000 })
  return me.body.id
}

/** An account connected to the feed platform, over the API. */
export async function feedAccount(t: TestDaemon, name = 'Brand', key = t.key): Promise<string> {
  const account = await t.http.post('/v1/accounts', { name }, { key })
  expect(account.status).toBe(201)
  const connected = await t.http.post(`/v1/accounts/${account.body.id}/connections`, { platform: 'feed' }, { key })
  expect(connected.status).toBe(201)
  return account.body.id
}

/** A second user with a key of their own, made the way `smm admin` does: directly in the store. */
export async function otherUser(t: TestDaemon): Promise<{ userId: string; key: string }> {
  const now = t.clock.now()
  const user = await t.daemon.store.users.create({ name: 'mallory', plan: 'enterprise' }, now)
  await t.daemon.store.users.setPlan(user.id, 'enterprise', { per_minute: 1_000_000, per_hour: 1_000_000, per_day: 1_000_000 })
  const key = await t.daemon.store.apiKeys.create(user.id, { name: 'other', scopes: ['accounts:read', 'accounts:write', 'posts:read', 'posts:write'] }, now, null)
  return { userId: user.id, key: key.secret }
}

/** Another user with an email and a key of every scope: someone to add to a workspace. */
export async function person(t: TestDaemon, name: string): Promise<{ userId: string; email: string; key: string }> {
  const now = t.clock.now()
  const email = `${name.toLowerCase()}-${now}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const user = await t.daemon.store.users.create({ name, email }, now)
  await t.daemon.store.users.setPlan(user.id, 'enterprise', { per_minute: 1_000_000, per_hour: 1_000_000, per_day: 1_000_000 })
  const key = await t.daemon.store.apiKeys.create(user.id, { name, scopes: SCOPES }, now, null)
  return { userId: user.id, email, key: key.secret }
}

/** Events of a type in the outbox, oldest first. */
export async function eventsOf(t: TestDaemon, type: string): Promise<{ type: string; data: any }[]> {
  const all = await t.daemon.store.events.listAfter('', 1_000_000)
  return all.filter((e) => e.type === type)
}
