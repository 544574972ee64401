import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore } from '../daemon/store/index.js'
import { generateApiKey, hashApiKey } from '../src/api-key.js'
import { SCOPES, type Scope } from '../src/api/common.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon({ authFailuresPerMinute: 1000 })
})
afterAll(() => t.stop())

const expect401 = async (headers: Record<string, string>, detail: RegExp) => {
  const res = await t.http.get('/v1/me', { headers })
  expect(res.status).toBe(401)
  expect(res.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(res.body).toMatchObject({ code: 'invalid_token', status: 401 })
  expect(res.body.detail).toMatch(detail)
}

describe('authentication', () => {
  it('refuses a missing, malformed, mistyped, unknown, revoked or expired key with 401 and WWW-Authenticate', async () => {
    await expect401({}, /Missing Authorization/)
    await expect401({ authorization: `Basic ${t.key}` }, /Malformed Authorization/)
    // One character changed: the checksum catches it before any lookup.
    const typo = t.key.slice(0, 10) + (t.key[10] === 'a' ? 'b' : 'a') + t.key.slice(11)
    await expect401({ authorization: `Bearer ${typo}` }, /checksum/)
    await expect401({ authorization: `Bearer ${generateApiKey()}` }, /not known/)

    const made = await t.http.post('/v1/api-keys', { name: 'short-lived', expires_at: new Date(t.clock.now() + 60_000).toISOString() }, { key: t.key })
    expect(made.status).toBe(201)
    expect((await t.http.get('/v1/me', { key: made.body.secret })).status).toBe(200)
    t.clock.advance(61_000)
    await expect401({ authorization: `Bearer ${made.body.secret}` }, /expired/)

    const other = await t.http.post('/v1/api-keys', { name: 'to revoke' }, { key: t.key })
    expect((await t.http.delete(`/v1/api-keys/${other.body.id}`, { key: t.key })).status).toBe(204)
    await expect401({ authorization: `Bearer ${other.body.secret}` }, /revoked/)
  })

  it('answers 403 insufficient_scope to a key without the scope', async () => {
    const limited = await t.http.post('/v1/api-keys', { name: 'posts only', scopes: ['posts:read'] }, { key: t.key })
    expect(limited.body.scopes).toEqual(['posts:read'])
    const res = await t.http.get('/v1/me', { key: limited.body.secret })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'profile:read' })
  })

  it('serves the OpenAPI document and /healthz without a key', async () => {
    expect((await t.http.get('/v1/openapi.json')).status).toBe(200)
    expect((await t.http.get('/healthz')).status).toBe(200)
  })
})

describe('API keys', () => {
  it('shows the secret once, lists keys without it, and stores only its SHA-256', async () => {
    const created = await t.http.post('/v1/api-keys', { name: 'ci', scopes: ['posts:read', 'posts:write'] }, { key: t.key })
    expect(created.status).toBe(201)
    expect(created.headers.location).toBe(`/v1/api-keys/${created.body.id}`)
    expect(created.body).toMatchObject({ name: 'ci', prefix: created.body.secret.slice(0, 12), last_used_at: null, expires_at: null })
    const listed = await t.http.get('/v1/api-keys?limit=100', { key: t.key })
    const entry = listed.body.data.find((k: { id: string }) => k.id === created.body.id)
    expect(entry).toBeDefined()
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret)
    const file = readFileSync(t.daemon.databaseFile).toString('latin1') + readFileSync(`${t.daemon.databaseFile}-wal`).toString('latin1')
    expect(file).not.toContain(created.body.secret)
    expect(file).toContain(hashApiKey(created.body.secret))
  })

  it('paginates with a stable cursor', async () => {
    for (let i = 0; i < 3; i++) await t.http.post('/v1/api-keys', { name: `page ${i}` }, { key: t.key })
    const all = (await t.http.get('/v1/api-keys?limit=100', { key: t.key })).body.data.map((k: { id: string }) => k.id)
    const first = await t.http.get('/v1/api-keys?limit=2', { key: t.key })
    expect(first.body.has_more).toBe(true)
    // A key created between pages does not shift the second page.
    await t.http.post('/v1/api-keys', { name: 'late' }, { key: t.key })
    const second = await t.http.get(`/v1/api-keys?limit=2&cursor=${first.body.next_cursor}`, { key: t.key })
    expect([...first.body.data, ...second.body.data].map((k: { id: string }) => k.id)).toEqual(all.slice(0, 4))
    const bad = await t.http.get('/v1/api-keys?cursor=nonsense&limit=0', { key: t.key })
    expect(bad.status).toBe(422)
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['#/cursor', '#/limit'])
  })

  it("records last use at most once a minute, and hides another user's key as 404", async () => {
    const made = await t.http.post('/v1/api-keys', { name: 'usage' }, { key: t.key })
    await t.http.get('/v1/me', { key: made.body.secret })
    const usedAt = async () => (await t.http.get('/v1/api-keys?limit=100', { key: t.key })).body.data.find((k: { id: string }) => k.id === made.body.id).last_used_at
    const first = await usedAt()
    expect(first).toBe(new Date(t.clock.now()).toISOString())
    t.clock.advance(30_000)
    await t.http.get('/v1/me', { key: made.body.secret })
    expect(await usedAt()).toBe(first)
    t.clock.advance(31_000)
    await t.http.get('/v1/me', { key: made.body.secret })
    expect(await usedAt()).toBe(new Date(t.clock.now()).toISOString())

    const stranger = await t.daemon.store.users.create({ name: 'stranger' }, t.clock.now())
    const theirs = await t.daemon.store.apiKeys.create(stranger.id, { name: 'theirs', scopes: ['keys:write', 'profile:read'] }, t.clock.now(), null)
    const res = await t.http.delete(`/v1/api-keys/${theirs.id}`, { key: t.key })
    expect(res.status).toBe(404)
    expect(res.body.code).toBe('not_found')
    expect((await t.http.get('/v1/me', { key: theirs.secret })).body.id).toBe(stranger.id)
  })

  it('sees a revocation or a plan change made by another process at once (smm admin)', async () => {
    const made = await t.http.post('/v1/api-keys', { name: 'operator will revoke' }, { key: t.key })
    // Twice: the second answer comes from the daemon's cache, with no write of its own (the key's
    // first use is recorded) left to clear it. Only the other process's commit can.
    for (let i = 0; i < 2; i++) expect((await t.http.get('/v1/me', { key: made.body.secret })).status).toBe(200)
    const admin = await openStore({ dataDir: t.dataDir })
    try {
      await admin.apiKeys.revoke(null, made.body.id, t.clock.now())
      expect((await t.http.get('/v1/me', { key: made.body.secret })).status).toBe(401)
      expect((await t.http.get('/v1/me', { key: t.key })).body.plan).not.toBe('business')
      await admin.users.setPlan((await admin.users.owner())!.id, 'business')
      expect((await t.http.get('/v1/me', { key: t.key })).body.plan).toBe('business')
      await admin.users.setPlan((await admin.users.owner())!.id, 'standard')
    } finally {
      await admin.close()
    }
  })

  it('never writes a key to the log', () => {
    expect(t.logs.length).toBeGreaterThan(10)
    expect(t.logs.join('\n')).not.toMatch(/smm_[0-9A-Za-z]{36}/)
  })
})

describe('a key cannot mint a stronger key', () => {
  it('grants only scopes the calling key holds, for every combination of scopes with keys:write that holds or lacks at most two others', async () => {
    const owner = (await t.daemon.store.users.owner())!
    // Every key holding or lacking at most two of the other scopes: each scope alone and in every
    // pair, held and missing (all 2^15 combinations, two requests each, are more than a test can
    // send). Lift the owner's limits for the length of this test.
    await t.daemon.store.users.setPlan(owner.id, 'enterprise', { per_minute: 100_000, per_hour: 100_000, per_day: 100_000 })
    const others = SCOPES.filter((s) => s !== 'keys:write')
    const bits = (mask: number) => others.filter((_, i) => mask & (1 << i)).length
    const masks = Array.from({ length: 1 << others.length }, (_, mask) => mask).filter((mask) => bits(mask) <= 2 || bits(mask) >= others.length - 2)
    try {
      for (const mask of masks) {
        const held = ['keys:write', ...others.filter((_, i) => mask & (1 << i))] as Scope[]
        const caller = await t.daemon.store.apiKeys.create(owner.id, { name: `mask-${mask}`, scopes: held }, t.clock.now(), null)
        const missing = SCOPES.filter((s) => !held.includes(s))
        const all = await t.http.post('/v1/api-keys', { name: 'wants all', scopes: SCOPES }, { key: caller.secret })
        if (missing.length === 0) {
          expect(all.status).toBe(201)
        } else {
          expect(all.status, `held ${held.join(' ')}`).toBe(403)
          expect(all.body.code).toBe('insufficient_scope')
          expect(all.body.required_scope).toBe(missing.join(' '))
          expect(all.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(missing.map((s) => `#/scopes/${SCOPES.indexOf(s)}`))
        }
        // With no scopes named, a key gets what the key making it holds, never more.
        const plain = await t.http.post('/v1/api-keys', { name: 'default' }, { key: caller.secret })
        expect(plain.status).toBe(201)
        expect([...plain.body.scopes].sort()).toEqual([...held].sort())
      }
    } finally {
      await t.daemon.store.users.setPlan(owner.id, 'standard')
    }
  }, 120_000)

  it('never outlives the key that makes it', async () => {
    const owner = (await t.daemon.store.users.owner())!
    const ends = t.clock.now() + 3_600_000
    const caller = await t.daemon.store.apiKeys.create(owner.id, { name: 'hour', scopes: ['keys:write'], expiresAt: ends }, t.clock.now(), null)
    const at = (ms: number) => new Date(ms).toISOString()
    const inherited = await t.http.post('/v1/api-keys', { name: 'inherits' }, { key: caller.secret })
    expect(inherited.status).toBe(201)
    expect(inherited.body.expires_at).toBe(at(ends))
    expect((await t.http.post('/v1/api-keys', { name: 'sooner', expires_at: at(ends - 60_000) }, { key: caller.secret })).body.expires_at).toBe(at(ends - 60_000))
    for (const expires_at of [null, at(ends + 1000)]) {
      const res = await t.http.post('/v1/api-keys', { name: 'longer', expires_at }, { key: caller.secret })
      expect(res.status).toBe(422)
      expect(res.body.errors).toEqual([{ pointer: '#/expires_at', code: 'outlives_key', detail: `must be no later than ${at(ends)}, when the key making it expires` }])
    }
  })
})

describe('failed authentication per address', () => {
  it('counts failures, not clients: guesses get 429 with Retry-After, a valid key is still served', async () => {
    const d = await startTestDaemon({ authFailuresPerMinute: 5 })
    try {
      for (let i = 0; i < 5; i++) expect((await d.http.get('/v1/me', { key: generateApiKey() })).status).toBe(401)
      const blocked = await d.http.get('/v1/me', { key: generateApiKey() })
      expect(blocked.status).toBe(429)
      expect(blocked.body).toMatchObject({ code: 'rate_limited', violated: ['auth_failures'] })
      expect((await d.http.get('/v1/me')).status).toBe(429)
      // Behind NAT, the one client guessing must not lock out its neighbours with real keys.
      expect((await d.http.get('/v1/me', { key: d.key })).status).toBe(200)
      d.clock.advance(Number(blocked.headers['retry-after']) * 1000)
      expect((await d.http.get('/v1/me', { key: generateApiKey() })).status).toBe(401)
    } finally {
      await d.stop()
    }
  })
})
