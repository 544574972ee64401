import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../src/time.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js'

// An operator testing webhooks against a receiver with a self-signed certificate trusts that
// certificate for deliveries, and only for deliveries: `smm daemon --webhook-ca-file PATH`.
let receiver: Receiver
let dir: string
beforeAll(async () => {
  receiver = await startReceiver()
  dir = mkdtempSync(join(tmpdir(), 'smm-webhook-ca-'))
  writeFileSync(join(dir, 'receiver-cert.pem'), receiver.ca)
})
afterAll(async () => {
  await receiver.close()
  rmSync(dir, { recursive: true, force: true })
})

async function deliverTestEvent(t: TestDaemon): Promise<{ succeeded: boolean; error: string | null }> {
  const created = await t.http.post('/v1/webhooks', { url: receiver.url, events: ['webhook.test'] }, { key: t.key })
  expect(created.status).toBe(201)
  receiver.secrets.push(created.body.secret)
  expect((await t.http.post(`/v1/webhooks/${created.body.id}/test`, {}, { key: t.key })).status).toBe(202)
  await t.daemon.workers.find((w) => w.name === 'webhook-delivery')!.tick!(t.clock.now())
  const [attempt] = (await t.http.get(`/v1/webhooks/${created.body.id}/deliveries`, { key: t.key })).body.data
  return attempt
}

describe('--webhook-ca-file', () => {
  it('lets deliveries reach a receiver with a self-signed certificate, which is refused without it', async () => {
    // The receiver checks webhook-timestamp against the machine's clock: the daemon's starts there.
    const options = { clock: new ManualClock(Date.now()), allowPrivateNetwork: true, backgroundWorkers: false }
    const [trusting, plain] = await Promise.all([startTestDaemon({ ...options, webhookCaFile: join(dir, 'receiver-cert.pem') }), startTestDaemon({ ...options, clock: new ManualClock(Date.now()) })])
    try {
      const refused = await deliverTestEvent(plain)
      expect(refused.succeeded).toBe(false)
      expect(refused.error).toMatch(/certificate/i)
      expect(receiver.received).toHaveLength(0)

      const delivered = await deliverTestEvent(trusting)
      expect(delivered).toMatchObject({ succeeded: true, error: null })
      expect(receiver.received).toHaveLength(1)
      expect(receiver.received[0]!.payload.type).toBe('webhook.test')
      expect(receiver.received[0]!.verifiedWith.length).toBe(1)
    } finally {
      await Promise.all([trusting.stop(), plain.stop()])
    }
  })

  it('refuses to start with a file that is missing or holds no certificate, naming it', async () => {
    const notPem = join(dir, 'notes.txt')
    writeFileSync(notPem, 'not a certificate\n')
    await expect(startTestDaemon({ dataDir: join(dir, 'data'), webhookCaFile: join(dir, 'missing.pem') })).rejects.toThrow(`--webhook-ca-file ${join(dir, 'missing.pem')}: ENOENT`)
    await expect(startTestDaemon({ dataDir: join(dir, 'data'), webhookCaFile: notPem })).rejects.toThrow(`--webhook-ca-file ${notPem}: not a PEM certificate file`)
  })
})
