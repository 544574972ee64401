import { personalWorkspaceId } from '../src/ids.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgresStore } from '../daemon/store/postgres/index.js'
import { openSqliteStore } from '../daemon/store/sqlite/index.js'
import type { Store } from '../daemon/store/index.js'
import { freeSlots, slotOccurrences, type Slot } from '../src/queue-slots.js'
import { ManualClock } from '../src/time.js'
import { sql, startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { freshDatabase } from './helpers/postgres.js'
import { eventsOf, feedAccount, liftLimits } from './helpers/posts.js'

const NY = 'America/New_York'
const iso = (ms: number) => new Date(ms).toISOString()
const take = (slots: Slot[], zone: string, after: string, n: number) => {
  const out: string[] = []
  for (const at of slotOccurrences(slots, zone, Date.parse(after))) {
    out.push(iso(at))
    if (out.length === n) break
  }
  return out
}

describe('weekly slots across daylight saving time (America/New_York, 2027)', () => {
  it('keeps wall-clock times: 09:00 is 14:00Z in winter and 13:00Z in summer', () => {
    expect(take([{ day: 'saturday', time: '09:00' }, { day: 'sunday', time: '09:00' }], NY, '2027-03-13T00:00:00Z', 2)).toEqual([
      '2027-03-13T14:00:00.000Z',
      '2027-03-14T13:00:00.000Z',
    ])
  })

  it('takes a time the spring jump skips at the first instant after the gap, once', () => {
    // 2027-03-14: 02:00 EST jumps to 03:00 EDT (07:00Z). 02:00, 02:30 and 03:00 all land there.
    const slots: Slot[] = [{ day: 'sunday', time: '02:00' }, { day: 'sunday', time: '02:30' }, { day: 'sunday', time: '03:00' }, { day: 'sunday', time: '03:30' }]
    expect(take(slots, NY, '2027-03-13T12:00:00Z', 3)).toEqual(['2027-03-14T07:00:00.000Z', '2027-03-14T07:30:00.000Z', '2027-03-21T06:00:00.000Z'])
  })

  it('takes a time the autumn change repeats at its first occurrence', () => {
    // 2027-11-07: 02:00 EDT falls back to 01:00 EST; 01:30 happens at 05:30Z and again at 06:30Z.
    expect(take([{ day: 'sunday', time: '01:30' }, { day: 'sunday', time: '09:00' }], NY, '2027-11-06T12:00:00Z', 3)).toEqual([
      '2027-11-07T05:30:00.000Z',
      '2027-11-07T14:00:00.000Z',
      '2027-11-14T06:30:00.000Z',
    ])
  })

  it('skips taken slots and stops at the horizon', () => {
    const slots: Slot[] = [{ day: 'monday', time: '09:00' }]
    const now = Date.parse('2027-01-01T00:00:00Z')
    const all = freeSlots(slots, 'UTC', now, new Set(), 100)
    expect(all).toHaveLength(52) // Mondays within 366 days of a Friday
    expect(freeSlots(slots, 'UTC', now, new Set([all[0]!, all[2]!]), 2)).toEqual([all[1], all[3]])
    expect(freeSlots(slots, 'UTC', now, new Set(all), 1)).toEqual([])
  })
})

const stores = [
  { name: 'SQLite', database: async () => ({ url: undefined as string | undefined, drop: async () => undefined }) },
  { name: 'PostgreSQL', database: async () => freshDatabase() },
]

describe.each(stores)('queue slots over the API on $name', ({ name, database }) => {
  let t: TestDaemon
  let account: string
  let drop: () => Promise<void>
  const clock = new ManualClock()
  const put = (slots: unknown, id = account) => t.http.put(`/v1/accounts/${id}/queue`, { slots }, { key: t.key })
  const queued = (body: Record<string, unknown> = {}, id = account) =>
    t.http.post('/v1/posts', { account_id: id, content: 'Queued', platforms: ['feed'], queue: true, ...body }, { key: t.key })

  beforeAll(async () => {
    const db = await database()
    drop = db.drop
    t = await startTestDaemon({ clock, ...(db.url ? { databaseUrl: db.url } : {}) })
    // Friday 2027-03-12 12:00 in New York (EST), a week that holds the spring change; set once
    // the daemon has made its certificate, which must be valid today.
    clock.set(Date.parse('2027-03-12T17:00:00Z'))
    await liftLimits(t)
    expect((await t.http.patch('/v1/me', { timezone: NY }, { key: t.key })).status).toBe(200)
    account = await feedAccount(t)
  })
  afterAll(async () => {
    await t.stop()
    await drop()
  })

  it('refuses bad slots with a pointer at each', async () => {
    const res = await put([{ day: 'mon', time: '09:00' }, { day: 'tuesday', time: '9:00' }, { day: 'friday', time: '24:00' }, { day: 'friday', time: '10:00', extra: 1 }])
    expect(res.status).toBe(422)
    expect(res.body.errors.map((e: any) => e.pointer).sort()).toEqual(['#/slots/0/day', '#/slots/1/time', '#/slots/2/time', '#/slots/3/extra'])
    const twice = await put([{ day: 'monday', time: '09:00' }, { day: 'monday', time: '09:00' }])
    expect(twice.status).toBe(422)
    expect(twice.body.errors).toEqual([expect.objectContaining({ pointer: '#/slots', detail: 'must not hold the same day and time twice' })])
    const many = await put(Array.from({ length: 101 }, (_, i) => ({ day: 'monday', time: `${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}` })))
    expect(many.status).toBe(422)
    expect((await t.http.put('/v1/accounts/acc_nope/queue', { slots: [] }, { key: t.key })).status).toBe(404)
  })

  it('refuses a queued post while the account has no slots, saying how to add them', async () => {
    const res = await queued()
    expect(res.status).toBe(422)
    expect(res.body.code).toBe('queue_empty')
    expect(res.body.errors).toEqual([{ pointer: '#/queue', code: 'queue_empty', detail: `account ${account} has no queue slots; add some with PUT /v1/accounts/${account}/queue` }])
    const both = await queued({ scheduled_at: iso(clock.now() + 3_600_000) })
    expect(both.status).toBe(422)
    expect(both.body.errors).toEqual([expect.objectContaining({ pointer: '#/queue', code: 'conflict' })])
  })

  it('stores the slots sorted and shows the next free times in the user’s zone, DST included', async () => {
    const res = await put([{ day: 'sunday', time: '09:00' }, { day: 'sunday', time: '02:30' }, { day: 'saturday', time: '09:00' }])
    expect(res.status).toBe(200)
    expect(res.body.timezone).toBe(NY)
    expect(res.body.slots).toEqual([{ day: 'saturday', time: '09:00' }, { day: 'sunday', time: '02:30' }, { day: 'sunday', time: '09:00' }])
    expect(res.body.next.slice(0, 4)).toEqual(['2027-03-13T14:00:00.000Z', '2027-03-14T07:00:00.000Z', '2027-03-14T13:00:00.000Z', '2027-03-20T13:00:00.000Z'])
    expect(res.body.next).toHaveLength(10)
    expect((await t.http.get(`/v1/accounts/${account}/queue`, { key: t.key })).body).toEqual(res.body)
  })

  it('gives each queued post the next free slot: posts already on a slot keep it taken, a cancelled one frees it', async () => {
    const manual = await t.http.post('/v1/posts', { account_id: account, content: 'By hand', platforms: ['feed'], scheduled_at: '2027-03-13T14:00:00Z' }, { key: t.key })
    expect(manual.status).toBe(201)
    const first = await queued()
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({ status: 'scheduled', scheduled_at: '2027-03-14T07:00:00.000Z' })
    const valid = await t.http.post('/v1/posts/validate', { account_id: account, content: 'Queued', platforms: ['feed'], queue: true }, { key: t.key })
    expect(valid.body.scheduled_at).toBe('2027-03-14T13:00:00.000Z')
    // A bulk fills consecutive free slots in order.
    const bulk = await t.http.post('/v1/posts/bulk', { posts: [0, 1].map(() => ({ account_id: account, content: 'Bulk', platforms: ['feed'], queue: true })) }, { key: t.key })
    expect(bulk.status).toBe(201)
    expect(bulk.body.data.map((p: any) => p.scheduled_at)).toEqual(['2027-03-14T13:00:00.000Z', '2027-03-20T13:00:00.000Z'])
    expect((await t.http.delete(`/v1/posts/${manual.body.id}`, { key: t.key })).status).toBe(200)
    expect((await t.http.get(`/v1/accounts/${account}/queue`, { key: t.key })).body.next[0]).toBe('2027-03-13T14:00:00.000Z')
    expect((await queued()).body.scheduled_at).toBe('2027-03-13T14:00:00.000Z')
  })

  it('schedules a draft into the queue', async () => {
    const draft = await t.http.post('/v1/posts', { account_id: account, content: 'Draft', platforms: ['feed'], draft: true }, { key: t.key })
    const next = (await t.http.get(`/v1/accounts/${account}/queue`, { key: t.key })).body.next[0]
    const res = await t.http.post(`/v1/posts/${draft.body.id}/schedule`, { queue: true }, { key: t.key })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'scheduled', scheduled_at: next })
  })

  it('is full when no slot is free within 366 days: a bulk creates none, pointing at the post that found none', async () => {
    const other = await feedAccount(t, 'Weekly')
    expect((await put([{ day: 'monday', time: '09:00' }], other)).status).toBe(200)
    const posts = Array.from({ length: 60 }, () => ({ account_id: other, content: 'Weekly', platforms: ['feed'], queue: true }))
    // A dry run answers what the request would: the same refusal, at the same post.
    const events = (await eventsOf(t, 'post.scheduled')).length
    for (const dry_run of [true, false]) {
      const res = await t.http.post('/v1/posts/bulk', { posts, dry_run }, { key: t.key })
      expect(res.status, `dry_run: ${dry_run}`).toBe(422)
      expect(res.body.code).toBe('queue_full')
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '#/posts/52/queue', code: 'queue_full' })])
    }
    const fits = await t.http.post('/v1/posts/bulk', { posts: posts.slice(0, 52), dry_run: true }, { key: t.key })
    expect(fits.body).toEqual({ valid: true, count: 52 })
    expect((await t.http.get(`/v1/posts?account_id=${other}`, { key: t.key })).body.data).toEqual([])
    expect((await eventsOf(t, 'post.scheduled')).length).toBe(events)
  })

  it('empties the queue with [] and forgets the slots with the account', async () => {
    const other = await feedAccount(t, 'Gone')
    expect((await put([{ day: 'monday', time: '09:00' }], other)).status).toBe(200)
    expect((await put([], other)).body).toMatchObject({ slots: [], next: [] })
    expect((await put([{ day: 'tuesday', time: '10:00' }], other)).status).toBe(200)
    expect((await t.http.delete(`/v1/accounts/${other}`, { key: t.key })).status).toBe(204)
    expect((await t.http.get(`/v1/accounts/${other}/queue`, { key: t.key })).status).toBe(404)
    if (name === 'SQLite') expect(sql(t).prepare('SELECT count(*) AS n FROM queue_slots WHERE account_id = ?').get(other)).toEqual({ n: 0 })
  })
})

describe.each(stores)('queued creates racing on $name', ({ name, database }) => {
  let nodes: Store[] = []
  let done: () => Promise<void>
  beforeAll(async () => {
    if (name === 'SQLite') {
      const dir = mkdtempSync(join(tmpdir(), 'smm-queue-'))
      nodes = [openSqliteStore(join(dir, 'smm.db')), openSqliteStore(join(dir, 'smm.db'))]
      done = async () => rmSync(dir, { recursive: true, force: true })
    } else {
      const db = await database()
      nodes = [await openPostgresStore(db.url!, { max: 8 }), await openPostgresStore(db.url!, { max: 8 })]
      done = db.drop
    }
  })
  afterAll(async () => {
    for (const s of nodes) await s.close()
    await done()
  })

  it('never gives two concurrent queued creates (from two nodes) the same slot', async () => {
    const now = Date.parse('2027-03-12T17:00:00Z')
    const [a, b] = nodes as [Store, Store]
    const user = await a.users.create({ name: 'racer', timezone: NY }, now)
    const account = await a.accounts.create(personalWorkspaceId(user.id), user.id, 'Racer', now)
    const slots: Slot[] = [{ day: 'monday', time: '09:00' }, { day: 'wednesday', time: '09:00' }, { day: 'friday', time: '09:00' }]
    await a.queues.set([personalWorkspaceId(user.id)], account.id, slots)
    const input = { workspaceId: personalWorkspaceId(user.id), accountId: account.id, content: 'race', mediaUrls: [], platforms: ['feed' as const], scheduledAt: null, queue: true }
    const created = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).posts.create({ userId: user.id, keyId: null }, input, now)))
    const times = created.map((r) => Date.parse(r.post.scheduled_at!)).sort((x, y) => x - y)
    expect(new Set(times).size).toBe(24)
    expect(times).toEqual(freeSlots(slots, NY, now, new Set(), 24))
  })
})
