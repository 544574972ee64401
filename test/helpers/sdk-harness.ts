/**
 * What every SDK's own test suite (Python's unittest, `go test`, Ruby's minitest, the TypeScript
 * SDK's) runs against: the real daemon over real TLS, a webhook receiver it delivers to, and a
 * small control server the suites use instead of sleeping.
 *
 * The suites read their setup from the environment:
 * - `SMM_URL` (the API's base, with `/v1`), `SMM_API_KEY` (every scope), `SMM_CA_FILE` (the
 *   daemon's self-signed certificate);
 * - `SMM_TEST_TLS_KEY_FILE`: the key of that certificate, for a suite's stand-in server (a 5xx);
 * - `SMM_TEST_LIMITED_API_KEY`: a key whose owner is on an enterprise plan of
 *   `LIMITED_PER_MINUTE` requests a minute, so a suite meets a real 429 on its third call;
 * - `SMM_TEST_MEMBER_API_KEY` and `SMM_TEST_MEMBER_EMAIL`: a second user (every scope), for a
 *   suite to add to a workspace of the owner's and act as a member with a role;
 * - `SMM_TEST_RECEIVER_URL`: an https URL the daemon will deliver webhooks to (the daemon trusts
 *   its certificate and may reach loopback);
 * - `SMM_TEST_CONTROL_URL`: plain HTTP on loopback, for the suite only:
 *   `POST /clock/advance` with `{"seconds": n}` moves the daemon's clock (a suite's injected
 *   sleep calls it, so "wait for Retry-After" takes no wall time and a retry is then admitted);
 *   `GET /webhooks` answers `[{"headers": {…}, "body": "<raw text>"}]`, every delivery the
 *   receiver got so far, oldest first.
 */
import { spawn, spawnSync } from 'node:child_process'
import http from 'node:http'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { SCOPES } from '../../src/api/common.js'
import { ManualClock } from '../../src/time.js'
import { startTestDaemon, type TestDaemon } from './daemon.js'
import { startReceiver, type Receiver } from './webhook-receiver.js'

export const LIMITED_PER_MINUTE = 2
const MEMBER_EMAIL = 'member@example.com'

export interface SdkFixture {
  daemon: TestDaemon
  receiver: Receiver
  /** The variables above, to pass to a suite's process. */
  env: Record<string, string>
  close(): Promise<void>
}

function readJson(req: http.IncomingMessage): Promise<any> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      try {
        resolve(text ? JSON.parse(text) : {})
      } catch (error) {
        reject(error)
      }
    })
    req.on('error', reject)
  })
}

function startControl(clock: ManualClock, receiver: Receiver): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    const answer = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    try {
      if (req.method === 'POST' && req.url === '/clock/advance') {
        const { seconds } = await readJson(req)
        if (typeof seconds !== 'number' || !(seconds >= 0)) return answer(400, { error: 'seconds must be a number >= 0' })
        clock.advance(Math.ceil(seconds * 1000))
        return answer(200, { now: new Date(clock.now()).toISOString() })
      }
      if (req.method === 'GET' && req.url === '/webhooks') {
        return answer(200, receiver.received.map((r) => ({ headers: r.headers, body: r.body })))
      }
      answer(404, { error: `no ${req.method} ${req.url} here` })
    } catch (error) {
      answer(400, { error: (error as Error).message })
    }
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

/** Starts the daemon, the receiver and the control server for one SDK suite. */
export async function startSdkFixture(): Promise<SdkFixture> {
  const clock = new ManualClock(Date.now())
  const receiver = await startReceiver()
  const daemon = await startTestDaemon({ clock, allowPrivateNetwork: true, egress: { ca: [receiver.ca] } })
  const store = daemon.daemon.store
  const limitedUser = await store.users.create({ name: 'limited', plan: 'enterprise' }, clock.now())
  await store.users.setPlan(limitedUser.id, 'enterprise', { per_minute: LIMITED_PER_MINUTE, per_hour: 1000, per_day: 10_000 })
  const limitedKey = await store.apiKeys.create(limitedUser.id, { name: 'limited', scopes: ['profile:read'] }, clock.now(), null)
  const member = await store.users.create({ name: 'member', email: MEMBER_EMAIL }, clock.now())
  await store.users.setPlan(member.id, 'enterprise', { per_minute: 1e6, per_hour: 1e6, per_day: 1e6 })
  const memberKey = await store.apiKeys.create(member.id, { name: 'member', scopes: SCOPES }, clock.now(), null)
  const control = await startControl(clock, receiver)
  const caFile = daemon.daemon.tls!.certPath
  return {
    daemon,
    receiver,
    env: {
      SMM_URL: `${daemon.url}/v1`,
      SMM_API_KEY: daemon.key,
      SMM_CA_FILE: caFile,
      // The daemon's own key, for a suite's stand-in server that must answer what the daemon will not (a 503) under a trusted certificate.
      SMM_TEST_TLS_KEY_FILE: join(daemon.dataDir, 'tls-key.pem'),
      SMM_TEST_LIMITED_API_KEY: limitedKey.secret,
      SMM_TEST_MEMBER_API_KEY: memberKey.secret,
      SMM_TEST_MEMBER_EMAIL: MEMBER_EMAIL,
      SMM_TEST_RECEIVER_URL: receiver.url,
      SMM_TEST_CONTROL_URL: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    },
    async close() {
      await new Promise<void>((resolve) => control.close(() => resolve()))
      await receiver.close()
      await daemon.stop()
    },
  }
}

/** Whether `command --version`-like probe runs: the toolchain an SDK suite needs is installed. */
export function hasToolchain(command: string, args: string[] = ['--version']): boolean {
  const probe = spawnSync(command, args, { stdio: 'ignore' })
  return probe.status === 0
}

/**
 * Says why a suite cannot run on this machine. Outside CI that is a loud warning and the suite
 * is not run; under CI (`CI` set) a missing toolchain is a failure, so CI always runs all four.
 * `probe` is the harmless command line that proves it runs (`go` has `version`, not `--version`).
 */
export function missingToolchain(sdk: string, command: string, install: string, probe: string[] = ['--version']): string | undefined {
  if (hasToolchain(command, probe)) return undefined
  const message = `The ${sdk} SDK suite needs \`${command}\`, which is not installed: ${install}`
  if (process.env.CI) throw new Error(message)
  console.warn(`NOT RUN: ${message}`)
  return message
}

export interface SuiteResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs a suite's own runner with the fixture's environment; never throws for a failing suite. */
export function runSuite(command: string, args: string[], options: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<SuiteResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c))
    child.stderr.on('data', (c: Buffer) => (stderr += c))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000)
    child.on('error', (error) => (clearTimeout(timer), reject(error)))
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })))
  })
}
