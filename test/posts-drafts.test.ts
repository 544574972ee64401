import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { freshDatabase } from './helpers/postgres.js'
import { eventsOf, feedAccount, liftLimits } from './helpers/posts.js'

const MIN = 60_000
const iso = (ms: number) => new Date(ms).toISOString()

// The same API over each store: a draft's life is rows and transactions on both.
const stores = [
  { name: 'SQLite', databaseUrl: async () => ({ url: undefined, drop: async () => undefined }) },
  { name: 'PostgreSQL', databaseUrl: async () => freshDatabase() },
]

describe.each(stores)('drafts on $name', ({ databaseUrl }) => {
  let t: TestDaemon
  let account: string
  let drop: () => Promise<void>
  const post = (body: Record<string, unknown>) => t.http.post('/v1/posts', body, { key: t.key })
  const get = async (id: string) => (await t.http.get(`/v1/posts/${id}`, { key: t.key })).body

  beforeAll(async () => {
    const db = await databaseUrl()
    drop = db.drop
    t = await startTestDaemon(db.url ? { databaseUrl: db.url } : {})
    await liftLimits(t)
    account = await feedAccount(t)
  })
  afterAll(async () => {
    await t.stop()
    await drop()
  })

  it('keeps a draft with no time: status draft, scheduled_at null, post.drafted and not post.scheduled', async () => {
    const res = await post({ account_id: account, content: 'An idea', platforms: ['feed'], draft: true })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ status: 'draft', scheduled_at: null, content: 'An idea', targets: [{ platform: 'feed', status: 'pending' }] })
    expect((await eventsOf(t, 'post.drafted')).map((e) => e.data.id)).toContain(res.body.id)
    expect((await eventsOf(t, 'post.scheduled')).map((e) => e.data.id)).not.toContain(res.body.id)
  })

  it('checks a draft as any post, except its time against the clock; queue is refused on a draft', async () => {
    const past = await post({ account_id: account, content: 'Planned long ago', platforms: ['feed'], draft: true, scheduled_at: iso(t.clock.now() - 60 * MIN) })
    expect(past.status).toBe(201)
    expect(past.body.scheduled_at).toBe(iso(t.clock.now() - 60 * MIN))

    const bad = await post({ account_id: account, content: '', platforms: ['feed', 'discord'], draft: true, queue: true })
    expect(bad.status).toBe(422)
    expect(bad.body.errors.map((e: any) => `${e.pointer} ${e.code}`).sort()).toEqual(['#/content required', '#/platforms/1 platform_not_connected', '#/queue conflict'])
  })

  it('never publishes a draft, even one whose time has passed', async () => {
    const draft = await post({ account_id: account, content: 'Not yet', platforms: ['feed'], draft: true, scheduled_at: iso(t.clock.now() + MIN) })
    t.clock.advance(2 * MIN)
    await t.daemon.scheduler.tick(t.clock.now())
    expect((await get(draft.body.id)).status).toBe('draft')
    expect((await t.daemon.store.feed.recent(account, 100)).map((i) => i.postId)).not.toContain(draft.body.id)
  })

  it('edits a draft with PUT (post.updated, its time still unjudged) and cancels it with DELETE', async () => {
    const draft = await post({ account_id: account, content: 'v1', platforms: ['feed'], draft: true })
    const edited = await t.http.put(`/v1/posts/${draft.body.id}`, { content: 'v2', scheduled_at: iso(t.clock.now() - 30 * MIN) }, { key: t.key })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ status: 'draft', content: 'v2', scheduled_at: iso(t.clock.now() - 30 * MIN) })
    expect((await eventsOf(t, 'post.updated')).map((e) => e.data.id)).toContain(draft.body.id)
    const cancelled = await t.http.delete(`/v1/posts/${draft.body.id}`, { key: t.key })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.status).toBe('cancelled')
    expect((await t.http.put(`/v1/posts/${draft.body.id}`, { content: 'v3' }, { key: t.key })).status).toBe(409)
  })

  it('schedules a draft: now with {}, at a time, refusing a time in the past, a post that is not a draft and a stale If-Match', async () => {
    const now = await post({ account_id: account, content: 'Go', platforms: ['feed'], draft: true })
    const scheduled = await t.http.post(`/v1/posts/${now.body.id}/schedule`, {}, { key: t.key })
    expect(scheduled.status).toBe(200)
    expect(scheduled.body).toMatchObject({ status: 'scheduled', scheduled_at: iso(t.clock.now()) })
    expect(scheduled.headers.etag).toMatch(/^"v\d+"$/)
    expect((await eventsOf(t, 'post.scheduled')).filter((e) => e.data.id === now.body.id)).toHaveLength(1)
    // The scheduler claims it at its next tick (PostgreSQL's store publishes a moment later).
    for (let i = 0; i < 50 && (await get(now.body.id)).status !== 'published'; i++) await t.daemon.scheduler.tick(t.clock.now())
    expect((await get(now.body.id)).status).toBe('published')

    const again = await t.http.post(`/v1/posts/${now.body.id}/schedule`, {}, { key: t.key })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ code: 'post_not_editable', post_status: 'published' })

    const later = await post({ account_id: account, content: 'Later', platforms: ['feed'], draft: true, scheduled_at: iso(t.clock.now() - 10 * MIN) })
    const past = await t.http.post(`/v1/posts/${later.body.id}/schedule`, { scheduled_at: later.body.scheduled_at }, { key: t.key })
    expect(past.status).toBe(422)
    expect(past.body.errors).toEqual([expect.objectContaining({ pointer: '#/scheduled_at', code: 'in_the_past' })])
    const both = await t.http.post(`/v1/posts/${later.body.id}/schedule`, { scheduled_at: iso(t.clock.now() + 60 * MIN), queue: true }, { key: t.key })
    expect(both.status).toBe(422)
    expect(both.body.errors).toEqual([expect.objectContaining({ pointer: '#/queue' })])

    const stale = await t.http.post(`/v1/posts/${later.body.id}/schedule`, { scheduled_at: iso(t.clock.now() + 60 * MIN) }, { key: t.key, headers: { 'If-Match': '"v999"' } })
    expect(stale.status).toBe(412)
    const ok = await t.http.post(`/v1/posts/${later.body.id}/schedule`, { scheduled_at: iso(t.clock.now() + 60 * MIN) }, { key: t.key, headers: { 'If-Match': later.headers.etag! } })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ status: 'scheduled', scheduled_at: iso(t.clock.now() + 60 * MIN) })
  })

  it('checks the connections again when it schedules: a platform disconnected since is a 422', async () => {
    const other = await feedAccount(t, 'Fickle')
    const draft = await post({ account_id: other, content: 'Hello', platforms: ['feed'], draft: true })
    expect((await t.http.delete(`/v1/accounts/${other}/connections/feed`, { key: t.key })).status).toBe(204)
    const res = await t.http.post(`/v1/posts/${draft.body.id}/schedule`, {}, { key: t.key })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '#/platforms/0', code: 'platform_not_connected' })])
    expect((await get(draft.body.id)).status).toBe('draft')
  })

  it('lists drafts by status; one without a time sorts at its created_at, and pages stay exact', async () => {
    const mine = await feedAccount(t, 'Lister')
    const base = t.clock.now()
    const ids: string[] = []
    // Timed posts and timeless drafts interleaved: created at base, base+2, …; timed ones at base+1, base+3, ….
    for (let i = 0; i < 6; i++) {
      t.clock.set(base + 2 * i * MIN)
      const draft = await post({ account_id: mine, content: `draft ${i}`, platforms: ['feed'], draft: true })
      const timed = await post({ account_id: mine, content: `timed ${i}`, platforms: ['feed'], scheduled_at: iso(base + (2 * i + 1) * MIN + 24 * 60 * MIN) })
      ids.push(draft.body.id, timed.body.id)
    }
    const drafts = ids.filter((_, i) => i % 2 === 0)
    const timed = ids.filter((_, i) => i % 2 === 1)
    const page = async (query: string) => {
      const seen: string[] = []
      let cursor: string | null = null
      do {
        const res: any = await t.http.get(`/v1/posts?account_id=${mine}&limit=2${query}${cursor ? `&cursor=${cursor}` : ''}`, { key: t.key })
        expect(res.status).toBe(200)
        seen.push(...res.body.data.map((p: any) => p.id))
        cursor = res.body.next_cursor
      } while (cursor)
      return seen
    }
    expect(await page('')).toEqual([...drafts, ...timed])
    expect(await page('&order=desc')).toEqual([...drafts, ...timed].reverse())
    expect(await page('&status=draft')).toEqual(drafts)
    expect(await page(`&from=${iso(base + 4 * MIN)}&to=${iso(base + 9 * MIN)}`)).toEqual(drafts.slice(2, 5))
  })

  it('validates and bulk-creates drafts through the one check path', async () => {
    const valid = await t.http.post('/v1/posts/validate', { account_id: account, content: 'Maybe', platforms: ['feed'], draft: true }, { key: t.key })
    expect(valid.status).toBe(200)
    expect(valid.body).toMatchObject({ valid: true, scheduled_at: null })
    const bulk = await t.http.post('/v1/posts/bulk', { posts: [
      { account_id: account, content: 'one', platforms: ['feed'], draft: true },
      { account_id: account, content: 'two', platforms: ['feed'] },
    ] }, { key: t.key })
    expect(bulk.status).toBe(201)
    expect(bulk.body.data.map((p: any) => p.status)).toEqual(['draft', 'scheduled'])
  })

  it('leaves drafts out of analytics until they are scheduled', async () => {
    const mine = await feedAccount(t, 'Counted')
    const at = t.clock.now() + 2 * 24 * 60 * MIN
    const draft = await post({ account_id: mine, content: 'Soon', platforms: ['feed'], draft: true, scheduled_at: iso(at) })
    const report = async () =>
      (await t.http.get(`/v1/analytics?account_id=${mine}&from=${iso(at - 24 * 60 * MIN)}&to=${iso(at + 24 * 60 * MIN)}`, { key: t.key })).body.totals.posts_scheduled
    expect(await report()).toBe(0)
    expect((await t.http.post(`/v1/posts/${draft.body.id}/schedule`, { scheduled_at: iso(at) }, { key: t.key })).status).toBe(200)
    expect(await report()).toBe(1)
  })

  it('counts drafts as work an account delete must not drop silently', async () => {
    const mine = await feedAccount(t, 'Doomed')
    const draft = await post({ account_id: mine, content: 'Unsaid', platforms: ['feed'], draft: true })
    const refused = await t.http.delete(`/v1/accounts/${mine}`, { key: t.key })
    expect(refused.status).toBe(409)
    expect(refused.body.detail).toContain('has 1 scheduled post or draft')
    const deleted = await t.http.delete(`/v1/accounts/${mine}?cancel_posts=true`, { key: t.key })
    expect(deleted.status).toBe(204)
    expect((await eventsOf(t, 'post.cancelled')).find((e) => e.data.id === draft.body.id)?.data).toMatchObject({ status: 'cancelled', scheduled_at: null })
  })
})
