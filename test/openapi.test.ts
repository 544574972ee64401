import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes } from '../src/contract.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { documentChecker } from './helpers/openapi-check.js'
import { feedAccount, liftLimits } from './helpers/posts.js'

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon()
  // The checks below send more requests in a minute than the default plan admits.
  await liftLimits(t)
})
afterAll(() => t.stop())

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await t.http.get('/v1/openapi.json')
    expect(res.status).toBe(200)
    const result = await new Validator().validate(res.body)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(res.body.openapi).toBe('3.1.0')
  })

  it('covers every route the daemon serves, and every route it lists is served', async () => {
    const doc = (await t.http.get('/v1/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string }>> }
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
    expect(listed.sort()).toEqual(Object.values(routes).map((r) => `${r.method} ${r.path}`).sort())
    for (const entry of listed) {
      const [method, path] = entry.split(' ') as [string, string]
      const res = await t.http.request(method, path.replace(/\{[^}]+\}/g, 'x_01JD0000000000000000000000'), { key: t.key, json: ['GET', 'DELETE', 'HEAD', 'OPTIONS'].includes(method) ? undefined : {} })
      // Served: whatever the answer (a 404 for the made-up id is fine), it is not "no such endpoint".
      const unrouted = res.status === 405 || (res.status === 404 && /No endpoint/.test(res.body?.detail ?? ''))
      expect(unrouted, `${entry} answered ${res.status} ${res.body?.detail}`).toBe(false)
    }
  })

  it('describes request bodies from the same schemas that validate them', async () => {
    const doc = (await t.http.get('/v1/openapi.json')).body
    const body = doc.paths['/v1/api-keys'].post.requestBody.content['application/json'].schema
    expect(body.required).toEqual(['name'])
    expect(body.additionalProperties).toBe(false)
    expect(Object.keys(body.properties).sort()).toEqual(['expires_at', 'name', 'scopes'])
  })

  it('gives every operation a description, a declared tag, and the statuses and headers every route shares', async () => {
    const doc = (await t.http.get('/v1/openapi.json')).body
    const tags = new Set(doc.tags.map((tag: { name: string; description: string }) => tag.description && tag.name))
    for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(operations)) {
        const at = `${method.toUpperCase()} ${path}`
        expect(op.description, at).toMatch(op['x-required-scope'] ? new RegExp(`\`${op['x-required-scope']}\` scope`) : /no API key/)
        expect(op.tags.every((tag: string) => tags.has(tag)), at).toBe(true)
        for (const status of ['429', '431', '500', '503']) expect(op.responses[status], `${at} ${status}`).toBeDefined()
        for (const [status, response] of Object.entries<any>(op.responses)) expect(response.headers['X-Request-Id'], `${at} ${status}`).toBeDefined()
        // Every POST takes an Idempotency-Key (SPEC §4).
        const takesKey = (op.parameters ?? []).some((p: { name: string }) => p.name === 'Idempotency-Key')
        expect(takesKey, at).toBe(method === 'post')
        if (takesKey) expect(op.responses['409'].description, at).toContain('idempotency_key_in_use')
        if (op.requestBody) for (const status of ['400', '413', '415', '422']) expect(op.responses[status], `${at} ${status}`).toBeDefined()
      }
    }
    const update = doc.paths['/v1/posts/{id}'].put
    expect(update.parameters.map((p: { name: string }) => p.name)).toContain('If-Match')
    expect(update.responses['412'].headers.ETag).toEqual({ $ref: '#/components/headers/ETag' })
    expect(update.responses['409'].description).toContain('post_not_editable')
    expect(doc.paths['/v1/posts/{id}/retry'].post.responses['409'].description).toContain('post_not_retryable')
    expect(doc.paths['/v1/posts'].post.responses['201'].headers).toMatchObject({ Location: {}, ETag: {}, 'Idempotent-Replayed': {}, RateLimit: {}, 'RateLimit-Policy': {} })
    expect(doc.components.schemas.Problem.properties.status.type).toBe('integer')
    expect(doc.paths['/feeds/{account_id}.json'].get.responses['200'].content['application/feed+json'].schema.type).toBe('object')
  })

  it('answers only what it documents: statuses, headers and bodies of real answers match the document', async () => {
    const doc = (await t.http.get('/v1/openapi.json')).body
    const check = documentChecker(doc)
    const problems: string[] = []
    const call = async (method: string, template: string, path: string, options: Parameters<typeof t.http.request>[2] = {}) => {
      const res = await t.http.request(method, path, options)
      problems.push(...check(method, template, res))
      return res
    }
    const key = { key: t.key }
    const account = await feedAccount(t, 'Documented')
    await call('GET', '/v1/me', '/v1/me', key)
    await call('GET', '/v1/me', '/v1/me')
    await call('GET', '/v1/me', '/v1/me', { key: 'smm_not_a_key' })
    const created = await call('POST', '/v1/posts', '/v1/posts', { ...key, json: { account_id: account, content: 'Hello', scheduled_at: new Date(t.clock.now() + 3_600_000).toISOString(), platforms: ['feed'] }, headers: { 'idempotency-key': 'doc-1' } })
    expect(created.status).toBe(201)
    const replay = await call('POST', '/v1/posts', '/v1/posts', { ...key, json: { account_id: account, content: 'Hello', scheduled_at: new Date(t.clock.now() + 3_600_000).toISOString(), platforms: ['feed'] }, headers: { 'idempotency-key': 'doc-1' } })
    expect(replay.headers['idempotent-replayed']).toBe('true')
    const id = created.body.id
    await call('POST', '/v1/posts', '/v1/posts', { ...key, json: { account_id: account, platforms: [] } })
    await call('POST', '/v1/posts', '/v1/posts', { ...key, raw: '{"account_id":', headers: { 'content-type': 'application/json' } })
    await call('POST', '/v1/posts', '/v1/posts', { ...key, raw: 'x=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    const validated = await call('POST', '/v1/posts/validate', '/v1/posts/validate', { ...key, json: { account_id: account, content: 'Hello', platforms: ['feed'] }, headers: { 'idempotency-key': 'doc-v' } })
    expect(validated.status).toBe(200)
    expect((await call('POST', '/v1/posts/validate', '/v1/posts/validate', { ...key, json: { account_id: account, platforms: [] } })).status).toBe(422)
    await call('GET', '/v1/posts/{id}', `/v1/posts/${id}`, key)
    await call('GET', '/v1/posts/{id}', '/v1/posts/pst_01JD0000000000000000000000', key)
    await call('PUT', '/v1/posts/{id}', `/v1/posts/${id}`, { ...key, json: { content: 'Edited' }, headers: { 'if-match': '"v0"' } })
    await call('PUT', '/v1/posts/{id}', `/v1/posts/${id}`, { ...key, json: { content: 'Edited' } })
    await call('GET', '/v1/posts', '/v1/posts', key)
    await call('DELETE', '/v1/posts/{id}', `/v1/posts/${id}`, key)
    await call('PUT', '/v1/posts/{id}', `/v1/posts/${id}`, { ...key, json: { content: 'Too late' } })
    await call('POST', '/v1/posts/{id}/retry', `/v1/posts/${id}/retry`, key)
    await call('GET', '/v1/accounts', '/v1/accounts', key)
    await call('GET', '/feeds/{account_id}.json', `/feeds/${account}.json`)
    await call('GET', '/feeds/{account_id}.rss', `/feeds/${account}.rss`)
    await call('GET', '/v1/openapi.json', '/v1/openapi.json')
    expect(problems).toEqual([])
    // The checker itself notices an undeclared status, a missing header and a body off its schema.
    const me = await t.http.get('/v1/me', key)
    expect(check('GET', '/v1/me', { ...me, status: 418 })[0]).toContain('418, which the document does not declare')
    expect(check('GET', '/v1/me', { ...me, headers: { ...me.headers, 'x-request-id': undefined as never } })).toEqual(['GET /v1/me 200 lacks the X-Request-Id header'])
    expect(check('GET', '/v1/me', { ...me, body: { ...me.body, id: 42 } })[0]).toContain('GET /v1/me 200 body:')
  })

  it('states what the server enforces: a value its schema refuses, the daemon refuses too, and one it allows the daemon takes', async () => {
    await liftLimits(t)
    const doc = (await t.http.get('/v1/openapi.json')).body
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats.default(ajv)
    const accepts = (schema: object, value: unknown) => ajv.validate(schema, value)
    const body = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].schema
    const param = (path: string, method: string, name: string) => doc.paths[path][method].parameters.find((p: { name: string }) => p.name === name).schema
    const create = body('/v1/posts', 'post').properties
    const account = await feedAccount(t, 'Strict')
    const later = new Date(t.clock.now() + 3_600_000).toISOString()
    const post = (fields: Record<string, unknown>) => t.http.post('/v1/posts/validate', { account_id: account, content: 'x', platforms: ['feed'], ...fields }, { key: t.key })
    const personal = (await t.http.get('/v1/workspaces', { key: t.key })).body.data[0].id
    // Each: the field's schema in the document, a value it refuses, one it allows, and how the daemon answers each.
    const cases: [string, object, unknown, unknown, (value: unknown) => Promise<{ status: number }>][] = [
      ['scheduled_at', create.scheduled_at, '2026-12-01 09:00', later, (v) => post({ scheduled_at: v })],
      ['repeat.until', create.repeat.properties.until, '2027-01-01', '2027-01-01T00:00:00Z', (v) => post({ scheduled_at: later, repeat: { interval: 'P1D', until: v } })],
      ['repeat.interval', create.repeat.properties.interval, 'every day', 'P1D', (v) => post({ scheduled_at: later, repeat: { interval: v, count: 2 } })],
      ['media_urls', create.media_urls.items, 'http://cdn.example.com/a.png', 'https://cdn.example.com/a.png', (v) => post({ media_urls: [v] })],
      ['media_urls (user:password@)', create.media_urls.items, 'https://me:pw@cdn.example.com/a.png', 'https://cdn.example.com/a.png?x=1', (v) => post({ media_urls: [v] })],
      ['from', param('/v1/posts', 'get', 'from'), '2026-12-01T09:00', '2026-12-01T09:00:00+01:00', (v) => t.http.get(`/v1/posts?from=${encodeURIComponent(String(v))}`, { key: t.key })],
      ['analytics from', param('/v1/analytics', 'get', 'from'), '2026-11', '2026-11-01', (v) => t.http.get(`/v1/analytics?from=${v}`, { key: t.key })],
      ['cursor', param('/v1/posts', 'get', 'cursor'), '', undefined, (v) => t.http.get(`/v1/posts?cursor=${v}`, { key: t.key })],
      ['limit', param('/v1/posts', 'get', 'limit'), '101', '100', (v) => t.http.get(`/v1/posts?limit=${v}`, { key: t.key })],
      ['limit 0', param('/v1/posts', 'get', 'limit'), '0', '007', (v) => t.http.get(`/v1/posts?limit=${v}`, { key: t.key })],
      ['timezone', body('/v1/me', 'patch').properties.timezone, '', 'Europe/Berlin', (v) => t.http.patch('/v1/me', { timezone: v }, { key: t.key })],
      ['language', body('/v1/ai/generate', 'post').properties.language, '', 'pt-BR', (v) => t.http.post('/v1/ai/generate', { prompt: 'Launch day', language: v }, { key: t.key })],
      ['Idempotency-Key', param('/v1/api-keys', 'post', 'Idempotency-Key'), '""', '"k-1"', (v) => t.http.post('/v1/api-keys', { name: 'idem' }, { key: t.key, headers: { 'idempotency-key': String(v) } })],
      ['audit-log kind', param('/v1/workspaces/{id}/audit-log', 'get', 'kind'), 'post.liked', 'post.*,key.created', (v) => t.http.get(`/v1/workspaces/${personal}/audit-log?kind=${v}`, { key: t.key })],
      ['audit-log kind (a part empty)', param('/v1/workspaces/{id}/audit-log', 'get', 'kind'), 'post.approved,', 'post.approved', (v) => t.http.get(`/v1/workspaces/${personal}/audit-log?kind=${v}`, { key: t.key })],
      ['status', param('/v1/posts', 'get', 'status'), 'scheduled,,draft', 'scheduled,draft', (v) => t.http.get(`/v1/posts?status=${v}`, { key: t.key })],
      ['webhook url', body('/v1/webhooks', 'post').properties.url, 'http://93.184.215.14/hooks', 'HTTPS://93.184.215.14/hooks', (v) => t.http.post('/v1/webhooks', { url: v, events: ['post.published'] }, { key: t.key })],
      ['webhook events', body('/v1/webhooks', 'post').properties.events, ['*', 'post.failed'], ['post.published', 'post.failed'], (v) => t.http.post('/v1/webhooks', { url: 'https://93.184.215.14/hooks', events: v }, { key: t.key })],
      ['scopes', body('/v1/api-keys', 'post').properties.scopes, ['posts:read', 'posts:read'], ['posts:read'], (v) => t.http.post('/v1/api-keys', { name: 'scoped', scopes: v }, { key: t.key })],
      ['Idempotency-Key (blank)', param('/v1/api-keys', 'post', 'Idempotency-Key'), '"  "', 'k 2', (v) => t.http.post('/v1/api-keys', { name: 'idem' }, { key: t.key, headers: { 'idempotency-key': String(v) } })],
    ]
    for (const [field, schema, refused, allowed, send] of cases) {
      expect(accepts(schema, refused), `${field}: the document allows ${JSON.stringify(refused)}`).toBe(false)
      const no = await send(refused)
      expect([400, 422], `${field}: ${JSON.stringify(refused)} answered ${no.status}`).toContain(no.status)
      if (allowed === undefined) continue
      expect(accepts(schema, allowed), `${field}: the document refuses ${JSON.stringify(allowed)}`).toBe(true)
      const yes = await send(allowed)
      expect(yes.status, `${field}: ${JSON.stringify(allowed)}`).toBeLessThan(300)
    }
  })
})
