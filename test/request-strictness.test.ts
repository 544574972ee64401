import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes, type RouteDef } from '../src/contract.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { feedAccount, liftLimits } from './helpers/posts.js'
import { rawRequest } from './helpers/raw-request.js'

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon()
  await liftLimits(t)
})
afterAll(() => t.stop())

const send = (method: string, path: string, headers: string[], body?: Buffer) => rawRequest(t, method, path, headers, body)
const json = (bytes: Buffer | string, contentType = 'application/json') => ({
  headers: ['Authorization', `Bearer ${t.key}`, 'Content-Type', contentType],
  body: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes),
})
const keyNames = async () => (await t.http.get('/v1/api-keys?limit=100', { key: t.key })).body.data.map((k: { name: string }) => k.name)

describe('requests are exactly what they say', () => {
  it('refuses two Authorization headers with 400, even when both hold the valid key', async () => {
    const res = await send('GET', '/v1/me', ['Authorization', `Bearer ${t.key}`, 'Authorization', `Bearer ${t.key}`])
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'duplicate_header', detail: 'The Authorization header was sent more than once; send it once.' })
  })

  it('refuses a body that is not UTF-8 (invalid, overlong, surrogate bytes or escapes) with 400 invalid_json and stores nothing', async () => {
    const before = await keyNames()
    const bodies = [
      Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xff]), Buffer.from('"}')]),
      Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
      Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
      Buffer.from('{"name":"a\\ud800"}'),
      Buffer.from('{"name\\udfff":"a"}'),
    ]
    for (const bytes of bodies) {
      const { headers, body } = json(bytes)
      const res = await send('POST', '/v1/api-keys', headers, body)
      expect(res.status, bytes.toString('hex')).toBe(400)
      expect(res.body.code).toBe('invalid_json')
    }
    expect(await keyNames()).toEqual(before)
    // A real pair of surrogates is a character, and is kept as sent.
    const { headers, body } = json('{"name":"ok \\ud83d\\ude00 ü"}')
    const ok = await send('POST', '/v1/api-keys', headers, body)
    expect(ok.status).toBe(201)
    expect(ok.body.name).toBe('ok 😀 ü')
  })

  it('refuses a charset other than UTF-8 with 415', async () => {
    const latin = json('{"name":"x"}', 'application/json; charset=iso-8859-1')
    const res = await send('POST', '/v1/api-keys', latin.headers, latin.body)
    expect(res.status).toBe(415)
    expect(res.body.code).toBe('unsupported_media_type')
    const utf = json('{"name":"x"}', 'application/json; charset=UTF-8')
    expect((await send('POST', '/v1/api-keys', utf.headers, utf.body)).status).toBe(201)
  })

  it('refuses a body other than none or {} on an action that takes none, before the action runs', async () => {
    const account = await feedAccount(t)
    const post = await t.http.post('/v1/posts', { account_id: account, content: 'Hello', platforms: ['feed'] }, { key: t.key })
    expect(post.status, JSON.stringify(post.body)).toBe(201)
    const hook = await t.http.post('/v1/webhooks', { url: 'https://93.184.215.14/in', events: ['*'] }, { key: t.key })
    const actions = [
      [`/v1/webhooks/${hook.body.id}/rotate-secret`, '/v1/webhooks/{id}/rotate-secret'],
      [`/v1/webhooks/${hook.body.id}/test`, '/v1/webhooks/{id}/test'],
      [`/v1/posts/${post.body.id}/retry`, '/v1/posts/{id}/retry'],
    ]
    for (const [path, route] of actions) {
      const res = await t.http.post(path!, { force: true }, { key: t.key })
      expect(res.status, path).toBe(422)
      expect(res.body.errors).toEqual([{ pointer: '#', code: 'unexpected', detail: `POST ${route} takes no body: send none, or {}.` }])
      expect((await t.http.post(path!, [1], { key: t.key })).status, path).toBe(422)
    }
    // The secret was not rotated by any of those.
    const rotated = await t.http.post(`/v1/webhooks/${hook.body.id}/rotate-secret`, {}, { key: t.key })
    expect(rotated.status).toBe(200)
    expect(rotated.body.secret).not.toBe(hook.body.secret)
  })

  it('refuses an empty body, an array or null on PUT and leaves the ETag alone', async () => {
    const account = await feedAccount(t)
    const post = await t.http.post('/v1/posts', { account_id: account, content: 'Hi', scheduled_at: new Date(t.clock.now() + 3_600_000).toISOString(), platforms: ['feed'] }, { key: t.key })
    expect(post.status).toBe(201)
    for (const raw of ['', '[]', 'null', '"text"']) {
      const res = await t.http.put(`/v1/posts/${post.body.id}`, undefined, { key: t.key, raw, headers: { 'content-type': 'application/json' } })
      expect(res.status, JSON.stringify(raw)).toBe(422)
      expect(res.body.errors[0].pointer).toBe('#')
    }
    expect((await t.http.get(`/v1/posts/${post.body.id}`, { key: t.key })).headers.etag).toBe(post.headers.etag)
  })

  it('refuses an empty or blank Idempotency-Key with 400', async () => {
    for (const value of ['', '   ', '""']) {
      const res = await send('POST', '/v1/api-keys', ['Authorization', `Bearer ${t.key}`, 'Content-Type', 'application/json', 'Idempotency-Key', value], Buffer.from('{"name":"k"}'))
      expect(res.status, JSON.stringify(value)).toBe(400)
      expect(res.body.code).toBe('invalid_idempotency_key')
    }
  })

  it('refuses control characters and NUL in names and other single-line fields with 422, naming the field', async () => {
    const before = await keyNames()
    for (const bad of ['a\u0000b', 'line\nbreak', 'red \u001b[31m', 'tab\tin', 'c1 \u009b']) {
      const key = await t.http.post('/v1/api-keys', { name: bad }, { key: t.key })
      expect(key.status, JSON.stringify(bad)).toBe(422)
      expect(key.body.errors).toEqual([expect.objectContaining({ pointer: '#/name', detail: expect.stringContaining('without control characters') })])
      expect((await t.http.post('/v1/accounts', { name: bad }, { key: t.key })).body.errors[0].pointer).toBe('#/name')
      const hook = await t.http.post('/v1/webhooks', { url: 'https://93.184.215.14/in', events: ['*'], description: bad }, { key: t.key })
      expect(hook.status).toBe(422)
      expect(hook.body.errors[0].pointer).toBe('#/description')
      const me = await t.http.patch('/v1/me', { name: bad }, { key: t.key })
      expect(me.status, JSON.stringify(bad)).toBe(422)
      expect(me.body.errors).toEqual([expect.objectContaining({ pointer: '#/name', detail: expect.stringContaining('without control characters') })])
    }
    for (const bad of ['\u0007bell', 'del\u007f', 'nel\u0085', 'csi\u009b2J']) {
      expect((await t.http.patch('/v1/me', { name: bad }, { key: t.key })).status, JSON.stringify(bad)).toBe(422)
    }
    expect((await t.http.get('/v1/me', { key: t.key })).body.name).not.toMatch(/\p{Cc}/u)
    expect(await keyNames()).toEqual(before)
    // Printable text in any script is fine.
    expect((await t.http.post('/v1/api-keys', { name: 'Ünïcode 名前 ✓' }, { key: t.key })).status).toBe(201)
  })

  it('refuses a body nested deeper than 32 levels with 400 body_too_deep on every endpoint that reads one, and changes nothing', async () => {
    const before = await keyNames()
    const deep = Buffer.from(`{"content":${'['.repeat(5_000)}${']'.repeat(5_000)},"name":${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}}`)
    // An upload's body is bytes, not JSON: its own tests refuse what it is not.
    const writes = Object.values(routes).filter((r: RouteDef) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.rawBody)
    expect(writes.length).toBeGreaterThan(15)
    for (const route of writes) {
      const path = route.path.replace(/\{(\w+)\}/g, 'x_01JD0000000000000000000000')
      const { headers, body } = json(deep)
      const res = await send(route.method, path, headers, body)
      expect(res.status, `${route.method} ${route.path}`).toBe(400)
      expect(res.body).toMatchObject({ code: 'body_too_deep', detail: expect.stringContaining('32 levels') })
    }
    expect(await keyNames()).toEqual(before)
    // 32 levels are read (and judged by the schema like any other body).
    const { headers, body } = json(`{"name":"ok","expires_at":${'['.repeat(31)}${']'.repeat(31)}}`)
    const res = await send('POST', '/v1/api-keys', headers, body)
    expect(res.status).toBe(422)
    expect(res.body.errors[0].pointer).toBe('#/expires_at')
  })

  it("checks the key's scope before reading the body: 403 whatever was sent", async () => {
    const reader = await t.http.post('/v1/api-keys', { name: 'reader', scopes: ['posts:read'] }, { key: t.key })
    for (const raw of ['{"content":' + '['.repeat(5_000), '{"content":' + '['.repeat(5_000) + ']'.repeat(5_000) + '}', 'not json']) {
      for (const path of ['/v1/posts/validate', '/v1/posts', '/v1/posts/bulk']) {
        const res = await send('POST', path, ['Authorization', `Bearer ${reader.body.secret}`, 'Content-Type', 'application/json'], Buffer.from(raw))
        expect(res.status, `${path} ${raw.slice(0, 20)}`).toBe(403)
        expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'posts:write' })
      }
    }
  })
})
