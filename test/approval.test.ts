import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { liftLimits, person } from './helpers/posts.js'
import { startReceiver } from './helpers/webhook-receiver.js'
import { png } from './helpers/media-files.js'
import { commentOnPost, decidePost } from '../daemon/routes/approval.js'

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon({ allowPrivateNetwork: true })
  await liftLimits(t)
})
afterAll(() => t.stop())

const later = (hours: number) => new Date(t.clock.now() + hours * 3_600_000).toISOString()
const as = (key: string) => ({
  get: (path: string) => t.http.get(path, { key }),
  post: (path: string, json: unknown = {}) => t.http.post(path, json, { key }),
  put: (path: string, json: unknown) => t.http.put(path, json, { key }),
  patch: (path: string, json: unknown) => t.http.patch(path, json, { key }),
  delete: (path: string) => t.http.delete(path, { key }),
})
const owner = () => as(t.key)
type Client = ReturnType<typeof as>

/** A workspace requiring approval, with a feed account, and an admin, an editor and a viewer in it. */
async function agency(settings: Record<string, unknown> = { approval_required: true }) {
  const workspace = (await owner().post('/v1/workspaces', { name: 'Agency', ...settings })).body
  const account = (await owner().post('/v1/accounts', { name: 'Client brand', workspace_id: workspace.id })).body.id as string
  expect((await owner().post(`/v1/accounts/${account}/connections`, { platform: 'feed' })).status).toBe(201)
  const people: Record<'admin' | 'editor' | 'viewer', Client & { userId: string; keyId: string; key: string }> = {} as never
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    const member = await person(t, role[0]!.toUpperCase() + role.slice(1))
    expect((await owner().post(`/v1/workspaces/${workspace.id}/members`, { user_id: member.userId, role })).status).toBe(201)
    const keys = await as(member.key).get('/v1/api-keys')
    people[role] = { ...as(member.key), userId: member.userId, keyId: keys.body.data[0].id, key: member.key }
  }
  return { workspace, account, ...people }
}

const publishDue = async () => t.daemon.scheduler.tick(t.clock.now())
const statusOf = async (id: string) => (await owner().get(`/v1/posts/${id}`)).body.status

describe('approval', () => {
  it('keeps an editor’s post waiting, never published whatever its time, until an admin approves it: then it goes out at once', async () => {
    const team = await agency()
    const created = await team.editor.post('/v1/posts', { account_id: team.account, content: 'Launch day', platforms: ['feed'], scheduled_at: later(1) })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ status: 'pending_approval', scheduled_at: later(1), workspace_id: team.workspace.id })
    // Waiting, it counts nowhere in analytics.
    const report = async () =>
      (await owner().get(`/v1/analytics?workspace_id=${team.workspace.id}&from=${encodeURIComponent(later(-1))}&to=${encodeURIComponent(later(3))}`)).body.totals.posts_scheduled
    expect(await report()).toBe(0)
    t.clock.advance(2 * 3_600_000)
    await publishDue()
    expect(await statusOf(created.body.id)).toBe('pending_approval')

    const approved = await team.admin.post(`/v1/posts/${created.body.id}/approve`, { comment: 'Ship it' })
    expect(approved.status).toBe(200)
    expect(approved.headers.etag).toBe(`"v${2}"`)
    // Its time has passed: due now, and published on the next tick, not failed as missed.
    expect(approved.body).toMatchObject({ status: 'scheduled', scheduled_at: new Date(t.clock.now()).toISOString() })
    await publishDue()
    expect(await statusOf(created.body.id)).toBe('published')
    expect(await report()).toBe(1)

    const comments = await team.viewer.get(`/v1/posts/${created.body.id}/comments`)
    expect(comments.body.data).toEqual([
      {
        id: expect.stringMatching(/^cmt_/),
        post_id: created.body.id,
        author: { type: 'user', user_id: team.admin.userId, name: 'Admin', key_id: team.admin.keyId },
        body: 'Ship it',
        decision: 'approved',
        created_at: new Date(t.clock.now()).toISOString(),
      },
    ])
  })

  it('lets only admins and owners decide, only on a post waiting, and a rejection only with a comment', async () => {
    const team = await agency()
    const post = (await team.editor.post('/v1/posts', { account_id: team.account, content: 'Draft copy', platforms: ['feed'], scheduled_at: later(3) })).body
    for (const who of [team.editor, team.viewer]) {
      const refused = await who.post(`/v1/posts/${post.id}/approve`)
      expect([refused.status, refused.body.code, refused.body.required_role]).toEqual([403, 'forbidden', 'admin'])
      expect((await who.post(`/v1/posts/${post.id}/reject`, { comment: 'no' })).status).toBe(403)
    }
    const outsider = as((await person(t, 'Outsider')).key)
    expect((await outsider.post(`/v1/posts/${post.id}/approve`)).status).toBe(404)
    expect((await owner().post('/v1/posts/pst_00000000000000000000000000/approve')).status).toBe(404)
    const noComment = await team.admin.post(`/v1/posts/${post.id}/reject`, {})
    expect([noComment.status, noComment.body.errors[0].pointer]).toEqual([422, '#/comment'])
    const blank = await team.admin.post(`/v1/posts/${post.id}/reject`, { comment: '   ' })
    expect([blank.status, blank.body.errors[0].detail]).toEqual([422, 'must not be empty'])
    expect(await statusOf(post.id)).toBe('pending_approval')

    // The owner decides too; deciding again is 409, naming the status.
    expect((await owner().post(`/v1/posts/${post.id}/approve`)).body.status).toBe('scheduled')
    const again = await team.admin.post(`/v1/posts/${post.id}/reject`, { comment: 'too late' })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ code: 'post_not_pending', post_status: 'scheduled' })
    expect(again.body.detail).toContain('is scheduled, not waiting for approval')
    expect((await owner().get(`/v1/posts/${post.id}/comments`)).body.data).toEqual([])
  })

  it('sends a rejected post back with its comment; an edit makes it wait again, an admin’s post needs none', async () => {
    const team = await agency()
    const post = (await team.editor.post('/v1/posts', { account_id: team.account, content: 'v1', platforms: ['feed'], scheduled_at: later(5) })).body
    const rejected = await team.admin.post(`/v1/posts/${post.id}/reject`, { comment: 'Mention the <b>sale</b>' })
    expect(rejected.body.status).toBe('rejected')
    t.clock.advance(6 * 3_600_000)
    await publishDue()
    expect(await statusOf(post.id)).toBe('rejected')
    const edited = await team.editor.put(`/v1/posts/${post.id}`, { content: 'v2 with the sale', scheduled_at: later(1) })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ status: 'pending_approval', content: 'v2 with the sale' })
    // An editor's edit of an approved post sends it back to wait; cancelling needs no approval.
    expect((await team.admin.post(`/v1/posts/${post.id}/approve`)).body.status).toBe('scheduled')
    expect((await team.editor.put(`/v1/posts/${post.id}`, { content: 'v3' })).body.status).toBe('pending_approval')
    expect((await team.editor.delete(`/v1/posts/${post.id}`)).body.status).toBe('cancelled')
    // Viewers neither write nor edit.
    expect((await team.viewer.post('/v1/posts', { account_id: team.account, content: 'x', platforms: ['feed'] })).status).toBe(403)

    // Admins' and owners' posts are scheduled straight away; so are editors' where approval is not required.
    expect((await team.admin.post('/v1/posts', { account_id: team.account, content: 'admin', platforms: ['feed'], scheduled_at: later(1) })).body.status).toBe('scheduled')
    expect((await owner().post('/v1/posts', { account_id: team.account, content: 'owner', platforms: ['feed'], scheduled_at: later(1) })).body.status).toBe('scheduled')
    expect((await owner().patch(`/v1/workspaces/${team.workspace.id}`, { approval_required: false })).status).toBe(200)
    expect((await team.editor.post('/v1/posts', { account_id: team.account, content: 'free', platforms: ['feed'], scheduled_at: later(1) })).body.status).toBe('scheduled')

    const history = (await team.editor.get(`/v1/posts/${post.id}/comments`)).body.data
    expect(history.map((c: { body: string; decision: string }) => [c.body, c.decision])).toEqual([['Mention the <b>sale</b>', 'rejected']])
  })

  it('takes drafts, queue slots, series, threads, media and bulk through approval', async () => {
    const team = await agency()
    const ed = team.editor
    // A draft stays a draft; scheduled by an editor, it waits.
    const draft = (await ed.post('/v1/posts', { account_id: team.account, content: 'draft', platforms: ['feed'], draft: true })).body
    expect(draft.status).toBe('draft')
    const scheduled = await ed.post(`/v1/posts/${draft.id}/schedule`, { scheduled_at: later(2) })
    expect(scheduled.body).toMatchObject({ status: 'pending_approval', scheduled_at: later(2) })

    // A queued post waits in its slot, and the slot is taken while it waits.
    expect((await owner().put(`/v1/accounts/${team.account}/queue`, { slots: [{ day: 'monday', time: '09:00' }, { day: 'thursday', time: '09:00' }] })).status).toBe(200)
    const first = (await ed.post('/v1/posts', { account_id: team.account, content: 'q1', platforms: ['feed'], queue: true })).body
    const second = (await ed.post('/v1/posts', { account_id: team.account, content: 'q2', platforms: ['feed'], queue: true })).body
    expect([first.status, second.status]).toEqual(['pending_approval', 'pending_approval'])
    expect(first.scheduled_at).not.toBe(second.scheduled_at)

    // A thread keeps its parts through approval.
    const thread = (await ed.post('/v1/posts', { account_id: team.account, content: '1/2', thread: [{ content: '2/2' }], platforms: ['feed'], scheduled_at: later(1) })).body
    expect(thread.status).toBe('pending_approval')
    expect((await team.admin.post(`/v1/posts/${thread.id}/approve`)).body).toMatchObject({ status: 'scheduled', thread: [{ content: '2/2' }] })

    // Media stay with a post while it waits and once it is rejected (they cannot be deleted), and go out with it approved.
    const upload = await t.http.request('POST', '/v1/media?alt_text=A%20cat', { key: ed.key, raw: png(40, 40), headers: { 'content-type': 'image/png' } })
    expect(upload.status).toBe(201)
    const pictured = (await ed.post('/v1/posts', { account_id: team.account, content: 'With a cat', media: [{ id: upload.body.id }], platforms: ['feed'], scheduled_at: later(1) })).body
    expect(pictured).toMatchObject({ status: 'pending_approval', media: [expect.objectContaining({ id: upload.body.id, alt_text: 'A cat' })] })
    const inUse = async () => (await ed.delete(`/v1/media/${upload.body.id}`)).body
    expect(await inUse()).toMatchObject({ code: 'media_in_use', post_ids: [pictured.id] })
    await team.admin.post(`/v1/posts/${pictured.id}/reject`, { comment: 'A dog instead' })
    expect(await inUse()).toMatchObject({ code: 'media_in_use', post_ids: [pictured.id] })
    await ed.put(`/v1/posts/${pictured.id}`, { content: 'With a cat, really' })
    expect((await team.admin.post(`/v1/posts/${pictured.id}/approve`)).body).toMatchObject({ status: 'scheduled', media: [expect.objectContaining({ id: upload.body.id })] })

    // Bulk: every post waits.
    const bulk = await ed.post('/v1/posts/bulk', { posts: [1, 2].map((n) => ({ account_id: team.account, content: `bulk ${n}`, platforms: ['feed'], scheduled_at: later(n) })) })
    expect(bulk.status).toBe(201)
    expect(bulk.body.data.map((p: { status: string }) => p.status)).toEqual(['pending_approval', 'pending_approval'])

    // A series: its occurrences wait until one of them is approved.
    const series = (await ed.post('/v1/posts', { account_id: team.account, content: 'weekly', platforms: ['feed'], scheduled_at: later(1), repeat: { interval: 'P1D', count: 3 } })).body
    expect(series.status).toBe('pending_approval')
    await ed.delete(`/v1/posts/${series.id}`)
    const occurrences = async () => (await owner().get(`/v1/posts?series_id=${series.series_id}&order=asc`)).body.data as { id: string; status: string }[]
    const [, next] = await occurrences()
    expect(next!.status).toBe('pending_approval')
    await team.admin.post(`/v1/posts/${next!.id}/approve`)
    t.clock.advance(30 * 3_600_000)
    await publishDue()
    expect((await occurrences()).map((p) => p.status)).toEqual(['cancelled', 'published', 'scheduled'])
  })

  it('sends approval_requested, approved and rejected to the workspace’s webhooks, with who decided', async () => {
    const hooks = await startReceiver()
    const d = await startTestDaemon({ allowPrivateNetwork: true, egress: { ca: [hooks.ca] }, backgroundWorkers: false })
    try {
      await liftLimits(d)
      const boss = (path: string, json: unknown = {}) => d.http.post(path, json, { key: d.key })
      const workspace = (await boss('/v1/workspaces', { name: 'Hooked', approval_required: true })).body.id
      const account = (await boss('/v1/accounts', { name: 'Team', workspace_id: workspace })).body.id
      await boss(`/v1/accounts/${account}/connections`, { platform: 'feed' })
      const editor = await person(d, 'Writer')
      await boss(`/v1/workspaces/${workspace}/members`, { user_id: editor.userId, role: 'editor' })
      expect((await boss('/v1/webhooks', { url: hooks.url, events: ['post.approval_requested', 'post.approved', 'post.rejected'], workspace_id: workspace })).status).toBe(201)
      const write = (content: string) => d.http.post('/v1/posts', { account_id: account, content, platforms: ['feed'], scheduled_at: new Date(d.clock.now() + 3_600_000).toISOString() }, { key: editor.key })
      const yes = (await write('yes')).body.id
      const no = (await write('no')).body.id
      await boss(`/v1/posts/${yes}/approve`)
      await boss(`/v1/posts/${no}/reject`, { comment: 'Not on brand' })
      await d.daemon.workers.find((w) => w.name === 'webhook-delivery')!.tick!(d.clock.now())
      const got = hooks.received.map((r) => JSON.parse(r.body) as { type: string; data: { id: string; status: string; comment?: string | null } })
      expect(got.map((e) => [e.type, e.data.id, e.data.status])).toEqual([
        ['post.approval_requested', yes, 'pending_approval'],
        ['post.approval_requested', no, 'pending_approval'],
        ['post.approved', yes, 'scheduled'],
        ['post.rejected', no, 'rejected'],
      ])
      expect(got[3]!.data.comment).toBe('Not on brand')
    } finally {
      await d.stop()
      await hooks.close()
    }
  })
})

describe('a decision through a review link', () => {
  it('is made by the same functions as a member’s, and shown as the review link’s, with the reviewer’s name', async () => {
    const team = await agency()
    const post = (await team.editor.post('/v1/posts', { account_id: team.account, content: 'For the client', platforms: ['feed'], scheduled_at: later(1) })).body
    const deps = { store: t.daemon.store, clock: t.clock, scheduler: t.daemon.scheduler }
    const reviewer = { reviewLinkId: 'rvl_01J00000000000000000000000', name: 'Client <Carla>' }
    const scope = [team.workspace.id]
    await commentOnPost(deps, scope, post.id, 'One question first', reviewer)
    const decided = await decidePost(deps, scope, post.id, { approve: true, comment: 'Lovely' }, reviewer)
    expect(decided.post.status).toBe('scheduled')
    // Once only: the second decision is the 409 a member gets.
    await expect(decidePost(deps, scope, post.id, { approve: false, comment: 'No' }, reviewer)).rejects.toMatchObject({ status: 409, code: 'post_not_pending' })
    await expect(decidePost(deps, ['wsp_00000000000000000000000000'], post.id, { approve: true }, reviewer)).rejects.toMatchObject({ status: 404 })

    const author = { type: 'review_link', review_link_id: reviewer.reviewLinkId, name: 'Client <Carla>' }
    const comments = (await team.viewer.get(`/v1/posts/${post.id}/comments`)).body.data
    expect(comments.map((c: { author: unknown; body: string; decision: string | null }) => [c.author, c.body, c.decision])).toEqual([
      [author, 'One question first', null],
      [author, 'Lovely', 'approved'],
    ])
    const log = (await owner().get(`/v1/workspaces/${team.workspace.id}/audit-log?kind=post.approved,post.commented`)).body.data
    expect(log.map((e: { kind: string; actor: unknown }) => [e.kind, e.actor])).toEqual([
      ['post.approved', author],
      ['post.commented', author],
    ])
  })
})

describe('comments', () => {
  it('lets every member comment, viewers too, and lists the comments oldest first, page by page; anyone else gets 404', async () => {
    const team = await agency({})
    const post = (await owner().post('/v1/posts', { account_id: team.account, content: 'Thoughts?', platforms: ['feed'], scheduled_at: later(2) })).body
    const path = `/v1/posts/${post.id}/comments`
    const added = await team.viewer.post(path, { body: '  Looks <i>great</i>  ' })
    expect(added.status).toBe(201)
    expect(added.body).toEqual({
      id: expect.stringMatching(/^cmt_/),
      post_id: post.id,
      author: { type: 'user', user_id: team.viewer.userId, name: 'Viewer', key_id: team.viewer.keyId },
      body: 'Looks <i>great</i>',
      decision: null,
      created_at: new Date(t.clock.now()).toISOString(),
    })
    await team.editor.post(path, { body: 'Agreed' })
    await owner().post(path, { body: 'Thanks both' })
    const page = await team.admin.get(`${path}?limit=2`)
    const rest = await team.admin.get(`${path}?limit=2&cursor=${page.body.next_cursor}`)
    expect([...page.body.data, ...rest.body.data].map((c: { body: string }) => c.body)).toEqual(['Looks <i>great</i>', 'Agreed', 'Thanks both'])
    expect(rest.body.has_more).toBe(false)

    const empty = await team.editor.post(path, { body: '' })
    expect([empty.status, empty.body.errors[0].pointer]).toEqual([422, '#/body'])
    expect((await team.editor.post(path, { body: 'x'.repeat(10_001) })).status).toBe(422)
    const outsider = as((await person(t, 'Nosy')).key)
    expect((await outsider.get(path)).status).toBe(404)
    expect((await outsider.post(path, { body: 'hi' })).status).toBe(404)
    expect((await owner().get(path)).body.data).toHaveLength(3)
    const events = (await t.daemon.store.events.listAfter('', 1_000_000)).filter((e) => e.type === 'post.commented' && (e.data as { post_id: string }).post_id === post.id)
    expect(events.map((e) => (e.data as { body: string }).body)).toEqual(['Looks <i>great</i>', 'Agreed', 'Thanks both'])
  })
})

describe('the audit log', () => {
  it('shows owners and admins who did what to which object, newest first, by kind and time; others get 403, outsiders 404', async () => {
    const team = await agency()
    const started = t.clock.now()
    t.clock.advance(1_000)
    const post = (await team.editor.post('/v1/posts', { account_id: team.account, content: 'Audited', platforms: ['feed'], scheduled_at: later(4) })).body
    t.clock.advance(1_000)
    await team.admin.post(`/v1/posts/${post.id}/reject`, { comment: 'Shorter' })
    await owner().patch(`/v1/workspaces/${team.workspace.id}/members/${team.viewer.userId}`, { role: 'editor' })
    const key = (await team.editor.post('/v1/api-keys', { name: 'ci', scopes: ['posts:read'] })).body

    const log = await team.admin.get(`/v1/workspaces/${team.workspace.id}/audit-log?limit=4`)
    expect(log.status).toBe(200)
    expect(log.body.data.map((e: { kind: string }) => e.kind)).toEqual(['key.created', 'workspace.member_updated', 'post.rejected', 'post.approval_requested'])
    const [created, promoted, rejected, requested] = log.body.data
    expect(created).toMatchObject({ actor: { type: 'user', user_id: team.editor.userId, name: 'Editor', key_id: team.editor.keyId }, object: { type: 'key', id: key.id } })
    expect(promoted).toMatchObject({ object: { type: 'member', id: team.viewer.userId }, summary: `Viewer (${team.viewer.userId}) made editor, was viewer` })
    expect(rejected).toMatchObject({ actor: { type: 'user', name: 'Admin' }, object: { type: 'post', id: post.id }, summary: `Post ${post.id} sent back: Shorter` })
    expect(requested).toEqual({
      id: expect.stringMatching(/^msg_/),
      kind: 'post.approval_requested',
      actor: { type: 'user', user_id: team.editor.userId, name: 'Editor', key_id: team.editor.keyId },
      object: { type: 'post', id: post.id },
      summary: `Post ${post.id} waits for approval, for ${post.scheduled_at}`,
      created_at: new Date(started + 1_000).toISOString(),
    })
    // The rest of it: the workspace's making, its account, its members.
    const rest = await owner().get(`/v1/workspaces/${team.workspace.id}/audit-log?cursor=${log.body.next_cursor}&limit=100`)
    expect(rest.body.data.map((e: { kind: string }) => e.kind)).toEqual([
      'workspace.member_added', 'workspace.member_added', 'workspace.member_added', 'account.connected',
    ])

    const base = `/v1/workspaces/${team.workspace.id}/audit-log`
    expect((await owner().get(`${base}?kind=post.*`)).body.data.map((e: { kind: string }) => e.kind)).toEqual(['post.rejected', 'post.approval_requested'])
    expect((await owner().get(`${base}?kind=key.created,post.rejected`)).body.data.map((e: { kind: string }) => e.kind)).toEqual(['key.created', 'post.rejected'])
    const window = `from=${encodeURIComponent(new Date(started + 1_000).toISOString())}&to=${encodeURIComponent(new Date(started + 2_000).toISOString())}`
    expect((await owner().get(`${base}?${window}`)).body.data.map((e: { kind: string }) => e.kind)).toEqual(['post.approval_requested'])
    const bad = await owner().get(`${base}?kind=post.liked&from=yesterday`)
    expect(bad.status).toBe(422)
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['#/from', '#/kind'])

    for (const who of [team.editor, team.viewer]) {
      const refused = await who.get(base)
      expect([refused.status, refused.body.code]).toEqual([403, 'forbidden'])
    }
    expect((await as((await person(t, 'Stranger')).key).get(base)).status).toBe(404)
    expect((await owner().get('/v1/workspaces/wsp_00000000000000000000000000/audit-log')).status).toBe(404)
  })

  it('records publishing as smm’s own doing, and edits, cancels and connections as their user’s', async () => {
    const team = await agency()
    const post = (await team.editor.post('/v1/posts', { account_id: team.account, content: 'Goes out', platforms: ['feed'], scheduled_at: later(1) })).body
    await team.editor.put(`/v1/posts/${post.id}`, { content: 'Goes out today' })
    await team.admin.post(`/v1/posts/${post.id}/approve`)
    const other = (await team.admin.post('/v1/posts', { account_id: team.account, content: 'Not this one', platforms: ['feed'], scheduled_at: later(2) })).body
    await team.editor.delete(`/v1/posts/${other.id}`)
    t.clock.advance(3_600_000)
    await publishDue()
    expect(await statusOf(post.id)).toBe('published')
    expect((await team.admin.delete(`/v1/accounts/${team.account}/connections/feed`)).status).toBe(204)

    const log = (await team.admin.get(`/v1/workspaces/${team.workspace.id}/audit-log?kind=post.*,account.disconnected&limit=100`)).body.data as { kind: string; actor: { type: string; name: string }; object: { id: string } }[]
    expect(log.map((e) => [e.kind, e.actor.type === 'system' ? e.actor.name : `${e.actor.type} ${e.actor.name}`, e.object.id])).toEqual([
      ['account.disconnected', 'user Admin', team.account],
      ['post.published', 'smm', post.id],
      ['post.target.published', 'smm', post.id],
      ['post.cancelled', 'user Editor', other.id],
      ['post.scheduled', 'user Admin', other.id],
      ['post.approved', 'user Admin', post.id],
      ['post.updated', 'user Editor', post.id],
      ['post.approval_requested', 'user Editor', post.id],
    ])
  })
})
