import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes } from '../src/contract.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon()
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
      const res = await t.http.request(method, path.replace(/\{[^}]+\}/g, 'x_01JD0000000000000000000000'), { key: t.key, json: method === 'GET' || method === 'DELETE' ? undefined : {} })
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
})
