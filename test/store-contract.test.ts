import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { hashApiKey } from '../src/api-key.js'
import { SCOPES } from '../src/api/common.js'
import { QueueRefusedError, RECOVERY_LEASE_MS, type ClaimedTarget, type Principal, type Store, type TargetRef } from '../daemon/store/index.js'
import { migrationChecksum } from '../daemon/store/migrations.js'
import { personalWorkspaceId } from '../src/ids.js'
import { DatabaseUnreachableError, openPostgresStore } from '../daemon/store/postgres/index.js'
import { migrations as postgresMigrations } from '../daemon/store/postgres/schema.js'
import { openSqliteStore } from '../daemon/store/sqlite/index.js'
import { cuttableRelay, freshDatabase } from './helpers/postgres.js'

type Families = Store

interface Backend {
  name: string
  /** A new, empty store, and a second store on the same data (another node, another process). */
  open(): Promise<{ store: Families; another(): Promise<Families>; dispose(): Promise<void> }>
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'smm-contract-'))
      const file = join(dir, 'smm.db')
      const opened: Families[] = [openSqliteStore(file)]
      return {
        store: opened[0]!,
        async another() {
          const store = openSqliteStore(file)
          opened.push(store)
          return store
        },
        async dispose() {
          for (const s of opened) await s.close()
          rmSync(dir, { recursive: true, force: true })
        },
      }
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const db = await freshDatabase()
      const opened: Families[] = [await openPostgresStore(db.url, { max: 4 })]
      return {
        store: opened[0]!,
        async another() {
          const store = await openPostgresStore(db.url, { max: 4 })
          opened.push(store)
          return store
        },
        async dispose() {
          for (const s of opened) await s.close()
          await db.drop()
        },
      }
    },
  },
]

const T0 = Date.parse('2026-11-23T10:00:00Z')
const unlimited = { per_minute: 1e9, per_hour: 1e9, per_day: 1e9 }

describe.each(backends)('the store on $name', (backend) => {
  let store: Families
  let another: () => Promise<Families>
  let dispose: () => Promise<void>
  beforeAll(async () => {
    ;({ store, another, dispose } = await backend.open())
  })
  afterAll(() => dispose())

  describe('users', () => {
    it('creates, finds and lists users; the first owner is the owner', async () => {
      const before = await store.users.count()
      const owner = await store.users.create({ name: 'Ada', email: `ada-${backend.name}@example.com`, isOwner: true }, T0)
      const other = await store.users.create({ name: 'Bob', plan: 'business', timezone: 'Europe/Paris' }, T0 + 1)
      expect(owner).toMatchObject({ name: 'Ada', plan: 'standard', timezone: 'UTC', created_at: '2026-11-23T10:00:00.000Z' })
      expect(owner.limits).toEqual({ per_minute: 100, per_hour: 5_000, per_day: 50_000 })
      expect(other.limits).toEqual({ per_minute: 200, per_hour: 10_000, per_day: 100_000 })
      expect(await store.users.get(other.id)).toEqual(other)
      expect(await store.users.get('usr_nobody')).toBeUndefined()
      expect((await store.users.owner())?.id).toBe(owner.id)
      expect(await store.users.count()).toBe(before + 2)
      expect((await store.users.list()).map((u) => u.id)).toEqual(expect.arrayContaining([owner.id, other.id]))
    })

    it('keeps custom limits only on the enterprise plan, and sets a time zone', async () => {
      const user = await store.users.create({ name: 'Cy' }, T0)
      expect((await store.users.setPlan(user.id, 'enterprise', { per_minute: 7 }))!.limits.per_minute).toBe(7)
      expect((await store.users.setPlan(user.id, 'business', { per_minute: 7 }))!.limits.per_minute).toBe(200)
      expect((await store.users.update(user.id, { timezone: 'Asia/Tokyo' }))!.timezone).toBe('Asia/Tokyo')
      expect(await store.users.setPlan('usr_nobody', 'business')).toBeUndefined()
    })
  })

  describe('API keys', () => {
    it('authenticates a key by its hash, with its scopes and owner, until it expires or is revoked', async () => {
      const user = await store.users.create({ name: 'Keyholder' }, T0)
      const key = await store.apiKeys.create(user.id, { name: 'ci', scopes: ['posts:read', 'posts:write'], expiresAt: T0 + 60_000 }, T0, null)
      expect(key.secret).toMatch(/^smm_/)
      const principal = (await store.apiKeys.authenticate(hashApiKey(key.secret), T0 + 1)) as Principal
      expect(principal.user.id).toBe(user.id)
      expect([...principal.scopes]).toEqual(['posts:read', 'posts:write'])
      expect(await store.apiKeys.authenticate(hashApiKey(key.secret), T0 + 60_000)).toBe('expired')
      expect(await store.apiKeys.authenticate(hashApiKey(`${key.secret}x`), T0)).toBe('unknown')

      const revoked = await store.apiKeys.revoke(user.id, key.id, T0 + 10)
      expect(revoked!.revoked_at).toBe(new Date(T0 + 10).toISOString())
      // A second revoke keeps the first time.
      expect((await store.apiKeys.revoke(null, key.id, T0 + 20))!.revoked_at).toBe(new Date(T0 + 10).toISOString())
      expect(await store.apiKeys.authenticate(hashApiKey(key.secret), T0 + 11)).toBe('revoked')
    })

    it('shows a user only their own keys, page by page; the operator sees them all', async () => {
      const a = await store.users.create({ name: 'A' }, T0)
      const b = await store.users.create({ name: 'B' }, T0)
      const keys = []
      for (let i = 0; i < 3; i++) keys.push(await store.apiKeys.create(a.id, { name: `k${i}`, scopes: SCOPES }, T0 + i, null))
      const theirs = await store.apiKeys.create(b.id, { name: 'theirs', scopes: ['profile:read'] }, T0, null)
      expect(await store.apiKeys.get(a.id, theirs.id)).toBeUndefined()
      expect(await store.apiKeys.revoke(a.id, theirs.id, T0)).toBeUndefined()
      expect((await store.apiKeys.get(null, theirs.id))!.name).toBe('theirs')
      const first = await store.apiKeys.listPage(a.id, '', 2)
      const second = await store.apiKeys.listPage(a.id, first.at(-1)!.id, 2)
      expect([...first, ...second].map((k) => k.name)).toEqual(['k0', 'k1', 'k2'])
      const all = await store.apiKeys.listAll()
      expect(all.find((k) => k.id === theirs.id)?.user_id).toBe(b.id)
      expect(JSON.stringify(all)).not.toContain(keys[0]!.secret)
    })

    it('records a use at most once a minute', async () => {
      const user = await store.users.create({ name: 'Toucher' }, T0)
      const key = await store.apiKeys.create(user.id, { name: 't', scopes: SCOPES }, T0, null)
      const use = async (at: number) => {
        const principal = (await store.apiKeys.authenticate(hashApiKey(key.secret), at)) as Principal
        await store.apiKeys.touch(principal, at)
        return (await store.apiKeys.get(user.id, key.id))!.last_used_at
      }
      expect(await use(T0 + 1_000)).toBe(new Date(T0 + 1_000).toISOString())
      expect(await use(T0 + 30_000)).toBe(new Date(T0 + 1_000).toISOString())
      expect(await use(T0 + 61_000)).toBe(new Date(T0 + 61_000).toISOString())
    })
  })

  describe('rate limits', () => {
    const limits = { per_minute: 3, per_hour: 5, per_day: 100 }

    it('admits up to each window’s limit, counts only what it admits, and starts again with the next window', async () => {
      const user = await store.users.create({ name: 'Limited' }, T0)
      const key = await store.apiKeys.create(user.id, { name: 'l', scopes: SCOPES }, T0, null)
      const at = T0 + 5_000
      const decisions = []
      for (let i = 0; i < 5; i++) decisions.push(await store.rateLimits.consume(key.id, limits, at))
      expect(decisions.map((d) => d.admitted)).toEqual([true, true, true, false, false])
      expect(decisions[2]!.windows.map((w) => w.remaining)).toEqual([0, 2, 97])
      expect(decisions[3]).toMatchObject({ violated: ['minute'] })
      expect(decisions[3]!.windows[0]).toMatchObject({ name: 'minute', limit: 3, seconds: 60, remaining: 0, resetMs: 55_000 })
      // The next minute: two more fit in the hour, then the hour refuses.
      const next = T0 + 65_000
      const later = []
      for (let i = 0; i < 3; i++) later.push(await store.rateLimits.consume(key.id, limits, next))
      expect(later.map((d) => d.admitted)).toEqual([true, true, false])
      expect(later[2]!.violated).toEqual(['hour'])
    })

    it('decides requests that arrive at once as if one after another: each its own remaining count, no more than the limit', async () => {
      const user = await store.users.create({ name: 'Crowded' }, T0)
      const key = await store.apiKeys.create(user.id, { name: 'c', scopes: SCOPES }, T0, null)
      const first = await Promise.all(Array.from({ length: 2 }, () => store.rateLimits.consume(key.id, limits, T0 + 1_000)))
      expect(first.map((d) => d.windows[0]!.remaining).sort()).toEqual([1, 2])
      // Three more at once with room for one: one admitted, two refused with the minute full.
      const second = await Promise.all(Array.from({ length: 3 }, () => store.rateLimits.consume(key.id, limits, T0 + 2_000)))
      expect(second.filter((d) => d.admitted)).toHaveLength(1)
      expect(second.filter((d) => !d.admitted).map((d) => d.violated)).toEqual([['minute'], ['minute']])
      expect(second.map((d) => d.windows[0]!.remaining)).toEqual([0, 0, 0])
    })

  })

  describe('idempotency keys', () => {
    it('claims a key once; then reports it in flight, a different request with it, or the stored answer', async () => {
      const user = await store.users.create({ name: 'Retrier' }, T0)
      const begin = (hash = 'h1', at = T0) => store.idempotency.begin(user.id, 'k-1', 'POST', '/v1/posts', hash, at)
      expect(await begin()).toEqual({ kind: 'claimed' })
      expect(await begin()).toEqual({ kind: 'in_flight' })
      expect(await begin('h2')).toEqual({ kind: 'mismatch' })
      await store.idempotency.complete(user.id, 'k-1', { status: 201, sealed: Buffer.from('sealed answer') })
      const replay = await begin()
      expect(replay.kind).toBe('replay')
      expect(replay.kind === 'replay' && replay.response.status).toBe(201)
      expect(replay.kind === 'replay' && Buffer.from(replay.response.sealed).toString()).toBe('sealed answer')
      // After 24 h the key is free again.
      expect(await begin('h3', T0 + 24 * 3_600_000)).toEqual({ kind: 'claimed' })
    })

    it('frees a key given up, and one whose request was cut off a minute ago', async () => {
      const user = await store.users.create({ name: 'Cut off' }, T0)
      expect(await store.idempotency.begin(user.id, 'k', 'POST', '/v1/posts', 'h', T0)).toEqual({ kind: 'claimed' })
      await store.idempotency.release(user.id, 'k')
      expect(await store.idempotency.begin(user.id, 'k', 'POST', '/v1/posts', 'h', T0)).toEqual({ kind: 'claimed' })
      expect(await store.idempotency.begin(user.id, 'k', 'POST', '/v1/posts', 'h', T0 + 30_000)).toEqual({ kind: 'in_flight' })
      expect(await store.idempotency.begin(user.id, 'k', 'POST', '/v1/posts', 'h', T0 + 61_000)).toEqual({ kind: 'claimed' })
    })

    it('lets one of many requests with the same key, sent at once to several stores, run', async () => {
      const user = await store.users.create({ name: 'Racer' }, T0)
      const nodes = [store, await another(), await another()]
      const claims = await Promise.all(
        Array.from({ length: 12 }, (_, i) => nodes[i % 3]!.idempotency.begin(user.id, 'same', 'POST', '/v1/posts', 'h', T0)),
      )
      expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1)
      expect(claims.filter((c) => c.kind === 'in_flight')).toHaveLength(11)
    })
  })

  describe('workspaces and members', () => {
    const shared = (name: string, approvalRequired = false) => ({ name, approvalRequired, timezone: 'Europe/Paris' })

    it('gives every user a personal workspace, owned, in their zone, that takes no members and is never deleted', async () => {
      const user = await store.users.create({ name: 'Solo', timezone: 'Asia/Tokyo' }, T0)
      const other = await store.users.create({ name: 'Other' }, T0)
      const id = personalWorkspaceId(user.id)
      expect(await store.workspaces.memberships(user.id)).toEqual([{ workspaceId: id, role: 'owner', personal: true, approvalRequired: false }])
      expect(await store.workspaces.get(id)).toEqual({ id, name: 'Personal', personalOf: user.id, approvalRequired: false, timezone: 'Asia/Tokyo', createdAt: T0 })
      // Its zone is its user's, whenever they change it.
      await store.users.update(user.id, { timezone: 'America/New_York' })
      expect((await store.workspaces.get(id))!.timezone).toBe('America/New_York')
      expect(await store.workspaces.addMember(id, { userId: other.id }, 'viewer', T0, null)).toEqual({ kind: 'personal' })
      expect(await store.workspaces.removeMember(id, user.id, T0, null)).toEqual({ kind: 'personal' })
      expect(await store.workspaces.delete(id)).toEqual({ kind: 'personal' })
      const key = await store.apiKeys.create(user.id, { name: 'k', scopes: SCOPES }, T0, null)
      const principal = (await store.apiKeys.authenticate(hashApiKey(key.secret), T0)) as Principal
      expect([...principal.memberships.values()]).toEqual([{ workspaceId: id, role: 'owner', personal: true, approvalRequired: false }])
    })

    it('adds members by id or email with a role, once, changes roles, and always keeps an owner', async () => {
      const owner = await store.users.create({ name: 'Owner' }, T0)
      const ed = await store.users.create({ name: 'Ed', email: `ed-${backend.name}@example.com` }, T0)
      const vi = await store.users.create({ name: 'Vi' }, T0)
      const team = await store.workspaces.create(owner.id, shared('Agency', true), T0 + 5)
      expect(team).toMatchObject({ name: 'Agency', personalOf: null, approvalRequired: true, timezone: 'Europe/Paris', createdAt: T0 + 5 })
      expect((await store.workspaces.listFor(owner.id, '', 10)).map((w) => [w.id, w.role])).toEqual(
        [[personalWorkspaceId(owner.id), 'owner'], [team.id, 'owner']].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
      )
      const added = await store.workspaces.addMember(team.id, { email: `ed-${backend.name}@example.com` }, 'editor', T0 + 6, null)
      expect(added).toEqual({ kind: 'ok', member: { user_id: ed.id, name: 'Ed', email: `ed-${backend.name}@example.com`, role: 'editor', created_at: new Date(T0 + 6).toISOString() } })
      expect((await store.workspaces.addMember(team.id, { userId: vi.id }, 'viewer', T0 + 7, null)).kind).toBe('ok')
      expect(await store.workspaces.addMember(team.id, { userId: ed.id }, 'admin', T0 + 8, null)).toMatchObject({ kind: 'already_member', member: { role: 'editor' } })
      expect(await store.workspaces.addMember(team.id, { email: 'nobody@example.com' }, 'viewer', T0, null)).toEqual({ kind: 'unknown_user' })
      expect(await store.workspaces.addMember('wsp_none', { userId: vi.id }, 'viewer', T0, null)).toEqual({ kind: 'not_found' })
      expect((await store.workspaces.members(team.id, '', 10)).map((m) => [m.name, m.role]).sort()).toEqual([['Ed', 'editor'], ['Owner', 'owner'], ['Vi', 'viewer']])
      const firstPage = await store.workspaces.members(team.id, '', 2)
      expect([...firstPage, ...(await store.workspaces.members(team.id, firstPage.at(-1)!.user_id, 2))]).toHaveLength(3)
      expect(await store.workspaces.memberships(ed.id)).toContainEqual({ workspaceId: team.id, role: 'editor', personal: false, approvalRequired: true })

      expect(await store.workspaces.setRole(team.id, owner.id, 'admin', T0, null)).toEqual({ kind: 'last_owner' })
      expect(await store.workspaces.removeMember(team.id, owner.id, T0, null)).toEqual({ kind: 'last_owner' })
      expect((await store.workspaces.setRole(team.id, ed.id, 'owner', T0, null)).kind).toBe('ok')
      // With a second owner, the first may step down.
      expect(await store.workspaces.setRole(team.id, owner.id, 'admin', T0, null)).toMatchObject({ kind: 'ok', member: { role: 'admin' } })
      expect(await store.workspaces.setRole(team.id, 'usr_none', 'admin', T0, null)).toEqual({ kind: 'not_found' })
      expect(await store.workspaces.removeMember(team.id, vi.id, T0, null)).toMatchObject({ kind: 'ok', member: { user_id: vi.id } })
      expect(await store.workspaces.removeMember(team.id, vi.id, T0, null)).toEqual({ kind: 'not_found' })
      expect(await store.workspaces.member(team.id, vi.id)).toBeUndefined()
      expect((await store.workspaces.memberships(vi.id)).map((m) => m.workspaceId)).toEqual([personalWorkspaceId(vi.id)])
      expect(await store.workspaces.update(team.id, { name: 'Agency & Co', approvalRequired: false }, T0, null)).toMatchObject({ name: 'Agency & Co', approvalRequired: false, timezone: 'Europe/Paris' })
    })

    it('never leaves a workspace without an owner, when two owners demote each other at once on two connections', async () => {
      const a = await store.users.create({ name: 'A' }, T0)
      const b = await store.users.create({ name: 'B' }, T0)
      const team = await store.workspaces.create(a.id, shared('Duo'), T0)
      await store.workspaces.addMember(team.id, { userId: b.id }, 'owner', T0, null)
      const other = await another()
      const results = await Promise.all([store.workspaces.setRole(team.id, a.id, 'viewer', T0, null), other.workspaces.removeMember(team.id, b.id, T0, null)])
      expect(results.map((r) => r.kind).sort()).toEqual(['last_owner', 'ok'])
      expect((await store.workspaces.members(team.id, '', 10)).filter((m) => m.role === 'owner')).toHaveLength(1)
    })

    it('deletes a shared workspace only once it has no accounts, with its webhooks and memberships', async () => {
      const owner = await store.users.create({ name: 'Closer' }, T0)
      const team = await store.workspaces.create(owner.id, shared('Short-lived'), T0)
      const account = await store.accounts.create(team.id, owner.id, 'Brand', T0)
      const hook = await store.webhooks.create(team.id, owner.id, { url: 'https://h.example/h', events: ['*'], description: null, sealedSecret: 's' }, T0)
      expect(await store.workspaces.delete(team.id)).toEqual({ kind: 'has_accounts', count: 1 })
      expect((await store.posts.deleteAccount([team.id], account.id, { cancelPosts: true }, T0, null)).kind).toBe('ok')
      expect(await store.workspaces.delete(team.id)).toEqual({ kind: 'ok' })
      expect(await store.workspaces.get(team.id)).toBeUndefined()
      expect(await store.webhooks.get([team.id], hook.id)).toBeUndefined()
      expect((await store.workspaces.memberships(owner.id)).map((m) => m.workspaceId)).toEqual([personalWorkspaceId(owner.id)])
      expect(await store.workspaces.delete(team.id)).toEqual({ kind: 'not_found' })
    })

    it('keeps what each workspace holds to the scopes that name it, and lists posts of several workspaces in one order', async () => {
      const owner = await store.users.create({ name: 'Multi' }, T0)
      const team = await store.workspaces.create(owner.id, shared('Second'), T0)
      const mine = personalWorkspaceId(owner.id)
      const own = await store.accounts.create(mine, owner.id, 'Own', T0)
      const theirs = await store.accounts.create(team.id, owner.id, 'Theirs', T0)
      expect((await store.accounts.listPage([mine, team.id], undefined, '', 10)).map((a) => a.id)).toEqual([own.id, theirs.id])
      expect((await store.accounts.listPage([team.id], undefined, '', 10)).map((a) => a.id)).toEqual([theirs.id])
      expect(await store.accounts.get([mine], theirs.id)).toBeUndefined()
      const post = (workspaceId: string, accountId: string, at: number, draft = false) =>
        store.posts.create({ userId: owner.id, keyId: null }, { workspaceId, accountId, content: `at ${at}`, mediaUrls: [], platforms: ['feed'], scheduledAt: at, draft }, T0)
      const made = [
        await post(mine, own.id, T0 + 5_000),
        await post(team.id, theirs.id, T0 + 1_000),
        await post(mine, own.id, T0 + 3_000, true),
        await post(team.id, theirs.id, T0 + 4_000, true),
        await post(team.id, theirs.id, T0 + 2_000),
      ]
      expect(made[1]!.post.workspace_id).toBe(team.id)
      const byTime = [1, 4, 2, 3, 0].map((i) => made[i]!.post.id)
      const ids = async (filters: { statuses?: ('scheduled' | 'draft')[] }, limit = 10) =>
        (await store.posts.list([mine, team.id], { order: 'asc', ...filters }, limit)).map((r) => r.post.id)
      expect(await ids({})).toEqual(byTime)
      expect(await ids({}, 3)).toEqual(byTime.slice(0, 3))
      expect(await ids({ statuses: ['draft'] })).toEqual([made[2]!.post.id, made[3]!.post.id])
      expect(await ids({ statuses: ['scheduled', 'draft'] }, 4)).toEqual(byTime.slice(0, 4))
      expect(await store.posts.count([mine, team.id], { order: 'asc' })).toBe(5)
      expect((await store.posts.list([team.id], { order: 'desc' }, 10)).map((r) => r.post.id)).toEqual([made[3]!.post.id, made[4]!.post.id, made[1]!.post.id])
      expect(await store.posts.list([], { order: 'asc' }, 10)).toEqual([])
      expect(await store.posts.get([mine], made[1]!.post.id)).toBeUndefined()
      // A workspace's events are its own.
      const events = (await store.events.listAfter('', 100_000)).filter((e) => (e.data as { id?: string }).id === made[1]!.post.id)
      expect(events.map((e) => [e.type, e.workspaceId])).toEqual([['post.scheduled', team.id]])
    })
  })

  describe('accounts, connections and the outbox', () => {
    it('connects and disconnects a platform, each with its event, and shows an account only to its user', async () => {
      const user = await store.users.create({ name: 'Brand owner' }, T0)
      const stranger = await store.users.create({ name: 'Stranger' }, T0)
      const mine = [personalWorkspaceId(user.id)]
      const theirs = [personalWorkspaceId(stranger.id)]
      const account = await store.accounts.create(mine[0]!, user.id, 'Brand', T0)
      expect(account).toEqual({ id: account.id, workspace_id: mine[0], name: 'Brand', connections: [], created_at: new Date(T0).toISOString() })
      expect(await store.accounts.get(theirs, account.id)).toBeUndefined()
      expect(await store.accounts.connect(theirs, account.id, { platform: 'feed', handle: 'x', displayName: 'x', sealedCredentials: Buffer.from('s'), settings: {} }, T0, null)).toBeUndefined()

      const sealed = Buffer.from([0, 1, 2, 250])
      const connection = await store.accounts.connect(mine, account.id, { platform: 'mastodon', handle: '@brand@example.social', displayName: 'Brand', sealedCredentials: sealed, settings: { visibility: 'public' } }, T0 + 1, null)
      expect(connection).toEqual({ platform: 'mastodon', handle: '@brand@example.social', display_name: 'Brand', status: 'active', connected_at: new Date(T0 + 1).toISOString() })
      const stored = await store.accounts.connection(account.id, 'mastodon')
      expect(stored).toMatchObject({ accountId: account.id, workspaceId: mine[0], settings: { visibility: 'public' }, connectedAt: T0 + 1 })
      expect(Buffer.from(stored!.sealedCredentials).equals(sealed)).toBe(true)
      expect((await store.accounts.connections(account.id)).map((c) => c.platform)).toEqual(['mastodon'])
      expect((await store.accounts.listPage(mine, 'mastodon', '', 10)).map((a) => a.id)).toEqual([account.id])
      expect(await store.accounts.listPage(mine, 'bluesky', '', 10)).toEqual([])
      expect(await store.accounts.listPage(theirs, undefined, '', 10)).toEqual([])

      expect(await store.accounts.disconnect(theirs, account.id, 'mastodon', T0 + 2, null)).toBe(false)
      expect(await store.accounts.disconnect(mine, account.id, 'mastodon', T0 + 2, null)).toBe(true)
      expect(await store.accounts.disconnect(mine, account.id, 'mastodon', T0 + 3, null)).toBe(false)
      expect(await store.accounts.connection(account.id, 'mastodon')).toBeUndefined()
      const events = (await store.events.listAfter('', 1_000)).filter((e) => e.workspaceId === mine[0])
      expect(events.map((e) => e.type)).toEqual(['account.connected', 'account.disconnected'])
      expect(events[0]!.data).toMatchObject({ id: account.id, platform: 'mastodon', connections: [{ platform: 'mastodon' }] })
    })

    it('keeps events in order after a given id', async () => {
      const user = await store.users.create({ name: 'Eventful' }, T0)
      const first = await store.events.append(personalWorkspaceId(user.id), 'webhook.test', { n: 1 }, T0 + 10, null)
      const second = await store.events.append(personalWorkspaceId(user.id), 'webhook.test', { n: 2 }, T0 + 11, null)
      const after = await store.events.listAfter(first.id, 10)
      expect(after[0]).toEqual({ ...second, data: { n: 2 } })
    })
  })

  describe('OAuth apps, grants and refresh claims', () => {
    it('stores, lists, replaces and removes an app, its secret as sealed', async () => {
      await store.oauth.setApp('x', 'client-1', Buffer.from([1, 2, 3]), T0)
      await store.oauth.setApp('x', 'client-2', Buffer.from([4, 5]), T0 + 1)
      const app = await store.oauth.getApp('x')
      expect(app).toMatchObject({ platform: 'x', clientId: 'client-2', updatedAt: T0 + 1 })
      expect(Buffer.from(app!.sealedSecret).equals(Buffer.from([4, 5]))).toBe(true)
      expect((await store.oauth.listApps()).map((a) => a.platform)).toContain('x')
      expect(await store.oauth.removeApp('x')).toBe(true)
      expect(await store.oauth.removeApp('x')).toBe(false)
      expect(await store.oauth.getApp('x')).toBeUndefined()
    })

    it('gives a grant once, lists it as pending until it is finished or expires, and forgets expired ones', async () => {
      const user = await store.users.create({ name: 'Granter' }, T0)
      const account = await store.accounts.create(personalWorkspaceId(user.id), user.id, 'Brand', T0)
      const grant = { stateHash: `h-${backend.name}-1`, userId: user.id, accountId: account.id, platform: 'x' as const, sealedSecrets: Buffer.from([9]), createdAt: T0, expiresAt: T0 + 600_000 }
      await store.oauth.createGrant(grant, T0, 3)
      await store.oauth.createGrant({ ...grant, stateHash: `h-${backend.name}-2`, platform: 'linkedin', createdAt: T0 + 1, expiresAt: T0 + 1_000 }, T0, 3)
      expect(await store.oauth.pendingGrants([account.id], T0 + 10)).toEqual([
        { accountId: account.id, platform: 'x', createdAt: T0, expiresAt: T0 + 600_000 },
        { accountId: account.id, platform: 'linkedin', createdAt: T0 + 1, expiresAt: T0 + 1_000 },
      ])
      expect((await store.oauth.pendingGrants([account.id], T0 + 1_000)).map((g) => g.platform)).toEqual(['x'])
      const taken = await store.oauth.takeGrant(grant.stateHash)
      expect(taken).toMatchObject({ ...grant, sealedSecrets: expect.anything() })
      expect(Buffer.from(taken!.sealedSecrets).equals(Buffer.from([9]))).toBe(true)
      expect(await store.oauth.takeGrant(grant.stateHash)).toBeUndefined()
      // Taken, it is still pending while its code is exchanged; finished, it is gone.
      expect((await store.oauth.pendingGrants([account.id], T0 + 1_000)).map((g) => g.platform)).toEqual(['x'])
      await store.oauth.finishGrant(grant.stateHash)
      expect(await store.oauth.pendingGrants([account.id], T0 + 1_000)).toEqual([])
      expect(await store.oauth.takeGrant(grant.stateHash)).toBeUndefined()
      // A later grant sweeps the expired ones away.
      await store.oauth.createGrant({ ...grant, stateHash: `h-${backend.name}-3` }, T0 + 2_000, 3)
      expect(await store.oauth.takeGrant(`h-${backend.name}-2`)).toBeUndefined()
    })

    it('keeps the newest untaken grants of an account and platform, the new one always, and never a taken one', async () => {
      const user = await store.users.create({ name: 'Flooder' }, T0)
      const account = await store.accounts.create(personalWorkspaceId(user.id), user.id, 'Brand', T0)
      const grant = (n: number, platform: 'x' | 'linkedin' = 'x') => ({
        stateHash: `f-${backend.name}-${platform}-${n}`,
        userId: user.id,
        accountId: account.id,
        platform,
        sealedSecrets: Buffer.from([n]),
        // The last ones in the same millisecond: the one just made is kept all the same.
        createdAt: T0 + Math.min(n, 40),
        expiresAt: T0 + 600_000,
      })
      await store.oauth.createGrant(grant(0), T0, 3)
      expect(await store.oauth.takeGrant(grant(0).stateHash)).toBeDefined()
      await store.oauth.createGrant(grant(1, 'linkedin'), T0, 3)
      for (let n = 1; n <= 50; n++) await store.oauth.createGrant(grant(n), T0, 3)
      const pending = await store.oauth.pendingGrants([account.id], T0)
      // The taken one, three of x (the last made among them), and linkedin's, untouched by x's.
      expect(pending.filter((g) => g.platform === 'x')).toHaveLength(4)
      expect(pending.filter((g) => g.platform === 'linkedin')).toHaveLength(1)
      expect(await store.oauth.takeGrant(grant(50).stateHash)).toBeDefined()
      expect(await store.oauth.takeGrant(grant(1).stateHash)).toBeUndefined()
      await store.oauth.finishGrant(grant(0).stateHash)
    })

    it('lets one holder refresh a connection at a time, and stores its tokens unless the connection was replaced', async () => {
      const user = await store.users.create({ name: 'Refresher' }, T0)
      const account = await store.accounts.create(personalWorkspaceId(user.id), user.id, 'Brand', T0)
      await store.accounts.connect([personalWorkspaceId(user.id)], account.id, { platform: 'x', handle: '@b', displayName: 'B', sealedCredentials: Buffer.from([1]), settings: {} }, T0, null)
      const other = await another()
      expect(await store.oauth.claimRefresh(account.id, 'x', 'node-a', T0, 30_000)).toBe(true)
      expect(await other.oauth.claimRefresh(account.id, 'x', 'node-b', T0 + 1, 30_000)).toBe(false)
      expect(await store.oauth.saveRefreshed(account.id, 'x', 'node-a', Buffer.from([2]), T0)).toBe('saved')
      expect(Buffer.from((await store.accounts.connection(account.id, 'x'))!.sealedCredentials).equals(Buffer.from([2]))).toBe(true)
      // Saving gave the claim up.
      expect(await other.oauth.claimRefresh(account.id, 'x', 'node-b', T0 + 2, 30_000)).toBe(true)
      await other.oauth.releaseRefresh(account.id, 'x', 'node-b')
      // A lapsed claim (its node died) is taken over.
      expect(await store.oauth.claimRefresh(account.id, 'x', 'node-a', T0 + 3, 30_000)).toBe(true)
      expect(await other.oauth.claimRefresh(account.id, 'x', 'node-b', T0 + 30_003, 30_000)).toBe(true)
      // The person reconnected since the tokens were read: their new credentials win.
      expect(await other.oauth.saveRefreshed(account.id, 'x', 'node-b', Buffer.from([3]), T0 - 1)).toBe('reconnected')
      expect(Buffer.from((await store.accounts.connection(account.id, 'x'))!.sealedCredentials).equals(Buffer.from([2]))).toBe(true)
    })

    it('drops the tokens of a refresh whose claim lapsed and was taken over: the new holder’s stand', async () => {
      const user = await store.users.create({ name: 'Stale refresher' }, T0)
      const account = await store.accounts.create(personalWorkspaceId(user.id), user.id, 'Brand', T0)
      await store.accounts.connect([personalWorkspaceId(user.id)], account.id, { platform: 'x', handle: '@s', displayName: 'S', sealedCredentials: Buffer.from([1]), settings: {} }, T0, null)
      const other = await another()
      const credentials = async () => [...(await store.accounts.connection(account.id, 'x'))!.sealedCredentials]
      expect(await store.oauth.claimRefresh(account.id, 'x', 'stale', T0, 30_000)).toBe(true)
      // The first holder stops past its lease; another takes the claim over.
      expect(await other.oauth.claimRefresh(account.id, 'x', 'current', T0 + 30_000, 30_000)).toBe(true)
      // It wakes while the other refreshes, and again once the other has stored its tokens: neither write lands.
      expect(await store.oauth.saveRefreshed(account.id, 'x', 'stale', Buffer.from([2]), T0)).toBe('claim_lost')
      expect(await credentials()).toEqual([1])
      expect(await other.oauth.saveRefreshed(account.id, 'x', 'current', Buffer.from([3]), T0)).toBe('saved')
      expect(await store.oauth.saveRefreshed(account.id, 'x', 'stale', Buffer.from([2]), T0)).toBe('claim_lost')
      expect(await credentials()).toEqual([3])
      // Nor does its give-up free a claim that is not its own.
      expect(await other.oauth.claimRefresh(account.id, 'x', 'next', T0 + 30_001, 30_000)).toBe(true)
      await store.oauth.releaseRefresh(account.id, 'x', 'stale')
      expect(await store.oauth.claimRefresh(account.id, 'x', 'stale', T0 + 30_002, 30_000)).toBe(false)
    })
  })

  describe('posts and publishing', () => {
    /** Each account's workspace, as the posts of it carry it. */
    const workspaceOf = new Map<string, string>()
    const addAccount = async (userId: string, name: string) => {
      const account = await store.accounts.create(personalWorkspaceId(userId), userId, name, T0)
      workspaceOf.set(account.id, account.workspace_id)
      return account
    }
    const newPost = (accountId: string, at: number, platforms: ('feed' | 'mastodon' | 'discord')[] = ['feed', 'mastodon']) => ({
      workspaceId: workspaceOf.get(accountId) ?? 'wsp_unknown',
      accountId,
      content: `post at ${at}`,
      mediaUrls: ['https://example.com/a.png'],
      platforms,
      scheduledAt: at,
    })
    const setup = async (name: string) => {
      const user = await store.users.create({ name }, T0)
      const account = await addAccount(user.id, name)
      return { user: user.id, scope: [personalWorkspaceId(user.id)], account: account.id }
    }

    it('creates, reads, lists page by page, edits only at the version read, cancels and refuses what a post’s state does not allow', async () => {
      const { user, scope, account } = await setup('Poster')
      const stranger = await store.users.create({ name: 'Stranger' }, T0)
      const first = await store.posts.create({ userId: user, keyId: null }, newPost(account, T0 + 3_000), T0)
      expect(first.version).toBe(1)
      expect(first.post).toMatchObject({ status: 'scheduled', platforms: ['feed', 'mastodon'], media_urls: ['https://example.com/a.png'], targets: [{ platform: 'feed', status: 'pending', attempts: 0 }, { platform: 'mastodon' }] })
      const second = await store.posts.create({ userId: user, keyId: null }, newPost(account, T0 + 1_000, ['feed']), T0)
      const third = await store.posts.create({ userId: user, keyId: null }, newPost(account, T0 + 2_000, ['mastodon']), T0)
      expect(await store.posts.get([personalWorkspaceId(stranger.id)], first.post.id)).toBeUndefined()

      const asc = { order: 'asc' as const, accountId: account }
      const page1 = await store.posts.list(scope, asc, 2)
      const last = page1.at(-1)!.post
      const page2 = await store.posts.list(scope, { ...asc, after: { scheduledAt: Date.parse(last.scheduled_at!), id: last.id } }, 2)
      expect([...page1, ...page2].map((r) => r.post.id)).toEqual([second.post.id, third.post.id, first.post.id])
      expect((await store.posts.list(scope, { order: 'desc', platform: 'feed' }, 10)).map((r) => r.post.id)).toEqual([first.post.id, second.post.id])
      expect(await store.posts.list(scope, { order: 'asc', from: T0 + 1_500, to: T0 + 2_500 }, 10)).toHaveLength(1)

      const stale = await store.posts.update(scope, first.post.id, { content: 'edited' }, 2, T0 + 1, null)
      expect(stale.kind).toBe('version_mismatch')
      const edited = await store.posts.update(scope, first.post.id, { content: 'edited', platforms: ['discord'] }, 1, T0 + 1, null)
      expect(edited.kind === 'ok' && edited.record.post).toMatchObject({ content: 'edited', platforms: ['discord'], targets: [{ platform: 'discord' }] })
      expect(edited.kind === 'ok' && edited.record.version).toBe(2)
      expect((await store.posts.cancel(scope, first.post.id, T0 + 2, null)).kind).toBe('ok')
      expect((await store.posts.cancel(scope, first.post.id, T0 + 3, null)).kind).toBe('ok')
      expect((await store.posts.update(scope, first.post.id, { content: 'too late' }, 3, T0 + 4, null)).kind).toBe('wrong_state')
      expect((await store.posts.retry(scope, second.post.id, T0 + 4, null)).kind).toBe('wrong_state')
      expect((await store.posts.cancel([personalWorkspaceId(stranger.id)], second.post.id, T0 + 4, null)).kind).toBe('not_found')
      const types = (await store.events.listAfter('', 10_000)).filter((e) => e.workspaceId === scope[0]).map((e) => e.type)
      expect(types).toEqual(['post.scheduled', 'post.scheduled', 'post.scheduled', 'post.updated', 'post.cancelled'])
    })

    it('lists by statuses, by account and by platform in list order, page after page by cursor, both ways', async () => {
      const { user, scope, account } = await setup('Lister')
      const other = (await addAccount(user, 'Lister 2')).id
      // Twelve posts a second apart on two accounts, in five states, on three platforms; two share a time.
      const made: { id: string; at: number; account: string; status: string; platforms: string[] }[] = []
      for (let i = 0; i < 12; i++) {
        const at = T0 + 60_000 + (i === 7 ? 6 : i) * 1_000
        const platforms: ('feed' | 'mastodon' | 'discord')[] = i % 4 === 3 ? ['discord'] : i % 2 ? ['mastodon'] : ['feed']
        const owner = i % 3 === 0 ? other : account
        const draft = i % 5 === 4
        const record = await store.posts.create({ userId: user, keyId: null }, { ...newPost(owner, at, platforms), draft }, T0)
        let status = draft ? 'draft' : 'scheduled'
        if (i % 5 === 2) {
          await store.posts.cancel(scope, record.post.id, T0, null)
          status = 'cancelled'
        }
        made.push({ id: record.post.id, at, account: owner, status, platforms })
      }
      const expected = (keep: (p: (typeof made)[number]) => boolean, order: 'asc' | 'desc') =>
        made
          .filter(keep)
          .sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))
          .map((p) => p.id)
          [order === 'asc' ? 'slice' : 'reverse']()
      const listed = async (filters: Omit<Parameters<Store['posts']['list']>[1], 'order' | 'after'>, order: 'asc' | 'desc') => {
        const ids: string[] = []
        let after: { scheduledAt: number; id: string } | undefined
        for (;;) {
          const page = await store.posts.list(scope, { ...filters, order, after }, 3)
          ids.push(...page.map((r) => r.post.id))
          if (page.length < 3) return ids
          const last = page.at(-1)!.post
          after = { scheduledAt: Date.parse(last.scheduled_at ?? last.created_at), id: last.id }
        }
      }
      for (const order of ['asc', 'desc'] as const) {
        expect(await listed({ statuses: ['scheduled', 'draft'] }, order)).toEqual(expected((p) => p.status === 'scheduled' || p.status === 'draft', order))
        expect(await listed({ statuses: ['cancelled', 'draft', 'cancelled'] }, order)).toEqual(expected((p) => p.status === 'cancelled' || p.status === 'draft', order))
        expect(await listed({ accountId: account }, order)).toEqual(expected((p) => p.account === account, order))
        expect(await listed({ accountId: other, statuses: ['scheduled'] }, order)).toEqual(expected((p) => p.account === other && p.status === 'scheduled', order))
        expect(await listed({ platform: 'discord' }, order)).toEqual(expected((p) => p.platforms.includes('discord'), order))
        expect(await listed({ platform: 'mastodon', accountId: account, statuses: ['scheduled', 'cancelled'] }, order)).toEqual(
          expected((p) => p.platforms.includes('mastodon') && p.account === account && (p.status === 'scheduled' || p.status === 'cancelled'), order),
        )
        expect(await listed({ accountId: account, from: T0 + 62_000, to: T0 + 67_000 }, order)).toEqual(expected((p) => p.account === account && p.at >= T0 + 62_000 && p.at < T0 + 67_000, order))
      }
      // Another user's account lists nothing, with or without statuses.
      const stranger = await setup('Not the lister')
      expect(await store.posts.list(stranger.scope, { order: 'desc', accountId: account }, 10)).toEqual([])
      expect(await store.posts.count(scope, { order: 'desc', accountId: account })).toBe(made.filter((p) => p.account === account).length)
    })

    it('creates several posts in one transaction, in order with their events, and none when one in the middle is refused', async () => {
      const { user, scope, account } = await setup('Bulk')
      const other = await addAccount(user, 'Bulk gone')
      const records = await store.posts.createMany({ userId: user, keyId: null }, [newPost(account, T0 + 2_000), newPost(account, T0 + 1_000, ['feed'])], T0)
      expect(records.map((r) => r.post.scheduled_at)).toEqual([new Date(T0 + 2_000).toISOString(), new Date(T0 + 1_000).toISOString()])
      expect(records[1]!.post).toMatchObject({ status: 'scheduled', platforms: ['feed'], targets: [{ platform: 'feed', status: 'pending' }] })
      // The second post's account is deleted after validation would have passed: its insert is refused.
      expect((await store.posts.deleteAccount(scope, other.id, { cancelPosts: true }, T0, null)).kind).toBe('ok')
      const refused = store.posts.createMany({ userId: user, keyId: null }, [newPost(account, T0 + 3_000), newPost(other.id, T0 + 3_000), newPost(account, T0 + 4_000)], T0)
      await expect(refused).rejects.toThrow()
      expect((await store.posts.list(scope, { order: 'asc' }, 100)).map((r) => r.post.id)).toEqual([records[1]!.post.id, records[0]!.post.id])
      const types = (await store.events.listAfter('', 10_000)).filter((e) => e.workspaceId === scope[0]).map((e) => e.type)
      expect(types).toEqual(['post.scheduled', 'post.scheduled', 'account.deleted'])
    })

    it('claims and reserves the longest waiting, and a quarter from the most recently due: a post due during a burst does not wait for all of it', async () => {
      const { user, scope, account } = await setup('Burst and after')
      // Far later than any other test's posts: the burst's eight are the oldest due here once
      // what earlier tests left is reserved, and the one after them the newest.
      const at = T0 + 10_000_000_000
      const burst: string[] = []
      for (let i = 0; i < 8; i++) burst.push((await store.posts.create({ userId: user, keyId: null }, newPost(account, at, ['feed']), T0)).post.id)
      const after = (await store.posts.create({ userId: user, keyId: null }, newPost(account, at + 5_000, ['feed']), T0)).post.id
      // Whatever earlier tests left scheduled is claimed out of the way first.
      while ((await store.publishing.claimDue(at - 1, 1_000, Number.MAX_SAFE_INTEGER)).claimed === 1_000);
      // Claims likewise: three of the burst and the post due since.
      expect(await store.publishing.claimDue(at + 5_000, 4, Number.MAX_SAFE_INTEGER)).toEqual({ claimed: 4, missed: 0 })
      const statuses = async (ids: string[]) => Promise.all(ids.map(async (id) => (await store.posts.get(scope, id))!.post.status))
      expect(await statuses([after])).toEqual(['publishing'])
      expect((await statuses(burst)).filter((s) => s === 'publishing')).toHaveLength(3)
      await store.publishing.claimDue(at + 5_000, 1_000, Number.MAX_SAFE_INTEGER)
      // Whatever earlier tests left due is reserved out of the way first, oldest first.
      for (;;) {
        const refs = await store.publishing.reserveDue(at - 1, 1_000, 30_000)
        if (refs.length < 1_000) break
      }
      const refs = await store.publishing.reserveDue(at + 5_000, 4, 30_000)
      // Three of the burst (oldest first) and the post due since: in due order.
      expect(refs.map((r) => r.postId)).toEqual([...refs.slice(0, 3).map((r) => r.postId), after])
      expect(refs.slice(0, 3).every((r) => burst.includes(r.postId) && r.dueAt === at)).toBe(true)
      expect(refs[3]).toEqual({ postId: after, platform: 'feed', accountId: account, dueAt: at + 5_000 })
      // The rest of the burst in the next reservations, none twice.
      const rest = await store.publishing.reserveDue(at + 5_000, 100, 30_000)
      expect(new Set([...refs, ...rest].map((r) => r.postId))).toEqual(new Set([...burst, after]))
      expect(rest).toHaveLength(5)
      await store.publishing.releaseReservations()
    })

    it('claims a due post, one attempt per target under a lease, and settles it once: the post’s final state and events commit with the last outcome', async () => {
      const { user, scope, account } = await setup('Publisher')
      const created = await store.posts.create({ userId: user, keyId: null }, newPost(account, T0 + 10_000), T0)
      const id = created.post.id
      const at = T0 + 10_000
      expect((await store.publishing.due(T0)).next).toBeLessThanOrEqual(at)
      const claimed = await store.publishing.claimDue(at, 100, 86_400_000)
      expect(claimed.claimed).toBeGreaterThanOrEqual(1)
      const refs = (await store.publishing.reserveDue(at, 1_000, 30_000)).filter((r) => r.postId === id).sort((a, b) => a.platform.localeCompare(b.platform))
      expect(refs.map((r) => r.platform)).toEqual(['feed', 'mastodon'])
      // Reserved: not handed out twice.
      expect((await store.publishing.reserveDue(at, 1_000, 30_000)).filter((r) => r.postId === id)).toEqual([])
      const feed = (await store.publishing.claimTarget(refs[0]!, at, 30_000))!
      expect(feed).toMatchObject({ postId: id, userId: user, attempts: 1, attemptsSinceRetry: 1, content: `post at ${at}`, mediaUrls: ['https://example.com/a.png'] })
      expect(await store.publishing.claimTarget(refs[0]!, at, 30_000)).toBeUndefined()
      const mastodon = (await store.publishing.claimTarget(refs[1]!, at, 30_000))!
      expect(await store.publishing.settle(feed, { kind: 'published', platformPostId: 'f1', url: 'https://example.com/f1' }, at + 500)).toBe(true)
      expect(await store.publishing.settle(feed, { kind: 'failed', code: 'late', detail: 'late' }, at + 600)).toBe(false)
      expect((await store.posts.get(scope, id))!.post.status).toBe('publishing')
      expect(await store.publishing.settle(mastodon, { kind: 'retry', at: at + 90_000, code: 'platform_unavailable', detail: '503', uncertainSince: at + 1 }, at + 700)).toBe(true)
      const again = (await store.publishing.reserveDue(at + 90_000, 1_000, 30_000)).filter((r) => r.postId === id)
      expect(again).toEqual([{ postId: id, platform: 'mastodon', accountId: account, dueAt: at + 90_000 }])
      // The chain remembers when a request of unknown outcome was first sent, for the platform's window.
      const second = (await store.publishing.claimTarget(again[0]!, at + 90_000, 30_000))!
      expect(second).toMatchObject({ attempts: 2, uncertainSince: at + 1 })
      // Each claim takes a new fencing token: the first attempt's can no longer write.
      expect(second.claim).not.toBe(mastodon.claim)
      expect(await store.publishing.settle(second, { kind: 'failed', code: 'platform_rejected', detail: 'no' }, at + 91_000)).toBe(true)
      const done = (await store.posts.get(scope, id))!
      expect(done.post).toMatchObject({ status: 'partially_published', published_at: new Date(at + 500).toISOString() })
      expect(done.post.targets).toEqual([
        expect.objectContaining({ platform: 'feed', status: 'published', platform_post_id: 'f1', url: 'https://example.com/f1', attempts: 1 }),
        expect.objectContaining({ platform: 'mastodon', status: 'failed', attempts: 2, error: { code: 'platform_rejected', detail: 'no' } }),
      ])
      const types = (await store.events.listAfter('', 10_000)).filter((e) => e.workspaceId === scope[0]).map((e) => e.type)
      expect(types).toEqual(['post.scheduled', 'post.target.published', 'post.target.failed', 'post.partially_published'])

      // A retry re-queues what failed, due now, keeping the attempt count.
      const retried = await store.posts.retry(scope, id, at + 100_000, null)
      expect(retried.kind === 'ok' && retried.record.post.status).toBe('scheduled')
      await store.publishing.claimDue(at + 100_000, 100, 86_400_000)
      const [ref] = (await store.publishing.reserveDue(at + 100_000, 1_000, 30_000)).filter((r) => r.postId === id)
      expect(await store.publishing.claimTarget(ref!, at + 100_000, 30_000)).toMatchObject({ platform: 'mastodon', attempts: 3, attemptsSinceRetry: 1, uncertainSince: undefined })
    })

    it('settles a batch of outcomes as it would one by one: two of one post in turn, a target settled already, a target claimed twice', async () => {
      const { user, scope, account } = await setup('Batches')
      const at = T0 + 20_000
      const a = (await store.posts.create({ userId: user, keyId: null }, newPost(account, at), T0)).post
      const b = (await store.posts.create({ userId: user, keyId: null }, newPost(account, at, ['feed']), T0)).post
      await store.publishing.claimDue(at, 100, 86_400_000)
      const refs = (await store.publishing.reserveDue(at, 1_000, 30_000)).filter((r) => r.postId === a.id || r.postId === b.id)
      const ref = (postId: string, platform: string) => refs.find((r) => r.postId === postId && r.platform === platform)!
      // Asked for twice in one batch, a target is claimed once.
      const claims = await store.publishing.claimTargets(
        [ref(a.id, 'feed'), ref(a.id, 'mastodon'), ref(b.id, 'feed'), ref(b.id, 'feed')].map((r) => ({ ref: r, now: at })),
        30_000,
      )
      expect(claims.map((c) => c && `${c.postId} ${c.platform}`)).toEqual([`${a.id} feed`, `${a.id} mastodon`, `${b.id} feed`, undefined])
      const [aFeed, aMastodon, bFeed] = claims as [ClaimedTarget, ClaimedTarget, ClaimedTarget]
      const claimedVersion = (await store.posts.get(scope, a.id))!.version
      const published = (platformPostId: string) => ({ kind: 'published' as const, platformPostId, url: null })
      expect(
        await store.publishing.settleAll([
          { ...aFeed, outcome: published('a1'), at: at + 100 },
          { ...bFeed, outcome: published('b1'), at: at + 100 },
          { ...aMastodon, outcome: { kind: 'failed', code: 'platform_rejected', detail: 'no' }, at: at + 200 },
          { ...aFeed, outcome: { kind: 'failed', code: 'late', detail: 'late' }, at: at + 300 },
        ]),
      ).toEqual([true, true, true, false])
      const after = (await store.posts.get(scope, a.id))!
      expect(after.version).toBe(claimedVersion + 2)
      expect(after.post).toMatchObject({ status: 'partially_published', published_at: new Date(at + 100).toISOString() })
      expect(after.post.targets.map((t) => [t.platform, t.status])).toEqual([['feed', 'published'], ['mastodon', 'failed']])
      expect((await store.posts.get(scope, b.id))!.post).toMatchObject({ status: 'published', published_at: new Date(at + 100).toISOString() })
      // Each event carries the post as its own outcome left it: the first, before the second was recorded.
      const events = (await store.events.listAfter('', 100_000)).filter((e) => e.workspaceId === scope[0] && (e.data as { id: string }).id === a.id && e.type !== 'post.scheduled')
      expect(events.map((e) => [e.type, (e.data as { status: string }).status])).toEqual([
        ['post.target.published', 'publishing'],
        ['post.target.failed', 'partially_published'],
        ['post.partially_published', 'partially_published'],
      ])
    })

    describe('a series', () => {
      const HOUR = 3_600_000
      const repeat = (extra: { count?: number; until?: number }) => ({ interval: 'PT2H', count: null, until: null, timezone: 'UTC', ...extra })
      /** Publishes (or fails) every target of a post at `at`, as the scheduler would. */
      const publish = async (postId: string, at: number, outcome: 'published' | 'failed' = 'published') => {
        await store.publishing.claimDue(at, 1_000, 86_400_000)
        for (const ref of (await store.publishing.reserveDue(at, 1_000, 30_000)).filter((r) => r.postId === postId)) {
          const claimed = (await store.publishing.claimTarget(ref, at, 30_000))!
          const result = outcome === 'published' ? { kind: 'published' as const, platformPostId: null, url: null } : { kind: 'failed' as const, code: 'platform_rejected', detail: 'no' }
          await store.publishing.settle(claimed, result, at + 100)
        }
      }
      const occurrences = async (scope: string[], seriesId: string) => (await store.posts.list(scope, { order: 'asc', seriesId }, 100)).map((r) => r.post)
      const eventsOf = async (scope: string[]) => (await store.events.listAfter('', 100_000)).filter((e) => e.workspaceId === scope[0])

      it('schedules the next occurrence when one is published or fails, counted from the start, once; the last ends the series', async () => {
        const { user, scope, account } = await setup('Evergreen')
        const start = T0 + HOUR
        const first = (await store.posts.create({ userId: user, keyId: null }, { ...newPost(account, start, ['feed']), repeat: repeat({ count: 3 }) }, T0)).post
        expect(first).toMatchObject({ occurrence: 1, repeat: { interval: 'PT2H', count: 3, until: null, timezone: 'UTC', starts_at: new Date(start).toISOString() } })
        expect(first.series_id).toMatch(/^ser_/)
        // Published late: the next is still two hours after the first's time, not after the publish.
        await publish(first.id, start + 600_000)
        let all = await occurrences(scope, first.series_id!)
        expect(all.map((p) => [p.occurrence, p.status, p.scheduled_at])).toEqual([
          [1, 'published', new Date(start).toISOString()],
          [2, 'scheduled', new Date(start + 2 * HOUR).toISOString()],
        ])
        expect(all[1]).toMatchObject({ content: first.content, media_urls: first.media_urls, platforms: ['feed'], account_id: account, series_id: first.series_id, repeat: first.repeat, targets: [{ platform: 'feed', status: 'pending' }] })
        // A failure does not stop an evergreen series; a retry of it later does not step the series twice.
        await publish(all[1]!.id, start + 2 * HOUR, 'failed')
        all = await occurrences(scope, first.series_id!)
        expect(all.map((p) => [p.occurrence, p.status])).toEqual([[1, 'published'], [2, 'failed'], [3, 'scheduled']])
        expect((await store.posts.retry(scope, all[1]!.id, start + 3 * HOUR, null)).kind).toBe('ok')
        await publish(all[1]!.id, start + 3 * HOUR)
        expect(await occurrences(scope, first.series_id!)).toHaveLength(3)
        await publish(all[2]!.id, start + 4 * HOUR)
        all = await occurrences(scope, first.series_id!)
        expect(all.map((p) => p.status)).toEqual(['published', 'published', 'published'])
        const events = await eventsOf(scope)
        expect(events.map((e) => e.type)).toEqual([
          'post.scheduled',
          'post.target.published', 'post.published', 'post.scheduled',
          'post.target.failed', 'post.failed', 'post.scheduled',
          'post.scheduled', 'post.target.published', 'post.published',
          'post.target.published', 'post.published', 'post.series_ended',
        ])
        expect(events.at(-1)!.data).toMatchObject({ id: all[2]!.id, series_id: first.series_id, occurrence: 3, reason: 'count' })
      })

      it('skips an occurrence cancelled alone; stops the series with series, cancelling what is scheduled', async () => {
        const { user, scope, account } = await setup('Skipper')
        const start = T0 + HOUR
        const first = (await store.posts.create({ userId: user, keyId: null }, { ...newPost(account, start, ['feed']), repeat: repeat({ until: start + 10 * HOUR }) }, T0)).post
        const skipped = await store.posts.cancel(scope, first.id, T0 + 1, null)
        expect(skipped.kind === 'ok' && skipped.record.post.status).toBe('cancelled')
        let all = await occurrences(scope, first.series_id!)
        expect(all.map((p) => [p.occurrence, p.status, p.scheduled_at])).toEqual([
          [1, 'cancelled', new Date(start).toISOString()],
          [2, 'scheduled', new Date(start + 2 * HOUR).toISOString()],
        ])
        // Cancelling the skipped one again changes nothing.
        expect((await store.posts.cancel(scope, first.id, T0 + 2, null)).kind).toBe('ok')
        expect(await occurrences(scope, first.series_id!)).toHaveLength(2)
        const stopped = await store.posts.cancel(scope, all[1]!.id, T0 + 3, null, { series: true })
        expect(stopped.kind === 'ok' && stopped.record.post.status).toBe('cancelled')
        all = await occurrences(scope, first.series_id!)
        expect(all.map((p) => p.status)).toEqual(['cancelled', 'cancelled'])
        // Stopped: asking again sends nothing more.
        expect((await store.posts.cancel(scope, all[1]!.id, T0 + 4, null, { series: true })).kind).toBe('ok')
        const types = (await eventsOf(scope)).map((e) => e.type)
        expect(types).toEqual(['post.scheduled', 'post.cancelled', 'post.scheduled', 'post.cancelled', 'post.series_ended'])
        expect((await eventsOf(scope)).at(-1)!.data).toMatchObject({ id: all[1]!.id, reason: 'cancelled' })
      })

      it('ends the series when its next time is after until, and skips occurrences long past instead of publishing a backlog', async () => {
        const { user, scope, account } = await setup('Sleeper')
        const start = T0 + HOUR
        const first = (await store.posts.create({ userId: user, keyId: null }, { ...newPost(account, start, ['feed']), repeat: repeat({ until: start + 24 * HOUR }) }, T0)).post
        // The daemon was down for 7 hours: the first fails as missed, and the series resumes at its first occurrence to come.
        const woke = start + 7 * HOUR + 60_000
        expect((await store.publishing.claimDue(woke, 1_000, 6 * HOUR)).missed).toBeGreaterThanOrEqual(1)
        let all = await occurrences(scope, first.series_id!)
        expect(all.map((p) => [p.occurrence, p.status, p.scheduled_at])).toEqual([
          [1, 'failed', new Date(start).toISOString()],
          [5, 'scheduled', new Date(start + 8 * HOUR).toISOString()],
        ])
        // An occurrence only minutes late is still published.
        await publish(all[1]!.id, start + 10 * HOUR + 120_000)
        all = await occurrences(scope, first.series_id!)
        expect(all.at(-1)).toMatchObject({ occurrence: 6, status: 'scheduled', scheduled_at: new Date(start + 10 * HOUR).toISOString() })
        // Published 13 hours late: the occurrences meanwhile are skipped; the last within until (24 h) comes next.
        await publish(all.at(-1)!.id, start + 23 * HOUR)
        all = await occurrences(scope, first.series_id!)
        expect(all.at(-1)).toMatchObject({ occurrence: 13, status: 'scheduled', scheduled_at: new Date(start + 24 * HOUR).toISOString() })
        await publish(all.at(-1)!.id, start + 24 * HOUR)
        expect((await occurrences(scope, first.series_id!)).at(-1)).toMatchObject({ occurrence: 13, status: 'published' })
        const ended = (await eventsOf(scope)).filter((e) => e.type === 'post.series_ended')
        expect(ended.map((e) => (e.data as { reason: string }).reason)).toEqual(['until'])
      })

      it('has the occurrences of a series waiting for approval wait too, until one is approved; stopping it cancels those waiting', async () => {
        const { user, scope, account } = await setup('Awaiting series')
        const start = T0 + HOUR
        const first = (await store.posts.create({ userId: user, keyId: null }, { ...newPost(account, start, ['feed']), awaitsApproval: true, repeat: repeat({ count: 4 }) }, T0)).post
        expect(first).toMatchObject({ status: 'pending_approval', occurrence: 1 })
        // Skipped while waiting: the next occurrence waits as well.
        await store.posts.cancel(scope, first.id, T0 + 1, null)
        let all = await occurrences(scope, first.series_id!)
        expect(all.map((p) => [p.occurrence, p.status])).toEqual([[1, 'cancelled'], [2, 'pending_approval']])
        // Approved once: what follows is scheduled as it comes.
        expect((await store.posts.decide(scope, all[1]!.id, { approve: true }, T0 + 2, null)).kind).toBe('ok')
        await publish(all[1]!.id, start + 2 * HOUR)
        all = await occurrences(scope, first.series_id!)
        expect(all.map((p) => [p.occurrence, p.status])).toEqual([[1, 'cancelled'], [2, 'published'], [3, 'scheduled']])
        expect((await eventsOf(scope)).map((e) => e.type)).toEqual([
          'post.approval_requested', 'post.cancelled', 'post.approval_requested', 'post.approved',
          'post.target.published', 'post.published', 'post.scheduled',
        ])

        // A second series, stopped while its occurrence waits (or was sent back): nothing of it stays upcoming.
        const other = (await store.posts.create({ userId: user, keyId: null }, { ...newPost(account, start, ['feed']), awaitsApproval: true, repeat: repeat({ count: 4 }) }, T0)).post
        expect((await store.posts.decide(scope, other.id, { approve: false, comment: 'not this week' }, T0 + 3, null)).kind).toBe('ok')
        const stopped = await store.posts.cancel(scope, other.id, T0 + 4, null, { series: true })
        expect(stopped.kind === 'ok' && stopped.record.post.status).toBe('cancelled')
        expect((await occurrences(scope, other.series_id!)).map((p) => p.status)).toEqual(['cancelled'])
        expect((await eventsOf(scope)).slice(-4).map((e) => e.type)).toEqual(['post.approval_requested', 'post.rejected', 'post.cancelled', 'post.series_ended'])
      })
    })

    it('still hands a retry the parts already out when the post was edited down to one part after the retry', async () => {
      const { user, scope, account } = await setup('Shrinker')
      const at = T0 + 8_000_000
      const created = await store.posts.create({ userId: user, keyId: null }, { ...newPost(account, at, ['feed']), firstComment: 'first!' }, T0)
      const id = created.post.id
      await store.publishing.claimDue(at, 1_000, 86_400_000)
      const [ref] = (await store.publishing.reserveDue(at, 1_000, 30_000)).filter((r) => r.postId === id)
      const claimed = (await store.publishing.claimTarget(ref!, at, 30_000))!
      const out = { index: 0, kind: 'post' as const, platformPostId: 'p0', url: 'https://example.com/p0', ref: null, publishedAt: at }
      await store.publishing.recordPart(claimed, out)
      await store.publishing.settle(claimed, { kind: 'failed', code: 'platform_rejected', detail: 'no', part: 1 }, at + 10)
      // Retried, the post is editable again: without its comment it is a post of one part, whose
      // part 0 is out already and must not go out again.
      await store.posts.retry(scope, id, at + 100, null)
      const edited = await store.posts.update(scope, id, { firstComment: null }, (await store.posts.get(scope, id))!.version, at + 200, null)
      expect(edited.kind === 'ok' && edited.record.post.targets[0]!.parts.map((p) => p.platform_post_id)).toEqual(['p0'])
      await store.publishing.claimDue(at + 300, 1_000, 86_400_000)
      const [again] = (await store.publishing.reserveDue(at + 300, 1_000, 30_000)).filter((r) => r.postId === id)
      expect((await store.publishing.claimTarget(again!, at + 300, 30_000))!.published).toEqual([out])
    })

    it('keeps a thread, a first comment and per-platform versions; records each part as it goes out, once, and a retry resumes after the last', async () => {
      const { user, scope, account } = await setup('Threader')
      const at = T0 + 7_000_000
      const created = await store.posts.create(
        { userId: user, keyId: null },
        {
          ...newPost(account, at),
          thread: [{ content: 'two', media_urls: [] }, { content: 'three', media_urls: ['https://example.com/3.png'] }],
          firstComment: 'first!',
          overrides: { mastodon: { content: 'toot version', thread: [{ content: 'toot two' }], first_comment: null } },
        },
        T0,
      )
      const id = created.post.id
      expect(created.post).toMatchObject({
        thread: [{ content: 'two', media_urls: [] }, { content: 'three', media_urls: ['https://example.com/3.png'] }],
        first_comment: 'first!',
        overrides: { mastodon: { content: 'toot version', thread: [{ content: 'toot two' }], first_comment: null } },
      })
      expect(created.post.targets.map((t) => t.parts)).toEqual([[], []])
      await store.publishing.claimDue(at, 1_000, 86_400_000)
      const refs = (await store.publishing.reserveDue(at, 1_000, 30_000)).filter((r) => r.postId === id).sort((a, b) => a.platform.localeCompare(b.platform))
      const feed = (await store.publishing.claimTarget(refs[0]!, at, 30_000))!
      // The post's own fields on the feed: post, first comment, then the thread.
      expect(feed.parts).toEqual([
        { index: 0, kind: 'post', content: `post at ${at}`, mediaUrls: ['https://example.com/a.png'], media: [] },
        { index: 1, kind: 'first_comment', content: 'first!', mediaUrls: [], media: [] },
        { index: 2, kind: 'thread', content: 'two', mediaUrls: [], media: [] },
        { index: 3, kind: 'thread', content: 'three', mediaUrls: ['https://example.com/3.png'], media: [] },
      ])
      expect(feed.published).toEqual([])
      // Mastodon's version: its own text and thread, and no first comment.
      const mastodon = (await store.publishing.claimTarget(refs[1]!, at, 30_000))!
      expect(mastodon).toMatchObject({ content: 'toot version', mediaUrls: ['https://example.com/a.png'] })
      expect(mastodon.parts.map((p) => [p.index, p.kind, p.content])).toEqual([[0, 'post', 'toot version'], [1, 'thread', 'toot two']])

      const part = (index: number, kind: 'post' | 'first_comment' | 'thread') => ({ index, kind, platformPostId: `f${index}`, url: `https://example.com/f${index}`, ref: index === 0 ? 'cid0' : null, publishedAt: at + index })
      expect(await store.publishing.recordPart(feed, part(0, 'post'))).toBe(true)
      expect(await store.publishing.recordPart(feed, part(1, 'first_comment'))).toBe(true)
      // Recorded once: a second write of the same part changes nothing.
      expect(await store.publishing.recordPart(feed, { ...part(1, 'first_comment'), platformPostId: 'other' })).toBe(false)
      expect(await store.publishing.settle(feed, { kind: 'failed', code: 'platform_rejected', detail: 'no', part: 2 }, at + 10)).toBe(true)
      expect(await store.publishing.settle(mastodon, { kind: 'failed', code: 'platform_rejected', detail: 'no' }, at + 11)).toBe(true)
      const failed = (await store.posts.get(scope, id))!.post
      expect(failed.status).toBe('failed')
      expect(failed.targets[0]).toMatchObject({
        platform: 'feed',
        status: 'failed',
        error: { code: 'platform_rejected', detail: 'no', part: 2 },
        parts: [
          { index: 0, kind: 'post', platform_post_id: 'f0', url: 'https://example.com/f0', published_at: new Date(at).toISOString() },
          { index: 1, kind: 'first_comment', platform_post_id: 'f1', url: 'https://example.com/f1', published_at: new Date(at + 1).toISOString() },
        ],
      })
      expect(failed.targets[1]!.error).toEqual({ code: 'platform_rejected', detail: 'no' })

      // The retry's claim hands over the parts already out: the attempt starts at part 2.
      await store.posts.retry(scope, id, at + 100_000, null)
      await store.publishing.claimDue(at + 100_000, 1_000, 86_400_000)
      const again = (await store.publishing.reserveDue(at + 100_000, 1_000, 30_000)).find((r) => r.postId === id && r.platform === 'feed')!
      const resumed = (await store.publishing.claimTarget(again, at + 100_000, 30_000))!
      expect(resumed.published).toEqual([part(0, 'post'), part(1, 'first_comment')])
      expect((await store.posts.get(scope, id))!.post.targets[0]!.error).toBeNull()
      // A part out settles the doubt an earlier unanswered request left.
      expect(await store.publishing.settle(resumed, { kind: 'retry', at: at + 200_000, code: 'network_error', detail: 'timeout', uncertainSince: at + 100_000, part: 2 }, at + 100_500)).toBe(true)
      expect((await store.posts.get(scope, id))!.post.targets[0]!.error).toEqual({ code: 'network_error', detail: 'timeout', part: 2 })
      const third = (await store.publishing.reserveDue(at + 200_000, 1_000, 30_000)).find((r) => r.postId === id && r.platform === 'feed')!
      const last = (await store.publishing.claimTarget(third, at + 200_000, 30_000))!
      expect(last).toMatchObject({ uncertainSince: at + 100_000 })
      // Parts recorded under an earlier claim's token are refused: that claim is over.
      expect(await store.publishing.recordPart(resumed, part(2, 'thread'))).toBe(false)
      expect(await store.publishing.recordPart(last, part(2, 'thread'))).toBe(true)
      expect(await store.publishing.recordPart(last, part(3, 'thread'))).toBe(true)
      expect(await store.publishing.settle(last, { kind: 'published', platformPostId: 'f0', url: 'https://example.com/f0' }, at + 200_100)).toBe(true)
      const done = (await store.posts.get(scope, id))!.post
      expect(done.targets[0]).toMatchObject({ status: 'published', platform_post_id: 'f0', error: null })
      expect(done.targets[0]!.parts.map((p) => p.index)).toEqual([0, 1, 2, 3])

      // An edit replaces the thread, the comment and the overrides; what it leaves out stays.
      const other = await store.posts.create({ userId: user, keyId: null }, { ...newPost(account, at + 9_000_000), firstComment: 'c' }, T0)
      const edited = await store.posts.update(scope, other.post.id, { thread: [{ content: 'x', media_urls: [] }], overrides: { feed: { content: 'f' } } }, other.version, T0 + 1, null)
      expect(edited.kind === 'ok' && edited.record.post).toMatchObject({ thread: [{ content: 'x', media_urls: [] }], first_comment: 'c', overrides: { feed: { content: 'f' } } })
      const cleared = await store.posts.update(scope, other.post.id, { firstComment: null }, other.version + 1, T0 + 2, null)
      expect(cleared.kind === 'ok' && cleared.record.post.first_comment).toBeNull()
    })

    it('fails posts beyond the catch-up window, and hands back attempts whose lease ran out', async () => {
      const { user, scope, account } = await setup('Late')
      const late = (await store.posts.create({ userId: user, keyId: null }, newPost(account, T0 + 1_000, ['feed']), T0)).post.id
      expect((await store.publishing.claimDue(T0 + 1_000 + 3_600_000, 1_000, 60_000)).missed).toBeGreaterThanOrEqual(1)
      expect((await store.posts.get(scope, late))!.post).toMatchObject({ status: 'failed', targets: [{ status: 'failed', error: { code: 'missed_schedule' } }] })

      const hung = (await store.posts.create({ userId: user, keyId: null }, newPost(account, T0 + 5_000_000, ['discord']), T0)).post.id
      await store.publishing.claimDue(T0 + 5_000_000, 1_000, 86_400_000)
      const [ref] = (await store.publishing.reserveDue(T0 + 5_000_000, 1_000, 30_000)).filter((r) => r.postId === hung)
      const claimed = (await store.publishing.claimTarget(ref!, T0 + 5_000_000, 30_000))!
      await store.publishing.renewLeases([claimed], T0 + 5_000_000 + 60_000)
      expect((await store.publishing.abandoned(T0 + 5_000_000 + 45_000, false)).map((r) => r.postId)).not.toContain(hung)
      const abandoned = await store.publishing.abandoned(T0 + 5_000_000 + 61_000, false)
      // Taken over under a new claim: the attempt that lost it can no longer write about it.
      expect(abandoned.filter((r) => r.postId === hung)).toEqual([{ postId: hung, platform: 'discord', accountId: account, dueAt: T0 + 5_000_000, claim: claimed.claim + 1 }])
      await store.publishing.resend(claimed, T0 + 5_000_000 + 61_000)
      expect((await store.publishing.reserveDue(T0 + 5_000_000 + 61_000, 1_000, 30_000)).filter((r) => r.postId === hung)).toEqual([])
      await store.publishing.resend(abandoned.find((r) => r.postId === hung)!, T0 + 5_000_000 + 61_000)
      expect((await store.publishing.reserveDue(T0 + 5_000_000 + 61_000, 1_000, 30_000)).filter((r) => r.postId === hung)).toHaveLength(1)
    })

    it('fences every write about a claimed target: an attempt whose lease ran out and was taken over changes nothing when it comes back', async () => {
      const { user, scope, account } = await setup('Fenced')
      const at = T0 + 11_000_000
      const id = (await store.posts.create({ userId: user, keyId: null }, { ...newPost(account, at, ['mastodon']), firstComment: 'and a comment' }, T0)).post.id
      await store.publishing.claimDue(at, 1_000, 86_400_000)
      const [ref] = (await store.publishing.reserveDue(at, 1_000, 30_000)).filter((r) => r.postId === id)
      const stale = (await store.publishing.claimTarget(ref!, at, 30_000))!
      // This node stops with its request in flight, for longer than its lease. Another node takes
      // the attempt over and sends it again (as Mastodon's Idempotency-Key makes safe).
      const other = await another()
      const [taken] = (await other.publishing.abandoned(at + 30_000, false)).filter((r) => r.postId === id)
      expect(taken!.claim).not.toBe(stale.claim)
      await other.publishing.resend(taken!, at + 30_000)
      const [again] = (await other.publishing.reserveDue(at + 30_000, 1_000, 30_000)).filter((r) => r.postId === id)
      const current = (await other.publishing.claimTarget(again!, at + 30_000, 30_000))!
      const part = (index: number, platformPostId: string) => ({ index, kind: index === 0 ? ('post' as const) : ('first_comment' as const), platformPostId, url: null, ref: null, publishedAt: at + 31_000 })
      const before = (await store.posts.get(scope, id))!
      expect(before.post.targets[0]).toMatchObject({ status: 'publishing', attempts: 2 })
      const eventCount = async () => (await store.events.listAfter('', 100_000)).filter((e) => e.workspaceId === scope[0]).length
      const events = await eventCount()

      // The first wakes while the other's attempt is in flight: its timed-out outcome, its part and its re-send change nothing.
      expect(await store.publishing.settle(stale, { kind: 'retry', at: at + 120_000, code: 'platform_timeout', detail: 'no answer', uncertainSince: at }, at + 31_000)).toBe(false)
      expect(await store.publishing.settleAll([{ ...stale, outcome: { kind: 'unconfirmed', detail: 'no answer' }, at: at + 31_000 }])).toEqual([false])
      expect(await store.publishing.recordPart(stale, part(0, 'stale-0'))).toBe(false)
      await store.publishing.resend(stale, at + 31_000)
      expect(await store.posts.get(scope, id)).toEqual(before)
      expect(await eventCount()).toBe(events)

      // The current holder's parts and outcome stand.
      expect(await other.publishing.recordPart(current, part(0, 'm0'))).toBe(true)
      expect(await other.publishing.recordPart(current, part(1, 'm1'))).toBe(true)
      expect(await other.publishing.settle(current, { kind: 'published', platformPostId: 'm0', url: 'https://social.example/m0' }, at + 32_000)).toBe(true)
      const published = (await store.posts.get(scope, id))!

      // And the first, waking after it, still changes nothing.
      expect(await store.publishing.settle(stale, { kind: 'failed', code: 'platform_timeout', detail: 'no answer' }, at + 33_000)).toBe(false)
      expect(await store.publishing.settle(stale, { kind: 'published', platformPostId: 'stale-0', url: null }, at + 33_000)).toBe(false)
      expect(await store.publishing.recordPart(stale, part(1, 'stale-1'))).toBe(false)
      expect(await store.posts.get(scope, id)).toEqual(published)
      expect(published.post).toMatchObject({ status: 'published', targets: [{ status: 'published', platform_post_id: 'm0', attempts: 2, error: null }] })
      expect(published.post.targets[0]!.parts.map((p) => p.platform_post_id)).toEqual(['m0', 'm1'])
      const types = (await store.events.listAfter('', 100_000)).filter((e) => e.workspaceId === scope[0] && (e.data as { id: string }).id === id).map((e) => e.type)
      expect(types).toEqual(['post.scheduled', 'post.target.published', 'post.published'])
    })

    it('neither renews nor re-sends under a claim that was taken over', async () => {
      const { user, scope, account } = await setup('Fenced renewal')
      const at = T0 + 12_000_000
      const id = (await store.posts.create({ userId: user, keyId: null }, newPost(account, at, ['discord']), T0)).post.id
      await store.publishing.claimDue(at, 1_000, 86_400_000)
      const [ref] = (await store.publishing.reserveDue(at, 1_000, 30_000)).filter((r) => r.postId === id)
      const stale = (await store.publishing.claimTarget(ref!, at, 30_000))!
      const [taken] = (await store.publishing.abandoned(at + 30_000, false)).filter((r) => r.postId === id)
      // The old claim's renewal does not stretch the take-over's lease, nor does its re-send put the target back.
      await store.publishing.renewLeases([stale], at + 10_000_000)
      await store.publishing.resend(stale, at + 30_000)
      expect((await store.publishing.reserveDue(at + 30_000, 1_000, 30_000)).filter((r) => r.postId === id)).toEqual([])
      const lapsed = (await store.publishing.abandoned(at + 30_000 + RECOVERY_LEASE_MS, false)).filter((r) => r.postId === id)
      expect(lapsed).toEqual([{ ...taken!, claim: taken!.claim + 1 }])
      // The current claim's renewal does.
      await store.publishing.renewLeases([lapsed[0]!], at + 10_000_000)
      expect((await store.publishing.abandoned(at + 1_000_000, false)).filter((r) => r.postId === id)).toEqual([])
      await store.publishing.settle(lapsed[0]!, { kind: 'unconfirmed', detail: 'no answer' }, at + 1_000_000)
      expect((await store.posts.get(scope, id))!.post.targets[0]).toMatchObject({ status: 'unconfirmed' })
    })

    it('counts the posts due and not yet out, over every node: waiting for a claim, a target due or in flight; not a retry waiting for its time', async () => {
      const { user, account } = await setup('Counted')
      // Far from the other tests' posts, and counted against what is due then already.
      const at = T0 + 400 * 86_400_000
      const later = at + 90_000
      const [earlier, atBefore, laterBefore] = [await store.publishing.dueCount(at - 1), await store.publishing.dueCount(at), await store.publishing.dueCount(later)]
      const id = (await store.posts.create({ userId: user, keyId: null }, newPost(account, at), T0)).post.id
      // Not due a millisecond before its time.
      expect(await store.publishing.dueCount(at - 1)).toBe(earlier)
      expect(await store.publishing.dueCount(at)).toBe(atBefore + 1)
      // Claimed: its targets are due now, then being attempted (as another node sees it too).
      await store.publishing.claimDue(at, 1_000, 10 * 365 * 86_400_000)
      expect(await store.publishing.dueCount(at)).toBe(atBefore + 1)
      const mine = (await store.publishing.reserveDue(at, 1_000, 30_000)).filter((r) => r.postId === id).sort((a, b) => a.platform.localeCompare(b.platform))
      const [feed, mastodon] = await Promise.all(mine.map(async (ref) => (await store.publishing.claimTarget(ref, at, 30_000))!))
      expect(await (await another()).publishing.dueCount(at)).toBe(atBefore + 1)
      expect(await store.publishing.settle(feed!, { kind: 'published', platformPostId: 'f', url: null }, at + 10)).toBe(true)
      expect(await store.publishing.dueCount(at + 10)).toBe(atBefore + 1)
      // Its last target waits for a retry: not due until then.
      expect(await store.publishing.settle(mastodon!, { kind: 'retry', at: later, code: 'platform_unavailable', detail: '503' }, at + 20)).toBe(true)
      expect(await store.publishing.dueCount(at + 20)).toBe(atBefore)
      expect(await store.publishing.dueCount(later)).toBe(laterBefore + 1)
      await store.publishing.claimDue(later, 1_000, 10 * 365 * 86_400_000)
      const [retry] = (await store.publishing.reserveDue(later, 1_000, 30_000)).filter((r) => r.postId === id)
      const again = (await store.publishing.claimTarget(retry!, later, 30_000))!
      expect(await store.publishing.settle(again, { kind: 'published', platformPostId: 'm', url: null }, later + 10)).toBe(true)
      expect(await store.publishing.dueCount(later + 10)).toBe(laterBefore)
    })

    it('keeps drafts (no time, never claimed, listed by creation), edits them, and schedules one only at the version read', async () => {
      const { user, scope, account } = await setup('Drafter')
      const draft = (t: number | null) => ({ ...newPost(account, 0, ['feed']), scheduledAt: t, draft: true })
      const timeless = await store.posts.create({ userId: user, keyId: null }, draft(null), T0 + 10)
      expect(timeless.post).toMatchObject({ status: 'draft', scheduled_at: null, created_at: new Date(T0 + 10).toISOString() })
      const overdue = await store.posts.create({ userId: user, keyId: null }, draft(T0 - 60_000), T0 + 20)
      const timed = await store.posts.create({ userId: user, keyId: null }, newPost(account, T0 + 15, ['feed']), T0)
      const events = (await store.events.listAfter('', 100_000)).filter((e) => [timeless.post.id, overdue.post.id].includes((e.data as { id: string }).id))
      expect(events.map((e) => e.type)).toEqual(['post.drafted', 'post.drafted'])

      // Never claimed, however overdue its planned time.
      await store.publishing.claimDue(T0, 100, 86_400_000)
      expect((await store.posts.get(scope, overdue.post.id))!.post.status).toBe('draft')

      // A timeless draft sorts at its created_at: T0-60s (overdue's time), T0+10 (timeless), T0+15; paged, the cursor resumes exactly.
      const asc = { order: 'asc' as const, accountId: account }
      const first = await store.posts.list(scope, asc, 2)
      expect(first.map((r) => r.post.id)).toEqual([overdue.post.id, timeless.post.id])
      const rest = await store.posts.list(scope, { ...asc, after: { scheduledAt: T0 + 10, id: timeless.post.id } }, 2)
      expect(rest.map((r) => r.post.id)).toEqual([timed.post.id])
      expect((await store.posts.list(scope, { ...asc, statuses: ['draft'], from: T0, to: T0 + 11 }, 10)).map((r) => r.post.id)).toEqual([timeless.post.id])
      expect(await store.posts.count(scope, { ...asc, statuses: ['draft'] })).toBe(2)

      const edited = await store.posts.update(scope, timeless.post.id, { content: 'v2' }, timeless.version, T0 + 30, null)
      expect(edited.kind === 'ok' && edited.record.post).toMatchObject({ status: 'draft', content: 'v2', scheduled_at: null })
      const stale = await store.posts.schedule(scope, timeless.post.id, { at: T0 + 3_600_000 }, timeless.version, T0 + 40, null)
      expect(stale.kind).toBe('version_mismatch')
      const scheduled = await store.posts.schedule(scope, timeless.post.id, { at: T0 + 3_600_000 }, timeless.version + 1, T0 + 40, null)
      expect(scheduled.kind === 'ok' && scheduled.record.post).toMatchObject({ status: 'scheduled', scheduled_at: new Date(T0 + 3_600_000).toISOString() })
      expect((await store.posts.schedule(scope, timeless.post.id, { at: T0 }, timeless.version + 2, T0 + 50, null)).kind).toBe('wrong_state')
      expect((await store.events.listAfter('', 100_000)).filter((e) => (e.data as { id: string }).id === timeless.post.id).map((e) => e.type)).toEqual(['post.drafted', 'post.updated', 'post.scheduled'])

      const cancelled = await store.posts.cancel(scope, (await store.posts.create({ userId: user, keyId: null }, draft(null), T0)).post.id, T0 + 60, null)
      expect(cancelled.kind === 'ok' && cancelled.record.post).toMatchObject({ status: 'cancelled', scheduled_at: null })
    })

    it('keeps an account’s queue slots, and gives queued posts the free ones in turn, inside the create', async () => {
      const { user, scope, account } = await setup('Queuer')
      const stranger = await store.users.create({ name: 'Nosy' }, T0)
      const now = Date.parse('2027-01-04T00:00:00Z') // a Monday, in the user's zone (UTC)
      const queued = { ...newPost(account, 0, ['feed']), scheduledAt: null, queue: true }
      const refused = await store.posts.createMany({ userId: user, keyId: null }, [newPost(account, now + 1_000, ['feed']), queued], now).catch((e: unknown) => e)
      expect(refused).toBeInstanceOf(QueueRefusedError)
      expect(refused).toMatchObject({ reason: 'queue_empty', accountId: account, index: 1 })
      expect(await store.posts.list(scope, { order: 'asc', accountId: account }, 10)).toEqual([])

      expect(await store.queues.get([personalWorkspaceId(stranger.id)], account)).toBeUndefined()
      expect(await store.queues.set([personalWorkspaceId(stranger.id)], account, [{ day: 'monday', time: '09:00' }])).toBeUndefined()
      expect(await store.queues.set(scope, account, [{ day: 'friday', time: '17:30' }, { day: 'monday', time: '09:00' }])).toEqual([
        { day: 'monday', time: '09:00' },
        { day: 'friday', time: '17:30' },
      ])
      const monday9 = now + 9 * 3_600_000
      const friday = now + 4 * 86_400_000 + 17.5 * 3_600_000
      const byHand = await store.posts.create({ userId: user, keyId: null }, newPost(account, monday9, ['feed']), now)
      expect(await store.queues.taken(account, now, now + 86_400_000)).toEqual([monday9])
      // A dry run does the same and keeps nothing: the same slots, taken in turn, no post, no event.
      const events = (await store.events.listAfter('', 100_000)).length
      const tried = await store.posts.createMany({ userId: user, keyId: null }, [queued, queued], now, { dryRun: true })
      expect(tried.map((r) => r.post.scheduled_at)).toEqual([new Date(friday).toISOString(), new Date(monday9 + 7 * 86_400_000).toISOString()])
      expect((await store.posts.list(scope, { order: 'asc', accountId: account }, 10)).map((r) => r.post.id)).toEqual([byHand.post.id])
      expect((await store.events.listAfter('', 100_000)).length).toBe(events)
      const made = await store.posts.createMany({ userId: user, keyId: null }, [queued, queued], now)
      expect(made.map((r) => r.post.scheduled_at)).toEqual(tried.map((r) => r.post.scheduled_at))
      await store.posts.cancel(scope, byHand.post.id, now, null)
      expect((await store.posts.create({ userId: user, keyId: null }, queued, now)).post.scheduled_at).toBe(new Date(monday9).toISOString())
      const draft = await store.posts.create({ userId: user, keyId: null }, { ...newPost(account, 0, ['feed']), scheduledAt: null, draft: true }, now)
      const scheduled = await store.posts.schedule(scope, draft.post.id, { queue: true }, draft.version, now, null)
      expect(scheduled.kind === 'ok' && scheduled.record.post.scheduled_at).toBe(new Date(friday + 7 * 86_400_000).toISOString())

      expect(await store.queues.set(scope, account, [])).toEqual([])
      expect(await store.queues.set(scope, account, [{ day: 'sunday', time: '23:59' }])).toHaveLength(1)
      expect((await store.posts.deleteAccount(scope, account, { cancelPosts: true }, now, null)).kind).toBe('ok')
      expect(await store.queues.get(scope, account)).toBeUndefined()
    })

    describe('approval', () => {
      const postsOf = async (id: string) => (await store.events.listAfter('', 100_000)).filter((e) => (e.data as { id?: string }).id === id)

      it('never claims a post waiting for approval or rejected, however due; approved, it is due at once if its time has passed', async () => {
        const { user, scope, account } = await setup('Waiting')
        const by = { userId: user, keyId: 'key_editor' }
        const late = await store.posts.create(by, { ...newPost(account, T0 - 60_000, ['feed']), awaitsApproval: true }, T0 - 120_000)
        expect(late.post).toMatchObject({ status: 'pending_approval', scheduled_at: new Date(T0 - 60_000).toISOString() })
        const [requested] = await postsOf(late.post.id)
        expect(requested).toMatchObject({ type: 'post.approval_requested', actor: by })
        // It takes its queue slot's time, as a scheduled post does.
        expect(await store.queues.taken(account, T0 - 120_000, T0)).toEqual([T0 - 60_000])

        await store.publishing.claimDue(T0, 1_000, 86_400_000)
        expect((await store.posts.get(scope, late.post.id))!.post.status).toBe('pending_approval')
        expect((await store.publishing.reserveDue(T0, 1_000, 30_000)).filter((r) => r.postId === late.post.id)).toEqual([])

        // Sent back with a comment: still never claimed, and its slot free.
        const admin = { userId: user, keyId: 'key_admin' }
        const rejected = await store.posts.decide(scope, late.post.id, { approve: false, comment: 'Shorter, please.' }, T0 + 10, admin)
        expect(rejected.kind === 'ok' && rejected.record).toMatchObject({ version: 2, post: { status: 'rejected' } })
        expect(await store.posts.decide(scope, late.post.id, { approve: false, comment: 'again' }, T0 + 11, admin)).toMatchObject({ kind: 'wrong_state' })
        expect(await store.queues.taken(account, T0 - 120_000, T0)).toEqual([])
        await store.publishing.claimDue(T0 + 20, 1_000, 86_400_000)
        expect((await store.posts.get(scope, late.post.id))!.post.status).toBe('rejected')

        // Edited, it waits again, whoever edits it.
        const edited = await store.posts.update(scope, late.post.id, { content: 'short' }, 2, T0 + 30, by)
        expect(edited.kind === 'ok' && edited.record.post).toMatchObject({ status: 'pending_approval', content: 'short' })
        // A decision made on the version before the edit decides nothing: the edit was not seen.
        const unseen = await store.posts.decide(scope, late.post.id, { approve: true, comment: 'Seen v2', version: 2 }, T0 + 35, admin)
        expect(unseen).toMatchObject({ kind: 'version_mismatch', record: { version: 3, post: { status: 'pending_approval', content: 'short' } } })
        expect((await store.posts.get(scope, late.post.id))!).toMatchObject({ version: 3, post: { status: 'pending_approval' } })
        expect((await store.comments.list(scope, late.post.id, '', 10))!.map((c) => c.body)).toEqual(['Shorter, please.'])
        // Approved after its time: due now, not failed as missed however long ago its time was.
        const stranger = await store.users.create({ name: 'Not here' }, T0)
        expect((await store.posts.decide([personalWorkspaceId(stranger.id)], late.post.id, { approve: true }, T0 + 40, admin)).kind).toBe('not_found')
        const approved = await store.posts.decide(scope, late.post.id, { approve: true, comment: 'Good to go', version: 3 }, T0 + 40, admin)
        expect(approved.kind === 'ok' && approved.record.post).toMatchObject({ status: 'scheduled', scheduled_at: new Date(T0 + 40).toISOString() })
        expect((await store.publishing.claimDue(T0 + 40, 1_000, 1_000)).missed).toBe(0)
        expect((await store.publishing.reserveDue(T0 + 40, 1_000, 30_000)).filter((r) => r.postId === late.post.id)).toHaveLength(1)

        const events = await postsOf(late.post.id)
        expect(events.map((e) => [e.type, (e.data as { status: string }).status, e.actor])).toEqual([
          ['post.approval_requested', 'pending_approval', by],
          ['post.rejected', 'rejected', admin],
          ['post.updated', 'pending_approval', by],
          ['post.approval_requested', 'pending_approval', by],
          ['post.approved', 'scheduled', admin],
        ])
        expect(events[1]!.data).toMatchObject({ comment: 'Shorter, please.' })
        expect(events[4]!.data).toMatchObject({ comment: 'Good to go' })
        // Each decision's comment stays with the post.
        const comments = (await store.comments.list(scope, late.post.id, '', 10))!
        expect(comments.map((c) => [c.body, c.decision, c.author, c.authorName])).toEqual([
          ['Shorter, please.', 'rejected', admin, 'Waiting'],
          ['Good to go', 'approved', admin, 'Waiting'],
        ])
      })

      it('keeps a post approved before its time at its time; schedules a draft into approval; cancels posts waiting with their account', async () => {
        const { user, scope, account } = await setup('Ahead')
        const by = { userId: user, keyId: null }
        const ahead = await store.posts.create(by, { ...newPost(account, T0 + 3_600_000, ['feed']), awaitsApproval: true }, T0)
        const approved = await store.posts.decide(scope, ahead.post.id, { approve: true }, T0 + 1, by)
        expect(approved.kind === 'ok' && approved.record.post).toMatchObject({ status: 'scheduled', scheduled_at: new Date(T0 + 3_600_000).toISOString() })
        expect(await store.comments.list(scope, ahead.post.id, '', 10)).toEqual([])
        expect(await store.posts.decide(scope, ahead.post.id, { approve: true }, T0 + 2, by)).toMatchObject({ kind: 'wrong_state', record: { post: { status: 'scheduled' } } })

        // An edit that needs approval sends a scheduled post back to wait; a draft stays a draft.
        const waitAgain = await store.posts.update(scope, ahead.post.id, { content: 'changed', awaitsApproval: true }, 2, T0 + 3, by)
        expect(waitAgain.kind === 'ok' && waitAgain.record.post.status).toBe('pending_approval')
        const draft = await store.posts.create(by, { ...newPost(account, 0, ['feed']), scheduledAt: null, draft: true, awaitsApproval: true }, T0)
        expect(draft.post.status).toBe('draft')
        const stillDraft = await store.posts.update(scope, draft.post.id, { content: 'v2', awaitsApproval: true }, 1, T0 + 4, by)
        expect(stillDraft.kind === 'ok' && stillDraft.record.post.status).toBe('draft')
        const scheduled = await store.posts.schedule(scope, draft.post.id, { at: T0 + 7_200_000, awaitsApproval: true }, 2, T0 + 5, by)
        expect(scheduled.kind === 'ok' && scheduled.record.post).toMatchObject({ status: 'pending_approval', scheduled_at: new Date(T0 + 7_200_000).toISOString() })
        expect((await postsOf(draft.post.id)).map((e) => e.type)).toEqual(['post.drafted', 'post.updated', 'post.approval_requested'])

        // Waiting posts are the account's upcoming work: deleting it refuses, or cancels them.
        expect(await store.posts.deleteAccount(scope, account, { cancelPosts: false }, T0 + 6, by)).toEqual({ kind: 'has_scheduled', count: 2 })
        expect(await store.posts.deleteAccount(scope, account, { cancelPosts: true }, T0 + 6, by)).toEqual({ kind: 'ok', cancelled: 2 })
      })

      it('keeps comments of members and reviewers, oldest first, page by page, each with its event, only within the scope', async () => {
        const { user, scope, account } = await setup('Commenter')
        const stranger = await store.users.create({ name: 'Outsider' }, T0)
        const post = (await store.posts.create({ userId: user, keyId: null }, newPost(account, T0 + 3_600_000, ['feed']), T0)).post
        const member = { userId: user, keyId: 'key_1' }
        const reviewer = { reviewLinkId: 'rvl_1', name: 'Client Carla' }
        const first = (await store.comments.add(scope, post.id, 'Is the link right?', T0 + 1, member))!
        expect(first).toEqual({ id: expect.stringMatching(/^cmt_/), postId: post.id, author: member, authorName: 'Commenter', body: 'Is the link right?', decision: null, createdAt: T0 + 1 })
        await store.comments.add(scope, post.id, 'Yes.', T0 + 2, reviewer)
        await store.comments.add(scope, post.id, 'Thanks', T0 + 3, { reviewLinkId: 'rvl_2', name: null })
        expect(await store.comments.add([personalWorkspaceId(stranger.id)], post.id, 'hi', T0, member)).toBeUndefined()
        expect(await store.comments.list([personalWorkspaceId(stranger.id)], post.id, '', 10)).toBeUndefined()
        const page1 = (await store.comments.list(scope, post.id, '', 2))!
        const page2 = (await store.comments.list(scope, post.id, page1.at(-1)!.id, 2))!
        expect([...page1, ...page2].map((c) => [c.body, c.authorName])).toEqual([['Is the link right?', 'Commenter'], ['Yes.', 'Client Carla'], ['Thanks', null]])
        expect([...page1, ...page2][1]!.author).toEqual(reviewer)
        const events = (await store.events.listAfter('', 100_000)).filter((e) => e.type === 'post.commented' && (e.data as { post_id: string }).post_id === post.id)
        expect(events.map((e) => [e.actor, (e.data as { body: string }).body])).toEqual([[member, 'Is the link right?'], [reviewer, 'Yes.'], [{ reviewLinkId: 'rvl_2', name: null }, 'Thanks']])
      })

      it('keeps review links by their token’s hash, each with its event, revoked once, only within the scope, and gone with their post', async () => {
        const { user, scope, account } = await setup('Linker')
        const stranger = await store.users.create({ name: 'Outsider' }, T0)
        const theirs = [personalWorkspaceId(stranger.id)]
        const post = (await store.posts.create({ userId: user, keyId: null }, newPost(account, T0 + 3_600_000, ['feed']), T0)).post
        const by = { userId: user, keyId: 'key_1' }
        expect(await store.reviewLinks.create(theirs, post.id, { id: 'rvl_x', tokenHash: 'h0', expiresAt: T0 + 1 }, T0, by)).toBeUndefined()
        const first = await store.reviewLinks.create(scope, post.id, { id: 'rvl_a', tokenHash: 'h1', expiresAt: T0 + 86_400_000 }, T0 + 1, by)
        const second = await store.reviewLinks.create(scope, post.id, { id: 'rvl_b', tokenHash: 'h2', expiresAt: T0 + 60_000 }, T0 + 2, by)
        expect(first).toEqual({ id: 'rvl_a', postId: post.id, workspaceId: scope[0], createdBy: by, createdAt: T0 + 1, expiresAt: T0 + 86_400_000, revokedAt: null })
        expect(await store.reviewLinks.byTokenHash('h2')).toEqual(second)
        expect(await store.reviewLinks.byTokenHash('h9')).toBeUndefined()
        await expect(store.reviewLinks.create(scope, post.id, { id: 'rvl_c', tokenHash: 'h1', expiresAt: T0 }, T0 + 3, by)).rejects.toThrow()
        expect(await store.reviewLinks.list(theirs, post.id)).toBeUndefined()
        expect(await store.reviewLinks.revoke(theirs, post.id, 'rvl_a', T0 + 4, by)).toBeUndefined()
        expect(await store.reviewLinks.revoke(scope, post.id, 'rvl_nope', T0 + 4, by)).toBeUndefined()
        expect(await store.reviewLinks.revoke(scope, post.id, 'rvl_a', T0 + 5, by)).toMatchObject({ id: 'rvl_a', revokedAt: T0 + 5 })
        // Revoked once: a second revoke answers it as it is, with no second event.
        expect(await store.reviewLinks.revoke(scope, post.id, 'rvl_a', T0 + 6, by)).toMatchObject({ id: 'rvl_a', revokedAt: T0 + 5 })
        expect((await store.reviewLinks.list(scope, post.id))!.map((l) => [l.id, l.revokedAt])).toEqual([['rvl_a', T0 + 5], ['rvl_b', null]])
        const events = (await store.events.listAfter('', 100_000)).filter((e) => e.type.startsWith('post.review_link') && (e.data as { post_id: string }).post_id === post.id)
        expect(events.map((e) => [e.type, e.data, e.actor, e.workspaceId])).toEqual([
          ['post.review_link_created', { post_id: post.id, review_link_id: 'rvl_a', expires_at: new Date(T0 + 86_400_000).toISOString() }, by, scope[0]],
          ['post.review_link_created', { post_id: post.id, review_link_id: 'rvl_b', expires_at: new Date(T0 + 60_000).toISOString() }, by, scope[0]],
          ['post.review_link_revoked', { post_id: post.id, review_link_id: 'rvl_a' }, by, scope[0]],
        ])
        // Deleting the account deletes its posts, and their links with them.
        expect(await store.posts.deleteAccount(scope, account, { cancelPosts: true }, T0 + 7, by)).toMatchObject({ kind: 'ok' })
        expect(await store.reviewLinks.byTokenHash('h2')).toBeUndefined()
      })
    })

    it('keeps every event of a workspace as its audit log: newest first, who did it by their current name, by kind or family, by time, page by page', async () => {
      const owner = await store.users.create({ name: 'Audrey' }, T0)
      const ed = await store.users.create({ name: 'Ed' }, T0)
      const team = await store.workspaces.create(owner.id, { name: 'Audited', approvalRequired: true, timezone: 'UTC' }, T0)
      const me = { userId: owner.id, keyId: null }
      await store.workspaces.addMember(team.id, { userId: ed.id }, 'editor', T0 + 1, me)
      const key = await store.apiKeys.create(ed.id, { name: 'ed', scopes: SCOPES }, T0 + 2, { userId: ed.id, keyId: null })
      const account = await store.accounts.create(team.id, owner.id, 'Brand', T0 + 3)
      const asEd = { userId: ed.id, keyId: key.id }
      const post = (await store.posts.create(asEd, { workspaceId: team.id, accountId: account.id, content: 'hello', mediaUrls: [], platforms: ['feed'], scheduledAt: T0 + 3_600_000, awaitsApproval: true }, T0 + 4)).post
      await store.posts.decide([team.id], post.id, { approve: true }, T0 + 5, me)
      await store.workspaces.setRole(team.id, ed.id, 'viewer', T0 + 6, me)
      await store.workspaces.update(team.id, { approvalRequired: false }, T0 + 7, me)
      await store.workspaces.removeMember(team.id, ed.id, T0 + 8, me)
      await store.users.update(ed.id, { name: 'Edward' })

      const log = await store.events.audit(team.id, {}, '', 100)
      expect(log.map((e) => [e.type, e.actorName, e.createdAt])).toEqual([
        ['workspace.member_removed', 'Audrey', T0 + 8],
        ['workspace.updated', 'Audrey', T0 + 7],
        ['workspace.member_updated', 'Audrey', T0 + 6],
        ['post.approved', 'Audrey', T0 + 5],
        ['post.approval_requested', 'Edward', T0 + 4],
        ['key.created', 'Edward', T0 + 2],
        ['workspace.member_added', 'Audrey', T0 + 1],
      ])
      expect(log[4]!.actor).toEqual(asEd)
      expect(log[5]!.data).toMatchObject({ id: key.id, name: 'ed', user_id: ed.id })
      expect(log[6]!.data).toMatchObject({ workspace_id: team.id, user_id: ed.id, role: 'editor' })
      // A key is recorded in each workspace of its user's: Ed's personal one too.
      expect((await store.events.audit(personalWorkspaceId(ed.id), {}, '', 10)).map((e) => e.type)).toEqual(['key.created'])
      expect((await store.events.audit(team.id, { kinds: ['post.*'] }, '', 10)).map((e) => e.type)).toEqual(['post.approved', 'post.approval_requested'])
      expect((await store.events.audit(team.id, { kinds: ['key.created', 'workspace.updated'] }, '', 10)).map((e) => e.type)).toEqual(['workspace.updated', 'key.created'])
      expect((await store.events.audit(team.id, { from: T0 + 2, to: T0 + 5 }, '', 10)).map((e) => e.type)).toEqual(['post.approval_requested', 'key.created'])
      const page1 = await store.events.audit(team.id, {}, '', 3)
      const page2 = await store.events.audit(team.id, {}, page1.at(-1)!.id, 3)
      expect([...page1, ...page2].map((e) => e.type)).toEqual(log.slice(0, 6).map((e) => e.type))
      expect(await store.events.audit(personalWorkspaceId(owner.id), { kinds: ['post.*'] }, '', 10)).toEqual([])
    })
  })

  describe('webhooks and their deliveries', () => {
    const limits = { total: 8, perEndpoint: 2, leaseMs: 30_000 }
    const attempt = (job: { webhookId: string; eventId: string; attempt: number }, succeeded: boolean, nextAttemptAt: number | null, extra = {}) => ({
      ...job,
      succeeded,
      statusCode: succeeded ? 204 : 500,
      durationMs: 12,
      responseBody: succeeded ? null : 'down',
      error: null,
      nextAttemptAt,
      disableAfterFailingMs: 5 * 86_400_000,
      ...extra,
    })

    /** A user's endpoint, sent a webhook.test whose delivery is claimed at T0 + 5. */
    const testDelivery = async (name: string) => {
      const user = await store.users.create({ name }, T0)
      const hook = await store.webhooks.create(personalWorkspaceId(user.id), user.id, { url: 'https://gone.example/h', events: ['webhook.test'], description: null, sealedSecret: 's' }, T0)
      await store.events.append(personalWorkspaceId(user.id), 'webhook.test', { webhook_id: hook.id }, T0 + 1, null)
      while ((await store.webhookDeliveries.dispatch(T0 + 5)) > 0);
      return { user, hook, job: (await store.webhookDeliveries.claim(T0 + 5, limits)).find((j) => j.webhookId === hook.id)! }
    }

    it('fans each event out to the endpoints subscribed to it, leases deliveries within the limits, and records each attempt', async () => {
      const user = await store.users.create({ name: 'Hooked' }, T0)
      const all = await store.webhooks.create(personalWorkspaceId(user.id), user.id, { url: 'https://a.example/h', events: ['*'], description: null, sealedSecret: 's1' }, T0)
      const some = await store.webhooks.create(personalWorkspaceId(user.id), user.id, { url: 'https://b.example/h', events: ['post.published'], description: 'b', sealedSecret: 's2' }, T0)
      expect(all).toMatchObject({ workspaceId: personalWorkspaceId(user.id), url: 'https://a.example/h', events: ['*'], enabled: true, disabledReason: null, createdAt: T0 })
      const published = await store.events.append(personalWorkspaceId(user.id), 'post.published', { id: 'pst_1' }, T0 + 1, null)
      await store.events.append(personalWorkspaceId(user.id), 'account.connected', { id: 'acc_1' }, T0 + 2, null)
      while ((await store.webhookDeliveries.dispatch(T0 + 10)) > 0);
      expect(await store.webhookDeliveries.hasWork(T0 + 10)).toBe(true)
      const jobs = (await store.webhookDeliveries.claim(T0 + 10, limits)).filter((j) => j.webhookId === all.id || j.webhookId === some.id)
      expect(jobs.map((j) => [j.webhookId, j.eventType]).sort()).toEqual([[all.id, 'account.connected'], [all.id, 'post.published'], [some.id, 'post.published']].sort())
      const job = jobs.find((j) => j.webhookId === some.id)!
      expect(job).toMatchObject({ eventId: published.id, attempt: 1, url: 'https://b.example/h', sealedSecret: 's2', eventCreatedAt: T0 + 1 })
      expect(JSON.parse(job.eventData)).toEqual({ id: 'pst_1' })
      // Leased: not claimed again until the lease runs out.
      expect((await store.webhookDeliveries.claim(T0 + 20, limits)).filter((j) => j.webhookId === some.id)).toEqual([])
      expect(await store.webhookDeliveries.record(attempt(job, false, T0 + 60_000), T0 + 30)).toEqual({ recorded: true, disabledReason: null })
      const retry = (await store.webhookDeliveries.claim(T0 + 60_000, limits)).find((j) => j.webhookId === some.id)!
      expect(retry.attempt).toBe(2)
      await store.webhookDeliveries.record(attempt(retry, true, null), T0 + 60_010)
      const listed = await store.webhookDeliveries.listAttempts(some.id, '', 10)
      expect(listed.map((a) => [a.attempt, a.succeeded, a.status_code])).toEqual([[2, true, 204], [1, false, 500]])
      expect(listed[1]).toMatchObject({ event_id: published.id, event_type: 'post.published', response_body: 'down', next_attempt_at: new Date(T0 + 60_000).toISOString() })
    })

    it('drops the outcome of an attempt whose lease ran out and whose delivery another worker claimed again', async () => {
      const { user, hook, job: stale } = await testDelivery('Stale hook')
      // This worker stops mid-request past its lease; another claims the delivery again.
      const other = await another()
      const current = (await other.webhookDeliveries.claim(T0 + 5 + limits.leaseMs, limits)).find((j) => j.webhookId === hook.id)!
      expect(current.attempt).toBe(2)
      // The first wakes while the second is in flight, and again after it: neither outcome lands.
      expect(await store.webhookDeliveries.record(attempt(stale, false, null, { statusCode: 410, disableReason: 'the endpoint answered 410 Gone' }), T0 + 30_100)).toEqual({ recorded: false, disabledReason: null })
      expect(await other.webhookDeliveries.record(attempt(current, true, null), T0 + 30_200)).toEqual({ recorded: true, disabledReason: null })
      expect(await store.webhookDeliveries.record(attempt(stale, false, T0 + 90_000), T0 + 30_300)).toEqual({ recorded: false, disabledReason: null })
      expect(await store.webhooks.get([personalWorkspaceId(user.id)], hook.id)).toMatchObject({ enabled: true, disabledReason: null })
      const attempts = await store.webhookDeliveries.listAttempts(hook.id, '', 10)
      expect(attempts.map((a) => [a.attempt, a.succeeded, a.error])).toEqual([[2, true, null], [1, false, expect.stringMatching(/interrupted/)]])
      // Delivered: nothing is due for it later.
      expect((await store.webhookDeliveries.claim(T0 + 1_000_000, limits)).filter((j) => j.webhookId === hook.id)).toEqual([])
    })

    it('counts the backlog: events not yet fanned out, then each delivery due until it is made; a retry waiting for its time is not due', async () => {
      const now = T0 + 500 * 86_400_000
      const retryAt = now + 60_000
      while ((await store.webhookDeliveries.dispatch(now)) > 0);
      const [before, beforeRetry] = [await store.webhookDeliveries.backlog(now), await store.webhookDeliveries.backlog(retryAt)]
      const user = await store.users.create({ name: 'Backlogged' }, now)
      const a = await store.webhooks.create(personalWorkspaceId(user.id), user.id, { url: 'https://a.example/h', events: ['*'], description: null, sealedSecret: 's1' }, now)
      const b = await store.webhooks.create(personalWorkspaceId(user.id), user.id, { url: 'https://b.example/h', events: ['*'], description: null, sealedSecret: 's2' }, now)
      await store.events.append(personalWorkspaceId(user.id), 'post.published', { id: 'pst_1' }, now + 1, null)
      expect(await store.webhookDeliveries.backlog(now + 1)).toBe(before + 1)
      while ((await store.webhookDeliveries.dispatch(now + 1)) > 0);
      expect(await store.webhookDeliveries.backlog(now + 1)).toBe(before + 2)
      // Being attempted still counts: it is not out yet.
      const jobs = (await store.webhookDeliveries.claim(now + 1, limits)).filter((j) => j.webhookId === a.id || j.webhookId === b.id)
      expect(jobs).toHaveLength(2)
      expect(await store.webhookDeliveries.backlog(now + 2)).toBe(before + 2)
      await store.webhookDeliveries.record(attempt(jobs.find((j) => j.webhookId === a.id)!, true, null), now + 3)
      expect(await store.webhookDeliveries.backlog(now + 3)).toBe(before + 1)
      await store.webhookDeliveries.record(attempt(jobs.find((j) => j.webhookId === b.id)!, false, retryAt), now + 4)
      expect(await store.webhookDeliveries.backlog(now + 4)).toBe(before)
      expect(await store.webhookDeliveries.backlog(retryAt)).toBe(beforeRetry + 1)
    })

    it('disables an endpoint that answers 410, edits and rotates an endpoint, and deletes it with its deliveries', async () => {
      const { user, hook, job } = await testDelivery('Gone')
      expect(await store.webhookDeliveries.record(attempt(job, false, null, { statusCode: 410, disableReason: 'the endpoint answered 410 Gone' }), T0 + 6)).toEqual({ recorded: true, disabledReason: 'the endpoint answered 410 Gone' })
      expect(await store.webhooks.get([personalWorkspaceId(user.id)], hook.id)).toMatchObject({ enabled: false, disabledReason: 'the endpoint answered 410 Gone', disabledAt: T0 + 6 })
      const enabled = await store.webhooks.update([personalWorkspaceId(user.id)], hook.id, { enabled: true, url: 'https://back.example/h' }, T0 + 7)
      expect(enabled).toMatchObject({ enabled: true, disabledReason: null, url: 'https://back.example/h' })
      expect(await store.webhooks.rotateSecret([personalWorkspaceId(user.id)], hook.id, 's-new', T0 + 86_400_000, T0 + 8)).toMatchObject({ previousSecretExpiresAt: T0 + 86_400_000 })
      expect((await store.webhooks.listPage([personalWorkspaceId(user.id)], '', 10)).map((w) => w.id)).toEqual([hook.id])
      expect(await store.webhooks.delete([personalWorkspaceId(user.id)], hook.id)).toBe(true)
      expect(await store.webhooks.delete([personalWorkspaceId(user.id)], hook.id)).toBe(false)
      expect(await store.webhookDeliveries.listAttempts(hook.id, '', 10)).toEqual([])
    })
  })

  describe('metrics and analytics', () => {
    it('claims due reads, keeps every snapshot and the latest counts, and reports sums, rates, the median delay and the top posts', async () => {
      const user = await store.users.create({ name: 'Analyst' }, T0)
      const account = await store.accounts.create(personalWorkspaceId(user.id), user.id, 'Numbers', T0)
      const ids: string[] = []
      // Three posts an hour apart, published 1, 2 and 4 seconds late.
      for (const [i, late] of [1_000, 2_000, 4_000].entries()) {
        const at = T0 + i * 3_600_000
        const id = (await store.posts.create({ userId: user.id, keyId: null }, { workspaceId: personalWorkspaceId(user.id), accountId: account.id, content: `n${i}`, mediaUrls: [], platforms: ['mastodon'], scheduledAt: at }, T0)).post.id
        ids.push(id)
        await store.publishing.claimDue(at, 100, 86_400_000)
        const [ref] = (await store.publishing.reserveDue(at, 1_000, 30_000)).filter((r) => r.postId === id)
        const claimed = (await store.publishing.claimTarget(ref!, at, 30_000))!
        await store.publishing.settle(claimed, { kind: 'published', platformPostId: `m${i}`, url: `https://social.example/${i}` }, at + late)
      }
      const due = (await store.metrics.claimDue(T0 + 86_400_000, 100, 300_000)).filter((d) => ids.includes(d.postId))
      expect(due.map((d) => d.platformPostId)).toEqual(['m0', 'm1', 'm2'])
      expect((await store.metrics.claimDue(T0 + 86_400_000, 100, 300_000)).filter((d) => ids.includes(d.postId))).toEqual([])
      const counts = (likes: number) => ({ impressions: null, likes, reposts: 1, replies: null, quotes: null, clicks: null })
      await store.metrics.record(due.map((d, i) => ({ postId: d.postId, platform: d.platform, metrics: counts(i * 10), nextAt: null, failures: 0 })), T0 + 86_400_000)
      await store.metrics.record([{ postId: ids[0]!, platform: 'mastodon', metrics: counts(3), nextAt: null, failures: 0 }], T0 + 86_400_001)
      expect((await store.metrics.history(ids[0]!, 'mastodon')).map((s) => s.likes)).toEqual([0, 3])

      const report = await store.analytics.report({ workspaceId: personalWorkspaceId(user.id), from: T0, to: T0 + 3 * 3_600_000, buckets: [0, 1, 2].map((i) => ({ start: T0 + i * 3_600_000, end: T0 + (i + 1) * 3_600_000 })), top: 2 })
      expect(report.totals).toEqual({ scheduled: 3, published: 3, failed: 0, medianDelayMs: 2_000, impressions: null, likes: 33, reposts: 3, replies: null, quotes: null, clicks: null, engagements: 36, ratedEngagements: null, ratedImpressions: null })
      expect(report.byPlatform.map((p) => [p.platform, p.published])).toEqual([['mastodon', 3]])
      expect([...report.byBucket.entries()].map(([b, a]) => [b, a.medianDelayMs, a.likes])).toEqual([[0, 1_000, 3], [1, 2_000, 10], [2, 4_000, 20]])
      expect(report.top).toEqual([
        { postId: ids[2], platform: 'mastodon', url: 'https://social.example/2', engagements: 21 },
        { postId: ids[1], platform: 'mastodon', url: 'https://social.example/1', engagements: 11 },
      ])

      // A batch that lists a target twice keeps its last reading and its last schedule, as one by one would.
      await store.metrics.record(
        [
          { postId: ids[1]!, platform: 'mastodon', metrics: counts(70), nextAt: T0 + 5, failures: 0 },
          { postId: ids[2]!, platform: 'mastodon', nextAt: null, failures: 2 },
          { postId: ids[1]!, platform: 'mastodon', metrics: counts(40), nextAt: T0 + 86_400_010, failures: 1 },
        ],
        T0 + 86_400_002,
      )
      expect((await store.metrics.history(ids[1]!, 'mastodon')).map((s) => s.likes)).toEqual([10, 40])
      const again = await store.analytics.report({ workspaceId: personalWorkspaceId(user.id), from: T0, to: T0 + 3 * 3_600_000, buckets: [{ start: T0, end: T0 + 3 * 3_600_000 }], top: 1 })
      expect(again.totals).toMatchObject({ likes: 63, engagements: 66 })
      expect(again.top).toEqual([{ postId: ids[1], platform: 'mastodon', url: 'https://social.example/1', engagements: 41 }])
      expect((await store.metrics.claimDue(T0 + 86_400_009, 100, 300_000)).filter((d) => ids.includes(d.postId))).toEqual([])
      expect((await store.metrics.claimDue(T0 + 86_400_010, 100, 300_000)).filter((d) => ids.includes(d.postId))).toEqual([expect.objectContaining({ postId: ids[1], failures: 1 })])
    })
  })

  describe('the feed', () => {
    it('publishes a post once, however often it is sent, newest first', async () => {
      const user = await store.users.create({ name: 'Feeder' }, T0)
      const account = await store.accounts.create(personalWorkspaceId(user.id), user.id, 'Feed', T0)
      const first = await store.feed.publish(account.id, 'pst_1', 'hello', ['https://example.com/a.png'], T0)
      expect(await store.feed.publish(account.id, 'pst_1', 'changed', [], T0 + 5)).toEqual(first)
      await store.feed.publish(account.id, 'pst_2', 'again', [], T0 + 10)
      expect((await store.feed.recent(account.id, 10)).map((i) => i.postId)).toEqual(['pst_2', 'pst_1'])
      expect(first).toEqual({ postId: 'pst_1', content: 'hello', mediaUrls: ['https://example.com/a.png'], attachments: [], publishedAt: T0 })
    })
  })

  describe('tus uploads', () => {
    const DAY = 86_400_000
    const LEASE = 60_000
    let serial = 0
    /** Starts an upload of `length` bytes for `userId`, reserving it against `quota`. */
    const start = async (userId: string, length: number, quota: number | null = null) => {
      const n = `${backend.name}${++serial}`.padEnd(12, '0')
      const media = { id: `med_${n}`, token: `tok_${n}`, url: `https://smm.example/media/tok_${n}.png`, contentType: 'image/png' as const, bytes: length, altText: 'alt' }
      const reserved = await store.media.createUpload(userId, { id: `upl_${n}`, length, expiresAt: T0 + DAY }, media, quota, T0)
      return { uploadId: `upl_${n}`, mediaId: media.id, reserved }
    }
    const facts = (bytes: number) => ({ contentType: 'image/png' as const, bytes, sha256: 'ab'.repeat(32), width: 4, height: 3, durationMs: null })

    it('reserves an upload against the quota, hides its media until it is finished, and keeps the upload, finished, until it expires', async () => {
      const user = await store.users.create({ name: 'Uploader' }, T0)
      const { uploadId, mediaId, reserved } = await start(user.id, 1_000, 1_500)
      expect(reserved).toEqual({ kind: 'reserved' })
      expect((await start(user.id, 600, 1_500)).reserved).toEqual({ kind: 'quota_exceeded', used: 1_000 })
      expect(await store.media.usage(user.id)).toBe(1_000)
      expect(await store.media.getUpload(user.id, uploadId, T0)).toMatchObject({ id: uploadId, userId: user.id, mediaId, length: 1_000, offset: 0, parts: 0, contentType: 'image/png', altText: 'alt', expiresAt: T0 + DAY })
      expect(await store.media.get(user.id, mediaId)).toBeUndefined()
      const other = await store.users.create({ name: 'Not the uploader' }, T0)
      expect(await store.media.getUpload(other.id, uploadId, T0)).toBeUndefined()
      expect((await store.media.lockUpload(other.id, uploadId, 0, T0, LEASE, 'req_x')).kind).toBe('not_found')

      const first = await store.media.lockUpload(user.id, uploadId, 0, T0, LEASE, 'req_1')
      if (first.kind !== 'locked') throw new Error(first.kind)
      expect(await store.media.advanceUpload(uploadId, first.lease, 400)).toMatchObject({ offset: 400, parts: 1 })
      expect(await store.media.lockUpload(user.id, uploadId, 0, T0, LEASE, 'req_2')).toEqual({ kind: 'offset_mismatch', offset: 400 })
      const last = await store.media.lockUpload(user.id, uploadId, 400, T0 + 1, LEASE, 'req_3')
      if (last.kind !== 'locked') throw new Error(last.kind)
      // The last piece does not advance the upload: finishing it does, with its media, together.
      expect(await store.media.advanceUpload(uploadId, last.lease, 600)).toBeUndefined()
      const media = await store.media.finishUpload(uploadId, last.lease, facts(1_000), T0 + 2)
      expect(media).toMatchObject({ id: mediaId, bytes: 1_000, width: 4, alt_text: 'alt' })
      expect(await store.media.get(user.id, mediaId)).toEqual(media)
      expect(await store.media.getUpload(user.id, uploadId, T0 + 3)).toMatchObject({ offset: 1_000, parts: 2 })
      expect(await store.media.lockUpload(user.id, uploadId, 1_000, T0 + 3, LEASE, 'req_4')).toEqual({ kind: 'offset_mismatch', offset: 1_000 })
      expect(await store.media.getUpload(user.id, uploadId, T0 + DAY)).toBeUndefined()
      // Terminating a finished upload leaves its media alone.
      expect(await store.media.terminateUpload(user.id, uploadId, T0 + 4)).toBe(true)
      expect(await store.media.get(user.id, mediaId)).toEqual(media)
    })

    it('lets one request at a time write, and a claim whose lease lapsed write nothing once another holds the upload (on another node too)', async () => {
      const user = await store.users.create({ name: 'Racer' }, T0)
      const { uploadId, mediaId } = await start(user.id, 1_000)
      const node2 = await another()
      const a = await store.media.lockUpload(user.id, uploadId, 0, T0, LEASE, 'req_a')
      if (a.kind !== 'locked') throw new Error(a.kind)
      expect((await node2.media.lockUpload(user.id, uploadId, 0, T0 + 1, LEASE, 'req_b')).kind).toBe('busy')
      // While a holds it, it may lengthen its claim; the new lease is its token from then on.
      expect(await store.media.extendUpload(uploadId, a.lease, a.lease + LEASE)).toBe(true)
      expect(await store.media.extendUpload(uploadId, a.lease, a.lease + 2 * LEASE)).toBe(false)
      const aLease = a.lease + LEASE
      expect((await node2.media.lockUpload(user.id, uploadId, 0, a.lease + 1, LEASE, 'req_b')).kind).toBe('busy')
      // a stalls past its lease: b takes over with a greater token, and a's writes change nothing.
      const b = await node2.media.lockUpload(user.id, uploadId, 0, aLease + 1, LEASE, 'req_b')
      if (b.kind !== 'locked') throw new Error(b.kind)
      expect(b.lease).toBeGreaterThan(aLease)
      expect(await store.media.advanceUpload(uploadId, aLease, 500)).toBeUndefined()
      expect(await store.media.extendUpload(uploadId, aLease, aLease + LEASE)).toBe(false)
      expect(await store.media.finishUpload(uploadId, aLease, facts(1_000), aLease + 2)).toBeUndefined()
      await store.media.unlockUpload(uploadId, aLease)
      expect((await store.media.lockUpload(user.id, uploadId, 0, aLease + 3, LEASE, 'req_c')).kind).toBe('busy')
      expect(await node2.media.advanceUpload(uploadId, b.lease, 300)).toMatchObject({ offset: 300, parts: 1 })
      // Given up, the claim leaves the next one free at once, with a greater token still.
      const c = await store.media.lockUpload(user.id, uploadId, 300, aLease + 4, LEASE, 'req_c')
      if (c.kind !== 'locked') throw new Error(c.kind)
      expect(c.lease).toBeGreaterThan(b.lease)
      await store.media.unlockUpload(uploadId, c.lease)
      const d = await node2.media.lockUpload(user.id, uploadId, 300, aLease + 5, LEASE, 'req_d')
      if (d.kind !== 'locked') throw new Error(d.kind)
      expect(d.lease).toBeGreaterThan(c.lease)
      expect(await store.media.get(user.id, mediaId)).toBeUndefined()
    })

    it('terminates an upload: its claim and reservation go at once, and the cleanup claims it with the upload named, as it does an unfinished one past its expiry', async () => {
      const user = await store.users.create({ name: 'Quitter' }, T0)
      const dropped = await start(user.id, 1_000)
      const stale = await start(user.id, 2_000)
      const claim = await store.media.lockUpload(user.id, dropped.uploadId, 0, T0, LEASE, 'req_1')
      if (claim.kind !== 'locked') throw new Error(claim.kind)
      expect(await store.media.usage(user.id)).toBe(3_000)
      expect(await store.media.terminateUpload(user.id, dropped.uploadId, T0 + 1)).toBe(true)
      expect(await store.media.terminateUpload(user.id, dropped.uploadId, T0 + 2)).toBe(false)
      expect(await store.media.getUpload(user.id, dropped.uploadId, T0 + 2)).toBeUndefined()
      expect(await store.media.advanceUpload(dropped.uploadId, claim.lease, 10)).toBeUndefined()
      expect(await store.media.usage(user.id)).toBe(2_000)

      const removable = (now: number) => store.media.claimRemovable(now, 100, LEASE).then((all) => all.filter((m) => m.id === dropped.mediaId || m.id === stale.mediaId))
      const now = await removable(T0 + 3)
      expect(now.map((m) => [m.id, m.uploadId])).toEqual([[dropped.mediaId, dropped.uploadId]])
      expect(await store.media.removed(dropped.mediaId, now[0]!.lease)).toBe(true)
      // The stale one is kept while it may still be resumed, and claimed once it has expired.
      const later = await removable(T0 + DAY)
      expect(later.map((m) => [m.id, m.uploadId])).toEqual([[stale.mediaId, stale.uploadId]])
      expect(await store.media.usage(user.id)).toBe(0)
      expect(await store.media.removed(stale.mediaId, later[0]!.lease)).toBe(true)
      expect(await store.media.getUpload(user.id, stale.uploadId, T0)).toBeUndefined()
    })
  })
})

describe('several daemons on one PostgreSQL database', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>
  let nodes: Families[]
  beforeAll(async () => {
    db = await freshDatabase()
    // Three nodes starting at once: the migrations run once, under the advisory lock.
    nodes = await Promise.all([1, 2, 3].map(() => openPostgresStore(db.url, { max: 4 })))
  })
  afterAll(async () => {
    for (const node of nodes) await node.close()
    await db.drop()
  })

  it('counts rate limits exactly: 130 requests at once, spread over three nodes, admit the limit of 100', async () => {
    const user = await nodes[0]!.users.create({ name: 'Busy' }, T0)
    const key = await nodes[1]!.apiKeys.create(user.id, { name: 'b', scopes: SCOPES }, T0, null)
    const limits = { ...unlimited, per_minute: 100 }
    const results = await Promise.all(Array.from({ length: 130 }, (_, i) => nodes[i % 3]!.rateLimits.consume(key.id, limits, T0 + 1_000)))
    expect(results.filter((d) => d.admitted)).toHaveLength(100)
    expect(results.filter((d) => !d.admitted).every((d) => d.violated.join() === 'minute')).toBe(true)
    expect((await nodes[2]!.rateLimits.consume(key.id, limits, T0 + 2_000)).admitted).toBe(false)
    expect((await nodes[2]!.rateLimits.consume(key.id, limits, T0 + 61_000)).admitted).toBe(true)
  })

  it('has every node honour a key revoked or a plan changed through another as soon as it is told, though each keeps what it authenticated', async () => {
    const user = await nodes[0]!.users.create({ name: 'Revoker' }, T0)
    const key = await nodes[0]!.apiKeys.create(user.id, { name: 'r', scopes: SCOPES }, T0, null)
    const hash = hashApiKey(key.secret)
    for (const node of nodes) expect(await node.apiKeys.authenticate(hash, T0 + 1)).toHaveProperty('user.plan', 'standard')
    // The clock stands still at T0 + 1: a node's kept key never expires by itself here, so only the
    // change's notification can make it answer otherwise (on a running clock, a second does).
    const honoured = async (expected: (answer: Awaited<ReturnType<Store['apiKeys']['authenticate']>>) => boolean) => {
      const deadline = Date.now() + 10_000
      for (const node of nodes) {
        while (!expected(await node.apiKeys.authenticate(hash, T0 + 1))) {
          if (Date.now() > deadline) return false
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
      }
      return true
    }
    await nodes[2]!.users.setPlan(user.id, 'business')
    expect(await honoured((a) => typeof a === 'object' && a.user.plan === 'business')).toBe(true)
    await nodes[1]!.apiKeys.revoke(user.id, key.id, T0)
    expect(await honoured((a) => a === 'revoked')).toBe(true)
  })

  it('has every node forget a membership removed through another as soon as it is told', async () => {
    const owner = await nodes[0]!.users.create({ name: 'Lead' }, T0)
    const member = await nodes[0]!.users.create({ name: 'Leaver' }, T0)
    const key = await nodes[0]!.apiKeys.create(member.id, { name: 'm', scopes: SCOPES }, T0, null)
    const team = await nodes[0]!.workspaces.create(owner.id, { name: 'Team', approvalRequired: false, timezone: 'UTC' }, T0)
    await nodes[1]!.workspaces.addMember(team.id, { userId: member.id }, 'editor', T0, null)
    const hash = hashApiKey(key.secret)
    const roleOn = async (node: Families) => {
      const answer = await node.apiKeys.authenticate(hash, T0 + 1)
      return typeof answer === 'object' ? answer.memberships.get(team.id)?.role : answer
    }
    const everywhere = async (role: string | undefined) => {
      const deadline = Date.now() + 10_000
      for (const node of nodes) {
        while ((await roleOn(node)) !== role) {
          if (Date.now() > deadline) return false
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
      }
      return true
    }
    // Each node has authenticated the key, with the membership; the clock stands still, so only
    // the change's notification can make a node see otherwise.
    expect(await everywhere('editor')).toBe(true)
    await nodes[2]!.workspaces.setRole(team.id, member.id, 'viewer', T0, null)
    expect(await everywhere('viewer')).toBe(true)
    await nodes[1]!.workspaces.removeMember(team.id, member.id, T0, null)
    expect(await everywhere(undefined)).toBe(true)
  })

  it('moves a series on once when several nodes settle or cancel its occurrence at once', async () => {
    const user = await nodes[0]!.users.create({ name: 'Serial' }, T0)
    const account = await nodes[0]!.accounts.create(personalWorkspaceId(user.id), user.id, 'S', T0)
    const repeat = { interval: 'PT1H', count: 5, until: null, timezone: 'UTC' }
    const series = []
    for (let i = 0; i < 10; i++) series.push((await nodes[i % 3]!.posts.create({ userId: user.id, keyId: null }, { workspaceId: personalWorkspaceId(user.id), accountId: account.id, content: `s${i}`, mediaUrls: [], platforms: ['feed'], scheduledAt: T0 + 1_000, repeat }, T0)).post)
    // Half settled by every node at once (a lease taken over while the first outcome was written), half cancelled by every node at once.
    const [published, cancelled] = [series.slice(0, 5), series.slice(5)]
    await Promise.all(cancelled.flatMap((post) => nodes.map((node) => node.posts.cancel([personalWorkspaceId(user.id)], post.id, T0 + 500, null))))
    await nodes[0]!.publishing.claimDue(T0 + 1_000, 100, 86_400_000)
    const refs = (await nodes[0]!.publishing.reserveDue(T0 + 1_000, 100, 30_000)).filter((r) => published.some((p) => p.id === r.postId))
    expect(refs).toHaveLength(5)
    const claimed: ClaimedTarget[] = []
    for (const ref of refs) claimed.push((await nodes[0]!.publishing.claimTarget(ref, T0 + 1_000, 30_000))!)
    const settled = await Promise.all(claimed.flatMap((target) => nodes.map((node) => node.publishing.settle(target, { kind: 'published', platformPostId: null, url: null }, T0 + 2_000))))
    expect(settled.filter(Boolean)).toHaveLength(5)
    for (const post of series) {
      const occurrences = await nodes[1]!.posts.list([personalWorkspaceId(user.id)], { order: 'asc', seriesId: post.series_id! }, 10)
      expect(occurrences.map((r) => [r.post.occurrence, r.post.status])).toEqual([[1, published.includes(post) ? 'published' : 'cancelled'], [2, 'scheduled']])
      // Stopped, so the later tests find nothing of it due.
      expect((await nodes[2]!.posts.cancel([personalWorkspaceId(user.id)], occurrences[1]!.post.id, T0 + 3_000, null, { series: true })).kind).toBe('ok')
    }
    const events = (await nodes[2]!.events.listAfter('', 100_000)).filter((e) => e.workspaceId === personalWorkspaceId(user.id))
    expect(events.filter((e) => e.type === 'post.scheduled')).toHaveLength(20)
    expect(events.filter((e) => e.type === 'post.series_ended')).toHaveLength(10)
  })

  it('never lets two nodes claim the same post or target', async () => {
    const user = await nodes[0]!.users.create({ name: 'Contended' }, T0)
    const account = await nodes[0]!.accounts.create(personalWorkspaceId(user.id), user.id, 'C', T0)
    for (let i = 0; i < 60; i++) {
      await nodes[i % 3]!.posts.create({ userId: user.id, keyId: null }, { workspaceId: personalWorkspaceId(user.id), accountId: account.id, content: `c${i}`, mediaUrls: [], platforms: ['feed', 'discord'], scheduledAt: T0 + i }, T0)
    }
    const claims = await Promise.all(nodes.flatMap((node) => [1, 2].map(() => node.publishing.claimDue(T0 + 100, 25, 86_400_000))))
    expect(claims.reduce((sum, c) => sum + c.claimed, 0)).toBe(60)
    // Reserved at once by every node, two batches each: every target held by exactly one node.
    const reserved = await Promise.all(nodes.flatMap((node, n) => [1, 2].map(async () => ({ n, refs: await node.publishing.reserveDue(T0 + 100, 25, 30_000) }))))
    const all = reserved.flatMap((r) => r.refs)
    expect(all).toHaveLength(120)
    expect(new Set(all.map((r) => `${r.postId} ${r.platform}`)).size).toBe(120)
    // A node cannot attempt what another holds; each attempts its own.
    const taken = await Promise.all(reserved.flatMap(({ n, refs }) => refs.flatMap((ref) => nodes.map(async (node, m) => ({ mine: m === n, target: await node.publishing.claimTarget(ref, T0 + 100, 30_000) })))))
    expect(taken.filter((t) => t.target)).toHaveLength(120)
    expect(taken.every((t) => Boolean(t.target) === t.mine)).toBe(true)
    // A lease that ran out is taken over by one node, not by every node that notices it.
    const recovered = await Promise.all(nodes.map((node) => node.publishing.abandoned(T0 + 100 + 31_000, false)))
    expect(recovered.flat()).toHaveLength(120)
    expect(new Set(recovered.flat().map((r) => `${r.postId} ${r.platform}`)).size).toBe(120)
  })

  it("makes a reservation that lapsed (its node died before attempting) due again for another node, and a stopping node's reservations due at once", async () => {
    const user = await nodes[0]!.users.create({ name: 'Lapsed' }, T0)
    const account = await nodes[0]!.accounts.create(personalWorkspaceId(user.id), user.id, 'L', T0)
    const at = T0 + 1_000_000
    for (let i = 0; i < 4; i++) await nodes[0]!.posts.create({ userId: user.id, keyId: null }, { workspaceId: personalWorkspaceId(user.id), accountId: account.id, content: `l${i}`, mediaUrls: [], platforms: ['feed'], scheduledAt: at }, T0)
    await nodes[0]!.publishing.claimDue(at, 10, 86_400_000)
    const [dead, stopping, other] = nodes as [Families, Families, Families]
    const held = await dead.publishing.reserveDue(at, 2, 30_000)
    const given = await stopping.publishing.reserveDue(at, 2, 30_000)
    expect([held.length, given.length]).toEqual([2, 2])
    expect(await other.publishing.reserveDue(at + 1_000, 10, 30_000)).toEqual([])
    await stopping.publishing.releaseReservations()
    // All four are due at the same time: which comes first among them is not part of the contract.
    const byPost = (refs: TargetRef[]) => [...refs].sort((a, b) => a.postId.localeCompare(b.postId))
    expect(byPost(await other.publishing.reserveDue(at + 1_000, 10, 30_000))).toEqual(byPost(given))
    // Nothing was sent for a lapsed reservation: the target is pending again, never unconfirmed.
    const lapsed = at + 30_500
    expect((await other.publishing.abandoned(lapsed, false)).filter((r) => r.accountId === account.id)).toEqual([])
    expect(byPost(await other.publishing.reserveDue(lapsed, 10, 30_000))).toEqual(byPost(held))
    for (const ref of held) expect(await dead.publishing.claimTarget(ref, lapsed, 30_000)).toBeUndefined()
    // Claimed together, each once: in the order asked, and a second claim finds them taken.
    const batch = await other.publishing.claimTargets([...held, ...given].map((ref) => ({ ref, now: lapsed })), 30_000)
    expect(batch.map((t) => [t?.postId, t?.platform, t?.attempts])).toEqual([...held, ...given].map((ref) => [ref.postId, ref.platform, 1]))
    expect(await other.publishing.claimTargets([{ ref: held[0]!, now: lapsed }], 30_000)).toEqual([undefined])
  })

  it('records each migration once, with its checksum', async () => {
    const sql = postgres(db.url, { max: 1, onnotice: () => undefined })
    try {
      const rows = await sql<{ version: number; checksum: string }[]>`SELECT version, checksum FROM schema_migrations ORDER BY version`
      expect(rows).toEqual(postgresMigrations.map((m) => ({ version: m.version, checksum: migrationChecksum(m) })))
    } finally {
      await sql.end()
    }
  })
})

describe('PostgreSQL schema and connection errors', () => {
  it('pins the text of every landed PostgreSQL migration', () => {
    // A landed migration is never edited: a new one is a new numbered file, and a new line here.
    expect(Object.fromEntries(postgresMigrations.map((m) => [m.version, migrationChecksum(m)]))).toEqual({
      1: 'b76a6a019fef8e97cff75dbf16bfec91baef34909226b400608cff9b38b6b13e', // users, keys, rate limits, idempotency, outbox, accounts, connections, feed items, cluster settings
      2: 'eea22619678b51bd4f37134a84b709c85bf2eae9035e30140e5f1f2e0275971d', // posts, targets, webhooks, deliveries, attempts, metrics
      3: '6b9b47f39ae0c328e591e3cd971131a862bbbfb991defc83302e71481f803c6a', // notify every node of key and user changes
      4: '30c17e5852139b8f6819d3cb04045d52091c192d79707639d37e60dcbd65d29a', // when an attempt of unknown outcome was first sent
      5: '4506ba9e20b7155cf7c290a93f61bb752bb68fea7a53a82d92a987eabe775e81', // OAuth apps, pending grants and refresh claims
      6: '7a0c7a1fb2d49496493a6e66e552015271c4bbbe76f99ad0721bd868285967f4', // drafts (nullable scheduled_at, status draft), queue slots
      7: '99705f687b47ce603eaaed2d74464f690cdb6024648983a151a9cb398613aeeb', // threads, first comments and per-platform versions
      8: '3947d5a85e3f4ae719dacee898a597a847dec921c75d626bbb54c51219e11c80', // recurring post series
      10: '5eb4fd691feb402c611ceaa92de604621bb82f375fe8f823ad160dcc8f384009', // indexes for the posts list by status and account, and for start-up and hourly upkeep
      11: '7cb5d389dc3730189aa341cd662d0f0c304ca3c89fbee31e420de714b8eff487', // a fencing token on each target, bumped by every claim
      12: '13c524d02ab50ec2c6b61889de0ba060265546cc1acd7824982a03eeaf2ae7b6', // media objects, the posts that use them, resumable uploads
      13: '69b79792a60215b7fcdbc61e14fdf3344db5a92d7df73adf1e137a0381a5165c', // workspaces and members; accounts, posts, series, webhooks and events per workspace
      14: 'f33ae9406491f6405dae0355f724d1b7937a4ab299f58bf205bd85675f54f795', // approval states of posts, comments, and the actor of every event
      15: '2f9239e224820391d6cb4a8dadc1aede6344354799f549d22efb37e6f0a432c4', // review links to posts, kept by the hash of their token
    })
  })

  it('refuses a database whose schema is newer than this smm, or whose landed migration changed', async () => {
    const db = await freshDatabase()
    const sql = postgres(db.url, { max: 1, onnotice: () => undefined })
    try {
      await (await openPostgresStore(db.url)).close()
      await sql`INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (99, 'from the future', 'x', 0)`
      await expect(openPostgresStore(db.url)).rejects.toThrow(/has schema version 99, but this smm knows versions up to \d+/)
      await sql`DELETE FROM schema_migrations WHERE version = 99`
      await sql`UPDATE schema_migrations SET checksum = 'edited' WHERE version = 1`
      await expect(openPostgresStore(db.url)).rejects.toThrow(/^Migration 0001 \(.*\) is not the one applied to postgres:\/\/postgres@127\.0\.0\.1:\d+\/smm_test_/)
    } finally {
      await sql.end()
      await db.drop()
    }
  })

  it('fails fast on a database it cannot use, naming the host and the cause, never the password', async () => {
    const admin = new URL(inject('postgresUrl'))
    const attempt = async (url: string) => {
      const started = Date.now()
      const error = await openPostgresStore(url).then(
        () => undefined,
        (e: Error) => e,
      )
      expect(error).toBeInstanceOf(DatabaseUnreachableError)
      expect(Date.now() - started).toBeLessThan(6_000)
      expect(error!.message).not.toContain('s3cret-pass')
      expect(error!.message).not.toContain(admin.password)
      return error!.message
    }
    const closed = new URL(admin)
    closed.port = '1'
    closed.password = 's3cret-pass'
    expect(await attempt(closed.toString())).toBe('Cannot use the database postgres://postgres@127.0.0.1:1/postgres: connection refused (is PostgreSQL running and listening there?)')
    const wrong = new URL(admin)
    wrong.password = 's3cret-pass'
    expect(await attempt(wrong.toString())).toMatch(/^Cannot use the database postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres: the server refused the user name or password$/)
    const missing = new URL(admin)
    missing.pathname = '/no_such_database'
    expect(await attempt(missing.toString())).toMatch(/: no such database \(create it first/)
    expect(await attempt('mysql://root:s3cret-pass@localhost/smm')).toMatch(/must start with postgres:\/\//)
    // A host that takes the connection and then says nothing: given up on after the URL's
    // connect_timeout, as libpq reads it (1 s here; 10 s when the URL has none).
    const relay = await cuttableRelay(admin.toString())
    relay.stall()
    try {
      const silent = new URL(relay.url)
      silent.password = 's3cret-pass'
      silent.searchParams.set('connect_timeout', '1')
      expect(await attempt(silent.toString())).toBe(
        `Cannot use the database postgres://postgres@127.0.0.1:${silent.port}/postgres: no answer within the connect timeout (connect_timeout in the URL, 10 s unless it says otherwise)`,
      )
    } finally {
      relay.flow()
      await relay.close()
    }
  })
})
