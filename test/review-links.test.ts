import https from 'node:https'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { liftLimits, person } from './helpers/posts.js'

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon({ allowPrivateNetwork: true })
  await liftLimits(t)
})
afterAll(() => t.stop())

const later = (hours: number) => new Date(t.clock.now() + hours * 3_600_000).toISOString()

/** A workspace requiring approval, its feed account, an editor and an admin; a post the editor wrote, waiting. */
async function waiting(post: Record<string, unknown> = {}) {
  const workspace = (await t.http.post('/v1/workspaces', { name: 'Agency', approval_required: true, timezone: 'Europe/Paris' }, { key: t.key })).body
  const account = (await t.http.post('/v1/accounts', { name: 'Client brand', workspace_id: workspace.id }, { key: t.key })).body.id as string
  expect((await t.http.post(`/v1/accounts/${account}/connections`, { platform: 'feed' }, { key: t.key })).status).toBe(201)
  const editor = await person(t, 'Editor')
  const admin = await person(t, 'Admin')
  for (const [who, role] of [[editor, 'editor'], [admin, 'admin']] as const) {
    expect((await t.http.post(`/v1/workspaces/${workspace.id}/members`, { user_id: who.userId, role }, { key: t.key })).status).toBe(201)
  }
  const created = await t.http.post('/v1/posts', { account_id: account, content: 'Launch day', platforms: ['feed'], scheduled_at: later(2), ...post }, { key: editor.key })
  expect(created.body.status).toBe('pending_approval')
  return { workspace, account, editor, admin, postId: created.body.id as string }
}

async function linkTo(postId: string, key: string, body: unknown = {}) {
  const made = await t.http.post(`/v1/posts/${postId}/review-links`, body, { key })
  expect(made.status).toBe(201)
  return { ...made.body, path: new URL(made.body.url).pathname } as { id: string; url: string; path: string; expires_at: string }
}

const page = (path: string, headers: Record<string, string> = {}) => t.http.request('GET', path, { headers })
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1]
const submit = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  t.http.request('POST', path, { raw: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', ...headers } })

describe('review links', () => {
  it('are made by admins and owners only, last a week by default, and open a page the URL’s token alone grants', async () => {
    const team = await waiting()
    const refused = await t.http.post(`/v1/posts/${team.postId}/review-links`, {}, { key: team.editor.key })
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 'forbidden', required_role: 'admin' })
    const link = await linkTo(team.postId, team.admin.key)
    expect(link).toMatchObject({ id: expect.stringMatching(/^rvl_/), post_id: team.postId, state: 'active', expires_at: later(7 * 24), created_by: { type: 'user', user_id: team.admin.userId, name: 'Admin' } })
    // 256 bits of token, kept only as a hash: the database does not hold the URL.
    const token = link.path.split('/').at(-1)!
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(JSON.stringify(await t.daemon.store.reviewLinks.list([team.workspace.id], team.postId))).not.toContain(token)
    const listed = await t.http.get(`/v1/posts/${team.postId}/review-links`, { key: team.admin.key })
    expect(listed.body.data).toEqual([expect.objectContaining({ id: link.id, state: 'active' })])
    expect(listed.body.data[0].url).toBeUndefined()

    const shown = await page(link.path)
    expect(shown.status).toBe(200)
    expect(shown.text).toContain('Launch day')
    expect(shown.text).toContain('Client brand')
    // In the workspace's zone: 2 hours after the clock's start, in Paris.
    const paris = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', timeStyle: 'short' }).format(Date.parse(later(2)))
    expect(shown.text).toContain(`${paris} (Europe/Paris)`)
    expect(csrfOf(shown.text)).toBeTruthy()

    expect((await t.http.post(`/v1/posts/${team.postId}/review-links`, { expires_in: 10 }, { key: team.admin.key })).body).toMatchObject({ status: 422, errors: [{ pointer: '#/expires_in' }] })
    expect((await page(`/review/${'A'.repeat(43)}`)).status).toBe(404)
  })

  it('sends a strict CSP, no-store, no-referrer and nosniff on every page, and escapes what the post and its comments say', async () => {
    const team = await waiting({ content: '<script>alert(1)</script> & <b>bold</b>', thread: [{ content: '"><img src=x onerror=alert(2)>' }] })
    await t.http.post(`/v1/posts/${team.postId}/comments`, { body: '<iframe src="https://evil.example"></iframe>' }, { key: team.editor.key })
    const link = await linkTo(team.postId, t.key)
    const shown = await page(link.path)
    expect(shown.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(shown.headers['content-security-policy']).toMatch(/^default-src 'none'; img-src [^;]+; style-src 'sha256-[A-Za-z0-9+/=]+'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/)
    expect(shown.headers).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' })
    expect(shown.text).not.toMatch(/<script|<iframe|<img src=x|<b>/)
    expect(shown.text).toContain('&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#60;b&#62;bold&#60;/b&#62;')
    expect(shown.text).toContain('&#34;&#62;&#60;img src=x onerror=alert(2)&#62;')
    expect(shown.text).toContain('&#60;iframe src=&#34;https://evil.example&#34;&#62;&#60;/iframe&#62;')
    // A name given by the reviewer is escaped too, where the team reads it back.
    const sent = await submit(link.path, { csrf: csrfOf(shown.text)!, decision: 'reject', comment: '<script>x()</script>', name: '<i>Carla</i>' })
    expect(sent.status).toBe(200)
    expect(sent.text).not.toMatch(/<script>x|<i>Carla/)
    expect(sent.text).toContain('&#60;i&#62;Carla&#60;/i&#62; asked for changes')
    for (const answer of [sent, await page('/review/nope')]) expect(answer.headers['content-security-policy']).toContain("default-src 'none'")
  })

  it('records the decision once, as made via the link with the reviewer’s name, in the comments and the audit log; a replay is 409', async () => {
    const team = await waiting()
    const link = await linkTo(team.postId, team.admin.key)
    const csrf = csrfOf((await page(link.path)).text)!
    const approved = await submit(link.path, { csrf, decision: 'approve', comment: 'Lovely', name: 'Carla (client)' })
    expect(approved.status).toBe(200)
    expect(approved.text).toContain('you approved this post')
    expect((await t.http.get(`/v1/posts/${team.postId}`, { key: t.key })).body.status).toBe('scheduled')
    const comments = (await t.http.get(`/v1/posts/${team.postId}/comments`, { key: team.editor.key })).body.data
    expect(comments).toEqual([expect.objectContaining({ author: { type: 'review_link', review_link_id: link.id, name: 'Carla (client)' }, body: 'Lovely', decision: 'approved' })])
    const audit = (await t.http.get(`/v1/workspaces/${team.workspace.id}/audit-log?kind=post.approved,post.review_link_created`, { key: t.key })).body.data
    expect(audit.map((e: { kind: string; actor: { type: string }; summary: string }) => [e.kind, e.actor.type, e.summary])).toEqual([
      ['post.approved', 'review_link', `Post ${team.postId} approved: Lovely (via review link, by Carla (client))`],
      ['post.review_link_created', 'user', `Post ${team.postId} given review link ${link.id}, until ${link.expires_at}`],
    ])
    // The same form again, or another decision: nothing changes.
    const replay = await submit(link.path, { csrf, decision: 'reject', comment: 'No!' })
    expect(replay.status).toBe(409)
    expect(replay.text).toContain('A decision was already made: the post is scheduled')
    expect(replay.text).not.toContain('name="csrf"')
    expect((await t.http.get(`/v1/posts/${team.postId}`, { key: t.key })).body.status).toBe('scheduled')
    expect((await t.http.get(`/v1/posts/${team.postId}/comments`, { key: t.key })).body.data).toHaveLength(1)
  })

  it('refuses forged forms: no token, another link’s token, a post changed since, another site, another body type', async () => {
    const team = await waiting()
    const link = await linkTo(team.postId, team.admin.key)
    const other = await linkTo(team.postId, team.admin.key)
    const csrf = csrfOf((await page(link.path)).text)!
    const otherCsrf = csrfOf((await page(other.path)).text)!
    const still = async () => expect((await t.http.get(`/v1/posts/${team.postId}`, { key: t.key })).body.status).toBe('pending_approval')

    for (const forged of [{}, { csrf: 'A'.repeat(80) }, { csrf: otherCsrf }, { csrf: csrf.slice(0, -2) + (csrf.endsWith('AA') ? 'BB' : 'AA') }] as Record<string, string>[]) {
      const answer = await submit(link.path, { ...forged, decision: 'approve' })
      expect(answer.status).toBe(403)
      expect(answer.text).toContain('This form was not made by this review page')
    }
    await still()
    const crossSite = await submit(link.path, { csrf, decision: 'approve' }, { 'sec-fetch-site': 'cross-site' })
    expect(crossSite.status).toBe(403)
    expect(crossSite.text).toContain('sent from another site')
    const otherOrigin = await t.http.request('POST', link.path, { raw: `csrf=${csrf}&decision=approve`, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' } })
    expect(otherOrigin.status).toBe(403)
    const json = await t.http.request('POST', link.path, { raw: JSON.stringify({ csrf, decision: 'approve' }), headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' } })
    expect(json.status).toBe(400)
    await still()

    // Asking for changes needs a comment: the page comes back with what was typed.
    const bare = await submit(link.path, { csrf, decision: 'reject', comment: '  ', name: 'Carla' })
    expect(bare.status).toBe(422)
    expect(bare.text).toContain('a comment is needed to ask for changes')
    expect(bare.text).toContain('value="Carla"')
    await still()

    // Edited meanwhile: the reviewer sees the new text before deciding.
    expect((await t.http.put(`/v1/posts/${team.postId}`, { content: 'Launch day, v2' }, { key: team.editor.key })).status).toBe(200)
    const stale = await submit(link.path, { csrf, decision: 'approve' })
    expect(stale.status).toBe(409)
    expect(stale.text).toContain('The post changed since you opened this page')
    expect(stale.text).toContain('Launch day, v2')
    await still()
    // From the page as it is now, with the Origin a browser sends under no-referrer.
    const fresh = await submit(link.path, { csrf: csrfOf(stale.text)!, decision: 'reject', comment: 'Say when' }, { 'sec-fetch-site': '', origin: 'null' })
    expect(fresh.status).toBe(200)
    expect((await t.http.get(`/v1/posts/${team.postId}`, { key: t.key })).body.status).toBe('rejected')
  })

  it('never approves an edit made while the form was on its way: the decision is made on the version the page showed', async () => {
    const team = await waiting()
    const link = await linkTo(team.postId, team.admin.key)
    const csrf = csrfOf((await page(link.path)).text)!
    // The form's head and part of its body are sent, asking to continue: Node's server answers
    // 100 Continue as it hands the request to the app, whose handler finds the link and the post
    // (still the version shown) and waits for the rest. Then the editor changes the text.
    const body = new URLSearchParams({ csrf, decision: 'approve', comment: 'Looks right', name: 'Carla' }).toString()
    const { origin } = new URL(t.url)
    let answered!: (reply: { status: number; text: string }) => void
    const sent = new Promise<{ status: number; text: string }>((resolve) => (answered = resolve))
    const req = https.request(`${origin}${link.path}`, { method: 'POST', ca: t.ca, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), 'sec-fetch-site': 'same-origin', expect: '100-continue' } }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => answered({ status: res.statusCode!, text }))
    })
    const failed = new Promise<never>((_, reject) => req.on('error', reject))
    const handled = new Promise<void>((resolve) => req.on('continue', resolve))
    req.write(body.slice(0, 20))
    await Promise.race([handled, failed])
    expect((await t.http.put(`/v1/posts/${team.postId}`, { content: 'Launch day, with a typo' }, { key: team.editor.key })).status).toBe(200)
    req.end(body.slice(20))
    const stale = await Promise.race([sent, failed])
    expect(stale.status).toBe(409)
    expect(stale.text).toContain('The post changed since you opened this page')
    expect(stale.text).toContain('Launch day, with a typo')
    const now = (await t.http.get(`/v1/posts/${team.postId}`, { key: t.key })).body
    expect(now).toMatchObject({ status: 'pending_approval', content: 'Launch day, with a typo' })
    expect((await t.http.get(`/v1/posts/${team.postId}/comments`, { key: t.key })).body.data).toEqual([])
    // The page it answered carries a form for the version it shows, which decides.
    const fresh = await submit(link.path, { csrf: csrfOf(stale.text)!, decision: 'reject', comment: 'Fix the typo' })
    expect(fresh.status).toBe(200)
    expect((await t.http.get(`/v1/posts/${team.postId}`, { key: t.key })).body.status).toBe('rejected')
  })

  it('says plainly, with 410, that a link was revoked or has expired, and then changes nothing', async () => {
    const team = await waiting()
    const revoked = await linkTo(team.postId, team.admin.key)
    const csrf = csrfOf((await page(revoked.path)).text)!
    expect((await t.http.delete(`/v1/posts/${team.postId}/review-links/${revoked.id}`, { key: team.editor.key })).status).toBe(403)
    expect((await t.http.delete(`/v1/posts/${team.postId}/review-links/${revoked.id}`, { key: team.admin.key })).status).toBe(204)
    expect((await t.http.delete(`/v1/posts/${team.postId}/review-links/rvl_nope`, { key: team.admin.key })).status).toBe(404)
    const gone = await page(revoked.path)
    expect(gone.status).toBe(410)
    expect(gone.text).toContain('This link was revoked')
    expect(gone.text).not.toContain('Launch day')
    expect((await submit(revoked.path, { csrf, decision: 'approve' })).status).toBe(410)

    const short = await linkTo(team.postId, team.admin.key, { expires_in: 3600 })
    expect(short.expires_at).toBe(later(1))
    const shortCsrf = csrfOf((await page(short.path)).text)!
    t.clock.advance(3_600_000)
    const expired = await page(short.path)
    expect(expired.status).toBe(410)
    expect(expired.text).toContain('This link has expired')
    expect((await submit(short.path, { csrf: shortCsrf, decision: 'approve' })).status).toBe(410)
    expect((await t.http.get(`/v1/posts/${team.postId}`, { key: t.key })).body.status).toBe('pending_approval')
    const states = (await t.http.get(`/v1/posts/${team.postId}/review-links`, { key: team.admin.key })).body.data.map((l: { state: string }) => l.state)
    expect(states).toEqual(['revoked', 'expired'])
    const audit = (await t.http.get(`/v1/workspaces/${team.workspace.id}/audit-log?kind=post.review_link_revoked`, { key: t.key })).body.data
    expect(audit).toEqual([expect.objectContaining({ actor: expect.objectContaining({ user_id: team.admin.userId }), summary: `Post ${team.postId} review link ${revoked.id} revoked` })])
  })
})
