import Database from 'better-sqlite3'
import { createSecretBox, loadSecretKey } from '../daemon/secret-box.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon()
})
afterAll(() => t.stop())

const keyCount = async () => (await t.http.get('/v1/api-keys?limit=100', { key: t.key })).body.data.length

describe('Idempotency-Key on POST', () => {
  it('replays the first response to a retry with the same key and body, creating nothing new', async () => {
    const before = await keyCount()
    const headers = { 'idempotency-key': 'create-ci-key-1' }
    const first = await t.http.post('/v1/api-keys', { name: 'ci' }, { key: t.key, headers })
    expect(first.status).toBe(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    const retry = await t.http.post('/v1/api-keys', { name: 'ci' }, { key: t.key, headers: { 'idempotency-key': '"create-ci-key-1"' } })
    expect(retry.status).toBe(201)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.headers.location).toBe(first.headers.location)
    const { secret, ...resource } = first.body
    expect(secret).toMatch(/^smm_/)
    expect(retry.body).toEqual(resource)
    expect(await keyCount()).toBe(before + 1)
  })

  it('shows a secret once: a replay of a key, webhook or rotation answers the resource without it, and none is stored', async () => {
    const key = await t.http.post('/v1/api-keys', { name: 'once' }, { key: t.key, headers: { 'idempotency-key': 'once-key' } })
    const hook = await t.http.post('/v1/webhooks', { url: 'https://93.184.215.14/in', events: ['*'] }, { key: t.key, headers: { 'idempotency-key': 'once-hook' } })
    expect(hook.status).toBe(201)
    const rotated = await t.http.post(`/v1/webhooks/${hook.body.id}/rotate-secret`, undefined, { key: t.key, headers: { 'idempotency-key': 'once-rotate' } })
    expect(rotated.status).toBe(200)
    const replays = [
      await t.http.post('/v1/api-keys', { name: 'once' }, { key: t.key, headers: { 'idempotency-key': 'once-key' } }),
      await t.http.post('/v1/webhooks', { url: 'https://93.184.215.14/in', events: ['*'] }, { key: t.key, headers: { 'idempotency-key': 'once-hook' } }),
      await t.http.post(`/v1/webhooks/${hook.body.id}/rotate-secret`, undefined, { key: t.key, headers: { 'idempotency-key': 'once-rotate' } }),
    ]
    for (const [original, replay] of [key, hook, rotated].map((r, i) => [r, replays[i]!] as const)) {
      expect(replay.headers['idempotent-replayed']).toBe('true')
      expect(original.body.secret).toEqual(expect.any(String))
      expect(replay.body.secret).toBeUndefined()
      expect(replay.body.id).toBe(original.body.id)
    }
    // What the idempotency store keeps, opened with the data dir's own key: no secret in it.
    const box = createSecretBox(loadSecretKey(t.dataDir))
    const owner = (await t.daemon.store.users.owner())!
    const db = new Database(t.daemon.databaseFile, { readonly: true })
    const rows = db.prepare("SELECT key, response FROM idempotency_keys WHERE key LIKE 'once-%'").all() as { key: string; response: Buffer }[]
    db.close()
    expect(rows).toHaveLength(3)
    for (const row of rows) {
      const stored = box.open(row.response, `idempotency:${owner.id}:${row.key}`) as { body: string }
      expect(stored.body).toContain('"id"')
      expect(stored.body).not.toContain('"secret"')
    }
  })

  it("replays a handler's own error too", async () => {
    const headers = { 'idempotency-key': 'bad-request-1' }
    const first = await t.http.post('/v1/api-keys', { name: '' }, { key: t.key, headers })
    const retry = await t.http.post('/v1/api-keys', { name: '' }, { key: t.key, headers })
    expect(first.status).toBe(422)
    expect(retry.status).toBe(422)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(retry.body).toEqual(first.body)
  })

  it('refuses the same key with another body (422) or while the first is still running (409, Retry-After: 1)', async () => {
    await t.http.post('/v1/api-keys', { name: 'one' }, { key: t.key, headers: { 'idempotency-key': 'k-2' } })
    const reused = await t.http.post('/v1/api-keys', { name: 'two' }, { key: t.key, headers: { 'idempotency-key': 'k-2' } })
    expect(reused.status).toBe(422)
    expect(reused.body.code).toBe('idempotency_key_reused')

    // A request that is mid-flight holds its claim in the store, as this one does.
    const owner = (await t.daemon.store.users.owner())!
    const { createHash } = await import('node:crypto')
    const body = { name: 'slow' }
    const hash = createHash('sha256').update(JSON.stringify(body)).digest('hex')
    expect((await t.daemon.store.idempotency.begin(owner.id, 'k-3', 'POST', '/v1/api-keys', hash, t.clock.now())).kind).toBe('claimed')
    const busy = await t.http.post('/v1/api-keys', body, { key: t.key, headers: { 'idempotency-key': 'k-3' } })
    expect(busy.status).toBe(409)
    expect(busy.headers['retry-after']).toBe('1')
    expect(busy.body.code).toBe('idempotency_key_in_use')
    // A claim left by a crashed process is void after a restart.
    await t.restart()
    expect((await t.http.post('/v1/api-keys', body, { key: t.key, headers: { 'idempotency-key': 'k-3' } })).status).toBe(201)
  })

  it('keeps a response 24 hours, per user, and rejects a malformed key', async () => {
    const headers = { 'idempotency-key': 'day-old' }
    const first = await t.http.post('/v1/api-keys', { name: 'day' }, { key: t.key, headers })
    t.clock.advance(24 * 3_600_000 - 1000)
    expect((await t.http.post('/v1/api-keys', { name: 'day' }, { key: t.key, headers })).body.id).toBe(first.body.id)
    t.clock.advance(2000)
    expect((await t.http.post('/v1/api-keys', { name: 'day' }, { key: t.key, headers })).body.id).not.toBe(first.body.id)
    const bad = await t.http.post('/v1/api-keys', { name: 'x' }, { key: t.key, headers: { 'idempotency-key': 'x'.repeat(256) } })
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('invalid_idempotency_key')
  })
})
