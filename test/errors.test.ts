import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes } from '../src/contract.js'
import { sql, startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { feedAccount, liftLimits } from './helpers/posts.js'

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon()
})
afterAll(() => t.stop())

const keyCount = async () => (await t.http.get('/v1/api-keys?limit=100', { key: t.key })).body.data.length

describe('every error is RFC 9457 problem+json', () => {
  it('404 for an unknown route, 405 with Allow for a wrong method', async () => {
    const missing = await t.http.get('/v1/nothing-here', { key: t.key })
    expect(missing.status).toBe(404)
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(missing.body).toMatchObject({ type: 'urn:smm:problem:not_found', code: 'not_found', status: 404, instance: missing.headers['x-request-id'] })
    const wrong = await t.http.request('DELETE', '/v1/me', { key: t.key })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.allow).toContain('GET')
    expect(wrong.headers.allow).toContain('PATCH')
    expect(wrong.body.code).toBe('method_not_allowed')
  })

  it('405 with Allow for every method a path lacks, before any body is read, and OPTIONS says the same with 204, on every route; a fixed path is only itself', async () => {
    await liftLimits(t)
    // Every route the daemon serves: the contract's, and the OAuth callback page.
    const byPath = new Map<string, string[]>([['/oauth/callback', ['GET']]])
    for (const route of Object.values(routes)) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route.method])
    let refused = 0
    for (const [template, methods] of byPath) {
      const path = template.replace(/\{(\w+)\}/g, 'x_01JD0000000000000000000000')
      const allow = [...new Set([...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])].sort()
      // OPTIONS is the table's answer unless the path has a route for it (tus's /v1/uploads).
      const lacking = ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE', 'TRACE'].filter((m) => !allow.includes(m))
      for (const method of methods.includes('OPTIONS') ? lacking : [...lacking, 'OPTIONS']) {
        // With no body, and with a malformed one: neither is looked at.
        for (const raw of [undefined, '{"broken":']) {
          const headers: Record<string, string> = raw ? { 'content-type': 'application/json', 'content-length': String(raw.length) } : {}
          const res = await t.http.request(method, path, { key: t.key, raw, headers })
          expect(res.status, `${method} ${template}`).toBe(method === 'OPTIONS' ? 204 : 405)
          expect(res.headers.allow!.split(', ').sort(), `${method} ${template}`).toEqual(allow)
          if (method !== 'OPTIONS' && method !== 'HEAD') expect(res.body.code, `${method} ${template}`).toBe('method_not_allowed')
          refused += 1
        }
      }
    }
    expect(refused).toBeGreaterThan(300)
    // `bulk` and `validate` are not post ids.
    const bulk = await t.http.get('/v1/posts/bulk', { key: t.key })
    expect(bulk).toMatchObject({ status: 405, headers: { allow: 'POST, OPTIONS' }, body: { code: 'method_not_allowed' } })
    expect((await t.http.request('DELETE', '/v1/posts/validate', { key: t.key })).status).toBe(405)
    const options = await t.http.request('OPTIONS', '/v1/posts/bulk', { key: t.key })
    expect(options).toMatchObject({ status: 204, headers: { allow: 'POST, OPTIONS' } })
    // Open paths need no key to be told so.
    for (const path of ['/healthz', '/v1/openapi.json', '/feeds/acc_x.rss']) {
      expect((await t.http.request('PUT', path)).status, path).toBe(405)
    }
  })

  it('every answer says nosniff, and no-store unless it is a public feed', async () => {
    const account = await feedAccount(t)
    const answers = [
      await t.http.get('/healthz'),
      await t.http.get('/v1/openapi.json'),
      await t.http.get('/v1/me', { key: t.key }),
      await t.http.get('/v1/me'),
      await t.http.get('/v1/nothing-here', { key: t.key }),
      await t.http.request('PUT', '/v1/me', { key: t.key }),
      await t.http.get('/feeds/acc_nothing.rss'),
    ]
    for (const res of answers) {
      expect(res.headers['x-content-type-options'], String(res.status)).toBe('nosniff')
      expect(res.headers['cache-control'], String(res.status)).toBe('no-store')
    }
    const feed = await t.http.get(`/feeds/${account}.rss`)
    expect(feed.status).toBe(200)
    expect(feed.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=60' })
  })

  it('415 for a body that is not JSON, 400 for malformed JSON, 413 over 1 MiB; nothing is created', async () => {
    const before = await keyCount()
    const form = await t.http.request('POST', '/v1/api-keys', { key: t.key, raw: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(form.status).toBe(415)
    expect(form.body.code).toBe('unsupported_media_type')
    const broken = await t.http.request('POST', '/v1/api-keys', { key: t.key, raw: '{"name": "x",', headers: { 'content-type': 'application/json' } })
    expect(broken.status).toBe(400)
    expect(broken.body.code).toBe('invalid_json')
    const huge = await t.http.request('POST', '/v1/api-keys', {
      key: t.key,
      raw: JSON.stringify({ name: 'x'.repeat(10 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    })
    expect(huge.status).toBe(413)
    expect(huge.body.code).toBe('payload_too_large')
    expect(await keyCount()).toBe(before)
    expect((await t.http.get('/healthz')).status).toBe(200)
  })

  it('422 lists every invalid field with its pointer, and names unknown fields', async () => {
    const res = await t.http.post('/v1/api-keys', { name: '', scopes: ['posts:read', 'nope'], expires_at: '2030-01-01T09:00:00', colour: 'red' }, { key: t.key })
    expect(res.status).toBe(422)
    const byPointer = Object.fromEntries(res.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code]))
    expect(byPointer).toEqual({
      '#/name': 'invalid_value',
      '#/scopes/1': 'invalid_type',
      '#/expires_at': 'invalid_value',
      '#/colour': 'unknown_field',
    })
    expect(res.body.errors.find((e: { pointer: string }) => e.pointer === '#/expires_at').detail).toMatch(/zone/)
    const typo = await t.http.post('/v1/api-keys', { name: 'ok', scope: ['posts:read'] }, { key: t.key })
    expect(typo.status).toBe(422)
    expect(typo.body).toMatchObject({ code: 'unknown_field', errors: [{ pointer: '#/scope', code: 'unknown_field' }] })
    const missing = await t.http.post('/v1/api-keys', {}, { key: t.key })
    expect(missing.body.errors).toEqual([{ pointer: '#/name', code: 'required', detail: 'is required' }])
  })

  it('a 5xx shows no internals, and the daemon keeps serving', async () => {
    // Break the store underneath the app the way a real fault would.
    sql(t).exec('ALTER TABLE api_keys RENAME TO api_keys_gone')
    const res = await t.http.get('/v1/api-keys', { key: t.key })
    sql(t).exec('ALTER TABLE api_keys_gone RENAME TO api_keys')
    expect(res.status).toBe(500)
    expect(res.body).toEqual({
      type: 'urn:smm:problem:internal_error',
      title: 'Internal Server Error',
      status: 500,
      detail: expect.not.stringMatching(/users|SQLITE|at /),
      instance: res.headers['x-request-id'],
      code: 'internal_error',
    })
    expect(t.logs.some((l) => l.includes('request failed') && l.includes('api_keys'))).toBe(true)
    expect((await t.http.get('/v1/me', { key: t.key })).status).toBe(200)
  })
})
