import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql, startTestDaemon, type TestDaemon } from './helpers/daemon.js'

let t: TestDaemon
let other: string
beforeAll(async () => {
  // No allowPrivateNetwork: endpoints must be public, as in production.
  t = await startTestDaemon({ backgroundWorkers: false })
  const user = await t.daemon.store.users.create({ name: 'someone else' }, t.clock.now())
  other = (await t.daemon.store.apiKeys.create(user.id, { name: 'other', scopes: ['webhooks:read', 'webhooks:write'] }, t.clock.now(), null)).secret
})
afterAll(() => t.stop())

const create = (json: unknown, key = t.key) => t.http.post('/v1/webhooks', json, { key })

describe('creating a webhook', () => {
  it('answers 201 with a Standard Webhooks secret shown in that response only', async () => {
    const res = await create({ url: 'https://93.184.215.14/hooks', events: ['post.published', 'post.failed'], description: 'CI' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^whk_/),
      url: 'https://93.184.215.14/hooks',
      events: ['post.published', 'post.failed'],
      description: 'CI',
      enabled: true,
      disabled_reason: null,
      previous_secret_expires_at: null,
    })
    expect(res.headers.location).toBe(`/v1/webhooks/${res.body.id}`)
    const secret: string = res.body.secret
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32)

    const got = await t.http.get(`/v1/webhooks/${res.body.id}`, { key: t.key })
    expect(got.status).toBe(200)
    expect(got.body).not.toHaveProperty('secret')
    const list = await t.http.get('/v1/webhooks', { key: t.key })
    expect(list.text).not.toContain(secret.slice(6))
    // At rest it is sealed: neither the database file nor the logs hold it in clear.
    sql(t).pragma('wal_checkpoint(TRUNCATE)')
    expect(readFileSync(join(t.dataDir, 'smm.db')).includes(secret.slice(6))).toBe(false)
    expect(t.logs.join('\n')).not.toContain(secret.slice(6))
  })

  it('takes ["*"] for every event type', async () => {
    const res = await create({ url: 'https://93.184.215.14/all', events: ['*'] })
    expect(res.status).toBe(201)
    expect(res.body.events).toEqual(['*'])
  })

  it('refuses an http URL, credentials in the URL and unknown event types, naming each field', async () => {
    const res = await create({ url: 'http://93.184.215.14/hooks', events: ['post.published', 'post.exploded'] })
    expect(res.status).toBe(422)
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['#/url', '#/events/1'])
    expect(res.body.errors[0].detail).toMatch(/https/)

    const creds = await create({ url: 'https://user:pw@93.184.215.14/hooks', events: ['*'] })
    expect(creds.status).toBe(422)
    expect(creds.body.errors[0]).toMatchObject({ pointer: '#/url', detail: expect.stringMatching(/credentials/) })

    const mixed = await create({ url: 'https://93.184.215.14/', events: ['*', 'post.failed'] })
    expect(mixed.body.errors[0]).toMatchObject({ pointer: '#/events' })
    const unknown = await create({ url: 'https://93.184.215.14/', events: ['*'], secret: 'mine' })
    expect(unknown.body).toMatchObject({ code: 'unknown_field', errors: [{ pointer: '#/secret' }] })
  })

  it.each([
    ['a loopback literal', 'https://127.0.0.1:8443/hooks', /127\.0\.0\.1 is a private, loopback/],
    ['a private literal', 'https://10.1.2.3/hooks', /10\.1\.2\.3 is a private/],
    ['an IPv6 loopback literal', 'https://[::1]/hooks', /::1 is a private/],
    ['a name resolving to loopback', 'https://localhost:9000/hooks', /localhost resolves to (127\.0\.0\.1|::1)/],
  ])('refuses %s unless the daemon allows private networks', async (_what, url, detail) => {
    const res = await create({ url, events: ['*'] })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual([{ pointer: '#/url', code: 'invalid_value', detail: expect.stringMatching(detail) }])
    expect(res.body.errors[0].detail).toContain('--allow-private-network')
  })
})

describe('managing webhooks', () => {
  it('updates url, events and description, and enabling clears disabled_reason', async () => {
    const { body: hook } = await create({ url: 'https://93.184.215.14/a', events: ['post.published'] })
    const off = await t.http.patch(`/v1/webhooks/${hook.id}`, { enabled: false }, { key: t.key })
    expect(off.body).toMatchObject({ enabled: false, disabled_reason: 'disabled by request', disabled_at: expect.any(String) })
    const test = await t.http.post(`/v1/webhooks/${hook.id}/test`, {}, { key: t.key })
    expect(test.status).toBe(409)
    expect(test.body.code).toBe('webhook_disabled')

    const on = await t.http.patch(`/v1/webhooks/${hook.id}`, { enabled: true, events: ['*'], description: 'all' }, { key: t.key })
    expect(on.body).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null, events: ['*'], description: 'all' })
    const bad = await t.http.patch(`/v1/webhooks/${hook.id}`, { url: 'https://192.168.1.1/' }, { key: t.key })
    expect(bad.status).toBe(422)
    expect(bad.body.errors[0].pointer).toBe('#/url')
  })

  it('rotates the secret: a new one once, and the old one keeps signing for 24 h', async () => {
    const { body: hook } = await create({ url: 'https://93.184.215.14/r', events: ['*'] })
    const res = await t.http.post(`/v1/webhooks/${hook.id}/rotate-secret`, {}, { key: t.key })
    expect(res.status).toBe(200)
    expect(res.body.secret).toMatch(/^whsec_/)
    expect(res.body.secret).not.toBe(hook.secret)
    expect(res.body.previous_secret_expires_at).toBe(new Date(t.clock.now() + 86_400_000).toISOString())
  })

  it('lists page by page, deletes with 204, then 404', async () => {
    const first = await t.http.get('/v1/webhooks?limit=2', { key: t.key })
    expect(first.body.data).toHaveLength(2)
    expect(first.body.has_more).toBe(true)
    const second = await t.http.get(`/v1/webhooks?limit=100&cursor=${first.body.next_cursor}`, { key: t.key })
    expect(second.body.data[0].id > first.body.data[1].id).toBe(true)

    const id = second.body.data[0].id
    expect((await t.http.delete(`/v1/webhooks/${id}`, { key: t.key })).status).toBe(204)
    expect((await t.http.get(`/v1/webhooks/${id}`, { key: t.key })).status).toBe(404)
    expect((await t.http.delete(`/v1/webhooks/${id}`, { key: t.key })).status).toBe(404)
  })

  it("hides another user's webhooks behind 404, on every route", async () => {
    const { body: hook } = await create({ url: 'https://93.184.215.14/mine', events: ['*'] })
    const paths: [string, string][] = [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/test'],
      ['POST', '/rotate-secret'],
      ['GET', '/deliveries'],
    ]
    for (const [method, suffix] of paths) {
      const res = await t.http.request(method, `/v1/webhooks/${hook.id}${suffix}`, { key: other, ...(method === 'PATCH' || method === 'POST' ? { json: {} } : {}) })
      expect(res.status, `${method} ${suffix}`).toBe(404)
    }
    const theirs = await t.http.get('/v1/webhooks', { key: other })
    expect(theirs.body.data).toEqual([])
  })

  it('needs webhooks:read to list and webhooks:write to change', async () => {
    const user = await t.daemon.store.users.create({ name: 'reader' }, t.clock.now())
    const reader = (await t.daemon.store.apiKeys.create(user.id, { name: 'r', scopes: ['webhooks:read'] }, t.clock.now(), null)).secret
    expect((await t.http.get('/v1/webhooks', { key: reader })).status).toBe(200)
    const res = await create({ url: 'https://93.184.215.14/', events: ['*'] }, reader)
    expect(res.status).toBe(403)
    expect(res.body.required_scope).toBe('webhooks:write')
  })
})
