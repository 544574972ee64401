// The SDK against a live daemon. The vitest wrapper (test/sdk-typescript.test.ts at the top of
// the repository) starts one and sets the variables below; run alone, the suite says what it needs.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { createHash, createHmac } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rootCertificates } from 'node:tls'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import { crc32, deflateSync } from 'node:zlib'
import { createReceiver } from '../examples/webhook-receiver.mjs'
import { ConnectionError, methodFor, RateLimitError, SmmApiError, SmmClient, verifyWebhook, WebhookVerificationError } from '@smm/sdk'

const NEEDED = ['SMM_URL', 'SMM_API_KEY', 'SMM_CA_FILE', 'SMM_TEST_LIMITED_API_KEY', 'SMM_TEST_RECEIVER_URL', 'SMM_TEST_CONTROL_URL', 'SMM_TEST_MEMBER_API_KEY', 'SMM_TEST_MEMBER_EMAIL']
const missing = NEEDED.filter((name) => !process.env[name])
const skip = missing.length > 0 && `needs a daemon: run \`npx vitest run test/sdk-typescript.test.ts\` from the repository root (missing ${missing.join(', ')})`
const env = process.env
const control = (path, init) => fetch(env.SMM_TEST_CONTROL_URL + path, init).then((r) => r.json())
const advance = (seconds) => control('/clock/advance', { method: 'POST', body: JSON.stringify({ seconds }) })
const rejection = (promise) => promise.then(() => assert.fail('expected an error'), (e) => e)

describe('the TypeScript SDK against the daemon', { skip }, () => {
  let client
  let account
  before(async () => {
    client = new SmmClient()
    account = await client.accounts.create({ name: 'SDK suite' })
    await client.accounts.connect(account.id, { platform: 'feed' })
  })
  after(() => client?.close())
  const later = (minutes) => new Date(Date.now() + minutes * 60_000)

  test('reads its settings from SMM_URL, SMM_API_KEY and SMM_CA_FILE, and adds /v1 to a bare URL', async () => {
    assert.equal(client.baseUrl, env.SMM_URL)
    const bare = new SmmClient({ baseUrl: new URL(env.SMM_URL).origin })
    assert.equal(bare.baseUrl, env.SMM_URL)
    assert.match((await bare.me()).id, /^usr_/)
    bare.close()
  })

  test('refuses http:// before any request, and a wrong CA is an error', async () => {
    assert.throws(() => new SmmClient({ baseUrl: env.SMM_URL.replace('https:', 'http:'), apiKey: 'smm_x' }), { name: 'TypeError', message: /must start with https:\/\// })
    for (const options of [{ ca: rootCertificates[0] }, { env: { SMM_URL: env.SMM_URL, SMM_API_KEY: env.SMM_API_KEY } }]) {
      const untrusting = new SmmClient({ baseUrl: env.SMM_URL, apiKey: env.SMM_API_KEY, ...options })
      const error = await rejection(untrusting.me())
      assert.ok(error instanceof ConnectionError)
      assert.equal(error.code, 'certificate_untrusted')
    }
  })

  test('creates, gets, updates with the version read, refuses a stale one (412) and cancels a post', async () => {
    const post = await client.posts.create({ account_id: account.id, content: 'v1', platforms: ['feed'], scheduled_at: later(60) })
    assert.equal(post.status, 'scheduled')
    assert.deepEqual(await client.posts.get(post.id), post)
    const { etag } = await client.posts.getWithEtag(post.id)
    const updated = await client.posts.update(post.id, { content: 'v2' }, { ifMatch: etag })
    assert.equal(updated.content, 'v2')
    const stale = await rejection(client.posts.update(post.id, { content: 'v3' }, { ifMatch: etag }))
    assert.ok(stale instanceof SmmApiError)
    assert.equal(stale.status, 412)
    assert.equal(stale.problem.status, 412)
    assert.match(stale.requestId, /^req_/)
    assert.equal((await client.posts.get(post.id)).content, 'v2')
    const cancelled = await client.posts.cancel(post.id)
    assert.equal(cancelled.status, 'cancelled')
  })

  test('creates a series, lists it by series_id, skips one occurrence and stops the series', async () => {
    const first = await client.posts.create({ account_id: account.id, content: 'every day', platforms: ['feed'], scheduled_at: later(120), repeat: { interval: 'P1D', count: 3 } })
    assert.deepEqual([first.occurrence, first.repeat.interval, first.repeat.count], [1, 'P1D', 3])
    assert.match(first.series_id, /^ser_/)
    await client.posts.cancel(first.id) // skips this one: the next is scheduled
    const occurrences = async () => {
      const all = []
      for await (const post of client.posts.list({ series_id: first.series_id })) all.push(post)
      return all
    }
    const listed = await occurrences()
    assert.deepEqual(listed.map((p) => [p.occurrence, p.status]), [[1, 'cancelled'], [2, 'scheduled']])
    assert.equal((await client.posts.cancel(listed[1].id, { series: 'true' })).status, 'cancelled')
    assert.deepEqual((await occurrences()).map((p) => p.status), ['cancelled', 'cancelled'])
    const single = await client.posts.create({ account_id: account.id, content: 'once', platforms: ['feed'], scheduled_at: later(60) })
    const refused = await rejection(client.posts.cancel(single.id, { series: 'true' }))
    assert.equal(refused.status, 422)
    assert.equal(refused.errors[0].pointer, '#/series')
  })

  test('creates a thread with a platform\'s own version, reads it back, measures it and removes it', async () => {
    const thread = [{ content: 'part one' }, { content: 'part two', media_urls: ['https://example.com/two.png'] }]
    const overrides = { feed: { content: "the feed's own text", thread: [{ content: 'feed part' }] } }
    const post = await client.posts.create({ account_id: account.id, content: 'the post', platforms: ['feed'], scheduled_at: later(60), thread, overrides })
    const read = await client.posts.get(post.id)
    assert.deepEqual(read.thread, [{ content: 'part one', media_urls: [] }, { content: 'part two', media_urls: ['https://example.com/two.png'] }])
    assert.equal(read.first_comment, null)
    assert.deepEqual(read.overrides, overrides)
    assert.deepEqual([read.targets[0].parts, read.targets[0].error], [[], null]) // nothing is out yet
    const checked = await client.posts.validate({ account_id: account.id, content: 'the post', platforms: ['feed'], thread, overrides: { feed: { thread: [{ content: 'feed part' }] } } })
    assert.deepEqual(checked.targets[0].parts, [{ index: 1, kind: 'thread', length: 9, limit: 10000 }])
    const { etag } = await client.posts.getWithEtag(post.id)
    const updated = await client.posts.update(post.id, { thread: [], overrides: {} }, { ifMatch: etag })
    assert.deepEqual([updated.thread, updated.overrides], [[], {}])
  })

  test('publishes a thread now and lists each part out', async () => {
    let post = await client.posts.create({ account_id: account.id, content: 'now', platforms: ['feed'], thread: [{ content: 'one' }, { content: 'two' }] })
    const deadline = Date.now() + 20_000
    while (['scheduled', 'publishing'].includes(post.status) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100)) // polling the daemon's real scheduler over the network, not waiting out a timer
      post = await client.posts.get(post.id)
    }
    assert.equal(post.status, 'published')
    const [target] = post.targets
    assert.deepEqual(target.parts.map((p) => [p.index, p.kind, p.platform_post_id]), [[0, 'post', post.id], [1, 'thread', `${post.id}-1`], [2, 'thread', `${post.id}-2`]])
    assert.deepEqual([target.platform_post_id, target.url], [target.parts[0].platform_post_id, target.parts[0].url])
    assert.ok(target.parts[2].url.endsWith(`#${post.id}-2`), target.parts[2].url)
  })

  test('refuses a first comment on the feed at #/first_comment, and takes it dropped there', async () => {
    const post = { account_id: account.id, content: 'with a comment', platforms: ['feed'], scheduled_at: later(60), first_comment: 'and a comment' }
    const refused = await rejection(client.posts.create(post))
    assert.ok(refused instanceof SmmApiError)
    assert.equal(refused.status, 422)
    assert.deepEqual(refused.errors.map((e) => [e.pointer, e.code]), [['#/first_comment', 'not_supported']])
    assert.match(refused.errors[0].detail, /feed/)
    const dropped = await client.posts.create({ ...post, overrides: { feed: { first_comment: null } } })
    assert.deepEqual([dropped.first_comment, dropped.overrides], ['and a comment', { feed: { first_comment: null } }])
    assert.equal((await client.posts.update(dropped.id, { first_comment: null })).first_comment, null)
    const [made] = (await client.posts.createMany([{ account_id: account.id, content: 'bulk', platforms: ['feed'], scheduled_at: later(61), thread: [{ content: 'bulk part' }] }])).data
    assert.equal(made.thread[0].content, 'bulk part')
  })

  test('keeps a draft until it is scheduled, and fills queue slots in turn', async () => {
    const mine = await client.accounts.create({ name: 'SDK queue' })
    await client.accounts.connect(mine.id, { platform: 'feed' })
    const draft = await client.posts.create({ account_id: mine.id, content: 'An idea', platforms: ['feed'], draft: true })
    assert.equal(draft.status, 'draft')
    assert.equal(draft.scheduled_at, null)
    const empty = await rejection(client.posts.create({ account_id: mine.id, content: 'x', platforms: ['feed'], queue: true }))
    assert.equal(empty.code, 'queue_empty')

    const queue = await client.accounts.setQueue(mine.id, [{ day: 'friday', time: '17:30' }, { day: 'monday', time: '09:00' }])
    assert.deepEqual(queue.slots, [{ day: 'monday', time: '09:00' }, { day: 'friday', time: '17:30' }])
    assert.equal(queue.next.length, 10)
    assert.deepEqual((await client.accounts.getQueue(mine.id)).next, queue.next)
    const queued = await client.posts.create({ account_id: mine.id, content: 'Queued', platforms: ['feed'], queue: true })
    assert.equal(queued.scheduled_at, queue.next[0])

    const { etag } = await client.posts.getWithEtag(draft.id)
    assert.equal((await rejection(client.posts.schedule(draft.id, { queue: true }, { ifMatch: '"v999"' }))).status, 412)
    const scheduled = await client.posts.schedule(draft.id, { queue: true }, { ifMatch: etag })
    assert.equal(scheduled.status, 'scheduled')
    assert.equal(scheduled.scheduled_at, queue.next[1])
    const again = await rejection(client.posts.schedule(draft.id))
    assert.equal(again.status, 409)
    assert.equal(again.code, 'post_not_editable')
  })

  test('carries every invalid field of a 422', async () => {
    const error = await rejection(client.posts.create({ account_id: account.id, platforms: ['nowhere'], media_urls: ['http://x'] }))
    assert.ok(error instanceof SmmApiError)
    assert.equal(error.status, 422)
    assert.equal(error.code, 'validation_error')
    assert.deepEqual(error.errors.map((e) => e.pointer).sort(), ['#/media_urls/0', '#/platforms/0'])
  })

  test('validates a post without creating it: lengths and limits, or the 422 create would give', async () => {
    const own = await client.accounts.create({ name: 'Validate' })
    await client.accounts.connect(own.id, { platform: 'feed' })
    const at = later(45)
    const valid = await client.posts.validate({ account_id: own.id, content: 'Hello there', platforms: ['feed'], scheduled_at: at })
    assert.deepEqual(valid, { valid: true, scheduled_at: at.toISOString(), targets: [{ platform: 'feed', length: 11, limit: 10_000, parts: [], warnings: [] }] })
    const error = await rejection(client.posts.validate({ account_id: own.id, platforms: ['nowhere'], media_urls: ['http://x'] }))
    assert.ok(error instanceof SmmApiError)
    assert.equal(error.status, 422)
    assert.deepEqual(error.errors.map((e) => e.pointer).sort(), ['#/media_urls/0', '#/platforms/0'])
    const all = []
    for await (const post of client.posts.list({ account_id: own.id })) all.push(post.id)
    assert.deepEqual(all, [])
  })

  test('creates many posts at once, in order, or none when one is invalid', async () => {
    const posts = [0, 1, 2].map((i) => ({ account_id: account.id, content: `bulk ${i}`, platforms: ['feed'], scheduled_at: later(60 + i) }))
    assert.deepEqual(await client.posts.validateMany(posts), { valid: true, count: 3 })
    const made = await client.posts.createMany(posts)
    assert.deepEqual(made.data.map((p) => p.content), ['bulk 0', 'bulk 1', 'bulk 2'])
    const error = await rejection(client.posts.createMany([posts[0], { ...posts[1], platforms: ['nowhere'] }]))
    assert.equal(error.status, 422)
    assert.deepEqual(error.errors.map((e) => e.pointer), ['#/posts/1/platforms/0'])
  })

  test('lists across pages, and gives one page with its cursor', async () => {
    const own = await client.accounts.create({ name: 'Pages' })
    await client.accounts.connect(own.id, { platform: 'feed' })
    const made = []
    for (let i = 0; i < 5; i++) made.push((await client.posts.create({ account_id: own.id, content: `p${i}`, platforms: ['feed'], scheduled_at: later(10 + i) })).id)
    const seen = []
    for await (const post of client.posts.list({ account_id: own.id, limit: 2 })) seen.push(post.id)
    assert.deepEqual(seen, made)
    const first = await client.posts.listPage({ account_id: own.id, limit: 2 })
    assert.equal(first.data.length, 2)
    assert.equal(first.has_more, true)
    const second = await client.posts.listPage({ account_id: own.id, limit: 2, cursor: first.next_cursor })
    assert.deepEqual(second.data.map((p) => p.id), made.slice(2, 4))
  })

  test('the same Idempotency-Key twice makes one post', async () => {
    const own = await client.accounts.create({ name: 'Once' })
    await client.accounts.connect(own.id, { platform: 'feed' })
    const input = { account_id: own.id, content: 'once', platforms: ['feed'], scheduled_at: later(30) }
    const a = await client.posts.create(input, { idempotencyKey: 'sdk-ts-once' })
    const b = await client.posts.create(input, { idempotencyKey: 'sdk-ts-once' })
    assert.equal(b.id, a.id)
    const all = []
    for await (const post of client.posts.list({ account_id: own.id })) all.push(post.id)
    assert.deepEqual(all, [a.id])
  })

  test('a 429 is a RateLimitError with its delay, and is retried after exactly Retry-After', async () => {
    const hasty = new SmmClient({ apiKey: env.SMM_TEST_LIMITED_API_KEY, maxRetries: 0 })
    await hasty.me()
    await hasty.me()
    const limited = await rejection(hasty.me())
    assert.ok(limited instanceof RateLimitError)
    assert.equal(limited.status, 429)
    assert.ok(limited.retryAfter >= 1 && limited.retryAfter <= 60, `retryAfter ${limited.retryAfter}`)
    hasty.close()

    const waits = []
    const patient = new SmmClient({
      apiKey: env.SMM_TEST_LIMITED_API_KEY,
      onRetry: (event) => waits.push({ delayMs: event.delayMs, retryAfter: event.error.retryAfter }),
      sleep: (ms) => advance(ms / 1000),
    })
    const me = await patient.me()
    assert.match(me.id, /^usr_/)
    assert.equal(waits.length, 1)
    assert.equal(waits[0].delayMs, waits[0].retryAfter * 1000)
    patient.close()
  })

  test('a webhook delivered by the daemon verifies with the endpoint secret', async () => {
    const webhook = await client.webhooks.create({ url: env.SMM_TEST_RECEIVER_URL, events: ['webhook.test'] })
    assert.match(webhook.secret, /^whsec_/)
    await client.webhooks.test(webhook.id)
    let delivery
    for (let i = 0; i < 200 && !delivery; i++) {
      delivery = (await control('/webhooks')).find((d) => d.body.includes(webhook.id))
      if (!delivery) await new Promise((resolve) => setImmediate(resolve))
    }
    assert.ok(delivery, 'the receiver got no delivery of the test event')
    const event = verifyWebhook(delivery.body, delivery.headers, webhook.secret, { now: Number(delivery.headers['webhook-timestamp']) * 1000 })
    assert.equal(event.type, 'webhook.test')
    assert.throws(() => verifyWebhook(delivery.body, delivery.headers, 'whsec_' + Buffer.alloc(32).toString('base64')), WebhookVerificationError)
    assert.throws(() => verifyWebhook(delivery.body.replace('webhook.test', 'webhook.tesT'), delivery.headers, webhook.secret), WebhookVerificationError)

    // The README's receiver accepts the real delivery and refuses a changed one.
    const events = []
    const receiver = createReceiver(webhook.secret, (e) => events.push(e))
    await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    try {
      const signed = Object.fromEntries(Object.entries(delivery.headers).filter(([name]) => name.startsWith('webhook-')))
      const post = (body) => fetch(`http://127.0.0.1:${receiver.address().port}/`, { method: 'POST', headers: signed, body }).then((r) => r.status)
      assert.equal(await post(delivery.body), 204)
      assert.equal(await post(delivery.body + ' '), 400)
      assert.deepEqual(events, [event])
    } finally {
      receiver.close()
    }
  })

  test('has workspace members act by their role, and lose access the moment they are removed', async () => {
    const member = new SmmClient({ apiKey: env.SMM_TEST_MEMBER_API_KEY })
    const failure = async (promise, status, code) => {
      const error = await rejection(promise)
      assert.ok(error instanceof SmmApiError, String(error))
      assert.deepEqual([error.status, error.code], [status, code], error.message)
      return error
    }
    try {
      const me = await member.me()
      const team = await client.workspaces.create({ name: 'TypeScript team', approval_required: true, timezone: 'Europe/Berlin' })
      assert.deepEqual([team.role, team.personal, team.approval_required, team.timezone], ['owner', false, true, 'Europe/Berlin'])
      const added = await client.workspaces.addMember(team.id, { email: env.SMM_TEST_MEMBER_EMAIL, role: 'viewer' })
      assert.deepEqual([added.user_id, added.role], [me.id, 'viewer'])
      await failure(client.workspaces.addMember(team.id, { user_id: me.id, role: 'admin' }), 409, 'already_member')
      const unknown = await failure(client.workspaces.addMember(team.id, { user_id: me.id, role: 'boss' }), 422, 'validation_error')
      assert.equal(unknown.errors[0].pointer, '#/role')
      const theirs = []
      for await (const w of member.workspaces.list()) theirs.push([w.id, w.role])
      assert.ok(theirs.some(([id, role]) => id === team.id && role === 'viewer'), JSON.stringify(theirs))

      // A viewer reads; managing accounts needs admin or owner.
      await failure(member.accounts.create({ name: 'Not mine to make', workspace_id: team.id }), 403, 'forbidden')
      assert.equal((await client.workspaces.setRole(team.id, me.id, 'admin')).role, 'admin')
      const teamAccount = await member.accounts.create({ name: 'Team brand', workspace_id: team.id })
      assert.equal(teamAccount.workspace_id, team.id)
      const inTeam = []
      for await (const a of client.accounts.list({ workspace_id: team.id })) inTeam.push(a.id)
      assert.deepEqual(inTeam, [teamAccount.id])
      const roles = []
      for await (const m of client.workspaces.members(team.id, { limit: 1 })) roles.push(m.role)
      assert.deepEqual(roles.sort(), ['admin', 'owner'])

      // Removed, the member loses access at once.
      await client.workspaces.removeMember(team.id, me.id)
      await failure(member.accounts.get(teamAccount.id), 404, 'not_found')
      await failure(member.workspaces.get(team.id), 404, 'not_found')
      await failure(client.workspaces.removeMember(team.id, (await client.me()).id), 409, 'last_owner')
      const renamed = await client.workspaces.update(team.id, { name: 'TypeScript team (old)', approval_required: false })
      assert.deepEqual([renamed.name, renamed.approval_required], ['TypeScript team (old)', false])
      await failure(client.workspaces.delete(team.id), 409, 'workspace_has_accounts')
      await client.accounts.delete(teamAccount.id)
      await client.workspaces.delete(team.id)
      await failure(client.workspaces.get(team.id), 404, 'not_found')
    } finally {
      member.close()
    }
  })

  /** A workspace requiring approval where `member` is an editor, with a feed account, and a post `member` wrote there, waiting; gone when the test ends. */
  async function pendingPost(t, member, name, content, scheduledAt) {
    const team = await client.workspaces.create({ name, approval_required: true })
    await client.workspaces.addMember(team.id, { user_id: (await member.me()).id, role: 'editor' })
    const brand = await client.accounts.create({ name: `${name} brand`, workspace_id: team.id })
    t.after(async () => {
      await client.accounts.delete(brand.id, { cancel_posts: 'true' })
      await client.workspaces.delete(team.id)
    })
    await client.accounts.connect(brand.id, { platform: 'feed' })
    const post = await member.posts.create({ account_id: brand.id, content, platforms: ['feed'], scheduled_at: scheduledAt })
    assert.equal(post.status, 'pending_approval')
    return { team, post }
  }

  test('takes an editor’s post through approval, with comments, into the audit log and the workspace’s posts, webhooks and analytics', async (t) => {
    const member = new SmmClient({ apiKey: env.SMM_TEST_MEMBER_API_KEY })
    try {
      const me = await member.me()
      const { team, post } = await pendingPost(t, member, 'TypeScript approvals', 'Please check', later(90))
      const refused = await rejection(member.posts.approve(post.id))
      assert.deepEqual([refused.status, refused.code], [403, 'forbidden'])
      assert.equal((await client.posts.reject(post.id, 'Add the link')).status, 'rejected')
      await member.posts.addComment(post.id, 'Link added')
      assert.equal((await member.posts.update(post.id, { content: 'Please check: https://example.com' })).status, 'pending_approval')
      const approved = await client.posts.approve(post.id, { comment: 'Thanks' })
      assert.deepEqual([approved.status, approved.scheduled_at], ['scheduled', post.scheduled_at])
      const notPending = await rejection(client.posts.approve(post.id))
      assert.deepEqual([notPending.status, notPending.code, notPending.problem.post_status], [409, 'post_not_pending', 'scheduled'])

      const comments = []
      for await (const c of member.posts.comments(post.id, { limit: 1 })) comments.push([c.author.name, c.body, c.decision])
      assert.deepEqual(comments, [[(await client.me()).name, 'Add the link', 'rejected'], [me.name, 'Link added', null], [(await client.me()).name, 'Thanks', 'approved']])
      assert.equal((await member.posts.commentsPage(post.id, { limit: 2 })).has_more, true)

      const kinds = []
      for await (const entry of client.workspaces.auditLog(team.id, { kind: 'post.*', limit: 2 })) kinds.push(entry.kind)
      assert.deepEqual(kinds, ['post.approved', 'post.approval_requested', 'post.updated', 'post.commented', 'post.rejected', 'post.approval_requested'])
      const page = await client.workspaces.auditLogPage(team.id, { kind: 'post.approved', from: new Date(Date.now() - 3_600_000) })
      assert.deepEqual(page.data.map((e) => [e.actor.type, e.object.id]), [['user', post.id]])
      assert.equal((await rejection(member.workspaces.auditLogPage(team.id))).status, 403)

      // The workspace's posts and analytics are its members', its webhooks its admins'.
      const listed = []
      for await (const p of member.posts.list({ workspace_id: team.id })) listed.push(p.id)
      assert.deepEqual(listed, [post.id])
      const range = { from: new Date(Date.parse(post.scheduled_at) - 86_400_000), to: new Date(Date.parse(post.scheduled_at) + 86_400_000) }
      assert.equal((await member.analytics.get({ workspace_id: team.id, ...range })).totals.posts_scheduled, 1)
      assert.equal((await member.analytics.get(range)).totals.posts_scheduled, 0)
      const hook = { url: env.SMM_TEST_RECEIVER_URL, events: ['webhook.test'], workspace_id: team.id }
      assert.equal((await rejection(member.webhooks.create(hook))).status, 403)
      const made = await client.webhooks.create(hook)
      assert.equal(made.workspace_id, team.id)
      const hooks = []
      for await (const w of client.webhooks.list({ workspace_id: team.id })) hooks.push(w.id)
      assert.deepEqual(hooks, [made.id])
    } finally {
      member.close()
    }
  })

  test('makes, lists and revokes review links whose URL opens the page without a key until revoked', async (t) => {
    const member = new SmmClient({ apiKey: env.SMM_TEST_MEMBER_API_KEY })
    // A reviewer's browser: plain HTTPS to the link's URL, no key.
    const open = (url) =>
      new Promise((resolve, reject) => {
        https
          .get(url, { ca: readFileSync(env.SMM_CA_FILE) }, (res) => {
            let text = ''
            res.setEncoding('utf8').on('data', (c) => (text += c)).on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }))
          })
          .on('error', reject)
      })
    try {
      const { team, post } = await pendingPost(t, member, 'TypeScript review', 'TypeScript <b>launch</b> day', '2099-01-01T09:00:00Z')

      // A link approves in an admin's stead: an editor may not make one for their own post.
      const refused = await rejection(member.posts.createReviewLink(post.id))
      assert.deepEqual([refused.status, refused.code], [403, 'forbidden'])
      const short = await rejection(client.posts.createReviewLink(post.id, { expires_in: 30 }))
      assert.deepEqual([short.status, short.errors[0].pointer], [422, '#/expires_in'])
      const hour = await client.posts.createReviewLink(post.id, { expires_in: 3600 })
      const week = await client.posts.createReviewLink(post.id)
      const origin = new URL(env.SMM_URL).origin
      for (const link of [hour, week]) {
        assert.match(link.id, /^rvl_/)
        assert.ok(link.url.startsWith(`${origin}/review/`), link.url)
        assert.deepEqual([link.post_id, link.state, link.revoked_at, link.created_by.type], [post.id, 'active', null, 'user'])
      }
      assert.equal(Date.parse(hour.expires_at) - Date.parse(hour.created_at), 3_600_000)
      assert.equal(Date.parse(week.expires_at) - Date.parse(week.created_at), 7 * 86_400_000)

      // The URL is a page anyone holding it opens, without a key: the post as it will go out, escaped, and the form.
      const shown = await open(hour.url)
      assert.equal(shown.status, 200)
      assert.match(shown.headers['content-type'], /^text\/html/)
      assert.match(shown.headers['content-security-policy'], /default-src 'none'/)
      assert.ok(shown.text.includes('TypeScript &#60;b&#62;launch&#60;/b&#62; day'), shown.text)
      assert.ok(!shown.text.includes('<b>launch</b>'))
      assert.ok(shown.text.includes('name="csrf"'))

      // Revoked (a second later on the daemon's clock), a link opens nothing, at once; the other still works.
      await advance(1)
      assert.equal(await client.posts.revokeReviewLink(post.id, hour.id), undefined)
      assert.equal((await rejection(client.posts.revokeReviewLink(post.id, 'rvl_nope'))).status, 404)
      const gone = await open(hour.url)
      assert.equal(gone.status, 410)
      assert.ok(gone.text.includes('This link was revoked'), gone.text)
      assert.ok(!gone.text.includes('launch'))
      assert.equal((await open(week.url)).status, 200)

      const links = (await client.posts.reviewLinks(post.id)).data
      assert.deepEqual(links.map((l) => [l.id, l.state, 'url' in l]), [[hour.id, 'revoked', false], [week.id, 'active', false]])
      assert.notEqual(links[0].revoked_at, null)
      assert.equal((await rejection(member.posts.reviewLinks(post.id))).status, 403)

      // Both are in the audit log, and its time range keeps the one or the other.
      const kind = 'post.review_link_created,post.review_link_revoked'
      const entries = []
      for await (const e of client.workspaces.auditLog(team.id, { kind, limit: 1 })) entries.push([e.kind, e.object.id])
      assert.deepEqual(entries, [['post.review_link_revoked', post.id], ['post.review_link_created', post.id], ['post.review_link_created', post.id]])
      const before = await client.workspaces.auditLogPage(team.id, { kind, to: links[0].revoked_at })
      assert.deepEqual(before.data.map((e) => e.kind), ['post.review_link_created', 'post.review_link_created'])
      const since = await client.workspaces.auditLogPage(team.id, { kind, from: new Date(links[0].revoked_at) })
      assert.deepEqual(since.data.map((e) => e.kind), ['post.review_link_revoked'])
    } finally {
      member.close()
    }
  })

  test('lists the platforms with how each connects and what a post on it may hold', async () => {
    const platforms = []
    for await (const platform of client.platforms.list()) platforms.push(platform)
    assert.deepEqual(platforms.slice(0, 2).map((p) => p.name), ['feed', 'mastodon'])
    const bluesky = platforms.find((p) => p.name === 'bluesky')
    assert.deepEqual([bluesky.auth, bluesky.limits.text.max, bluesky.limits.text.count, bluesky.limits.media.max], ['credentials', 300, 'graphemes', 4])
  })

  test('every operation of /v1/openapi.json has a method', async () => {
    const doc = await client.openApi()
    const lacking = []
    for (const methods of Object.values(doc.paths)) {
      for (const { operationId, 'x-smm-protocol': protocol } of Object.values(methods)) {
        // A protocol's own operations (tus uploads) are left to that protocol's clients.
        if (protocol) continue
        const path = methodFor[operationId]
        const fn = path?.split('.').reduce((at, name) => at?.[name], client)
        if (typeof fn !== 'function') lacking.push(operationId)
      }
    }
    assert.deepEqual(lacking, [], `operations without an SDK method (add them to methodFor in src/client.ts): ${lacking.join(', ')}`)
  })

  test('the README examples run against the daemon', async () => {
    const run = (file) => promisify(execFile)(process.execPath, [file], { cwd: new URL('..', import.meta.url), env: process.env })
    assert.match((await run('examples/quickstart.mjs')).stdout, /^pst_\w+ scheduled\n$/)
    assert.match((await run('examples/errors.mjs')).stdout, /^422 validation_error #\/platforms\/0 #\/account_id req_\w+\n$/)
    assert.match((await run('examples/pagination.mjs')).stdout, /^\d+ true\n$/)
    assert.equal((await run('examples/retries.mjs')).stdout, 'true\n')
    const [, id, parts, text] = (await run('examples/threads.mjs')).stdout.match(/^(pst_\w+) (\d+) (.*)\n$/)
    assert.deepEqual([parts, text], ['2', 'Threads are here: read all about it below.'])
    const made = await client.posts.get(id)
    assert.deepEqual([made.first_comment, made.overrides], ['Changelog: https://example.com/changelog', { feed: { content: text, first_comment: null } }])
  })
})

describe('verifyWebhook', () => {
  // The Standard Webhooks specification's test vector.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
  const body = '{"test": 2432232314}'
  const headers = { 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330', 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' }
  const now = 1614265330 * 1000
  const fails = (message, fn) => assert.throws(fn, (e) => e instanceof WebhookVerificationError && message.test(e.message))

  test('accepts the Standard Webhooks vector, from a Buffer, a string or fetch Headers', () => {
    assert.deepEqual(verifyWebhook(Buffer.from(body), headers, secret, { now }), { test: 2432232314 })
    assert.deepEqual(verifyWebhook(body, new Headers(headers), secret, { now: now + 299_000 }), { test: 2432232314 })
  })

  test('accepts one matching signature among several', () => {
    const signature = `v1,${Buffer.alloc(32).toString('base64')} v2,abc ${headers['webhook-signature']}`
    assert.deepEqual(verifyWebhook(body, { ...headers, 'webhook-signature': signature }, secret, { now }), { test: 2432232314 })
  })

  test('rejects a changed body, another secret, an old or future timestamp, and malformed headers', () => {
    fails(/No signature/, () => verifyWebhook('{"test": 2432232315}', headers, secret, { now }))
    fails(/No signature/, () => verifyWebhook(body, headers, 'whsec_' + Buffer.from('another secret').toString('base64'), { now }))
    fails(/old/, () => verifyWebhook(body, headers, secret, { now: now + 301_000 }))
    fails(/future/, () => verifyWebhook(body, headers, secret, { now: now - 301_000 }))
    fails(/webhook-signature header is missing/, () => verifyWebhook(body, { ...headers, 'webhook-signature': undefined }, secret, { now }))
    fails(/not a number/, () => verifyWebhook(body, { ...headers, 'webhook-timestamp': 'yesterday' }, secret, { now }))
    fails(/No signature/, () => verifyWebhook(body, { ...headers, 'webhook-signature': 'v1' }, secret, { now }))
    fails(/No signature/, () => verifyWebhook(body, { ...headers, 'webhook-signature': 'garbage,,, v1,%%%' }, secret, { now }))
  })

  test('rejects a signed body that is not JSON', () => {
    const text = 'not json'
    const signature = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${text}`).digest('base64')
    fails(/not JSON/, () => verifyWebhook(text, { ...headers, 'webhook-signature': `v1,${signature}` }, secret, { now }))
  })
})

describe('media with the TypeScript SDK', { skip }, () => {
  let client
  let account
  let dir
  before(async () => {
    client = new SmmClient()
    account = await client.accounts.create({ name: 'SDK media' })
    await client.accounts.connect(account.id, { platform: 'feed' })
    dir = mkdtempSync(join(tmpdir(), 'smm-sdk-media-'))
  })
  after(() => {
    client?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  // A grey PNG; `padding` bytes of comment (a tEXt chunk) make it as large as a test needs.
  const png = (width, height, padding = 0) => {
    const chunk = (type, data) => {
      const length = Buffer.alloc(4)
      length.writeUInt32BE(data.length)
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
      const crc = Buffer.alloc(4)
      crc.writeUInt32BE(crc32(body))
      return Buffer.concat([length, body, crc])
    }
    const header = Buffer.alloc(13)
    header.writeUInt32BE(width, 0)
    header.writeUInt32BE(height, 4)
    header.set([8, 0, 0, 0, 0], 8)
    const rows = Buffer.alloc((width + 1) * height, 0x80)
    for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0
    const comment = padding ? [chunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(padding, 0x78)]))] : []
    return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), ...comment, chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))])
  }

  test('streams a file from its path with its alt text, telling the progress, and serves the same bytes', async () => {
    const data = png(1200, 800, 300_000)
    const path = join(dir, 'field.png')
    writeFileSync(path, data)
    const told = []
    const media = await client.media.upload(path, { contentType: 'image/png', altText: 'A grey field', onProgress: (sent, total) => told.push([sent, total]) })
    assert.deepEqual([media.content_type, media.width, media.height, media.bytes, media.alt_text, media.sha256], ['image/png', 1200, 800, data.length, 'A grey field', createHash('sha256').update(data).digest('hex')])
    assert.ok(told.length > 2, `progress told ${told.length} times`)
    assert.deepEqual(told.at(-1), [data.length, data.length])
    assert.deepEqual(told.map(([sent]) => sent), told.map(([sent]) => sent).sort((a, b) => a - b))
    assert.ok((await client.media.file(media.url.split('/').at(-1))).equals(data))
    await assert.rejects(client.media.upload(join(dir, 'missing.png'), { contentType: 'image/png' }), { code: 'ENOENT' })
  })

  test('uploads bytes, gets, lists, changes, deletes them, and posts take them with their own alt text', async () => {
    const mismatch = await rejection(client.media.upload(png(8, 8), { contentType: 'image/jpeg' }))
    assert.deepEqual([mismatch instanceof SmmApiError, mismatch.status, mismatch.code], [true, 422, 'media_type_mismatch'])
    const media = await client.media.upload(png(300, 200), { contentType: 'image/png' })
    assert.equal(media.alt_text, null)
    assert.equal((await client.media.get(media.id)).id, media.id)
    assert.ok((await client.media.listPage({ limit: 2 })).data.some((m) => m.id === media.id))
    assert.equal((await client.media.update(media.id, { alt_text: 'Two blocks' })).alt_text, 'Two blocks')
    const post = await client.posts.create({ account_id: account.id, content: 'With media', platforms: ['feed'], scheduled_at: new Date(Date.now() + 86_400_000), media: [{ id: media.id, alt_text: "The post's own" }] })
    assert.deepEqual(post.media.map((m) => [m.id, m.alt_text, m.width]), [[media.id, "The post's own", 300]])
    const inUse = await rejection(client.media.delete(media.id))
    assert.deepEqual([inUse.status, inUse.code], [409, 'media_in_use'])
    assert.deepEqual((await client.posts.update(post.id, { media: [] })).media, [])
    await client.media.delete(media.id)
    assert.equal((await rejection(client.media.get(media.id))).status, 404)
  })
})

// The README's method table names the method of every operation (methodFor, which the daemon's
// OpenAPI document checks): a top-level one as `client.<method>`, a resource's in the row of
// `client.<resource>`.
test("the README's method table names every method of an operation", () => {
  const rows = readFileSync(new URL('../README.md', import.meta.url), 'utf8').split('\n').filter((line) => line.startsWith('|'))
  const named = (path) => {
    const [method, resource] = path.split('.').reverse()
    return rows.some((row) => {
      const spans = [...row.matchAll(/`([^`]*)`/g)].map((match) => match[1])
      if (!resource) return spans.some((span) => new RegExp(`\\bclient\\.${method}\\b`).test(span))
      return row.split('|')[1].includes(`client.${resource}`) && spans.some((span) => new RegExp(`\\b${method}\\b`).test(span))
    })
  }
  const missing = Object.entries(methodFor).filter(([, path]) => !named(path)).map(([id, path]) => `${id} (${path})`)
  assert.deepEqual(missing, [], "operations whose method the README's table leaves out")
})
