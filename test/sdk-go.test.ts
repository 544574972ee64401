import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { missingToolchain, runSuite, startSdkFixture, type SdkFixture } from './helpers/sdk-harness.js'

const missing = missingToolchain('Go', 'go', 'apt-get install golang-go', ['version'])

describe.skipIf(Boolean(missing))('Go SDK', () => {
  let fixture: SdkFixture
  beforeAll(async () => {
    fixture = await startSdkFixture()
  })
  afterAll(() => fixture.close())

  it('passes its own go test suite against the daemon', async () => {
    // GOPROXY=off and GOFLAGS=-mod=mod: the SDK has no dependencies, so nothing is ever fetched;
    // -count=1: never a cached pass, the daemon is new every run.
    const r = await runSuite('go', ['test', '-count=1', '-v', './...'], {
      cwd: 'sdks/go',
      env: { ...fixture.env, GOPROXY: 'off', GOFLAGS: '-mod=mod' },
    })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    // A test skips only without the daemon's variables: here every one of them must have run.
    expect(r.stdout).not.toMatch(/--- SKIP/)
    expect(r.stdout).toMatch(/--- PASS: TestA429IsRetriedAfterItsRetryAfter/)
  }, 240_000)
})
