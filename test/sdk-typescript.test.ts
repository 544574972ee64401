import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GENERATED_FILE, generateSdkTypes } from '../scripts/gen-sdk-types.js'
import { ConnectionError, SmmClient } from '../sdks/typescript/src/index.js'
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

  it('re-sends the same Idempotency-Key when a POST is retried after a dropped connection', async () => {
    const { cert, key } = await loopbackCertificate()
    const keys: string[] = []
    const server = https.createServer({ cert, key }, (req, res) => {
      keys.push(String(req.headers['idempotency-key']))
      if (keys.length === 1) return req.socket.destroy() // the first attempt gets no answer at all
      req.resume().on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'acc_1', name: 'x' })))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const delays: number[] = []
    const client = new SmmClient({
      baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: 'smm_test',
      ca: cert,
      env: {},
      onRetry: (event) => {
        expect(event.error).toBeInstanceOf(ConnectionError)
        delays.push(event.delayMs)
      },
      sleep: async () => {},
    })
    try {
      expect(await client.accounts.create({ name: 'x' })).toEqual({ id: 'acc_1', name: 'x' })
      expect(keys).toHaveLength(2)
      expect(keys[1]).toBe(keys[0])
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
      // Backoff with jitter: half to all of 500 ms before the first retry.
      expect(delays).toHaveLength(1)
      expect(delays[0]).toBeGreaterThanOrEqual(250)
      expect(delays[0]).toBeLessThanOrEqual(500)

      keys.length = 0
      await client.accounts.create({ name: 'x' }, { idempotencyKey: 'mine' })
      expect(keys).toEqual(['mine', 'mine'])
    } finally {
      client.close()
      server.close()
    }
  })
})
