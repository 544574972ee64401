import { execFile } from 'node:child_process'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createServer, type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateApiKey } from '../src/api-key.js'
import { cliHome, cliHomeFor, runCli, runInTerminal } from './helpers/cli.js'
import { sql, startTestDaemon, type TestDaemon } from './helpers/daemon.js'

let t: TestDaemon
let home: ReturnType<typeof cliHome>
let fingerprint: string
const smm = (args: string[], input?: string, env: NodeJS.ProcessEnv = {}) => runCli(args, { env: { ...home.env, ...env }, input })

beforeAll(async () => {
  t = await startTestDaemon()
  home = cliHome()
  fingerprint = t.daemon.tls!.fingerprint
})
afterAll(async () => {
  home.remove()
  await t.stop()
})

describe('smm login, without an OS keychain', () => {
  it('refuses a certificate it cannot ask about, showing the fingerprint to pin', async () => {
    const res = await smm(['login', '--url', t.url, '--key-stdin'], t.key)
    expect(res.code).toBe(2)
    expect(res.stdout).toBe('')
    expect(res.stderr).toBe(
      `Error: The TLS certificate of ${t.url} is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT); its SHA-256 fingerprint is ${fingerprint}. If that is the fingerprint \`smm daemon\` printed, log in with --fingerprint ${fingerprint}, or pass --ca with the daemon's tls-cert.pem.\n`,
    )
  })

  it('refuses a mistyped key offline, and an unknown one with the daemon\'s 401', async () => {
    const [typo, unknown] = await Promise.all([
      smm(['login', '--url', t.url, '--key-stdin', '--fingerprint', fingerprint], t.key.slice(0, -1) + (t.key.endsWith('x') ? 'y' : 'x')),
      smm(['login', '--url', t.url, '--key-stdin', '--fingerprint', fingerprint], generateApiKey()),
    ])
    expect(typo.code).toBe(3)
    expect(typo.stderr).toMatch(/^Error: That is not an smm API key: .* Check for a typo or a cut-off paste\.\n$/)
    expect(unknown.code).toBe(3)
    expect(unknown.stderr).toMatch(/^Error: .*key.*\n$/i)
    expect(unknown.stderr.split('\n')).toHaveLength(2)
  })

  it('pins the fingerprint, checks the key with /v1/me and falls back to a 0600 file, with one warning', async () => {
    const res = await smm(['login', '--url', t.url, '--key-stdin', '--fingerprint', fingerprint.replace(/:/g, '').toLowerCase()], `${t.key}\n`)
    const me = (await t.http.get('/v1/me', { key: t.key })).body
    expect(res.code).toBe(0)
    expect(res.stdout).toBe(`Logged in to ${t.url} as ${me.name} (${me.id}).\n`)
    const credentials = join(home.env.XDG_CONFIG_HOME!, 'smm', 'credentials.json')
    expect(res.stderr).toMatch(new RegExp(`^Warning: no OS keychain \\(.+\\); the key is stored in ${credentials}, readable only by you\\.\\n$`))
    expect(statSync(credentials).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(credentials, 'utf8'))).toEqual({ keys: { default: t.key } })
    expect(JSON.parse(readFileSync(join(home.env.XDG_CONFIG_HOME!, 'smm', 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { url: t.url, fingerprint } },
    })
  })
})

describe('smm login at a terminal', () => {
  it('shows the certificate, pins it when told yes, and asks for the key without echoing it', async () => {
    const terminal = cliHome()
    const res = await runInTerminal(['login', '--url', t.url], {
      env: terminal.env,
      dialogue: [
        ['Pin this certificate for this profile? [y/N] ', 'y\r'],
        ['API key: ', `${t.key}\r`],
      ],
    })
    const profiles = JSON.parse(readFileSync(join(terminal.env.XDG_CONFIG_HOME!, 'smm', 'config.json'), 'utf8'))
    terminal.remove()
    expect(res.code).toBe(0)
    expect(res.stdout).toContain(`The TLS certificate of ${t.url} is not signed by an authority this machine trusts (DEPTH_ZERO_SELF_SIGNED_CERT).`)
    expect(res.stdout).toContain(`  SHA-256 fingerprint: ${fingerprint}\n`)
    expect(res.stdout).toMatch(/API key: \nWarning: no OS keychain .*\nLogged in to /)
    expect(res.stdout).not.toContain(t.key)
    expect(profiles).toEqual({ profiles: { default: { url: t.url, fingerprint } } })
  })

  it('does not log in when the certificate is not pinned', async () => {
    const terminal = cliHome()
    const res = await runInTerminal(['login', '--url', t.url], { env: terminal.env, dialogue: [['[y/N] ', '\r']] })
    terminal.remove()
    expect(res.code).toBe(1)
    expect(res.stdout).toMatch(/\[y\/N\] \nError: Not logged in: the certificate was not pinned\.\n$/)
  })
})

describe('commands against the daemon', () => {
  it('whoami shows the user for people and the exact API object with --json', async () => {
    const [human, json] = await Promise.all([smm(['whoami']), smm(['whoami', '--json'])])
    const me = (await t.http.get('/v1/me', { key: t.key })).body
    expect(json).toMatchObject({ code: 0, stderr: '' })
    expect(JSON.parse(json.stdout)).toEqual(me)
    expect(human.code).toBe(0)
    expect(human.stdout).toBe(
      [
        `User:      ${me.name} (${me.id})`,
        'Email:     -',
        'Plan:      standard: 100/minute, 5,000/hour, 50,000/day',
        'Time zone: UTC',
        'Since:     2026-11-21 12:00 UTC',
        `Daemon:    ${t.url}`,
        `Key:       ${t.key.slice(0, 12)}… ${t.daemon.firstStart!.keyId} "owner (first start)"`,
        'Scopes:    all',
        'Expires:   never',
        '',
        'Profiles on this machine:',
        `* default  ${t.url}`,
        '',
      ].join('\n'),
    )
  })

  it('whoami shows a name that holds control characters as visible symbols, never obeyed', async () => {
    const me = (await t.http.get('/v1/me', { key: t.key })).body
    // Stored before names were checked, or by hand: the daemon refuses such a name now.
    sql(t).prepare('UPDATE users SET name = ? WHERE id = ?').run('Eve\u001b]0;pwned\u0007\r\nKey:       forged', me.id)
    try {
      const human = await smm(['whoami'])
      expect(human.code).toBe(0)
      expect(human.stdout.split('\n')[0]).toBe(`User:      Eve␛]0;pwned␇␍␊Key:       forged (${me.id})`)
      expect(human.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
    } finally {
      sql(t).prepare('UPDATE users SET name = ? WHERE id = ?').run(me.name, me.id)
    }
  })

  it('keys create prints the secret once, keys list shows it in a table, keys revoke ends it', async () => {
    // The daemon's clock stays at 2026-11-21, but `keys list` tells an expired key by the machine's:
    // the expiry is next year's 1 December, in the future on any day the suite runs.
    const year = new Date().getUTCFullYear() + 1
    const created = await smm(['keys', 'create', 'ci', '--scope', 'posts:read,posts:write', '--expires', `${year}-12-01T00:00:00+01:00`, '--json'])
    expect(created).toMatchObject({ code: 0, stderr: '' })
    const key = JSON.parse(created.stdout)
    const listed = (await t.http.get('/v1/api-keys', { key: t.key })).body.data.find((k: { id: string }) => k.id === key.id)
    const { secret, ...rest } = key
    expect(rest).toEqual(listed)
    expect(key).toMatchObject({ name: 'ci', scopes: ['posts:read', 'posts:write'], expires_at: `${year}-11-30T23:00:00.000Z` })
    expect((await t.http.get('/v1/me', { key: secret })).status).toBe(403) // a key without profile:read (but used now)

    // --expires-in counts from the machine's clock (the CLI's), not the daemon's test clock.
    const human = await smm(['keys', 'create', 'laptop', '--expires-in', '30d'])
    const inThirtyDays = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(
      new RegExp(`^Created API key key_\\w{26} "laptop" with every scope, expiring ${inThirtyDays} \\d\\d:\\d\\d UTC\\.\\nIts secret is shown only this once; store it now:\\n\\n {2}smm_\\w{36}\\n\\n$`),
    )

    const list = await smm(['keys', 'list'])
    expect(list.code).toBe(0)
    const lines = list.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID {30}NAME {17}PREFIX {8}STATUS {2}CREATED {15}EXPIRES {15}LAST USED {13}SCOPES$/)
    expect(lines[2]).toBe(`${key.id}  ci                   ${key.prefix}  active  2026-11-21 12:00 UTC  ${year}-11-30 23:00 UTC  2026-11-21 12:00 UTC  posts:read posts:write`)
    expect(lines).toHaveLength(4)

    // A script that forgot --yes deletes nothing, and is told how to say it means it.
    const unconfirmed = await smm(['keys', 'revoke', key.id])
    expect(unconfirmed).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: Not going to revoke API key ${key.id}, refusing every request made with it from now on without --yes: there is no terminal to ask on. Pass --yes to do it; nothing was changed.\n`,
    })
    expect((await t.http.get('/v1/me', { key: secret })).status).not.toBe(401)
    const revoked = await smm(['keys', 'revoke', key.id, '--yes'])
    expect(revoked).toEqual({ code: 0, stdout: `Revoked API key ${key.id}.\n`, stderr: '' })
    expect((await t.http.get('/v1/api-keys', { key: secret })).status).toBe(401)
    const page = await smm(['keys', 'list', '--limit', '2', '--json'])
    expect(JSON.parse(page.stdout)).toEqual((await t.http.get('/v1/api-keys?limit=2', { key: t.key })).body)
  })

  it('whoami shows the scopes and expiry of the key in use, or says why it cannot', async () => {
    const make = async (scopes: string[]) =>
      (await t.http.post('/v1/api-keys', { name: `whoami ${scopes.length}`, scopes, expires_at: '2027-01-01T00:00:00Z' }, { key: t.key })).body
    const [listing, blind] = await Promise.all([make(['profile:read', 'keys:write']), make(['profile:read'])])
    const [seen, unseen] = await Promise.all([smm(['whoami'], undefined, { SMM_API_KEY: listing.secret }), smm(['whoami'], undefined, { SMM_API_KEY: blind.secret })])
    expect(seen.code).toBe(0)
    expect(seen.stdout).toContain(`Key:       ${listing.prefix}… ${listing.id} "whoami 2" (from SMM_API_KEY)\nScopes:    profile:read keys:write\nExpires:   2027-01-01 00:00 UTC\n`)
    expect(unseen.code).toBe(0)
    expect(unseen.stdout).toContain(`Key:       ${blind.prefix}… (from SMM_API_KEY)\nScopes:    not shown: listing keys needs the keys:write scope, which this key does not hold\n`)
  })

  it('shows a problem as one line with each field error, or as JSON, with the exit code of SPEC §11', async () => {
    const [missing, missingJson, invalid, badTime] = await Promise.all([
      smm(['keys', 'revoke', 'key_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '--yes']),
      smm(['keys', 'revoke', 'key_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '--yes', '--json']),
      smm(['keys', 'create', ' ']),
      smm(['keys', 'create', 'x', '--expires', 'whenever']),
    ])
    expect(missing).toEqual({ code: 4, stdout: '', stderr: 'Error: No API key with id key_01JD3Q7ZV6YV9M2R8X4T5N6P7A.\n' })
    expect(missingJson.code).toBe(4)
    // With --json, stdout is for results: the problem goes to stderr, as the API sent it.
    expect(missingJson.stdout).toBe('')
    expect(JSON.parse(missingJson.stderr)).toEqual({
      type: 'urn:smm:problem:not_found',
      title: 'Not Found',
      status: 404,
      detail: 'No API key with id key_01JD3Q7ZV6YV9M2R8X4T5N6P7A.',
      instance: expect.stringMatching(/^req_/),
      code: 'not_found',
    })
    expect(invalid).toEqual({ code: 2, stdout: '', stderr: 'Error: The request has 1 invalid field: NAME.\n  NAME: must not be empty\n' })
    expect(badTime.code).toBe(2)
    expect(badTime.stderr).toBe(
      'Error: --expires: "whenever" is not a time I understand: use RFC 3339 (2026-11-21T09:00:00Z), a local date-time (2026-11-21 09:00) or a phrase like "tomorrow 9am" or "in 2 hours"\n',
    )
  })

  it('says a mistyped command as typed with the one meant, and a refused connection as a daemon that is not running', async () => {
    const [typo, topicTypo, version] = await Promise.all([smm(['posts', 'lst', '--status', 'failed']), smm(['post', 'list']), smm(['version'])])
    const { version: ours } = JSON.parse(readFileSync(join(import.meta.dirname, '../package.json'), 'utf8'))
    expect(version).toEqual({ code: 0, stderr: '', stdout: `smm ${ours} (Node.js ${process.version}, ${process.platform}-${process.arch})\n` })
    expect(typo).toEqual({ code: 2, stdout: '', stderr: 'Error: `smm posts lst --status failed` is not a command. Did you mean `smm posts list`? `smm help posts` lists them.\n' })
    expect(topicTypo).toEqual({ code: 2, stdout: '', stderr: 'Error: `smm post list` is not a command. Did you mean `smm posts list`? `smm help` lists them.\n' })

    // A port that was just free: nothing listens there.
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    await new Promise((resolve) => server.close(resolve))
    const scripted = cliHome()
    const down = await runCli(['posts', 'list'], { env: { ...scripted.env, SMM_URL: `https://127.0.0.1:${port}`, SMM_API_KEY: t.key } })
    scripted.remove()
    expect(down).toEqual({
      code: 1,
      stdout: '',
      stderr: `Error: No daemon is running at https://127.0.0.1:${port} (the connection was refused). Start it there with \`smm daemon\`, or point this profile at the right one with \`smm login --url …\` (or SMM_URL).\n`,
    })
  })

  it('explains how to test webhooks with a local receiver when the daemon refuses a private URL', async () => {
    const refused = await smm(['webhooks', 'create', 'https://127.0.0.1:9443/hook'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/^Error: The request has 1 invalid field: URL\.\n {2}URL: 127\.0\.0\.1 is a private, loopback or otherwise non-public address/)
    expect(refused.stderr).toContain('  smm daemon --allow-private-network\n')
    expect(refused.stderr).toContain('  smm daemon --allow-private-network --webhook-ca-file /path/to/receiver-cert.pem\n')
    expect(refused.stderr).toContain('NODE_EXTRA_CA_CERTS=/path/to/receiver-cert.pem')
    expect((await t.http.get('/v1/webhooks', { key: t.key })).body.data).toEqual([])
  })

  it('takes SMM_URL, SMM_API_KEY and SMM_CA_FILE over any profile, for scripts', async () => {
    const ca = join(home.dir, 'daemon-ca.pem')
    writeFileSync(ca, t.ca)
    const scripted = cliHome()
    const res = await runCli(['whoami', '--json'], { env: { ...scripted.env, SMM_URL: t.url, SMM_API_KEY: t.key, SMM_CA_FILE: ca } })
    const notLoggedIn = await runCli(['whoami'], { env: scripted.env })
    scripted.remove()
    expect(res.code).toBe(0)
    expect(JSON.parse(res.stdout).id).toMatch(/^usr_/)
    expect(notLoggedIn).toEqual({
      code: 3,
      stdout: '',
      stderr: 'Error: Not logged in: run `smm login --url https://HOST:8443`, or set SMM_URL and SMM_API_KEY.\n',
    })
  })

  it('puts --profile into the commands it suggests when a profile other than the default is in use', async () => {
    const ca = join(home.dir, 'daemon-ca.pem')
    writeFileSync(ca, t.ca)
    const scripted = cliHome()
    const env = { ...scripted.env, SMM_URL: t.url, SMM_API_KEY: t.key, SMM_CA_FILE: ca }
    const [post, calendar, account] = await Promise.all([
      runCli(['posts', 'create', '--text', 'Hello', '--profile', 'work'], { env }),
      runCli(['calendar', '--profile', 'work', '--tz', 'UTC'], { env }),
      runCli(['accounts', 'show', 'Nowhere', '--profile', 'work'], { env }),
    ])
    const plain = await runCli(['posts', 'create', '--text', 'Hello'], { env })
    scripted.remove()
    expect(post).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: You have no account yet: create one with `smm accounts create NAME --profile work`, then connect a platform to it.\n',
    })
    expect(plain.stderr).toBe('Error: You have no account yet: create one with `smm accounts create NAME`, then connect a platform to it.\n')
    expect(calendar.code).toBe(2)
    expect(calendar.stderr).toMatch(/^Error: smm calendar needs an interactive terminal .*use: smm posts list --from \d{4}-\d\d-01 --to \d{4}-\d\d-01 --every-status --profile work\n/)
    expect(account.code).toBe(4)
    expect(account.stderr).toBe('Error: ACCOUNT: no account is named "Nowhere"; you have none yet (`smm accounts create NAME --profile work`).\n')
    expect((await t.http.get('/v1/accounts', { key: t.key })).body.data).toEqual([])
  })

  it('exits 6 when rate limited beyond a short wait', async () => {
    const me = (await t.http.get('/v1/me', { key: t.key })).body
    await t.daemon.store.users.setPlan(me.id, 'enterprise', { per_minute: 1, per_hour: 100, per_day: 100 })
    t.clock.advance(60_000)
    const first = await smm(['whoami', '--json'])
    const limited = await smm(['whoami'])
    await t.daemon.store.users.setPlan(me.id, 'standard')
    t.clock.advance(60_000)
    expect(first.code).toBe(0)
    expect(limited).toEqual({ code: 6, stdout: '', stderr: 'Error: Rate limit exceeded for this API key (minute window). Retry after 60 s.\n' })
  })

  it('logs in a second profile with --ca, and logout forgets only that one', async () => {
    const ca = join(home.dir, 'daemon-ca.pem')
    const login = await smm(['login', '--url', `${t.url}/v1/`, '--ca', ca, '--key-stdin', '--profile', 'work', '--json'], t.key)
    expect(login.code).toBe(0)
    expect(JSON.parse(login.stdout).id).toMatch(/^usr_/)
    const logout = await smm(['logout', '--profile', 'work'])
    expect(logout).toEqual({ code: 0, stdout: `Logged out on profile "work": its key is no longer stored here; log in again with \`smm login --url ${t.url} --profile work\`.\n`, stderr: '' })
    // The profile stays (its URL and certificate), so the hint says how to log in to it again.
    const keyless = await smm(['whoami', '--profile', 'work'])
    expect(keyless.code).toBe(3)
    // (With no Secret Service here, the line also says why the keychain could not be read.)
    expect(keyless.stderr).toMatch(new RegExp(`^Error: No API key for ${t.url} on profile "work".*: run \`smm login --url ${t.url} --profile work\` again, or set SMM_API_KEY\\.\n$`))
    const forget = await smm(['logout', '--profile', 'work', '--forget', '--json'])
    expect(JSON.parse(forget.stdout)).toEqual({ profile: 'work', logged_out: false, forgotten: true })
    const [gone, still] = await Promise.all([smm(['whoami', '--profile', 'work']), smm(['whoami', '--json'])])
    expect(gone.code).toBe(3)
    expect(gone.stderr).toBe('Error: Not logged in on profile "work": run `smm login --url https://HOST:8443 --profile work`, or set SMM_URL and SMM_API_KEY.\n')
    expect(still.code).toBe(0)
    expect(JSON.parse(readFileSync(join(home.env.XDG_CONFIG_HOME!, 'smm', 'credentials.json'), 'utf8'))).toEqual({ keys: { default: t.key } })
  })
})

describe('flags a command does not have', () => {
  it('names the nearest flag, or the argument a flag stands for with the command to type', async () => {
    const [plural, two, asArgument, missing] = await Promise.all([
      smm(['webhooks', 'create', 'https://93.184.215.14/hooks', '--events', '*']),
      smm(['posts', 'create', '--plaform', 'feed', '--txt', 'hi', '--colour']),
      smm(['webhooks', 'create', '--uri', 'https://93.184.215.14/hooks', '--event', '*']),
      smm(['webhooks', 'resend', '--delivery', 'msg_1']),
    ])
    expect(plural).toEqual({ code: 2, stdout: '', stderr: 'Error: `smm webhooks create` has no flag --events; did you mean --event?\n' })
    expect(two).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: `smm posts create` has no flags --plaform, --txt, --colour (`smm posts create --help` lists its flags):\n' +
        '  --plaform: did you mean --platform?\n  --txt: did you mean --text?\n  --colour: no flag is near it\n',
    })
    expect(asArgument).toEqual({ code: 2, stdout: '', stderr: 'Error: `smm webhooks create` has no flag --uri; URL is an argument, not a flag: `smm webhooks create https://93.184.215.14/hooks`\n' })
    // The delivery cannot go in its place without the webhook's id before it: the usage says so.
    expect(missing).toEqual({ code: 2, stdout: '', stderr: 'Error: `smm webhooks resend` has no flag --delivery; DELIVERY is an argument, not a flag: `smm webhooks resend ID msg_1`\n' })
    const json = await smm(['posts', 'list', '--stauts', 'failed', '--json'])
    expect(json.code).toBe(2)
    expect(JSON.parse(json.stderr)).toEqual({ code: 'unknown_flag', detail: '`smm posts list` has no flag --stauts; did you mean --status?' })
  })

  it('takes an argument given as a flag of its name, wherever it is on the line', async () => {
    const scripted = cliHomeFor(t)
    try {
      const run = (args: string[]) => runCli(args, { env: scripted.env })
      const created = await run(['webhooks', 'create', '--url', 'https://93.184.215.14/hooks', '--event', 'post.published', '--json'])
      expect(created.code, created.stderr + created.stdout).toBe(0)
      const webhook = JSON.parse(created.stdout)
      expect(webhook).toMatchObject({ url: 'https://93.184.215.14/hooks', events: ['post.published'] })
      const [shown, equals] = await Promise.all([run(['webhooks', 'show', '--json', `--id=${webhook.id}`]), run(['webhooks', 'update', '--enable', '--id', webhook.id, '--json'])])
      expect([shown.code, JSON.parse(shown.stdout).id]).toEqual([0, webhook.id])
      expect([equals.code, JSON.parse(equals.stdout).id]).toEqual([0, webhook.id])
      // Two arguments: the one given as a flag goes to its place, the other stays positional.
      const resend = await run(['webhooks', 'resend', '--delivery', 'msg_00000000000000000000000000', webhook.id])
      expect(resend).toMatchObject({ code: 4, stderr: expect.stringContaining('msg_00000000000000000000000000') })
      await t.http.delete(`/v1/webhooks/${webhook.id}`, { key: t.key })
    } finally {
      scripted.remove()
    }
  })
})

describe('help', () => {
  it('describes every command with an example', async () => {
    const [help, keysCreate] = await Promise.all([smm(['--help']), smm(['keys', 'create', '--help'])])
    expect(help.code).toBe(0)
    for (const command of ['login', 'logout', 'whoami', 'keys', 'completion', 'daemon']) expect(help.stdout).toMatch(new RegExp(`^ {2}${command} `, 'm'))
    expect(help.stdout).not.toContain('__complete')
    expect(keysCreate.stdout).toContain('$ smm keys create ci --scope profile:read,accounts:read,posts:read,posts:write --expires-in 90d')
    expect(keysCreate.stdout).toMatch(/--profile=<value>/)
  })
})

describe('usage lines', () => {
  const usageOf = (help: string) => /USAGE\n([\s\S]*?)\n\n/.exec(help)![1]!.replace(/\s+/g, ' ').trim()

  it('groups only flags that exclude one another, with a flag that needs another inside its brackets', async () => {
    const help = await smm(['posts', 'create', '--help'])
    expect(usageOf(help.stdout)).toBe(
      '$ smm posts create [--json] [--profile <value>] [--tz <zone>] [--account <acc_…|name>] [--platform <platform>...] [--text <value> | --file <file>] ' +
        '[--media <file|med_…|url>...] [--alt <text>...] [--at <time> | --in <duration> | --queue] [--draft | --every <interval> [--count <n>] [--until <time>]] [--first-comment <text>] ' +
        '[--thread <text>...] [--text-for <platform>=<text>...] [--dry-run]',
    )
  })

  it('names every flag of every command once, with no empty alternative', async () => {
    const { usageLine } = await import('../src/cli/help.js')
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../oclif.manifest.json'), 'utf8'))
    for (const command of Object.values<any>(manifest.commands)) {
      const line = usageLine(command)
      expect(line, command.id).not.toMatch(/\|\s*\||\[\s*\||\|\s*\]|\[\s*\]|\(\s*\)|\s\]/)
      for (const [name, flag] of Object.entries<any>(command.flags)) {
        if (flag.hidden) continue
        const said = line.split(' ').filter((word) => word.replace(/^[[(]+|[\])]+$/g, '') === (flag.char ? `-${flag.char}` : `--${name}`))
        expect(said, `${command.id} --${name}`).toHaveLength(1)
      }
    }
  })
})

describe('shell completion', () => {
  it('completes commands, flags, flag values and account names in bash, as a TAB would', async () => {
    // Accounts of the logged-in user: one name to offer, and two alike, offered by id.
    const created = await Promise.all(
      ['Bakery', 'Twin', 'Twin'].map(async (name) => (await t.http.request('POST', '/v1/accounts', { key: t.key, json: { name } })).body as { id: string; name: string }),
    )
    const script = await smm(['completion', 'bash'])
    expect(script.code).toBe(0)
    const file = join(home.dir, 'smm-completion.bash')
    writeFileSync(file, script.stdout)
    // What the user's ~/.bashrc does (`smm` being the real executable), then a TAB at the end of `line`.
    // The daemon found as a script finds it (SMM_URL, SMM_API_KEY, SMM_CA_FILE).
    const scripted = cliHomeFor(t)
    const complete = (line: string, env: NodeJS.ProcessEnv = {}) => {
      const words = line.split(' ')
      const shell = `smm() { ${JSON.stringify(process.execPath)} ${JSON.stringify(join(import.meta.dirname, '../bin/run.js'))} "$@"; }
source ${file}
COMP_WORDS=(${words.map((w) => (w === '' ? "''" : w)).join(' ')}); COMP_CWORD=${words.length - 1}
_smm_complete
printf '%s\n' "\${COMPREPLY[@]}"`
      // Not execFileSync: the daemon answering the account lookup runs in this process.
      return new Promise<string[]>((resolve, reject) =>
        execFile('bash', ['-c', shell], { env: { ...scripted.env, ...env } }, (error, stdout) => (error ? reject(error) : resolve(stdout.split('\n').filter(Boolean)))),
      )
    }
    expect(await complete('smm log')).toEqual(['login', 'logout'])
    expect(await complete('smm posts cr')).toEqual(['create'])
    expect(await complete('smm posts create --pl')).toEqual(['--platform'])
    expect(await complete('smm posts create --platform m')).toEqual(['mastodon'])
    expect(await complete('smm posts list --status pu')).toEqual(['publishing', 'published'])
    // Bash splits `--flag=value` at the "=": the value is completed all the same.
    expect(await complete('smm keys create ci --scope = posts')).toEqual(['posts:read', 'posts:write', 'posts:approve'])
    expect(await complete('smm webhooks create --event post.p')).toEqual(['post.published', 'post.partially_published'])
    const twins = created.filter((a) => a.name === 'Twin').map((a) => a.id).sort()
    expect((await complete('smm posts create --account ')).sort()).toEqual(expect.arrayContaining(['Bakery', ...twins]))
    expect(await complete('smm posts create --account Ba')).toEqual(['Bakery'])
    expect(await complete('smm accounts rename B')).toEqual(['Bakery'])
    // A daemon that cannot be reached offers nothing, and prints nothing into the command line.
    expect(await complete('smm posts create --account ', { SMM_URL: 'https://127.0.0.1:1' })).toEqual([])
    scripted.remove()
  })

  it('prints a zsh script that asks the same candidates', async () => {
    const zsh = await smm(['completion', 'zsh'])
    expect(zsh.code).toBe(0)
    expect(zsh.stdout).toMatch(/^#compdef smm\n/)
    expect(zsh.stdout).toContain('smm __complete -- "${(@)words[2,CURRENT]}"')
    expect(zsh.stdout).toContain('compdef _smm_complete smm')
    const direct = await smm(['__complete', '--', 'webhooks', 'create', '--event=post.ca'])
    expect(direct.stdout).toBe('post.cancelled\n')
  })
})
