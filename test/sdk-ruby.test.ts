import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { missingToolchain, runSuite, startSdkFixture, type SdkFixture } from './helpers/sdk-harness.js'

// The Ruby SDK's own minitest suite, run against a real daemon over real TLS (see the harness).
const missing = missingToolchain('Ruby', 'ruby', 'apt-get install ruby')

describe.skipIf(Boolean(missing))('Ruby SDK', () => {
  let fixture: SdkFixture
  beforeAll(async () => {
    fixture = await startSdkFixture()
  })
  afterAll(() => fixture.close())

  it('passes its own minitest suite against the daemon', async () => {
    const r = await runSuite('ruby', ['-Ilib', '-Itest', 'test/run.rb', '--verbose'], { cwd: 'sdks/ruby', env: fixture.env })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    // Every test ran: none was skipped for want of the fixture's variables.
    expect(r.stdout).toMatch(/, 0 failures, 0 errors, 0 skips/)
  }, 240_000)
})
