import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { missingToolchain, runSuite, startSdkFixture, type SdkFixture } from './helpers/sdk-harness.js'

const missing = missingToolchain('Python', 'python3', 'apt-get install python3')

describe.skipIf(Boolean(missing))('Python SDK', () => {
  let fixture: SdkFixture
  beforeAll(async () => {
    fixture = await startSdkFixture()
  })
  afterAll(() => fixture.close())

  it('passes its own unittest suite against the daemon', async () => {
    const r = await runSuite('python3', ['-m', 'unittest', 'discover', '-v', '-s', 'tests'], { cwd: 'sdks/python', env: fixture.env })
    expect(r.code, r.stdout + r.stderr).toBe(0)
  }, 240_000)
})
