import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { eventsOf, feedAccount, liftLimits, person } from './helpers/posts.js'
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js'

let t: TestDaemon
let ownerId: string
beforeAll(async () => {
  t = await startTestDaemon({ allowPrivateNetwork: true })
  ownerId = await liftLimits(t)
})
afterAll(() => t.stop())

const later = (hours: number) => new Date(t.clock.now() + hours * 3_600_000).toISOString()
const as = (key: string) => ({
  get: (path: string) => t.http.get(path, { key }),
  post: (path: string, json: unknown = {}) => t.http.post(path, json, { key }),
  patch: (path: string, json: unknown) => t.http.patch(path, json, { key }),
  put: (path: string, json: unknown) => t.http.put(path, json, { key }),
  delete: (path: string) => t.http.delete(path, { key }),
})
const owner = () => as(t.key)

/** A shared workspace of the owner's with one feed account, and a person in it with a role. */
async function team(role: 'admin' | 'editor' | 'viewer', settings: Record<string, unknown> = {}) {
  const workspace = (await owner().post('/v1/workspaces', { name: `Team of a ${role}`, ...settings })).body
  const account = (await owner().post('/v1/accounts', { name: 'Team brand', workspace_id: workspace.id })).body.id
  expect((await owner().post(`/v1/accounts/${account}/connections`, { platform: 'feed' })).status).toBe(201)
  const member = await person(t, role)
  expect((await owner().post(`/v1/workspaces/${workspace.id}/members`, { user_id: member.userId, role })).status).toBe(201)
  return { workspace, account, member, as: as(member.key) }
}

describe('workspaces', () => {
  it('gives every user a personal workspace that holds what they make by default, and creates shared ones', async () => {
    const me = await person(t, 'Solo')
    const listed = await as(me.key).get('/v1/workspaces')
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual({
      data: [{ id: `wsp_${me.userId.slice(4)}`, name: 'Personal', approval_required: false, personal: true, timezone: 'UTC', role: 'owner', created_at: expect.any(String) }],
      has_more: false,
      next_cursor: null,
    })
    const account = await as(me.key).post('/v1/accounts', { name: 'Mine' })
    expect(account.body.workspace_id).toBe(listed.body.data[0].id)

    const created = await owner().post('/v1/workspaces', { name: '  Agency  ', approval_required: true, timezone: 'Europe/Paris' })
    expect(created.status).toBe(201)
    expect(created.headers.location).toBe(`/v1/workspaces/${created.body.id}`)
    expect(created.body).toEqual({ id: expect.stringMatching(/^wsp_[0-9A-Z]{26}$/), name: 'Agency', approval_required: true, personal: false, timezone: 'Europe/Paris', role: 'owner', created_at: new Date(t.clock.now()).toISOString() })
    expect((await owner().get(`/v1/workspaces/${created.body.id}`)).body).toEqual(created.body)
    const changed = await owner().patch(`/v1/workspaces/${created.body.id}`, { name: 'Agency & Co', approval_required: false, timezone: 'Asia/Tokyo' })
    expect(changed.body).toMatchObject({ name: 'Agency & Co', approval_required: false, timezone: 'Asia/Tokyo' })
    // Paged, each with the caller's role.
    const first = await owner().get('/v1/workspaces?limit=1')
    const second = await owner().get(`/v1/workspaces?limit=100&cursor=${first.body.next_cursor}`)
    expect([...first.body.data, ...second.body.data].map((w: { id: string }) => w.id)).toContain(created.body.id)
  })

  it('keeps a personal workspace to its user: no members, its zone theirs, never deleted', async () => {
    const personal = `wsp_${ownerId.slice(4)}`
    const someone = await person(t, 'Guest')
    const add = await owner().post(`/v1/workspaces/${personal}/members`, { user_id: someone.userId, role: 'viewer' })
    expect([add.status, add.body.code]).toEqual([409, 'personal_workspace'])
    const zone = await owner().patch(`/v1/workspaces/${personal}`, { timezone: 'Asia/Tokyo' })
    expect([zone.status, zone.body.code]).toEqual([409, 'personal_workspace'])
    const gone = await owner().delete(`/v1/workspaces/${personal}`)
    expect([gone.status, gone.body.code]).toEqual([409, 'personal_workspace'])
    await owner().patch('/v1/me', { timezone: 'America/New_York' })
    expect((await owner().get(`/v1/workspaces/${personal}`)).body.timezone).toBe('America/New_York')
    await owner().patch('/v1/me', { timezone: 'UTC' })
  })

  it('adds, changes and removes members, naming what is wrong and changing nothing on bad input', async () => {
    const workspace = (await owner().post('/v1/workspaces', { name: 'Members' })).body
    const ed = await person(t, 'Ed')
    const path = `/v1/workspaces/${workspace.id}/members`
    const added = await owner().post(path, { email: ed.email, role: 'editor' })
    expect(added.status).toBe(201)
    expect(added.body).toEqual({ user_id: ed.userId, name: 'Ed', email: ed.email, role: 'editor', created_at: new Date(t.clock.now()).toISOString() })

    const twice = await owner().post(path, { user_id: ed.userId, role: 'viewer' })
    expect([twice.status, twice.body.code]).toEqual([409, 'already_member'])
    expect(twice.body.detail).toContain('as editor')
    const role = await owner().post(path, { user_id: ed.userId, role: 'boss' })
    expect(role.status).toBe(422)
    expect(role.body.errors).toEqual([expect.objectContaining({ pointer: '#/role', detail: expect.stringContaining('owner, admin, editor, viewer') })])
    const both = await owner().post(path, { user_id: ed.userId, email: ed.email, role: 'viewer' })
    expect(both.body.errors).toEqual([expect.objectContaining({ pointer: '#/email', code: 'conflict' })])
    const neither = await owner().post(path, { role: 'viewer' })
    expect(neither.body.errors).toEqual([expect.objectContaining({ pointer: '#/user_id', code: 'required' })])
    const nobody = await owner().post(path, { email: 'nobody@example.com', role: 'viewer' })
    expect(nobody.body.errors).toEqual([{ pointer: '#/email', code: 'not_found', detail: 'no user has the email nobody@example.com' }])

    expect((await owner().patch(`${path}/${ed.userId}`, { role: 'admin' })).body.role).toBe('admin')
    const last = await owner().patch(`${path}/${ownerId}`, { role: 'admin' })
    expect([last.status, last.body.code]).toEqual([409, 'last_owner'])
    const removeLast = await owner().delete(`${path}/${ownerId}`)
    expect([removeLast.status, removeLast.body.code]).toEqual([409, 'last_owner'])
    // An admin manages members, but makes, changes or removes no owner.
    const vi = await person(t, 'Vi')
    expect((await as(ed.key).post(path, { user_id: vi.userId, role: 'viewer' })).status).toBe(201)
    const crown = await as(ed.key).patch(`${path}/${vi.userId}`, { role: 'owner' })
    expect([crown.status, crown.body.code, crown.body.role, crown.body.required_role]).toEqual([403, 'forbidden', 'admin', 'owner'])
    const depose = await as(ed.key).delete(`${path}/${ownerId}`)
    expect([depose.status, depose.body.code]).toEqual([403, 'forbidden'])
    // A viewer may only leave.
    const viAdds = await as(vi.key).post(path, { user_id: ownerId, role: 'viewer' })
    expect([viAdds.status, viAdds.body.detail]).toEqual([403, `Your role in workspace ${workspace.id} is viewer; managing its members needs admin or owner.`])
    expect((await as(vi.key).delete(`${path}/${vi.userId}`)).status).toBe(204)
    expect((await as(vi.key).get(`/v1/workspaces/${workspace.id}`)).status).toBe(404)
    const listed = await owner().get(`${path}?limit=1`)
    const rest = await owner().get(`${path}?cursor=${listed.body.next_cursor}`)
    expect([...listed.body.data, ...rest.body.data].map((m: { name: string; role: string }) => [m.name, m.role]).sort()).toEqual([['Ed', 'admin'], [expect.any(String), 'owner']])
  })

  it('answers 404 for a workspace the caller is not in, wherever it is named', async () => {
    const stranger = await person(t, 'Stranger')
    const theirs = `wsp_${stranger.userId.slice(4)}`
    for (const answer of [
      await owner().get(`/v1/workspaces/${theirs}`),
      await owner().get(`/v1/workspaces/${theirs}/members`),
      await owner().patch(`/v1/workspaces/${theirs}`, { name: 'Mine now' }),
      await owner().delete(`/v1/workspaces/${theirs}`),
      await owner().post('/v1/accounts', { name: 'Sneaky', workspace_id: theirs }),
      await owner().get(`/v1/posts?workspace_id=${theirs}`),
      await owner().get(`/v1/accounts?workspace_id=${theirs}`),
      await owner().get(`/v1/analytics?workspace_id=${theirs}`),
      await owner().post('/v1/webhooks', { url: 'https://hooks.example/x', events: ['*'], workspace_id: theirs }),
    ]) {
      expect([answer.status, answer.body.code, answer.body.detail]).toEqual([404, 'not_found', `No workspace with id ${theirs}.`])
    }
    expect((await as(stranger.key).get('/v1/workspaces')).body.data).toHaveLength(1)
  })

  it('lets each role do what it may in the workspace: viewers read, editors write posts, admins manage accounts and webhooks', async () => {
    const viewer = await team('viewer')
    // A viewer sees the workspace's accounts and posts, with everyone else's.
    const post = (await owner().post('/v1/posts', { account_id: viewer.account, content: 'From the owner', platforms: ['feed'], scheduled_at: later(5) })).body
    expect(post.workspace_id).toBe(viewer.workspace.id)
    expect((await viewer.as.get(`/v1/accounts/${viewer.account}`)).status).toBe(200)
    expect((await viewer.as.get(`/v1/posts/${post.id}`)).body.id).toBe(post.id)
    expect((await viewer.as.get('/v1/posts')).body.data.map((p: { id: string }) => p.id)).toContain(post.id)
    expect((await viewer.as.get(`/v1/analytics?workspace_id=${viewer.workspace.id}`)).status).toBe(200)
    expect((await viewer.as.get(`/v1/workspaces/${viewer.workspace.id}/members`)).status).toBe(200)
    // …and writes nothing.
    const forbidden = async (answer: { status: number; body: { code: string; role: string; workspace_id: string } }, required: string) =>
      expect([answer.status, answer.body.code, answer.body.role, answer.body.workspace_id, (answer.body as never as { required_role: string }).required_role]).toEqual([403, 'forbidden', 'viewer', viewer.workspace.id, required])
    await forbidden(await viewer.as.post('/v1/posts', { account_id: viewer.account, content: 'Mine', platforms: ['feed'] }), 'editor')
    await forbidden(await viewer.as.put(`/v1/posts/${post.id}`, { content: 'Edited' }), 'editor')
    await forbidden(await viewer.as.delete(`/v1/posts/${post.id}`), 'editor')
    await forbidden(await viewer.as.patch(`/v1/accounts/${viewer.account}`, { name: 'Renamed' }), 'admin')
    await forbidden(await viewer.as.put(`/v1/accounts/${viewer.account}/queue`, { slots: [] }), 'admin')
    await forbidden(await viewer.as.delete(`/v1/accounts/${viewer.account}/connections/feed`), 'admin')
    await forbidden(await viewer.as.post('/v1/webhooks', { url: 'https://hooks.example/v', events: ['*'], workspace_id: viewer.workspace.id }), 'admin')
    expect((await owner().get(`/v1/posts/${post.id}`)).body.content).toBe('From the owner')

    const editor = await team('editor')
    const written = await editor.as.post('/v1/posts', { account_id: editor.account, content: 'By the editor', platforms: ['feed'], scheduled_at: later(5) })
    expect([written.status, written.body.workspace_id, written.body.status]).toEqual([201, editor.workspace.id, 'scheduled'])
    expect((await editor.as.put(`/v1/posts/${written.body.id}`, { content: 'Edited by the editor' })).status).toBe(200)
    expect((await editor.as.delete(`/v1/posts/${written.body.id}`)).body.status).toBe('cancelled')
    expect((await editor.as.post('/v1/accounts', { name: 'No', workspace_id: editor.workspace.id })).status).toBe(403)

    const admin = await team('admin')
    expect((await admin.as.patch(`/v1/accounts/${admin.account}`, { name: 'Renamed by the admin' })).body.name).toBe('Renamed by the admin')
    const hook = await admin.as.post('/v1/webhooks', { url: 'https://hooks.example/a', events: ['*'], workspace_id: admin.workspace.id })
    expect([hook.status, hook.body.workspace_id]).toEqual([201, admin.workspace.id])
    expect((await owner().get(`/v1/webhooks?workspace_id=${admin.workspace.id}`)).body.data.map((w: { id: string }) => w.id)).toEqual([hook.body.id])
    // Deleting a workspace is the owner's.
    const del = await admin.as.delete(`/v1/workspaces/${admin.workspace.id}`)
    expect([del.status, del.body.required_role]).toEqual([403, 'owner'])
  })

  it('takes access away from a removed member with their next request', async () => {
    const editor = await team('editor')
    const post = (await editor.as.post('/v1/posts', { account_id: editor.account, content: 'Still here', platforms: ['feed'], scheduled_at: later(5) })).body
    expect((await owner().delete(`/v1/workspaces/${editor.workspace.id}/members/${editor.member.userId}`)).status).toBe(204)
    for (const answer of [
      await editor.as.get(`/v1/posts/${post.id}`),
      await editor.as.get(`/v1/accounts/${editor.account}`),
      await editor.as.put(`/v1/posts/${post.id}`, { content: 'Too late' }),
      await editor.as.post('/v1/posts', { account_id: editor.account, content: 'Too late', platforms: ['feed'] }),
    ]) {
      expect(answer.status === 404 || answer.status === 422).toBe(true)
    }
    expect((await editor.as.get('/v1/posts')).body.data).toEqual([])
    // What they wrote stays the workspace's.
    expect((await owner().get(`/v1/posts/${post.id}`)).body.content).toBe('Still here')
  })

  it('lists every workspace’s posts together by default, in one order, and one workspace’s with workspace_id', async () => {
    const editor = await team('editor')
    const mine = await feedAccount(t, 'Editor’s own', editor.member.key)
    const a = (await editor.as.post('/v1/posts', { account_id: editor.account, content: 'team 2h', platforms: ['feed'], scheduled_at: later(2) })).body.id
    const b = (await editor.as.post('/v1/posts', { account_id: mine, content: 'own 1h', platforms: ['feed'], scheduled_at: later(1) })).body.id
    const c = (await editor.as.post('/v1/posts', { account_id: mine, content: 'own 3h', platforms: ['feed'], scheduled_at: later(3) })).body.id
    const all = await editor.as.get('/v1/posts?status=scheduled,draft&limit=2&count=true')
    expect(all.body.data.map((p: { id: string }) => p.id)).toEqual([b, a])
    expect(all.body.total).toBe(3)
    expect((await editor.as.get(`/v1/posts?cursor=${all.body.next_cursor}`)).body.data.map((p: { id: string }) => p.id)).toEqual([c])
    expect((await editor.as.get(`/v1/posts?workspace_id=${editor.workspace.id}`)).body.data.map((p: { id: string }) => p.id)).toEqual([a])
    const accounts = (await editor.as.get('/v1/accounts')).body.data.map((x: { id: string }) => x.id)
    expect(accounts.sort()).toEqual([editor.account, mine].sort())
  })

  it('sends a workspace’s events to its own webhooks only', async () => {
    const teamHooks = await startReceiver()
    const personalHooks = await startReceiver()
    const d = await startTestDaemon({ allowPrivateNetwork: true, egress: { ca: [teamHooks.ca, personalHooks.ca] }, backgroundWorkers: false })
    const deliver = () => d.daemon.workers.find((w) => w.name === 'webhook-delivery')!.tick!(d.clock.now())
    try {
      const ownerOf = (path: string, json: unknown) => d.http.post(path, json, { key: d.key })
      const workspace = (await ownerOf('/v1/workspaces', { name: 'Hooked' })).body.id
      const account = (await ownerOf('/v1/accounts', { name: 'Team', workspace_id: workspace })).body.id
      await ownerOf(`/v1/accounts/${account}/connections`, { platform: 'feed' })
      const own = (await ownerOf('/v1/accounts', { name: 'Own' })).body.id
      await ownerOf(`/v1/accounts/${own}/connections`, { platform: 'feed' })
      expect((await ownerOf('/v1/webhooks', { url: teamHooks.url, events: ['post.scheduled'], workspace_id: workspace })).status).toBe(201)
      expect((await ownerOf('/v1/webhooks', { url: personalHooks.url, events: ['post.scheduled'] })).status).toBe(201)
      const teamPost = (await ownerOf('/v1/posts', { account_id: account, content: 'For the team', platforms: ['feed'], scheduled_at: new Date(d.clock.now() + 3_600_000).toISOString() })).body
      const ownPost = (await ownerOf('/v1/posts', { account_id: own, content: 'For me', platforms: ['feed'], scheduled_at: new Date(d.clock.now() + 3_600_000).toISOString() })).body
      await deliver()
      // (Signatures are the delivery tests' to check; here, which endpoint got what.)
      const events = (r: Receiver) => r.received.map((x) => JSON.parse(x.body) as { type: string; data: { id: string; workspace_id: string } })
      expect(events(teamHooks).map((e) => [e.type, e.data.id, e.data.workspace_id])).toEqual([['post.scheduled', teamPost.id, workspace]])
      expect(events(personalHooks).map((e) => [e.type, e.data.id])).toEqual([['post.scheduled', ownPost.id]])
    } finally {
      await d.stop()
      await teamHooks.close()
      await personalHooks.close()
    }
  })

  it('reports analytics on one workspace: the one named, or the account’s', async () => {
    const editor = await team('editor')
    const post = (await editor.as.post('/v1/posts', { account_id: editor.account, content: 'Counted', platforms: ['feed'], scheduled_at: later(1) })).body
    const from = new Date(t.clock.now()).toISOString()
    const to = later(2)
    const named = await editor.as.get(`/v1/analytics?workspace_id=${editor.workspace.id}&from=${from}&to=${to}`)
    expect(named.body.totals.posts_scheduled).toBe(1)
    expect((await editor.as.get(`/v1/analytics?account_id=${editor.account}&from=${from}&to=${to}`)).body.totals.posts_scheduled).toBe(1)
    // The personal workspace by default: the editor's own, with nothing in it.
    expect((await editor.as.get(`/v1/analytics?from=${from}&to=${to}`)).body.totals.posts_scheduled).toBe(0)
    const elsewhere = await editor.as.get(`/v1/analytics?workspace_id=wsp_${editor.member.userId.slice(4)}&post_id=${post.id}`)
    expect(elsewhere.body.errors).toEqual([expect.objectContaining({ pointer: '#/post_id', code: 'not_found' })])
  })

  it('keeps queue slots and series in the workspace’s zone, whoever writes the post', async () => {
    const editor = await team('editor', { timezone: 'Asia/Tokyo' })
    const queue = await owner().put(`/v1/accounts/${editor.account}/queue`, { slots: [{ day: 'monday', time: '09:00' }] })
    expect(queue.body.timezone).toBe('Asia/Tokyo')
    const queued = await editor.as.post('/v1/posts', { account_id: editor.account, content: 'Queued', platforms: ['feed'], queue: true })
    const at = new Date(queued.body.scheduled_at)
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at)).toBe('Monday 09:00')
    const series = await editor.as.post('/v1/posts', { account_id: editor.account, content: 'Weekly', platforms: ['feed'], scheduled_at: later(2), repeat: { interval: 'P1W', count: 2 } })
    expect(series.body.repeat.timezone).toBe('Asia/Tokyo')
  })
})
