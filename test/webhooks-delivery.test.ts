import { personalWorkspaceId } from '../src/ids.js'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { startReceiver, type Receiver, type Reply } from './helpers/webhook-receiver.js'
import { MAX_ATTEMPTS, nextAttemptAt, parseRetryAfter } from '../daemon/webhooks/policy.js'

let t: TestDaemon
let owner: string
const receivers: Receiver[] = []

beforeAll(async () => {
  const probe = await startReceiver()
  receivers.push(probe)
  t = await startTestDaemon({ allowPrivateNetwork: true, egress: { ca: [probe.ca] }, backgroundWorkers: false })
  owner = t.daemon.firstStart!.userId
  // The receiver's verify checks webhook-timestamp against its own clock: keep it on ours.
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(t.clock.now())
})
afterEach(() => {
  for (const r of receivers) r.reply = () => ({ status: 204 })
})
afterAll(async () => {
  vi.useRealTimers()
  await t.stop()
  await Promise.all(receivers.map((r) => r.close()))
})

function advance(ms: number): void {
  t.clock.advance(ms)
  vi.setSystemTime(t.clock.now())
}
const tick = () => t.daemon.workers.find((w) => w.name === 'webhook-delivery')!.tick!(t.clock.now())

async function endpoint(events: string[] = ['*']): Promise<{ id: string; secret: string; receiver: Receiver }> {
  const receiver = await startReceiver()
  receivers.push(receiver)
  const res = await t.http.post('/v1/webhooks', { url: receiver.url, events }, { key: t.key })
  expect(res.status).toBe(201)
  receiver.secrets.push(res.body.secret)
  return { id: res.body.id, secret: res.body.secret, receiver }
}

const append = (type: Parameters<TestDaemon['daemon']['store']['events']['append']>[1], data: unknown, userId = owner) =>
  t.daemon.store.events.append(personalWorkspaceId(userId), type, data, t.clock.now(), null)
const attempts = async (id: string) => (await t.http.get(`/v1/webhooks/${id}/deliveries?limit=100`, { key: t.key })).body.data

describe('delivery', () => {
  it('sends each event to the endpoints subscribed to it, signed so that Webhook.verify accepts it', async () => {
    // What came before these endpoints (the first start's key.created) goes out to none of them.
    await tick()
    const published = await endpoint(['post.published'])
    const all = await endpoint(['*'])
    const accounts = await endpoint(['account.connected'])
    const stranger = await t.daemon.store.users.create({ name: 'stranger' }, t.clock.now())

    const event = await append('post.published', { post: { id: 'pst_1', content: 'héllo' } })
    await append('account.connected', { account_id: 'acc_1', platform: 'mastodon' })
    await append('post.published', { post: { id: 'pst_2' } }, stranger.id)
    await tick()

    expect(published.receiver.received).toHaveLength(1)
    expect(all.receiver.received).toHaveLength(2)
    expect(accounts.receiver.received).toHaveLength(1)
    const [got] = published.receiver.received
    expect(got!.verifiedWith).toEqual([0])
    expect(got!.headers['webhook-id']).toBe(event.id)
    expect(got!.headers['content-type']).toBe('application/json')
    expect(got!.payload).toEqual({ type: 'post.published', timestamp: new Date(t.clock.now()).toISOString(), data: { post: { id: 'pst_1', content: 'héllo' } } })
    expect(accounts.receiver.received[0]!.payload.type).toBe('account.connected')
    for (const r of [all, accounts]) expect(r.receiver.received.every((x) => x.verifiedWith.length === 1)).toBe(true)

    const [attempt] = await attempts(published.id)
    expect(attempt).toMatchObject({ event_id: event.id, event_type: 'post.published', attempt: 1, succeeded: true, status_code: 204, error: null, next_attempt_at: null })
    // Delivered once: another pass sends nothing again.
    await tick()
    expect(all.receiver.received).toHaveLength(2)
  })

  it('POST /test sends webhook.test to that endpoint only, whatever it subscribes to', async () => {
    const target = await endpoint(['post.failed'])
    const bystander = await endpoint(['*'])
    const res = await t.http.post(`/v1/webhooks/${target.id}/test`, {}, { key: t.key })
    expect(res.status).toBe(202)
    await tick()
    expect(target.receiver.received).toHaveLength(1)
    expect(target.receiver.received[0]!.headers['webhook-id']).toBe(res.body.event_id)
    expect(target.receiver.received[0]!.payload).toMatchObject({ type: 'webhook.test', data: { webhook_id: target.id } })
    expect(bystander.receiver.received).toHaveLength(0)
  })

  it('resends one delivery on request, by its event id or an attempt id: same webhook-id and body, attempts counting on', async () => {
    const { id, receiver } = await endpoint(['post.published'])
    const event = await append('post.published', { post: { id: 'pst_resend' } })
    await tick()
    expect(receiver.received).toHaveLength(1)

    const again = await t.http.post(`/v1/webhooks/${id}/deliveries/${event.id}/resend`, {}, { key: t.key })
    expect(again.status).toBe(202)
    expect(again.body).toEqual({ event_id: event.id })
    await tick()
    expect(receiver.received).toHaveLength(2)
    expect(receiver.received[1]!.headers['webhook-id']).toBe(event.id)
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body)
    const [latest] = await attempts(id)
    expect(latest).toMatchObject({ event_id: event.id, attempt: 2, succeeded: true })

    const byAttempt = await t.http.post(`/v1/webhooks/${id}/deliveries/${latest.id}/resend`, {}, { key: t.key })
    expect(byAttempt.body).toEqual({ event_id: event.id })
    await tick()
    expect(receiver.received).toHaveLength(3)

    const unknown = await t.http.post(`/v1/webhooks/${id}/deliveries/msg_nope/resend`, {}, { key: t.key })
    expect(unknown.status).toBe(404)
    const other = await endpoint()
    expect((await t.http.post(`/v1/webhooks/${other.id}/deliveries/${event.id}/resend`, {}, { key: t.key })).status).toBe(404)
    await t.http.patch(`/v1/webhooks/${id}`, { enabled: false }, { key: t.key })
    const disabled = await t.http.post(`/v1/webhooks/${id}/deliveries/${event.id}/resend`, {}, { key: t.key })
    expect(disabled.status).toBe(409)
    expect(disabled.body.code).toBe('webhook_disabled')
    await tick()
    expect(receiver.received).toHaveLength(3)
  })

  it('retries on the schedule with the same webhook-id, and records every attempt', async () => {
    const { id, receiver } = await endpoint()
    const answers: Reply[] = [
      { status: 500, body: 'x'.repeat(5000) },
      { status: 503, body: 'busy' },
    ]
    receiver.reply = () => answers.shift() ?? { status: 200, body: 'ok' }
    const event = await append('post.failed', { post: { id: 'pst_r' } })
    await tick()
    let list = await attempts(id)
    expect(list[0]).toMatchObject({ attempt: 1, succeeded: false, status_code: 500, error: expect.stringMatching(/HTTP 500/) })
    expect(list[0].response_body).toHaveLength(1024)
    const retryIn = Date.parse(list[0].next_attempt_at) - t.clock.now()
    expect(retryIn).toBeGreaterThanOrEqual(4_500)
    expect(retryIn).toBeLessThanOrEqual(5_500)

    advance(4_000)
    await tick()
    expect(receiver.received).toHaveLength(1)
    advance(1_600)
    await tick()
    expect(receiver.received).toHaveLength(2)
    list = await attempts(id)
    const secondIn = Date.parse(list[0].next_attempt_at) - t.clock.now()
    expect(secondIn).toBeGreaterThanOrEqual(270_000)
    expect(secondIn).toBeLessThanOrEqual(330_000)

    advance(330_000)
    await tick()
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([event.id, event.id, event.id])
    expect(receiver.received.every((r) => r.verifiedWith.length === 1)).toBe(true)
    list = await attempts(id)
    expect(list.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([
      [3, 200],
      [2, 503],
      [1, 500],
    ])
    expect(list[0]).toMatchObject({ succeeded: true, response_body: 'ok', next_attempt_at: null })
  })

  it('honours Retry-After when it asks for longer than the schedule', async () => {
    const { id, receiver } = await endpoint()
    receiver.reply = () => ({ status: 429, headers: { 'retry-after': '3600' } })
    await append('post.updated', {})
    await tick()
    const [attempt] = await attempts(id)
    expect(Date.parse(attempt.next_attempt_at) - t.clock.now()).toBe(3_600_000)
    advance(60_000)
    await tick()
    expect(receiver.received).toHaveLength(1)
  })

  it('counts a 3xx as a failure and does not follow it', async () => {
    const elsewhere = await endpoint(['webhook.test'])
    const { id, receiver } = await endpoint()
    receiver.reply = () => ({ status: 301, headers: { location: elsewhere.receiver.url } })
    await append('post.cancelled', {})
    await tick()
    const [attempt] = await attempts(id)
    expect(attempt).toMatchObject({ succeeded: false, status_code: 301, error: expect.stringMatching(/redirect.*does not follow/) })
    expect(attempt.next_attempt_at).not.toBeNull()
    expect(elsewhere.receiver.received).toHaveLength(0)
  })

  it('disables an endpoint that answers 410 Gone, and delivers again once re-enabled', async () => {
    const { id, receiver } = await endpoint()
    receiver.reply = () => ({ status: 410 })
    await append('post.scheduled', {})
    await tick()
    const hook = (await t.http.get(`/v1/webhooks/${id}`, { key: t.key })).body
    expect(hook).toMatchObject({ enabled: false, disabled_reason: expect.stringMatching(/410 Gone/) })
    expect((await attempts(id))[0]).toMatchObject({ status_code: 410, next_attempt_at: null })

    await append('post.scheduled', {})
    advance(3_600_000)
    await tick()
    expect(receiver.received).toHaveLength(1)

    receiver.reply = () => ({ status: 204 })
    await t.http.patch(`/v1/webhooks/${id}`, { enabled: true }, { key: t.key })
    await append('post.scheduled', { again: true })
    await tick()
    expect(receiver.received).toHaveLength(2)
    expect(receiver.received[1]!.payload.data).toEqual({ again: true })
  })

  it('disables an endpoint that has failed for 5 days, saying why', async () => {
    const { id, receiver } = await endpoint()
    receiver.reply = () => ({ status: 500 })
    await append('post.published', {})
    await tick()
    advance(4 * 86_400_000)
    await append('post.published', {})
    await tick()
    expect((await t.http.get(`/v1/webhooks/${id}`, { key: t.key })).body.enabled).toBe(true)
    advance(86_400_000)
    await append('post.published', {})
    await tick()
    const hook = (await t.http.get(`/v1/webhooks/${id}`, { key: t.key })).body
    expect(hook.enabled).toBe(false)
    expect(hook.disabled_reason).toMatch(/failed for 5 days.*HTTP 500/)
  })

  it('signs with the old and the new secret for 24 h after a rotation, then with the new one only', async () => {
    const { id, receiver } = await endpoint()
    const rotated = await t.http.post(`/v1/webhooks/${id}/rotate-secret`, {}, { key: t.key })
    receiver.secrets = [receiver.secrets[0]!, rotated.body.secret]
    await t.http.post(`/v1/webhooks/${id}/test`, {}, { key: t.key })
    await tick()
    expect(receiver.received[0]!.verifiedWith).toEqual([0, 1])
    expect(receiver.received[0]!.headers['webhook-signature']!.split(' ')).toHaveLength(2)

    advance(86_400_000 + 1_000)
    await t.http.post(`/v1/webhooks/${id}/test`, {}, { key: t.key })
    await tick()
    expect(receiver.received[1]!.verifiedWith).toEqual([1])
    expect(receiver.received[1]!.errors).toEqual(['No matching signature found'])
    expect((await t.http.get(`/v1/webhooks/${id}`, { key: t.key })).body.previous_secret_expires_at).toBeNull()
  })

  it('keeps a slow endpoint to its own few slots while the others are delivered', async () => {
    const slow = await endpoint(['post.target.failed'])
    const fast = await endpoint(['post.target.published'])
    let release!: () => void
    const released = new Promise<Reply>((resolve) => (release = () => resolve({ status: 204 })))
    slow.receiver.reply = () => released
    for (let i = 0; i < 10; i++) await append('post.target.failed', { i })
    await append('post.target.published', {})
    const ticking = tick()
    await fast.receiver.waitFor(1)
    await slow.receiver.waitFor(4)
    expect(slow.receiver.open).toBe(4)
    expect(slow.receiver.received).toHaveLength(4)
    release()
    await ticking
    expect(slow.receiver.received).toHaveLength(10)
    expect(new Set(slow.receiver.received.map((r) => r.payload.data.i)).size).toBe(10)
  })

  it('drops a delivery quietly when its endpoint is deleted during the attempt', async () => {
    const { id, receiver } = await endpoint(['account.disconnected'])
    let release!: () => void
    receiver.reply = () => new Promise<Reply>((resolve) => (release = () => resolve({ status: 204 })))
    await append('account.disconnected', {})
    const ticking = tick()
    await receiver.waitFor(1)
    expect((await t.http.delete(`/v1/webhooks/${id}`, { key: t.key })).status).toBe(204)
    release()
    await ticking
    expect(t.logs.join('\n')).not.toContain('recording a webhook attempt failed')
  })
})

describe('the retry policy', () => {
  it('stops after the last delay of the schedule and reads Retry-After as seconds or a date', () => {
    const now = Date.UTC(2026, 10, 21, 12)
    expect(nextAttemptAt(MAX_ATTEMPTS - 1, now, undefined, () => 0.5)).toBe(now + 24 * 3_600_000)
    expect(nextAttemptAt(MAX_ATTEMPTS, now, undefined)).toBeNull()
    expect(parseRetryAfter('120', now)).toBe(120_000)
    expect(parseRetryAfter(new Date(now + 90_000).toUTCString(), now)).toBe(90_000)
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    // A Retry-After of a month is capped at a day.
    expect(nextAttemptAt(1, now, 30 * 86_400_000, () => 0.5)).toBe(now + 86_400_000)
  })
})
