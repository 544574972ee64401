import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliHomeFor, runCli, type CliResult } from './helpers/cli.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { liftLimits, person } from './helpers/posts.js'

let t: TestDaemon
let home: ReturnType<typeof cliHomeFor>
beforeAll(async () => {
  t = await startTestDaemon({ allowPrivateNetwork: true })
  await liftLimits(t)
  home = cliHomeFor(t)
})
afterAll(async () => {
  home.remove()
  await t.stop()
})

/** The built `smm`, as the owner or as another user (their key in SMM_API_KEY). */
const smm = (args: string[], key = t.key) => runCli(args, { env: { ...home.env, SMM_API_KEY: key } })
const json = (res: CliResult) => {
  expect(res.stderr).toBe('')
  expect(res.code).toBe(0)
  return JSON.parse(res.stdout)
}

describe('smm workspaces, members, approval, comments and review links', () => {
  it('makes a workspace, adds members by email and id, changes and removes them, and lists by workspace', { timeout: 120_000 }, async () => {
    const created = await smm(['workspaces', 'create', 'Acme agency', '--approval-required', '--timezone', 'Europe/Paris'])
    expect(created.code).toBe(0)
    expect(created.stdout).toMatch(/Workspace:\s+Acme agency \(wsp_\w+\)/)
    expect(created.stdout).toMatch(/Approval:\s+required/)
    const id = /\((wsp_\w+)\)/.exec(created.stdout)![1]!
    const listed = json(await smm(['workspaces', 'list', '--json']))
    expect(listed.data.map((w: { id: string; role: string; personal: boolean }) => [w.role, w.personal])).toEqual(expect.arrayContaining([['owner', true], ['owner', false]]))
    expect((await smm(['workspaces', 'list'])).stdout).toMatch(new RegExp(`${id}\\s+Acme agency\\s+owner\\s+required\\s+Europe/Paris`))

    const ana = await person(t, 'Ana')
    const bo = await person(t, 'Bo')
    const added = await smm(['workspaces', 'members', 'add', id, ana.email, '--role', 'editor'])
    expect(added.stdout).toBe(`Added Ana (${ana.userId}) to workspace ${id} as editor.\n`)
    expect(json(await smm(['workspaces', 'members', 'add', id, bo.userId, '--role', 'viewer', '--json']))).toMatchObject({ user_id: bo.userId, role: 'viewer' })
    const twice = await smm(['workspaces', 'members', 'add', id, bo.userId, '--role', 'viewer'])
    expect(twice.code).toBe(5)
    const bad = await smm(['workspaces', 'members', 'add', id, bo.userId, '--role', 'boss'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('owner, admin, editor, viewer')
    expect((await smm(['workspaces', 'members', 'set-role', id, bo.userId, '--role', 'admin'])).stdout).toBe(`Bo (${bo.userId}) is now admin in workspace ${id}.\n`)
    const members = await smm(['workspaces', 'members', 'list', id])
    expect(members.stdout).toMatch(new RegExp(`${ana.userId}\\s+Ana\\s+\\S+\\s+editor`))
    expect((await smm(['workspaces', 'members', 'remove', id, bo.userId, '--yes'])).stdout).toBe(`Removed ${bo.userId} from workspace ${id}.\n`)
    // Removed: the workspace is as absent to them as any other.
    expect((await smm(['workspaces', 'show', id], bo.key)).code).toBe(4)
    const lastOwner = await smm(['workspaces', 'members', 'set-role', id, (await t.http.get('/v1/me', { key: t.key })).body.id, '--role', 'viewer'])
    expect(lastOwner.code).toBe(5)
    expect(lastOwner.stderr).toMatch(/owner/)

    const updated = json(await smm(['workspaces', 'update', id, '--name', 'Acme (retainer)', '--no-approval-required', '--json']))
    expect(updated).toMatchObject({ name: 'Acme (retainer)', approval_required: false })
    expect((await smm(['workspaces', 'update', id])).code).toBe(2)
    expect((await smm(['workspaces', 'show', id])).stdout).toMatch(/Workspace:\s+Acme \(retainer\)/)

    const account = json(await smm(['accounts', 'create', 'Client brand', '--workspace', id, '--json']))
    expect(account.workspace_id).toBe(id)
    json(await smm(['accounts', 'create', 'Mine', '--json']))
    expect(json(await smm(['accounts', 'list', '--workspace', id, '--json'])).data.map((a: { name: string }) => a.name)).toEqual(['Client brand'])
    // A member sees the workspace's accounts; a workspace they are not in is 404.
    expect(json(await smm(['accounts', 'list', '--workspace', id, '--json'], ana.key)).data.map((a: { name: string }) => a.name)).toEqual(['Client brand'])
    expect((await smm(['accounts', 'list', '--workspace', id], bo.key)).code).toBe(4)
  })

  it('puts a webhook in a workspace and reports on a workspace’s analytics with --workspace, by role', { timeout: 120_000 }, async () => {
    const workspace = json(await smm(['workspaces', 'create', 'Hooked team', '--json']))
    const [admin, viewer, stranger] = [await person(t, 'Adele'), await person(t, 'Vic'), await person(t, 'Stan')]
    json(await smm(['workspaces', 'members', 'add', workspace.id, admin.userId, '--role', 'admin', '--json']))
    json(await smm(['workspaces', 'members', 'add', workspace.id, viewer.userId, '--role', 'viewer', '--json']))

    // Webhooks are an admin's: the workspace's events go to the endpoint, whoever causes them.
    const hook = json(await smm(['webhooks', 'create', 'https://hooks.example.com/team', '--event', 'post.scheduled', '--workspace', workspace.id, '--json'], admin.key))
    expect(hook).toMatchObject({ workspace_id: workspace.id, url: 'https://hooks.example.com/team', events: ['post.scheduled'] })
    expect(json(await smm(['webhooks', 'list', '--workspace', workspace.id, '--json'])).data.map((w: { id: string }) => w.id)).toEqual([hook.id])
    const mine = json(await smm(['webhooks', 'create', 'https://hooks.example.com/mine', '--json']))
    expect(mine.workspace_id).toBe((await t.http.get('/v1/workspaces', { key: t.key })).body.data.find((w: { personal: boolean }) => w.personal).id)
    const byViewer = await smm(['webhooks', 'create', 'https://hooks.example.com/viewer', '--workspace', workspace.id], viewer.key)
    expect(byViewer.code).toBe(3)
    expect(byViewer.stderr).toMatch(/viewer/)
    expect((await smm(['webhooks', 'create', 'https://hooks.example.com/stranger', '--workspace', workspace.id], stranger.key)).code).toBe(4)
    expect(json(await smm(['webhooks', 'list', '--workspace', workspace.id, '--json'])).data).toHaveLength(1)

    // A post in the workspace counts in its report, which its viewers read too, and in no one's personal one.
    const account = json(await smm(['accounts', 'create', 'Team brand', '--workspace', workspace.id, '--json'], admin.key))
    expect((await smm(['accounts', 'connect', account.id, '--platform', 'feed'], admin.key)).code).toBe(0)
    json(await smm(['posts', 'create', '--account', account.id, '--platform', 'feed', '--text', 'Counted', '--at', new Date(t.clock.now() + 3_600_000).toISOString(), '--json'], admin.key))
    const day = (days: number) => new Date(t.clock.now() + days * 86_400_000).toISOString().slice(0, 10)
    const range = ['--from', day(-1), '--to', day(2)]
    const report = json(await smm(['analytics', '--workspace', workspace.id, ...range, '--json'], viewer.key))
    expect(report.totals.posts_scheduled).toBe(1)
    expect(json(await smm(['analytics', ...range, '--json'], viewer.key)).totals.posts_scheduled).toBe(0)
    expect((await smm(['analytics', '--workspace', workspace.id, ...range])).stdout).toMatch(/Posts scheduled\s+1\b/i)
    const notMine = await smm(['analytics', '--workspace', workspace.id], stranger.key)
    expect(notMine.code).toBe(4)
    expect(notMine.stderr).toContain(workspace.id)
  })

  it('approves and rejects from the command line, lists and adds comments, and makes a review link that opens the post', { timeout: 120_000 }, async () => {
    const workspace = json(await smm(['workspaces', 'create', 'Review team', '--approval-required', '--json']))
    const account = json(await smm(['accounts', 'create', 'Brand', '--workspace', workspace.id, '--json']))
    expect((await smm(['accounts', 'connect', account.id, '--platform', 'feed'])).code).toBe(0)
    const ed = await person(t, 'Ed')
    json(await smm(['workspaces', 'members', 'add', workspace.id, ed.userId, '--role', 'editor', '--json']))
    const post = json(await smm(['posts', 'create', '--account', account.id, '--platform', 'feed', '--text', 'Launch day', '--in', '2h', '--json'], ed.key))
    expect(post.status).toBe('pending_approval')
    expect(json(await smm(['posts', 'list', '--workspace', workspace.id, '--status', 'pending_approval', '--json'])).data.map((p: { id: string }) => p.id)).toEqual([post.id])

    // An editor may neither decide nor make a link.
    const refused = await smm(['posts', 'approve', post.id], ed.key)
    expect(refused.code).toBe(3)
    expect(refused.stderr).toContain('approving posts needs admin or owner')
    expect((await smm(['posts', 'review-link', post.id], ed.key)).code).toBe(3)

    expect((await smm(['posts', 'comment', post.id, 'Is the link right?'], ed.key)).stdout).toMatch(new RegExp(`^Commented on post ${post.id} \\(cmt_\\w+\\)\\.\n$`))
    const rejected = await smm(['posts', 'reject', post.id, '--comment', 'Shorter, please'])
    expect(rejected.stdout).toContain(`Sent post ${post.id} back for changes.`)
    expect((await smm(['posts', 'reject', post.id])).code).toBe(2)
    const again = await smm(['posts', 'approve', post.id])
    expect(again.code).toBe(5)
    expect(again.stderr).toContain('is rejected, not waiting for approval')
    const comments = await smm(['posts', 'comments', post.id])
    expect(comments.stdout).toMatch(/^Ed, .+:\n {2}Is the link right\?\n\n.+ asked for changes, .+:\n {2}Shorter, please\n$/)

    json(await smm(['posts', 'update', post.id, '--text', 'Launch!', '--json'], ed.key))
    const link = await smm(['posts', 'review-link', post.id, '--expires-in', '2d'])
    expect(link.code).toBe(0)
    const url = link.stdout.split('\n')[0]!
    expect(url).toMatch(new RegExp(`^${t.url}/review/[A-Za-z0-9_-]{43}$`))
    expect(link.stdout).toContain('shown only now')
    const page = await t.http.get(new URL(url).pathname)
    expect(page.status).toBe(200)
    expect(page.text).toContain('Launch!')
    expect(json(await smm(['posts', 'review-link', post.id, '--json'])).expires_at).toBe(new Date(t.clock.now() + 7 * 86_400_000).toISOString())
    expect((await smm(['posts', 'review-link', post.id, '--expires-in', 'soon'])).code).toBe(2)

    const approved = await smm(['posts', 'approve', post.id, '--comment', 'Good to go'])
    expect(approved.stdout).toMatch(new RegExp(`^Approved post ${post.id}: scheduled for `))
    expect((await t.http.get(`/v1/posts/${post.id}`, { key: t.key })).body.status).toBe('scheduled')
    expect(json(await smm(['posts', 'comments', post.id, '--json'])).data.at(-1)).toMatchObject({ body: 'Good to go', decision: 'approved' })
  })
})
