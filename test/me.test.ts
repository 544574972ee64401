import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon()
})
afterAll(() => t.stop())

describe('GET /v1/me', () => {
  it('answers the owner created at first start, over HTTPS, with the key it printed', async () => {
    const res = await t.http.get('/v1/me', { key: t.key })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^usr_/),
      plan: 'standard',
      limits: { per_minute: 100, per_hour: 5000, per_day: 50000 },
      email: null,
    })
    expect(res.body.created_at).toBe(new Date(t.clock.now()).toISOString())
    expect(res.headers['x-request-id']).toMatch(/^req_/)
  })
})
