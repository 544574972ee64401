import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon()
})
afterAll(() => t.stop())

describe('PATCH /v1/me', () => {
  it('lets a user set their own name and time zone, spelled as the tz database does', async () => {
    const res = await t.http.patch('/v1/me', { name: '  Ada  ', timezone: 'europe/berlin' }, { key: t.key })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ name: 'Ada', timezone: 'Europe/Berlin' })
    // The next request sees it: the key's cached owner is not stale.
    expect((await t.http.get('/v1/me', { key: t.key })).body).toMatchObject({ name: 'Ada', timezone: 'Europe/Berlin' })
    const zoneOnly = await t.http.patch('/v1/me', { timezone: 'America/New_York' }, { key: t.key })
    expect(zoneOnly.body).toMatchObject({ name: 'Ada', timezone: 'America/New_York' })
  })

  it('refuses a zone that is not one, an offset, a blank name and the plan, changing nothing', async () => {
    const before = (await t.http.get('/v1/me', { key: t.key })).body
    const res = await t.http.patch('/v1/me', { name: ' ', timezone: '+01:00', plan: 'enterprise' }, { key: t.key })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: '#/name', detail: 'must not be empty' }),
        expect.objectContaining({ pointer: '#/timezone', detail: expect.stringMatching(/^is not an IANA time zone: use a name like Europe\/Berlin/) }),
        expect.objectContaining({ pointer: '#/plan', code: 'unknown_field' }),
      ]),
    )
    expect((await t.http.get('/v1/me', { key: t.key })).body).toEqual(before)
  })

  it('needs profile:write: a key that may only read the profile cannot change it', async () => {
    const reader = await t.http.post('/v1/api-keys', { name: 'reader', scopes: ['profile:read'] }, { key: t.key })
    const res = await t.http.patch('/v1/me', { timezone: 'Asia/Tokyo' }, { key: reader.body.secret })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'profile:write' })
  })
})
