import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GENERATED_FILE, generateSdkTypes } from '../scripts/gen-sdk-types.js'
import { SmmApiError, SmmClient } from '../sdks/typescript/src/index.js'
import { runSuite, startSdkFixture, type SdkFixture } from './helpers/sdk-harness.js'
import { loopbackCertificate } from './helpers/webhook-receiver.js'

const SDK = 'sdks/typescript'

describe('TypeScript SDK', () => {
  let fixture: SdkFixture
  beforeAll(async () => {
    fixture = await startSdkFixture()
  })
  afterAll(() => fixture.close())

  it('passes its own node:test suite against the daemon', async () => {
    const files = readdirSync(join(SDK, 'test')).filter((f) => f.endsWith('.test.mjs')).map((f) => join('test', f))
    const r = await runSuite(process.execPath, ['--test', '--test-reporter=spec', ...files], { cwd: SDK, env: fixture.env })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout, 'the daemon suite must run, not skip').not.toMatch(/# SKIP|﹣|skipped [1-9]/)
  }, 240_000)
})

describe('TypeScript SDK package', () => {
  it('has types generated from the current contract (npx tsx scripts/gen-sdk-types.ts)', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(generateSdkTypes())
  })

  it('ships dist/ built from its src/ (cd sdks/typescript && npm run build)', () => {
    const out = mkdtempSync(join(tmpdir(), 'sdk-dist-'))
    try {
      const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', join(SDK, 'tsconfig.json'), '--outDir', out], { encoding: 'utf8' })
      expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0)
      const built = readdirSync(out).sort()
      expect(readdirSync(join(SDK, 'dist')).sort()).toEqual(built)
      for (const file of built) expect(readFileSync(join(SDK, 'dist', file), 'utf8'), `dist/${file} is stale`).toBe(readFileSync(join(out, file), 'utf8'))
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  }, 120_000)

  /** A loopback HTTPS server answering each request with the next of `replies` (`'drop'` hangs up). */
  async function scripted(replies: ('drop' | { status: number; headers?: Record<string, string>; body: unknown })[]) {
    const { cert, key } = await loopbackCertificate()
    const keys: string[] = []
    const server = https.createServer({ cert, key }, (req, res) => {
      keys.push(String(req.headers['idempotency-key']))
      const reply = replies[keys.length - 1] ?? replies.at(-1)!
      if (reply === 'drop') return req.socket.destroy() // no answer at all
      const type = reply.status >= 400 ? 'application/problem+json' : 'application/json'
      req.resume().on('end', () => res.writeHead(reply.status, { 'content-type': type, ...reply.headers }).end(JSON.stringify(reply.body)))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const delays: number[] = []
    const client = new SmmClient({
      baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: 'smm_test',
      ca: cert,
      env: {},
      onRetry: (event) => delays.push(event.delayMs),
      sleep: async () => {},
    })
    return { keys, delays, client, close: () => (client.close(), server.close()) }
  }
  const problem = (status: number, code: string) => ({ type: `urn:smm:problem:${code}`, title: 'x', status, detail: `${code} happened`, code })

  it('re-sends the same Idempotency-Key when a POST is retried after a dropped connection', async () => {
    const s = await scripted(['drop', { status: 201, body: { id: 'acc_1', name: 'x' } }])
    try {
      expect(await s.client.accounts.create({ name: 'x' })).toEqual({ id: 'acc_1', name: 'x' })
      expect(s.keys).toHaveLength(2)
      expect(s.keys[1]).toBe(s.keys[0])
      expect(s.keys[0]).toMatch(/^[0-9a-f-]{36}$/)
      // Backoff with jitter: half to all of 500 ms before the first retry.
      expect(s.delays).toHaveLength(1)
      expect(s.delays[0]).toBeGreaterThanOrEqual(250)
      expect(s.delays[0]).toBeLessThanOrEqual(500)

      s.keys.length = 0
      await s.client.accounts.create({ name: 'x' }, { idempotencyKey: 'mine' })
      expect(s.keys).toEqual(['mine', 'mine'])
    } finally {
      s.close()
    }
  })

  it('retries a 5xx (after its Retry-After when given) at most maxRetries times, and never a 4xx', async () => {
    const s = await scripted([
      { status: 503, headers: { 'retry-after': '3' }, body: problem(503, 'unavailable') },
      { status: 500, body: problem(500, 'internal_error') },
      { status: 500, body: problem(500, 'internal_error') },
    ])
    try {
      const error = await s.client.me().catch((e: unknown) => e)
      expect(error).toBeInstanceOf(SmmApiError)
      expect(error).toMatchObject({ status: 500, code: 'internal_error', detail: 'internal_error happened' })
      expect(s.keys).toHaveLength(3) // the first attempt and the default 2 retries
      expect(s.delays[0]).toBe(3000)
      expect(s.delays[1]).toBeGreaterThanOrEqual(500) // the second backoff: half to all of 1 s
      expect(s.delays[1]).toBeLessThanOrEqual(1000)
    } finally {
      s.close()
    }
    const t = await scripted([{ status: 404, body: problem(404, 'not_found') }])
    try {
      await expect(t.client.posts.get('pst_x')).rejects.toMatchObject({ status: 404, code: 'not_found' })
      expect(t.keys).toHaveLength(1)
      expect(t.delays).toEqual([])
    } finally {
      t.close()
    }
  })
})
