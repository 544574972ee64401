import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliHome, runCli } from './helpers/cli.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'

// A real Secret Service: gnome-keyring on a private D-Bus session per command (.ci/run installs
// gnome-keyring, dbus and libsecret-tools from Debian). Its keyring file lives in the test's
// home, so each session opens what the one before stored, as a desktop login would.
// @napi-rs/keyring (keyring-rs) names the account attribute `username` in the Secret Service.
const withSecretService = ['dbus-run-session', '--', 'sh', resolve(import.meta.dirname, 'helpers/with-secret-service.sh')]

let t: TestDaemon
let home: ReturnType<typeof cliHome>
const inSession = (args: string[], input?: string) => runCli(args, { env: home.env, input, wrap: withSecretService })
const lookup = () => {
  try {
    return execFileSync(withSecretService[0]!, [...withSecretService.slice(1), 'secret-tool', 'lookup', 'service', 'smm', 'username', 'default'], {
      env: home.env,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toString()
  } catch (error) {
    // secret-tool exits 1 when there is no such secret.
    if ((error as { status?: number }).status === 1) return undefined
    throw error
  }
}

beforeAll(async () => {
  for (const tool of ['dbus-run-session', 'gnome-keyring-daemon', 'secret-tool']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' })
    } catch {
      throw new Error(`${tool} is missing: install gnome-keyring, dbus and libsecret-tools (see .ci/run)`)
    }
  }
  t = await startTestDaemon()
  home = cliHome()
})
afterAll(async () => {
  home.remove()
  await t.stop()
})

describe('the key in the OS keychain (Secret Service)', () => {
  it('is stored there at login (service smm, account = profile), used by later commands, and removed at logout', async () => {
    const login = await inSession(['login', '--url', t.url, '--key-stdin', '--fingerprint', t.daemon.tls!.fingerprint], t.key)
    expect(login.code).toBe(0)
    expect(login.stdout).toMatch(/^Logged in to https:\/\/127\.0\.0\.1:\d+ as .+ \(usr_\w+\)\.\n$/)
    expect(login.stderr).not.toContain('Warning')
    expect(existsSync(join(home.env.XDG_CONFIG_HOME!, 'smm', 'credentials.json'))).toBe(false)
    expect(lookup()).toBe(t.key)

    const whoami = await inSession(['whoami', '--json'])
    expect(whoami.code).toBe(0)
    expect(JSON.parse(whoami.stdout)).toEqual((await t.http.get('/v1/me', { key: t.key })).body)

    const logout = await inSession(['logout'])
    expect(logout).toMatchObject({ code: 0, stdout: `Logged out: its key is no longer stored here; log in again with \`smm login --url ${t.url}\`.\n` })
    expect(lookup()).toBeUndefined()
  })
})
