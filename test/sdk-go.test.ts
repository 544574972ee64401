import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { missingToolchain, runSuite, startSdkFixture, type SdkFixture } from './helpers/sdk-harness.js'

const missing = missingToolchain('Go', 'go', 'apt-get install golang-go', ['version'])
const cwd = 'sdks/go'

describe.skipIf(Boolean(missing))('Go SDK', () => {
  let fixture: SdkFixture
  beforeAll(async () => {
    fixture = await startSdkFixture()
  })
  afterAll(() => fixture.close())

  it('passes its own go test suite against the daemon', async () => {
    // GOPROXY=off: the SDK has no dependencies, so nothing may be fetched; -count=1: never a
    // cached pass, the daemon is new every run.
    const r = await runSuite('go', ['test', '-count=1', '-v', './...'], { cwd, env: { ...fixture.env, GOPROXY: 'off' } })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    // A test skips only without the daemon's variables: here every one of them must have run.
    expect(r.stdout).not.toMatch(/--- SKIP/)
    expect(r.stdout).toMatch(/--- PASS: TestA429IsRetriedAfterItsRetryAfter/)
  }, 240_000)

  it('is gofmt and go vet clean', async () => {
    const format = await runSuite('gofmt', ['-l', '.'], { cwd, env: {} })
    expect(format.stdout + format.stderr, 'files gofmt would change').toBe('')
    const vet = await runSuite('go', ['vet', './...'], { cwd, env: { GOPROXY: 'off' } })
    expect(vet.code, vet.stdout + vet.stderr).toBe(0)
  }, 120_000)
})
