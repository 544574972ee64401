import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, expect, it } from 'vitest'
import { httpsClient } from './helpers/http.js'
import { startReceiver, type Reply } from './helpers/webhook-receiver.js'

const dataDir = mkdtempSync(join(tmpdir(), 'smm-crash-'))
const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  rmSync(dataDir, { recursive: true, force: true })
})

/** Starts the daemon in a child process on the shared data dir; resolves once it listens. */
async function spawnDaemon(receiverCa: string): Promise<{ child: ChildProcess; url: string; key: string | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/webhook-daemon.ts'], {
    env: { ...process.env, SMM_TEST_DATA_DIR: dataDir, SMM_TEST_RECEIVER_CA: receiverCa },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  return { child, ...JSON.parse(await firstLine(child)) }
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`the daemon exited (${code}) before listening`)))
  })
}

const exited = (child: ChildProcess) => new Promise((resolve) => child.once('exit', resolve))

it('redelivers with the same webhook-id after the daemon is SIGKILLed mid-delivery', async () => {
  const receiver = await startReceiver()
  let unblock!: (reply: Reply) => void
  receiver.reply = () => new Promise<Reply>((resolve) => (unblock = resolve))

  const first = await spawnDaemon(receiver.ca)
  const api = httpsClient(first.url, readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8'))
  const hook = await api.post('/v1/webhooks', { url: receiver.url, events: ['*'] }, { key: first.key! })
  expect(hook.status).toBe(201)
  receiver.secrets.push(hook.body.secret)
  const test = await api.post(`/v1/webhooks/${hook.body.id}/test`, {}, { key: first.key! })
  api.close()

  // The attempt is in flight (the receiver holds it): kill the daemon without a chance to clean up.
  await receiver.waitFor(1)
  first.child.kill('SIGKILL')
  await exited(first.child)
  unblock({ status: 500 })
  receiver.reply = () => ({ status: 204 })

  const second = await spawnDaemon(receiver.ca)
  await receiver.waitFor(2)
  const ids = receiver.received.map((r) => r.headers['webhook-id'])
  expect(ids).toEqual([test.body.event_id, test.body.event_id])
  expect(receiver.received.every((r) => r.verifiedWith.length === 1)).toBe(true)

  const again = httpsClient(second.url, readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8'))
  const attempts = (await again.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key: first.key! })).body.data
  again.close()
  expect(attempts.map((a: { attempt: number; succeeded: boolean; error: string | null }) => [a.attempt, a.succeeded, a.error])).toEqual([
    [2, true, null],
    [1, false, expect.stringMatching(/interrupted/)],
  ])
  second.child.kill('SIGTERM')
  await exited(second.child)
  await receiver.close()
})
