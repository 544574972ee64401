import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../src/time.js'
import { cliHome, cliHomeFor, runCli, runInTerminal, type CliResult } from './helpers/cli.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { loopbackPlatform, startLoopbackServer, type LoopbackServer } from './helpers/loopback-platform.js'
import { png } from './helpers/media-files.js'
import { feedAccount, liftLimits } from './helpers/posts.js'
import type { Platform } from '../daemon/platforms/types.js'

/** A platform that sends uploaded images and keeps no alt text (as Telegram). */
const noAltText: Platform = {
  ...loopbackPlatform('telegram', { idempotent: false }),
  uploadsMedia: true,
  limits: { text: { max: 2_000, count: 'utf16' }, media: { max: 10, image: { types: ['image/png'] }, alt_text_max: null } },
}

let t: TestDaemon
let loop: LoopbackServer
let home: ReturnType<typeof cliHome>
let env: NodeJS.ProcessEnv
let brand: string

beforeAll(async () => {
  loop = await startLoopbackServer()
  // The daemon's clock starts at the machine's time: the CLI reads "in 2h" from the machine's.
  t = await startTestDaemon({
    clock: new ManualClock(Date.now()),
    allowPrivateNetwork: true,
    backgroundWorkers: false,
    overrides: { egress: { ca: loop.ca }, platforms: [loopbackPlatform('discord', { idempotent: false, timeoutMs: 2_000 }), noAltText] },
  })
  await liftLimits(t)
  home = cliHomeFor(t)
  env = home.env
})
afterAll(async () => {
  home.remove()
  await t.stop()
  await loop.close()
})

const smm = (args: string[], input?: string) => runCli(args, { env, input })
const json = (res: CliResult) => JSON.parse(res.stdout)
const get = async (path: string) => (await t.http.get(path, { key: t.key })).body
/** An API time as `localTime` prints it in the tests' TZ=UTC. */
const shown = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
const tick = () => t.daemon.scheduler.tick(t.clock.now())

describe('smm posts create', () => {
  it('takes the text from --text, --file or a pipe, for the only account and its only platform', async () => {
    brand = await feedAccount(t, 'Brand')
    const file = join(home.dir, 'post.txt')
    writeFileSync(file, 'From a file\n')
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    const [human, fromFile, piped] = await Promise.all([
      smm(['posts', 'create', '--text', 'Hello world', '--in', '2h']),
      smm(['posts', 'create', '--file', file, '--at', `${tomorrow} 18:30`, '--json']),
      smm(['posts', 'create', '--media', 'https://example.com/a.png', '--at', 'tomorrow 9am', '--json'], 'From a pipe\n'),
    ])

    expect(human).toMatchObject({ code: 0, stderr: '' })
    const [, id, when] = /^Scheduled post (pst_\w{26}) for (.+) on feed\.\nFollow it with: smm posts show \1\n$/.exec(human.stdout) ?? []
    const post = await get(`/v1/posts/${id}`)
    expect(post).toMatchObject({ account_id: brand, content: 'Hello world', platforms: ['feed'], status: 'scheduled' })
    expect(Math.abs(Date.parse(post.scheduled_at) - (Date.now() + 7_200_000))).toBeLessThan(60_000)
    expect(when).toBe(shown(post.scheduled_at))

    expect(fromFile).toMatchObject({ code: 0, stderr: '' })
    expect(json(fromFile)).toEqual(await get(`/v1/posts/${json(fromFile).id}`))
    expect(json(fromFile)).toMatchObject({ content: 'From a file', scheduled_at: `${tomorrow}T18:30:00.000Z` })

    expect(piped).toMatchObject({ code: 0, stderr: '' })
    expect(json(piped)).toMatchObject({ content: 'From a pipe', media_urls: ['https://example.com/a.png'], scheduled_at: `${tomorrow}T09:00:00.000Z` })
  })

  it('refuses bad input with exit 2 and each field error on its own line, and asks a person at a terminal for the text', async () => {
    const second = await feedAccount(t, 'Second')
    const [invalid, whichAccount, badTime, strangerAccount, atTerminal, blank, unconnected] = await Promise.all([
      smm(['posts', 'create', '--account', brand, '--platform', 'feed', '--platform', 'feed', '--text', 'x', '--at', '2020-01-01T00:00:00Z', '--media', 'http://example.com/a.png']),
      smm(['posts', 'create', '--text', 'x']),
      smm(['posts', 'create', '--account', brand, '--text', 'x', '--at', 'whenever']),
      smm(['posts', 'create', '--account', 'acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '--platform', 'feed', '--text', 'x']),
      runInTerminal(['posts', 'create', '--account', brand], { env, dialogue: [] }),
      smm(['posts', 'create', '--account', brand, '--platform', 'feed', '--text', ' ']),
      smm(['posts', 'create', '--account', brand, '--platform', 'mastodon', '--text', 'x']),
    ])
    expect(invalid).toEqual({
      code: 2,
      stdout: '',
      stderr: [
        // In the words of the command line: the flags typed, never the API's field names.
        'Error: The request has 3 invalid fields: --media, --platform, --at.',
        '  --media 1: must be an absolute https:// URL (without user:password@)',
        '  --platform: must not name a platform twice',
        '  --at: is more than 5 minutes in the past; leave it out to publish now',
        '',
      ].join('\n'),
    })
    expect(whichAccount).toEqual({ code: 2, stdout: '', stderr: `Error: --account: you have several accounts; name one of: ${brand} (Brand), ${second} (Second).\n` })
    expect(badTime.code).toBe(2)
    expect(badTime.stderr).toMatch(/^Error: --at: "whenever" is not a time I understand: use RFC 3339 .*\n$/)
    expect(strangerAccount).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: The request has 1 invalid field: --account.\n  --account: acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A is not one of your accounts\n',
    })
    // A detail that names another field names its flag too.
    expect(blank).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: The request has 1 invalid field: --text.\n  --text: is required (and not blank) unless the post has media\n',
    })
    // The API's hint names its request; the CLI says the command.
    expect(unconnected).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: The request has 1 invalid field: --platform.\n  --platform 1: account ${brand} is not connected to mastodon; connect it with \`smm accounts connect ${brand} --platform mastodon\`\n`,
    })
    expect(atTerminal.code).toBe(2)
    expect(atTerminal.stdout).toContain('Error: No text: give --text "…", --file FILE, or pipe it in (echo "…" | smm posts create …).')
  })

  it('--dry-run checks the post and creates nothing: lengths per platform, the API answer with --json, and the same errors as create', async () => {
    const dry = (await t.http.post('/v1/accounts', { name: 'Dry' }, { key: t.key })).body.id
    await t.http.post(`/v1/accounts/${dry}/connections`, { platform: 'feed' }, { key: t.key })
    await t.http.post(`/v1/accounts/${dry}/connections`, { platform: 'discord', credentials: { webhook_url: loop.url } }, { key: t.key })
    const text = 'Dry run, '.repeat(1_000).trim()
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    const bad = ['--account', dry, '--platform', 'feed', '--platform', 'discord', '--text', 'x'.repeat(2_001), '--at', '2020-01-01T00:00:00Z']
    const [human, now, asJson, created, checked] = await Promise.all([
      smm(['posts', 'create', '--account', 'Dry', '--platform', 'feed', '--platform', 'discord', '--text', 'Launch day', '--at', `${tomorrow} 09:00`, '--dry-run']),
      smm(['posts', 'create', '--account', dry, '--platform', 'feed', '--text', text, '--dry-run']),
      smm(['posts', 'create', '--account', dry, '--platform', 'feed', '--text', 'Launch day', '--at', `${tomorrow} 09:00`, '--dry-run', '--json']),
      smm(['posts', 'create', ...bad]),
      smm(['posts', 'create', ...bad, '--dry-run']),
    ])
    expect(human).toEqual({ code: 0, stderr: '', stdout: `Valid: would be scheduled for ${tomorrow} 09:00 UTC on feed (10/10,000) and discord (10/2,000).
` })
    expect(now).toEqual({ code: 0, stderr: '', stdout: `Valid: would go out now on feed (${text.length.toLocaleString('en-US')}/10,000).
` })
    expect(asJson).toMatchObject({ code: 0, stderr: '' })
    expect(json(asJson)).toEqual({ valid: true, scheduled_at: `${tomorrow}T09:00:00.000Z`, targets: [{ platform: 'feed', length: 10, limit: 10_000, parts: [], warnings: [] }] })
    // The same problems in the same words, the flags named as typed.
    expect(created.code).toBe(2)
    expect(checked).toEqual(created)
    expect(checked.stderr).toContain('--at: is more than 5 minutes in the past')
    expect(checked.stderr).toContain('--text: is 2001 characters; discord allows at most 2000')
    expect((await get(`/v1/posts?account_id=${dry}`)).data).toEqual([])
  })
})

describe('smm posts create --dry-run, notes', () => {
  it('says which media a platform would publish without their alt text, and still answers valid', async () => {
    const account = (await t.http.post('/v1/accounts', { name: 'Noted' }, { key: t.key })).body.id
    expect((await t.http.post(`/v1/accounts/${account}/connections`, { platform: 'telegram', credentials: { webhook_url: loop.url } }, { key: t.key })).status).toBe(201)
    const photo = (await t.http.request('POST', '/v1/media', { key: t.key, raw: png(40, 40), headers: { 'content-type': 'image/png' } })).body
    const dry = await smm(['posts', 'create', '--account', account, '--platform', 'telegram', '--text', 'A square', '--media', photo.id, '--alt', 'A grey square', '--dry-run'])
    expect(dry).toEqual({
      code: 0,
      stderr: '',
      stdout: `Valid: would go out now on telegram (8/2,000).
Note: on telegram, #/media/0 has alt text, but telegram (loopback) has no alt text: this image goes out without it.
`,
    })
  })
})

describe('smm posts list', () => {
  it('shows what is to come, soonest first, says how many more, pages with a --cursor line that keeps the filters, and --json is the API page', async () => {
    const cancelled = await t.http.post('/v1/posts', { account_id: brand, content: 'Never mind', platforms: ['feed'], scheduled_at: new Date(Date.now() + 3_600_000).toISOString() }, { key: t.key })
    await t.http.delete(`/v1/posts/${cancelled.body.id}`, { key: t.key })
    const today = new Date().toISOString().slice(0, 10)
    const nextWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)
    const [list, firstPage, all, filtered, badStatus] = await Promise.all([
      smm(['posts', 'list']),
      smm(['posts', 'list', '--status', 'scheduled', '--limit', '2']),
      smm(['posts', 'list', '--all', '--every-status', '--json']),
      smm(['posts', 'list', '--status', 'cancelled', '--from', today, '--to', nextWeek, '--order', 'desc', '--json']),
      smm(['posts', 'list', '--status', 'late']),
    ])
    const every = (await get('/v1/posts?limit=100')).data
    expect(every).toHaveLength(4)

    expect(list).toMatchObject({ code: 0, stderr: '' })
    const lines = list.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID {30}SCHEDULED {13}STATUS {5}PLATFORMS  CONTENT$/)
    const upcoming = every.filter((p: any) => p.status === 'scheduled')
    expect(upcoming).toHaveLength(3)
    expect(lines.slice(1)).toEqual([
      ...upcoming.map((p: any) => `${p.id}  ${shown(p.scheduled_at)}  ${p.status.padEnd(9)}  feed       ${p.content}`),
      'Published and cancelled posts are not shown: add --status published (or any state), or --every-status.',
    ])

    expect(firstPage.code).toBe(0)
    const more = /\n1 more post: smm (posts list --status scheduled --limit 2 --cursor \S+)\n$/.exec(firstPage.stdout)
    expect(more).not.toBeNull()
    const secondPage = await smm([...more![1]!.split(' '), '--json'])
    const scheduled = every.filter((p: any) => p.status === 'scheduled')
    expect(firstPage.stdout.split('\n').slice(1, 3).map((l) => l.split(' ')[0])).toEqual(scheduled.slice(0, 2).map((p: any) => p.id))
    expect(json(secondPage)).toEqual({ data: scheduled.slice(2), has_more: false, next_cursor: null })

    expect(json(all)).toEqual({ data: every, has_more: false, next_cursor: null })
    expect(json(filtered)).toEqual(await get(`/v1/posts?status=cancelled&from=${today}T00:00:00Z&to=${nextWeek}T00:00:00Z&order=desc`))
    expect(json(filtered).data.map((p: any) => p.id)).toEqual([cancelled.body.id])
    expect(badStatus.code).toBe(2)
    expect(badStatus.stderr).toMatch(/^Error: Expected --status=late to be one of: draft, pending_approval, rejected, scheduled, publishing, published, partially_published, failed, cancelled/)
  })
})

describe('smm posts show, update and cancel', () => {
  it('shows a published post with its link, and answers 5 for cancelling it and 4 for an unknown id', async () => {
    const now = await smm(['posts', 'create', '--account', brand, '--text', 'Right now'])
    const id = /^Post (pst_\w{26}) goes out now on feed\.\n/.exec(now.stdout)?.[1]
    expect(id, now.stdout + now.stderr).toBeDefined()
    await tick()
    const post = await get(`/v1/posts/${id}`)
    expect(post.status).toBe('published')

    const [show, cancel, retry, unknown, unknownJson] = await Promise.all([
      smm(['posts', 'show', id!]),
      smm(['posts', 'cancel', id!]),
      smm(['posts', 'retry', id!]),
      smm(['posts', 'show', 'pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A']),
      smm(['posts', 'cancel', 'pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '--json']),
    ])
    expect(show).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        `Post:      ${id}`,
        `Account:   ${brand}`,
        'Status:    published',
        `Scheduled: ${shown(post.scheduled_at)}`,
        'Platforms: feed',
        `Published: ${shown(post.published_at)}`,
        `Updated:   ${shown(post.updated_at)}`,
        '',
        '  Right now',
        '',
        'PLATFORM  STATUS     ATTEMPTS  PUBLISHED             URL OR ERROR',
        `feed      published  1         ${shown(post.targets[0].published_at)}  ${post.targets[0].url}`,
        '',
      ].join('\n'),
    })
    expect(cancel).toEqual({ code: 5, stdout: '', stderr: `Error: Post ${id} is published; only a post that has not gone out (scheduled, a draft, waiting for approval or rejected) can be cancelled.\n` })
    expect(retry).toEqual({ code: 5, stdout: '', stderr: `Error: Post ${id} is published; only a failed or partially published post can be retried.\n` })
    expect(unknown).toEqual({ code: 4, stdout: '', stderr: 'Error: No post with id pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A.\n' })
    // With --json a failure is a problem document on stderr; stdout holds only results.
    expect(unknownJson).toMatchObject({ code: 4, stdout: '' })
    expect(JSON.parse(unknownJson.stderr)).toMatchObject({ status: 404, code: 'not_found', instance: expect.stringMatching(/^req_/) })
  })

  it('update sends only the fields named, and cancel ends a scheduled post (again is fine)', async () => {
    const withMedia = (await get('/v1/posts?limit=100')).data.find((p: any) => p.content === 'From a pipe')
    const [updated, nothing] = await Promise.all([
      smm(['posts', 'update', withMedia.id, '--text', 'Changed', '--in', '3h', '--json']),
      smm(['posts', 'update', withMedia.id]),
    ])
    expect(updated).toMatchObject({ code: 0, stderr: '' })
    const after = await get(`/v1/posts/${withMedia.id}`)
    expect(json(updated)).toEqual(after)
    // What was not named stays: the media and platforms.
    expect(after).toMatchObject({ content: 'Changed', media_urls: ['https://example.com/a.png'], platforms: ['feed'] })
    expect(Math.abs(Date.parse(after.scheduled_at) - (Date.now() + 3 * 3_600_000))).toBeLessThan(60_000)
    expect(nothing).toEqual({ code: 2, stdout: '', stderr: 'Error: Nothing to change: give --text, --file, --platform, --media, --no-media, --at, --in, --first-comment, --no-first-comment, --thread or --no-thread.\n' })

    const noMedia = await smm(['posts', 'update', withMedia.id, '--no-media'])
    expect(noMedia).toEqual({
      code: 0,
      stderr: '',
      stdout: `Updated the media of post ${withMedia.id}; it is scheduled for ${shown(after.scheduled_at)} on feed.\n`,
    })
    expect((await get(`/v1/posts/${withMedia.id}`)).media_urls).toEqual([])

    const cancel = await smm(['posts', 'cancel', withMedia.id])
    expect(cancel).toEqual({ code: 0, stderr: '', stdout: `Cancelled post ${withMedia.id} (it was scheduled for ${shown(after.scheduled_at)}).\n` })
    const again = await smm(['posts', 'cancel', withMedia.id, '--json'])
    expect(again.code).toBe(0)
    expect(json(again)).toEqual(await get(`/v1/posts/${withMedia.id}`))
    expect(json(again).status).toBe('cancelled')
  })

  it('asks before cancelling at a terminal, and keeps the post on no', async () => {
    const post = (await get('/v1/posts?status=scheduled&limit=1')).data[0]
    const question = `Cancel the scheduled post for ${shown(post.scheduled_at)} on feed: “${post.content}”? [y/N] `
    const kept = await runInTerminal(['posts', 'cancel', post.id], { env, dialogue: [['[y/N] ', 'n\r']] })
    expect(kept.code).toBe(1)
    expect(kept.stdout).toContain(`${question}n\nError: Kept post ${post.id}: nothing was cancelled.\n`)
    expect((await get(`/v1/posts/${post.id}`)).status).toBe('scheduled')
    const cancelled = await runInTerminal(['posts', 'cancel', post.id], { env, dialogue: [['[y/N] ', 'y\r']] })
    expect(cancelled.code).toBe(0)
    expect(cancelled.stdout).toContain(`Cancelled post ${post.id}`)
    expect((await get(`/v1/posts/${post.id}`)).status).toBe('cancelled')
  })
})

describe('smm posts retry', () => {
  it('sends a partially published post again on the platform that failed, and only there', async () => {
    const res = await t.http.post(`/v1/accounts/${brand}/connections`, { platform: 'discord', credentials: { webhook_url: loop.url } }, { key: t.key })
    expect(res.status).toBe(201)
    loop.reply({ status: 400, body: { message: 'embeds are not allowed' } })
    const created = await smm(['posts', 'create', '--account', brand, '--platform', 'feed', '--platform', 'discord', '--text', 'Two places', '--json'])
    const id = json(created).id
    await tick()
    const failed = await smm(['posts', 'show', id])
    expect(failed.stdout).toContain('Status:    partially_published')
    expect(failed.stdout).toMatch(/\ndiscord   failed     1         -                     platform_rejected: embeds are not allowed\n/)
    // The default list is what is to come, and it counts what needs a person.
    const listed = await smm(['posts', 'list'])
    expect(listed.stdout).not.toContain(id)
    expect(listed.stdout).toContain('\n1 post failed on some platform: smm posts list --status failed,partially_published\n')

    loop.reply({ status: 200 })
    const sent = loop.received.length
    const retry = await smm(['posts', 'retry', id])
    expect(retry).toEqual({ code: 0, stderr: '', stdout: `Post ${id} goes out again now on discord. Follow it with: smm posts show ${id}\n` })
    await tick()
    const post = await get(`/v1/posts/${id}`)
    expect(post.status).toBe('published')
    expect(loop.received.slice(sent).map((r) => r.content)).toEqual(['Two places'])
  })
})

describe('smm posts create with a thread, a first comment and per-platform text', () => {
  it('sends them as the API takes them, shows each part out, and says which part failed', async () => {
    const dry = await smm(['posts', 'create', '--account', brand, '--platform', 'discord', '--text', 'Root', '--first-comment', 'Comment', '--thread', 'Two', '--thread', 'Three', '--dry-run'])
    expect(dry).toEqual({ code: 0, stderr: '', stdout: 'Valid: would go out now on discord (4/2,000, then 3 more parts).\n' })
    const bad = await smm(['posts', 'create', '--account', brand, '--platform', 'discord', '--text', 'x', '--text-for', 'myspace=hello'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('"myspace" is not a platform')
    const refused = await smm(['posts', 'create', '--account', brand, '--platform', 'feed', '--text', 'x', '--first-comment', 'nowhere to go'])
    // Said in the CLI's words: the flag, and what to do instead of the API's override.
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: The request has 1 invalid field: --first-comment.\n  --first-comment: Feed (feed) has no replies or comments to hold a first comment; leave out --first-comment, or post to feed in a post of its own\n',
    })

    // The post and its comment go out, the first thread part is refused.
    loop.reply({ status: 200 }, { status: 200 }, { status: 400, body: { message: 'too many replies' } }, { status: 200 })
    const created = await smm(['posts', 'create', '--account', brand, '--platform', 'feed', '--platform', 'discord', '--text', 'Root', '--thread', 'Two', '--thread', 'Three', '--text-for', 'discord=Root for Discord', '--json'])
    expect(created.code, created.stderr).toBe(0)
    const post = json(created)
    expect(post).toMatchObject({ thread: [{ content: 'Two', media_urls: [] }, { content: 'Three', media_urls: [] }], first_comment: null, overrides: { discord: { content: 'Root for Discord' } } })
    await tick()
    const shownPost = await smm(['posts', 'show', post.id])
    expect(shownPost.code).toBe(0)
    expect(shownPost.stdout).toContain('Thread:\n  1. Two\n  2. Three\n')
    expect(shownPost.stdout).toContain('Version for discord (its own content):\n  Root for Discord\n')
    expect(shownPost.stdout).toMatch(/\ndiscord +failed +1 +2\/3 +- +platform_rejected: Part 2 of 3 \(a thread part\): too many replies; parts 0–1 are out/)
    expect(shownPost.stdout).toMatch(/\nfeed +published +1 +3\/3 /)
    expect(shownPost.stdout).toMatch(/\ndiscord +1 +thread +/)
  })

  it('posts update replaces the thread and sets or removes the first comment', async () => {
    const created = json(await smm(['posts', 'create', '--account', brand, '--platform', 'discord', '--text', 'Later', '--thread', 'old part', '--in', '2h', '--json']))
    const updated = await smm(['posts', 'update', created.id, '--first-comment', 'A comment', '--thread', 'new one', '--thread', 'new two'])
    expect(updated.code, updated.stderr).toBe(0)
    expect(updated.stdout).toMatch(/^Updated the first comment, thread of post /)
    expect(await get(`/v1/posts/${created.id}`)).toMatchObject({ first_comment: 'A comment', thread: [{ content: 'new one' }, { content: 'new two' }] })
    expect((await smm(['posts', 'update', created.id, '--no-first-comment', '--no-thread'])).code).toBe(0)
    expect(await get(`/v1/posts/${created.id}`)).toMatchObject({ first_comment: null, thread: [] })
    const both = await smm(['posts', 'update', created.id, '--thread', 'x', '--no-thread'])
    expect(both.code).toBe(2)
  })
})
