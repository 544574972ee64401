import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../src/time.js'
import { cliHome, cliHomeFor, runCli, type CliResult } from './helpers/cli.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { loopbackPlatform, startLoopbackServer, type LoopbackServer } from './helpers/loopback-platform.js'
import { liftLimits } from './helpers/posts.js'
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js'

let t: TestDaemon
let loop: LoopbackServer
let receiver: Receiver
let home: ReturnType<typeof cliHome>
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  loop = await startLoopbackServer()
  receiver = await startReceiver()
  // The receiver checks webhook-timestamp against the machine's clock: the daemon's starts there.
  t = await startTestDaemon({
    clock: new ManualClock(Date.now()),
    allowPrivateNetwork: true,
    backgroundWorkers: false,
    egress: { ca: [loop.ca, receiver.ca] },
    overrides: { platforms: [loopbackPlatform('discord', { idempotent: false })] },
  })
  await liftLimits(t)
  home = cliHomeFor(t)
  env = home.env
})
afterAll(async () => {
  home.remove()
  await t.stop()
  await Promise.all([loop.close(), receiver.close()])
})

const smm = (args: string[], input?: string) => runCli(args, { env, input })
const json = (res: CliResult) => JSON.parse(res.stdout)
const get = async (path: string) => (await t.http.get(path, { key: t.key })).body
const shown = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`

describe('smm accounts', () => {
  it('creates, connects (credentials from flags, a file or stdin, never echoed), shows, lists and disconnects', async () => {
    const [created, createdJson] = await Promise.all([smm(['accounts', 'create', 'Acme Coffee']), smm(['accounts', 'create', 'Blog', '--json'])])
    const acme = /^Created account (acc_\w{26}) "Acme Coffee"\.\n/.exec(created.stdout)?.[1]
    expect(created).toEqual({
      code: 0,
      stderr: '',
      stdout: `Created account ${acme} "Acme Coffee".\nConnect a platform to it: smm accounts connect ${acme} --platform feed\n`,
    })
    const blog = json(createdJson)
    expect(blog).toEqual(await get(`/v1/accounts/${blog.id}`))

    const file = join(home.dir, 'discord.json')
    writeFileSync(file, JSON.stringify({ webhook_url: loop.url }))
    const secretish = 'hunter2-not-for-the-screen'
    const badFile = join(home.dir, 'bad.json')
    writeFileSync(badFile, `{"webhook_url": "${secretish}`)
    const [feed, fromFile, fromStdin, badPair, badJson, unknown] = await Promise.all([
      smm(['accounts', 'connect', acme!, '--platform', 'feed']),
      smm(['accounts', 'connect', acme!, '--platform', 'discord', '--credentials-file', file, '--json']),
      smm(['accounts', 'connect', blog.id, '--platform', 'discord', '--credentials-file', '-'], JSON.stringify({ webhook_url: loop.url })),
      smm(['accounts', 'connect', blog.id, '--platform', 'discord', '--credential', secretish]),
      smm(['accounts', 'connect', blog.id, '--platform', 'discord', '--credentials-file', badFile]),
      smm(['accounts', 'connect', 'acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '--platform', 'feed']),
    ])
    expect(feed).toEqual({
      code: 0,
      stderr: '',
      stdout: `Connected feed to account ${acme} as feed (RSS, Atom and JSON Feed).\nIts posts are published to the feed at ${t.url}/feeds/${acme}.rss (also .atom and .json, and .html to read it in a browser); reading it needs no key.\n`,
    })
    expect(fromFile.code).toBe(0)
    expect(json(fromFile)).toEqual((await get(`/v1/accounts/${acme}`)).connections.find((c: any) => c.platform === 'discord'))
    expect(fromStdin).toEqual({ code: 0, stderr: '', stdout: `Connected discord to account ${blog.id} as ${loop.url} (discord loopback).\n` })
    expect(badPair).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --credential: expected NAME=VALUE (e.g. --credential instance_url=https://mastodon.social); the value is not shown here in case it is a secret.\n',
    })
    expect(badJson.code).toBe(2)
    expect(badJson.stderr).toBe(`Error: --credentials-file ${badFile} is not valid JSON; expected an object such as {"instance_url": "https://…", "access_token": "…"}.\n`)
    expect(unknown).toEqual({ code: 4, stdout: '', stderr: 'Error: No account with id acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A.\n' })

    const [list, listJson, show] = await Promise.all([smm(['accounts', 'list']), smm(['accounts', 'list', '--platform', 'feed', '--json']), smm(['accounts', 'show', acme!])])
    const account = await get(`/v1/accounts/${acme}`)
    expect(list).toEqual({
      code: 0,
      stderr: '',
      // Both were created at once: the API's order (by id) decides which comes first.
      stdout: [
        'ID                              NAME         CREATED               PLATFORMS',
        ...(await get('/v1/accounts')).data.map((a: any) => `${a.id}  ${a.name.padEnd(11)}  ${shown(a.created_at)}  ${a.connections.map((c: any) => c.platform).join(', ')}`),
        '',
      ].join('\n'),
    })
    expect((await t.http.get(`/feeds/${acme}.rss`)).status).toBe(200)
    expect(json(listJson)).toEqual(await get('/v1/accounts?platform=feed'))
    expect(json(listJson).data.map((a: any) => a.id)).toEqual([acme])
    const row = (c: any) =>
      c.platform === 'feed'
        ? `feed      feed${' '.repeat(loop.url.length - 4)}  RSS, Atom and JSON Feed  active  ${shown(c.connected_at)}`
        : `discord   ${loop.url}  discord loopback         active  ${shown(c.connected_at)}`
    expect(show.stdout).toBe(
      [
        `Account: Acme Coffee (${acme})`,
        `Created: ${shown(account.created_at)}`,
        '',
        `PLATFORM  HANDLE${' '.repeat(loop.url.length - 6)}  NAME                     STATUS  CONNECTED`,
        ...account.connections.map(row),
        '',
        `Feed: ${t.url}/feeds/${acme}.rss (also .atom and .json, and .html to read it in a browser)`,
        '',
      ].join('\n'),
    )

    const [disconnected, again] = await Promise.all([
      smm(['accounts', 'disconnect', acme!, '--platform', 'discord', '--yes', '--json']),
      smm(['accounts', 'disconnect', blog.id, '--platform', 'feed', '--yes']),
    ])
    expect(json(disconnected)).toEqual({ account_id: acme, platform: 'discord', disconnected: true })
    expect((await get(`/v1/accounts/${acme}`)).connections.map((c: any) => c.platform)).toEqual(['feed'])
    expect(again.code).toBe(4)
    expect(again.stderr).toMatch(/^Error: .*feed.*\n$/)
  })
})

describe('smm platforms', () => {
  it('shows how each platform connects and its limits, and --json is the API list', async () => {
    const [human, asJson] = await Promise.all([smm(['platforms']), smm(['platforms', '--json'])])
    expect(human.code).toBe(0)
    const lines = human.stdout.split('\n')
    expect(lines[0]).toMatch(/^PLATFORM +NAME +CONNECTS WITH +TEXT +MEDIA +THREAD, FIRST COMMENT$/)
    const row = (name: string) => lines.find((line) => line.startsWith(`${name} `))!.split(/ {2,}/)
    expect(row('feed')).toEqual(['feed', 'Feed', 'nothing', '10,000 characters', 'any number, as links', 'consecutive, none'])
    expect(row('mastodon')).toEqual(['mastodon', 'Mastodon', 'instance_url, access_token', '500 characters, links count 23', 'up to 4', 'replies, reply'])
    expect(row('bluesky')).toEqual(['bluesky', 'Bluesky', 'service_url, identifier, app_password', '300 characters, 3,000 bytes', 'up to 4 images', 'replies, reply'])
    expect(row('telegram')).toEqual(['telegram', 'Telegram', 'bot_token, chat_id, api_url', '4,096 UTF-16 units (1,024 under media)', 'up to 10', 'replies, reply'])
    expect(row('slack')).toEqual(['slack', 'Slack', 'webhook_url', '4,000 UTF-16 units, media links included', 'any number, as links', 'consecutive, none'])
    expect(row('x')).toEqual(['x', 'X', 'browser sign-in (OAuth)', '280 characters, links count 23, CJK and emoji 2', 'up to 4 images', 'replies, reply'])
    expect(row('instagram')).toEqual(['instagram', 'Instagram', 'browser sign-in (OAuth)', '2,200 characters', 'up to 10 images, at least 1, fetched by URL', 'consecutive, comment'])
    expect(human.stdout).toContain('\nConnect one: smm accounts connect ACCOUNT --platform PLATFORM\n')
    expect(asJson.code).toBe(0)
    expect(json(asJson)).toEqual(await get('/v1/platforms'))
  })
})

describe('smm accounts disconnect from a script', () => {
  it('refuses without --yes, with exit 2, and disconnects nothing', async () => {
    const acme = (await t.http.post('/v1/accounts', { name: 'Scripted' }, { key: t.key })).body.id
    await t.http.post(`/v1/accounts/${acme}/connections`, { platform: 'feed' }, { key: t.key })
    const [unconfirmed, unconfirmedJson] = await Promise.all([
      smm(['accounts', 'disconnect', acme, '--platform', 'feed']),
      smm(['accounts', 'disconnect', acme, '--platform', 'feed', '--json']),
    ])
    expect(unconfirmed).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: Not going to disconnect feed from account ${acme} and forget its credentials without --yes: there is no terminal to ask on. Pass --yes to do it; nothing was changed.\n`,
    })
    expect(unconfirmedJson.code).toBe(2)
    expect(JSON.parse(unconfirmedJson.stderr)).toMatchObject({ code: 'confirmation_required' })
    expect((await get(`/v1/accounts/${acme}`)).connections.map((c: any) => c.platform)).toEqual(['feed'])
  })
})

describe('deletes from a script', () => {
  it('webhooks delete and accounts delete refuse without --yes, with exit 2, and delete nothing', async () => {
    const account = (await t.http.post('/v1/accounts', { name: 'Kept' }, { key: t.key })).body.id
    const webhook = (await t.http.post('/v1/webhooks', { url: receiver.url, events: ['*'] }, { key: t.key })).body.id
    const [hook, acct, acctJson] = await Promise.all([
      smm(['webhooks', 'delete', webhook]),
      smm(['accounts', 'delete', account]),
      smm(['accounts', 'delete', account, '--json']),
    ])
    expect(hook).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: Not going to delete webhook ${webhook} and its delivery history without --yes: there is no terminal to ask on. Pass --yes to do it; nothing was changed.\n`,
    })
    expect(acct).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: Not going to delete account ${account} and every post and connection of it without --yes: there is no terminal to ask on. Pass --yes to do it; nothing was changed.\n`,
    })
    expect(acctJson.code).toBe(2)
    expect(JSON.parse(acctJson.stderr)).toMatchObject({ code: 'confirmation_required' })
    expect((await t.http.get(`/v1/webhooks/${webhook}`, { key: t.key })).status).toBe(200)
    expect((await t.http.get(`/v1/accounts/${account}`, { key: t.key })).status).toBe(200)
    await t.http.delete(`/v1/webhooks/${webhook}`, { key: t.key })
  })
})

describe('smm accounts by name', () => {
  it('takes a unique name wherever an account is asked for, renames, and deletes only with --cancel-posts while posts are scheduled', async () => {
    const id = json(await smm(['accounts', 'create', 'Night Owl', '--json'])).id
    await smm(['accounts', 'connect', 'night owl', '--platform', 'feed'])
    expect((await get(`/v1/accounts/${id}`)).connections.map((c: any) => c.platform)).toEqual(['feed'])

    const post = await smm(['posts', 'create', '--account', 'Night Owl', '--text', 'Hoot', '--in', '2h', '--json'])
    expect(json(post).account_id).toBe(id)
    const listed = json(await smm(['posts', 'list', '--account', 'NIGHT OWL', '--json']))
    expect(listed.data.map((p: any) => p.id)).toEqual([json(post).id])

    const renamed = await smm(['accounts', 'rename', 'Night Owl', 'Early Bird'])
    expect(renamed).toEqual({ code: 0, stderr: '', stdout: `Renamed account ${id} to "Early Bird".\n` })
    const gone = await smm(['posts', 'list', '--account', 'Night Owl'])
    expect(gone.code).toBe(4)
    expect(gone.stderr).toMatch(new RegExp(`^Error: --account: no account is named "Night Owl"; your accounts are .*${id} \\(Early Bird\\)`))

    await smm(['accounts', 'create', 'Twin'])
    await smm(['accounts', 'create', 'twin'])
    const ambiguous = await smm(['accounts', 'show', 'Twin'])
    expect(ambiguous.code).toBe(2)
    expect(ambiguous.stderr).toMatch(/^Error: ACCOUNT: 2 accounts are named "Twin": acc_\w{26} \(Twin\), acc_\w{26} \(twin\); give the id\.\n$/)

    const refused = await smm(['accounts', 'delete', 'Early Bird', '--yes'])
    expect(refused.code).toBe(5)
    expect(refused.stderr).toContain('has 1 scheduled post or draft; nothing was deleted')
    expect((await t.http.get(`/v1/accounts/${id}`, { key: t.key })).status).toBe(200)
    const deleted = await smm(['accounts', 'delete', 'Early Bird', '--cancel-posts', '--yes', '--json'])
    expect(json(deleted)).toEqual({ account_id: id, deleted: true })
    expect((await t.http.get(`/v1/accounts/${id}`, { key: t.key })).status).toBe(404)
  })
})

describe('smm webhooks', () => {
  it('creates an endpoint with its secret printed once, tests it, and shows the delivery', async () => {
    const [created, human, invalid] = await Promise.all([
      // A repeatable flag takes one value, so the URL after it stays the argument.
      smm(['webhooks', 'create', '--event', 'webhook.test,post.published', receiver.url, '--description', 'CI', '--json']),
      smm(['webhooks', 'create', 'https://93.184.215.14/hooks']),
      smm(['webhooks', 'create', 'http://example.com/hooks', '--event', 'post.published', '--event', 'post.published']),
    ])
    const webhook = json(created)
    expect(webhook.secret).toMatch(/^whsec_/)
    const { secret, ...stored } = webhook
    expect(stored).toEqual(await get(`/v1/webhooks/${webhook.id}`))
    receiver.secrets.push(secret)
    const other = /^Created webhook (whk_\w{26}): every event to https:\/\/93\.184\.215\.14\/hooks\.\n/.exec(human.stdout)?.[1]
    expect(human.stdout).toMatch(/Its signing secret is shown only this once; store it now \(receivers verify with it\):\n\n {2}whsec_[\w+/]{43}=\n\n$/)
    expect(invalid).toEqual({
      code: 2,
      stdout: '',
      stderr: [
        'Error: The request has 2 invalid fields: URL, --event.',
        '  URL: must be an https:// URL: deliveries are never sent in clear',
        '  --event: must not repeat an event type',
        '',
      ].join('\n'),
    })

    const [list, show] = await Promise.all([smm(['webhooks', 'list']), smm(['webhooks', 'show', webhook.id])])
    const row = (w: any) =>
      w.id === other
        ? `${other}  https://93.184.215.14/hooks${' '.repeat(receiver.url.length - 27)}  *                            enabled`
        : `${webhook.id}  ${receiver.url}  webhook.test,post.published  enabled  CI`
    expect(list.stdout.split('\n')).toEqual([
      `ID                              URL${' '.repeat(receiver.url.length - 3)}  EVENTS                       STATE    DESCRIPTION`,
      ...(await get('/v1/webhooks')).data.map(row),
      '',
    ])
    expect(show.stdout).toContain(`Webhook:     ${webhook.id}\nURL:         ${receiver.url}\nEvents:      webhook.test, post.published\nState:       enabled\nDescription: CI\n`)
    const disabled = await smm(['webhooks', 'update', other!, '--disable', '--json'])
    expect(json(disabled)).toEqual(await get(`/v1/webhooks/${other}`))
    expect(json(disabled).enabled).toBe(false)

    const [test, testDisabled] = await Promise.all([smm(['webhooks', 'test', webhook.id]), smm(['webhooks', 'test', other!])])
    const eventId = /^Queued webhook\.test (msg_\w{26}) for /.exec(test.stdout)?.[1]
    expect(test.stdout).toBe(`Queued webhook.test ${eventId} for ${webhook.id}. See how it went: smm webhooks deliveries ${webhook.id}\n`)
    expect(testDisabled.code).toBe(5)
    await t.daemon.workers.find((w) => w.name === 'webhook-delivery')!.tick!(t.clock.now())
    const [delivered] = await receiver.waitFor(1)
    expect(delivered!.verifiedWith).toEqual([0])
    expect(delivered!.headers['webhook-id']).toBe(eventId)

    const [deliveries, deliveriesJson] = await Promise.all([smm(['webhooks', 'deliveries', webhook.id]), smm(['webhooks', 'deliveries', webhook.id, '--json'])])
    const attempts = await get(`/v1/webhooks/${webhook.id}/deliveries`)
    expect(json(deliveriesJson)).toEqual(attempts)
    const lines = deliveries.stdout.trimEnd().split('\n')
    // The MS column is as wide as the attempt's real duration: 2 digits on a quiet machine, more on a busy one.
    const ms = attempts.data[0].duration_ms.toLocaleString('en-US')
    expect(lines[0]).toBe(`TIME                  EVENT         MESSAGE                         TRY  RESULT  HTTP  ${'MS'.padEnd(ms.length)}  NEXT TRY  ERROR`)
    expect(lines[1]).toBe(`${shown(attempts.data[0].created_at)}  webhook.test  ${eventId}  1    ok      204   ${ms}`)

    const [rotated, deleted, deletedAgain] = await Promise.all([
      smm(['webhooks', 'rotate-secret', webhook.id]),
      smm(['webhooks', 'delete', other!, '--yes']),
      smm(['webhooks', 'delete', 'whk_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '--yes']),
    ])
    expect(rotated.stdout).toMatch(new RegExp(`^Rotated the secret of ${webhook.id}; the old one also signs until .+ UTC\\.\\nIts signing secret is shown only this once`))
    expect(rotated.stdout).not.toContain(secret)
    expect(deleted).toEqual({ code: 0, stderr: '', stdout: `Deleted webhook ${other}.\n` })
    expect(deletedAgain).toEqual({ code: 4, stdout: '', stderr: 'Error: No webhook with id whk_01JD3Q7ZV6YV9M2R8X4T5N6P7A.\n' })
  })

  it('resends one delivery on request, with the same webhook-id and body', async () => {
    const webhook = (await t.http.post('/v1/webhooks', { url: receiver.url, events: ['*'] }, { key: t.key })).body
    receiver.secrets.push(webhook.secret)
    const before = receiver.received.length
    const eventId = (await t.http.post(`/v1/webhooks/${webhook.id}/test`, {}, { key: t.key })).body.event_id
    await t.daemon.workers.find((w) => w.name === 'webhook-delivery')!.tick!(t.clock.now())
    const delivered = (await receiver.waitFor(before + 1))[before]
    // The receiver can ask for the same delivery again while its developer debugs it.
    const resent = await smm(['webhooks', 'resend', webhook.id, eventId!])
    expect(resent).toEqual({ code: 0, stderr: '', stdout: `Queued ${eventId} for ${webhook.id} again. See how it went: smm webhooks deliveries ${webhook.id}\n` })
    await t.daemon.workers.find((w) => w.name === 'webhook-delivery')!.tick!(t.clock.now())
    const again = (await receiver.waitFor(before + 2))[before + 1]
    expect(again!.headers['webhook-id']).toBe(eventId)
    expect(again!.body).toBe(delivered!.body)
    const unknownDelivery = await smm(['webhooks', 'resend', webhook.id, 'msg_01JD3Q7ZV6YV9M2R8X4T5N6P7A'])
    expect(unknownDelivery).toEqual({ code: 4, stdout: '', stderr: 'Error: No delivery with id msg_01JD3Q7ZV6YV9M2R8X4T5N6P7A.\n' })

  })
})

describe('smm ai generate', () => {
  it('prints each draft with its platform and length, and --json is the generation', async () => {
    const [human, asJson, tooMany] = await Promise.all([
      smm(['ai', 'generate', '--platform', 'bluesky', 'We open a second shop in Leith on Saturday', '--variants', '2', '--tone', 'witty']),
      smm(['ai', 'generate', 'We open a second shop in Leith on Saturday', '--platform', 'discord', '--hashtags', '--json']),
      smm(['ai', 'generate', 'x', '--variants', '9']),
    ])
    expect(human).toMatchObject({ code: 0, stderr: '' })
    expect(human.stdout).toMatch(/^bluesky #1 \(\d+ characters\)\n {2}.*Leith.*\n[\s\S]*\nbluesky #2 \(\d+ characters\)\n {2}/)
    expect(human.stdout).toMatch(/\nDrafted by builtin \(.+\)\.\n$/)
    const generation = json(asJson)
    expect(generation).toMatchObject({ provider: 'builtin', variants: [{ platform: 'discord', content: expect.stringContaining('#') }] })
    expect(generation.id).toMatch(/^gen_/)
    expect(tooMany).toEqual({ code: 2, stdout: '', stderr: 'Error: --variants: Expected an integer less than or equal to 5 but received: 9\n' })
  })
})

describe('the example keys of smm keys create --help', () => {
  it('hold the scopes their commands need: the ci key posts by account name, the reporting key reads analytics', async () => {
    const manifest = JSON.parse(readFileSync(join(resolve(import.meta.dirname, '..'), 'oclif.manifest.json'), 'utf8'))
    const examples: string[] = manifest.commands['keys:create'].examples
    const scopesOf = (name: string) => {
      const example = examples.find((e) => e.includes(`keys create ${name} `))!
      return [...example.matchAll(/--scope (\S+)/g)].flatMap((m) => m[1]!.split(','))
    }
    const keyWith = async (scopes: string[]) => (await t.http.post('/v1/api-keys', { name: 'example', scopes }, { key: t.key })).body.secret as string
    const [ci, reporting] = await Promise.all([keyWith(scopesOf('ci')), keyWith(scopesOf('reporting'))])
    const as = (key: string, args: string[]) => runCli(args, { env: { ...env, SMM_API_KEY: key } })
    await smm(['accounts', 'create', 'Example Keys'])
    await smm(['accounts', 'connect', 'Example Keys', '--platform', 'feed'])

    const posted = await as(ci, ['posts', 'create', '--account', 'Example Keys', '--platform', 'feed', '--text', 'From CI', '--in', '2h', '--json'])
    expect(posted).toMatchObject({ code: 0, stderr: '' })
    const listed = await as(ci, ['posts', 'list', '--account', 'Example Keys', '--json'])
    expect(json(listed).data.map((p: any) => p.id)).toEqual([json(posted).id])
    const whoami = await as(ci, ['whoami', '--json'])
    expect(whoami.code).toBe(0)
    // The post is 2 h ahead: after 22:00 that is tomorrow, past the default range's end (today).
    const until = new Date(Date.parse(json(posted).scheduled_at) + 3_600_000).toISOString()
    const report = await as(reporting, ['analytics', '--account', 'Example Keys', '--to', until, '--json'])
    expect(report).toMatchObject({ code: 0, stderr: '' })
    expect(json(report).totals.posts_scheduled).toBe(1)
  })
})

describe('help', () => {
  it('gives every command a description and an example, and groups them in topics', async () => {
    const root = resolve(import.meta.dirname, '..')
    const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8'))
    // Hidden commands are for the shell's completion script, not for people.
    const commands = (Object.values(manifest.commands) as { id: string; hidden?: boolean; description?: string; examples?: string[] }[]).filter((c) => !c.hidden)
    for (const id of ['accounts:connect', 'posts:create', 'posts:update', 'webhooks:deliveries', 'ai:generate', 'analytics', 'calendar']) {
      expect(commands.map((c) => c.id)).toContain(id)
    }
    for (const command of commands) {
      expect(command.description, command.id).toBeTruthy()
      expect(command.examples?.length ?? 0, command.id).toBeGreaterThan(0)
    }
    const help = await smm(['--help'])
    for (const topic of ['accounts', 'ai', 'keys', 'posts', 'webhooks']) expect(help.stdout).toMatch(new RegExp(`^ {2}${topic} +\\S`, 'm'))
    expect(help.stdout).toMatch(/^ {2}analytics +Report how your posts did/m)
  })
})
