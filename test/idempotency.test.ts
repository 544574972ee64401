import { readFileSync } from 'node:fs'
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
    expect(retry.body).toEqual(first.body)
    expect(await keyCount()).toBe(before + 1)
    // The stored answer holds the new key's secret: it is kept sealed, never in clear.
    const file = readFileSync(t.daemon.databaseFile).toString('latin1') + readFileSync(`${t.daemon.databaseFile}-wal`).toString('latin1')
    expect(file).not.toContain(first.body.secret)
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
