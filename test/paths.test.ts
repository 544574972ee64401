import https from 'node:https'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes } from '../src/contract.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { rawRequest } from './helpers/raw-request.js'

let t: TestDaemon
// Over a thousand requests: on kept-alive connections, not a TLS handshake each.
let agent: https.Agent
beforeAll(async () => {
  t = await startTestDaemon({ authFailuresPerMinute: 100_000 })
  agent = new https.Agent({ ca: t.ca, keepAlive: true })
})
afterAll(async () => {
  agent.destroy()
  await t.stop()
})

function send(method: string, path: string, key?: string) {
  const headers = key ? ['Authorization', `Bearer ${key}`] : []
  if (!['POST', 'PUT', 'PATCH'].includes(method)) return rawRequest(t, method, path, headers, undefined, agent)
  return rawRequest(t, method, path, [...headers, 'Content-Type', 'application/json'], Buffer.from('{}'), agent)
}

/** The route's path with a value for each parameter. */
const concrete = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'platform' ? 'mastodon' : 'p_0000000000000000'))

/** The same path in the spellings that must not reach the route. */
function variants(path: string): string[] {
  const segments = path.split('/')
  const last = segments.length - 1
  return [
    path.toUpperCase(),
    path.replace(/^\/[a-z0-9]+/, (first) => first.toUpperCase()),
    `/${path}`,
    path.replace(/\/([^/]+)$/, '//$1'),
    path.replace(/\/([^/]+)$/, '/./$1'),
    [...segments.slice(0, last), `x/../${segments[last]}`].join('/'),
    // In the first segment, so it cannot be a parameter that legitimately holds a `/`.
    path.indexOf('/', 1) > 0 ? path.replace(/^(\/[^/]+)\//, '$1%2F') : `/%2F${path.slice(1)}`,
    `${path}/`,
  ]
}

describe('one path, one answer', () => {
  const all = Object.values(routes).map((r) => ({ method: r.method, path: concrete(r.path) }))

  it('routes each path as written', async () => {
    expect((await send('GET', '/v1/me', t.key)).status).toBe(200)
    expect((await send('GET', '/healthz')).status).toBe(200)
  })

  it('answers every other spelling of every route 404 "no endpoint", with a key or without one (never a route, never 403)', async () => {
    const seen: string[] = []
    for (const { method, path } of all) {
      // A fresh rate-limit window for each route: these are many requests with one key.
      t.clock.advance(60_000)
      for (const variant of variants(path)) {
        const withKey = await send(method, variant, t.key)
        seen.push(`${method} ${variant} → ${withKey.status} ${withKey.body?.detail ?? ''}`)
        expect(withKey.status, `${method} ${variant}`).toBe(404)
        // A HEAD answer has no body: its status says it all.
        if (method !== 'HEAD') expect(withKey.body.detail, `${method} ${variant}`).toMatch(/^No endpoint/)
        const anonymous = await send(method, variant)
        // A /v1/ path is authenticated before anything else; any other is simply not an endpoint.
        expect(anonymous.status, `${method} ${variant} without a key`).toBe(variant.startsWith('/v1/') ? 401 : 404)
      }
    }
    expect(seen.length).toBe(all.length * 8)
  })
})
