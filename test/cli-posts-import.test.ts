import { personalWorkspaceId } from '../src/ids.js'
import { statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../src/time.js'
import { cliHomeFor, runCli } from './helpers/cli.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { feedAccount, liftLimits } from './helpers/posts.js'
import { loopbackPlatform } from './helpers/loopback-platform.js'

let t: TestDaemon
let home: ReturnType<typeof cliHomeFor>
let brand: string

beforeAll(async () => {
  // The daemon's clock starts at the machine's time: the CLI reads "tomorrow 9am" from the machine's.
  // Mastodon as a loopback platform: replies, so a first comment has a home. Nothing is published here.
  t = await startTestDaemon({ clock: new ManualClock(Date.now()), backgroundWorkers: false, overrides: { platforms: [loopbackPlatform('mastodon', { idempotent: true })] } })
  await liftLimits(t)
  home = cliHomeFor(t)
  brand = await feedAccount(t, 'Brand')
  const connected = await t.http.post(`/v1/accounts/${brand}/connections`, { platform: 'mastodon', credentials: { webhook_url: 'https://127.0.0.1:9/hook' } }, { key: t.key })
  expect(connected.status).toBe(201)
})
afterAll(async () => {
  home.remove()
  await t.stop()
})

const smm = (args: string[]) => runCli(args, { env: home.env })
const csv = (name: string, text: string) => {
  const file = join(home.dir, name)
  writeFileSync(file, text)
  return file
}
const postCount = async () => (await t.daemon.store.posts.list([personalWorkspaceId((await t.http.get('/v1/me', { key: t.key })).body.id)], { order: 'asc' }, 10_000)).length
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)

describe('smm posts import', () => {
  it('schedules every line, a quoted field with a comma and a line break included, in order', async () => {
    const file = csv('ok.csv', `account,platforms,content,at,media_urls\r\nBrand,feed,"Hello, world\nsecond line",${tomorrow()} 10:00,\r\n${brand},feed,Plain,${tomorrow()} 09:00,https://example.com/a.png https://example.com/b.png\r\n`)
    const res = await smm(['posts', 'import', file])
    expect(res).toMatchObject({ code: 0, stderr: '' })
    expect(res.stdout).toBe(`Imported 2 posts (first due ${tomorrow()} 09:00 UTC).\n`)
    const json = await smm(['posts', 'import', file, '--json'])
    const { data } = JSON.parse(json.stdout)
    expect(data.map((p: any) => [p.account_id, p.content, p.scheduled_at, p.media_urls])).toEqual([
      [brand, 'Hello, world\nsecond line', `${tomorrow()}T10:00:00.000Z`, []],
      [brand, 'Plain', `${tomorrow()}T09:00:00.000Z`, ['https://example.com/a.png', 'https://example.com/b.png']],
    ])
  })

  it('creates nothing when one line is bad, and reports it with its line number and column', async () => {
    const before = await postCount()
    // The quoted content spans lines 2-3, so the bad post is on line 4.
    const file = csv('bad.csv', `account,platforms,content,at\nBrand,feed,"fine,\nstill fine",tomorrow 9am\nBrand,feed,"",${tomorrow()} 09:00\nBrand,feed,late,2020-01-01 09:00\n`)
    const res = await smm(['posts', 'import', file])
    expect(res.code).toBe(2)
    expect(res.stdout).toBe('')
    expect(res.stderr).toBe(
      `Error: 2 lines of ${file} are invalid; nothing was created:\n` +
        '  line 4, content: is required (and not blank) unless the post has media\n' +
        '  line 5, at: is more than 5 minutes in the past; leave it out to publish now\n',
    )
    expect(await postCount()).toBe(before)
    const unknown = await smm(['posts', 'import', csv('names.csv', 'account,platforms,content,at\nNobody,feed,x,soonish\n')])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/^Error: 1 line of .* is invalid; nothing was created:\n {2}line 2, account: no account is named "Nobody"; .*\n {2}line 2, at: .*\n$/)
    // The feed has nowhere to put a first comment: the daemon's refusal is said at its line and column.
    const comment = await smm(['posts', 'import', csv('comment.csv', 'account,platforms,content,at,first_comment\nBrand,feed,x,,y\n')])
    expect(comment).toMatchObject({ code: 2, stderr: expect.stringMatching(/line 2, first_comment: Feed \(feed\) has no replies or comments/) })
    expect(await postCount()).toBe(before)
  })

  it('takes a first_comment column: a line with one gets it, an empty cell means none, and export writes it back', async () => {
    const file = csv('comments.csv', `account,platforms,content,at,first_comment\nBrand,mastodon,With a comment,${tomorrow()} 07:00,"Link, and more: https://example.com"\nBrand,mastodon feed,Without,${tomorrow()} 07:30,\n`)
    const res = await smm(['posts', 'import', file, '--json'])
    expect(res.code, res.stderr).toBe(0)
    const data = JSON.parse(res.stdout).data
    expect(data.map((p: any) => [p.content, p.first_comment])).toEqual([
      ['With a comment', 'Link, and more: https://example.com'],
      ['Without', null],
    ])
    const exported = await smm(['posts', 'export', '--account', 'Brand', '--platform', 'mastodon', '--to', `${tomorrow()} 08:00`])
    expect(exported.code, exported.stderr).toBe(0)
    expect(exported.stdout).toBe(
      'account,platforms,at,draft,every,count,until,part,content,media_urls,first_comment,without\r\n' +
        `${brand},mastodon,${tomorrow()}T07:00:00.000Z,,,,,,With a comment,,"Link, and more: https://example.com",\r\n` +
        `${brand},mastodon feed,${tomorrow()}T07:30:00.000Z,,,,,,Without,,,\r\n`,
    )
    for (const post of data) await t.http.delete(`/v1/posts/${post.id}`, { key: t.key })
  })

  it('refuses a file that is not UTF-8, or names a column twice, naming the line, and creates nothing', async () => {
    const before = await postCount()
    // "Café" saved as Windows-1252 on the third line: é is the byte E9, which UTF-8 never has alone.
    const latin = join(home.dir, 'latin.csv')
    writeFileSync(latin, Buffer.concat([Buffer.from(`account,platforms,content,at\nBrand,feed,fine,${tomorrow()} 09:00\nBrand,feed,Caf`), Buffer.from([0xe9]), Buffer.from(`,${tomorrow()} 10:00\n`)]))
    const res = await smm(['posts', 'import', latin])
    expect(res.code).toBe(2)
    expect(res.stderr).toBe(`Error: 1 line of ${latin} is invalid; nothing was created:\n  line 3: is not UTF-8 text; save the file as UTF-8 (CSV UTF-8 in spreadsheets) and import it again\n`)
    const twice = await smm(['posts', 'import', csv('twice.csv', `account,platforms,content,at,Content\nBrand,feed,one,${tomorrow()} 09:00,two\n`)])
    expect(twice.code).toBe(2)
    expect(twice.stderr).toContain('line 1, content: is named more than once in the header line')
    expect(await postCount()).toBe(before)
  })

  it('with --dry-run checks every line and creates nothing', async () => {
    const before = await postCount()
    const file = csv('dry.csv', `account,platforms,content,at\nBrand,feed,one,${tomorrow()} 09:00\nBrand,feed,two,\n`)
    const res = await smm(['posts', 'import', file, '--dry-run'])
    expect(res).toMatchObject({ code: 0, stderr: '', stdout: `All 2 posts of ${file} are valid; nothing was created (--dry-run).\n` })
    const bad = await smm(['posts', 'import', csv('dry-bad.csv', 'account,platforms,content,at\nBrand,bluesky,one,\n'), '--dry-run'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('line 2, platforms: account')
    expect(await postCount()).toBe(before)
  })
})

describe('smm posts import --skip-invalid', () => {
  it('creates the valid lines and reports the others, those the CLI refused and those the daemon did', async () => {
    const before = await postCount()
    const file = csv('mixed.csv', `account,platforms,content,at\nBrand,feed,first,${tomorrow()} 09:00\nNobody,feed,unknown account,${tomorrow()} 09:00\nBrand,feed,late,2020-01-01 09:00\nBrand,feed,last,${tomorrow()} 10:00\n`)
    const res = await smm(['posts', 'import', file, '--skip-invalid'])
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout).toBe(`Imported 2 posts (first due ${tomorrow()} 09:00 UTC).\n`)
    expect(res.stderr).toMatch(new RegExp(`^Skipped 2 invalid posts of ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(--skip-invalid\\):\n  line 3, account: .*Nobody.*\n  line 4, at: is more than 5 minutes in the past; leave it out to publish now\n$`))
    expect(await postCount()).toBe(before + 2)
    // Nothing valid at all: nothing to create, and the lines are said as without the flag.
    const none = await smm(['posts', 'import', csv('none.csv', 'account,platforms,content,at\nBrand,feed,late,2020-01-01 09:00\n'), '--skip-invalid'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('line 2, at: is more than 5 minutes in the past')
  })
})

describe('smm posts export', () => {
  it('writes the scheduled posts in the columns import reads, and importing them again makes the same posts', async () => {
    const account = await feedAccount(t, 'Exported')
    const file = csv('to-export.csv', `account,platforms,content,at,media_urls\nExported,feed,"Quote "" and, comma\nand a second line",${tomorrow()} 11:00,https://example.com/x.png\nExported,feed,Plain,${tomorrow()} 08:00,\n`)
    expect((await smm(['posts', 'import', file])).code).toBe(0)
    const exported = await smm(['posts', 'export', '--account', 'Exported'])
    expect(exported).toMatchObject({ code: 0, stderr: '' })
    expect(exported.stdout).toBe(
      'account,platforms,at,draft,every,count,until,part,content,media_urls,first_comment,without\r\n' +
        `${account},feed,${tomorrow()}T08:00:00.000Z,,,,,,Plain,,,\r\n` +
        `${account},feed,${tomorrow()}T11:00:00.000Z,,,,,,"Quote "" and, comma\nand a second line",https://example.com/x.png,,\r\n`,
    )
    const asJson = await smm(['posts', 'export', '--account', 'Exported', '--format', 'json'])
    expect(JSON.parse(asJson.stdout)).toEqual([
      { account_id: account, platforms: ['feed'], content: 'Plain', scheduled_at: `${tomorrow()}T08:00:00.000Z` },
      { account_id: account, platforms: ['feed'], content: 'Quote " and, comma\nand a second line', scheduled_at: `${tomorrow()}T11:00:00.000Z`, media_urls: ['https://example.com/x.png'] },
    ])
    // What was exported imports again as the same posts.
    const again = await smm(['posts', 'import', csv('re-import.csv', exported.stdout), '--json'])
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout).data.map((p: any) => [p.account_id, p.content, p.scheduled_at, p.media_urls])).toEqual([
      [account, 'Plain', `${tomorrow()}T08:00:00.000Z`, []],
      [account, 'Quote " and, comma\nand a second line', `${tomorrow()}T11:00:00.000Z`, ['https://example.com/x.png']],
    ])
  })
})

describe('export → import round trip', () => {
  let trip: string
  // Every kind of post import can make, made over the API as a script would.
  const originals = () => {
    const at = (hour: number) => `${tomorrow()}T${String(hour).padStart(2, '0')}:00:00.000Z`
    return [
      { platforms: ['feed'], content: 'Plain, with "quotes", a comma\nand a second line', scheduled_at: at(1), media_urls: ['https://example.com/plain.png'] },
      { platforms: ['mastodon'], content: '1/3 Why we built it', scheduled_at: at(2), thread: [{ content: '2/3 How it works' }, { content: '3/3 Try it', media_urls: ['https://example.com/3.png'] }] },
      {
        platforms: ['mastodon', 'feed'],
        content: 'The long version, for Mastodon',
        scheduled_at: at(3),
        first_comment: 'Details: https://example.com/details',
        thread: [{ content: 'And one more thing' }],
        overrides: { feed: { content: 'Short, for the feed', media_urls: ['https://example.com/feed.png'], first_comment: null, thread: [] }, mastodon: { thread: [{ content: 'Only on Mastodon' }, { media_urls: ['https://example.com/m.png'] }] } },
      },
      // Cells a spreadsheet would run as formulas, and a text that starts with a quote of its own.
      { platforms: ['mastodon'], content: '=1+2 is not a formula', scheduled_at: at(4), first_comment: "-- and '=this' neither" },
      { platforms: ['feed'], content: "'=SUM(A1) stays as typed", scheduled_at: at(5), thread: [{ content: '+1 for threads' }, { content: '@here\ttoo' }] },
      { platforms: ['feed'], content: 'Half an idea', draft: true },
      { platforms: ['feed'], content: 'Planned idea', scheduled_at: at(6), draft: true },
      { platforms: ['feed'], content: 'Weekly tip', scheduled_at: at(7), repeat: { interval: 'P1W', count: 4 } },
      { platforms: ['feed', 'mastodon'], content: 'Daily for a week', scheduled_at: at(8), repeat: { interval: 'P1D', until: `${inAWeek()}T00:00:00.000Z` }, overrides: { mastodon: { content: 'Daily, on Mastodon' } } },
    ]
  }
  /** What a user would compare: every field a post's request sets, and the series it starts. */
  const shape = (p: any) => ({
    account_id: p.account_id,
    platforms: p.platforms,
    content: p.content,
    media_urls: p.media_urls,
    thread: p.thread,
    first_comment: p.first_comment,
    overrides: p.overrides,
    scheduled_at: p.scheduled_at,
    status: p.status,
    repeat: p.repeat,
  })
  const planned = async () => (await t.http.get(`/v1/posts?account_id=${trip}&status=draft,scheduled&order=asc&limit=100`, { key: t.key })).body.data

  beforeAll(async () => {
    trip = await feedAccount(t, 'Round trip')
    const connected = await t.http.post(`/v1/accounts/${trip}/connections`, { platform: 'mastodon', credentials: { webhook_url: 'https://127.0.0.1:9/hook' } }, { key: t.key })
    expect(connected.status).toBe(201)
    for (const post of originals()) expect((await t.http.post('/v1/posts', { account_id: trip, ...post }, { key: t.key })).status).toBe(201)
  })

  for (const format of ['csv', 'json'] as const) {
    it(`makes the same posts again from ${format}, field by field: plain, thread, per-platform versions, first comment, drafts, series`, async () => {
      const before = await planned()
      expect(before).toHaveLength(originals().length)
      const file = join(home.dir, `trip.${format}`)
      const exported = await smm(['posts', 'export', '--account', 'Round trip', '--format', format, '--output', file])
      expect(exported).toMatchObject({ code: 0, stdout: '', stderr: `Wrote ${before.length} posts to ${file}.\n` })
      expect(statSync(file).mode & 0o777).toBe(0o600)
      const imported = await smm(['posts', 'import', file, '--json'])
      expect(imported.code, imported.stderr).toBe(0)
      const made = JSON.parse(imported.stdout).data
      expect(made.map(shape)).toEqual(before.map(shape))
      expect(made.every((p: any, i: number) => p.id !== before[i].id && (p.series_id === null) === (before[i].series_id === null))).toBe(true)
      // The copies go, so the other format starts from the originals alone.
      for (const post of made) expect((await t.http.delete(`/v1/posts/${post.id}${post.series_id ? "?series=true" : ""}`, { key: t.key })).status).toBe(200)
    })
  }

  it('keeps a spreadsheet from running a cell as a formula, and reads the texts back exactly', async () => {
    const exported = await smm(['posts', 'export', '--account', 'Round trip'])
    expect(exported.code, exported.stderr).toBe(0)
    expect(exported.stdout).toContain(",'=1+2 is not a formula,,'-- and '=this' neither,\r\n")
    expect(exported.stdout).toContain(",''=SUM(A1) stays as typed,")
    expect(exported.stdout).toContain(',thread,\'+1 for threads,,,\r\n')
    expect(exported.stdout).toContain(",thread,'@here\ttoo,,,\r\n")
    // Each line of a post: its own, its thread's, each version's and that version's thread's.
    expect(exported.stdout).toContain(
      ',,,,,,,thread,And one more thing,,,\r\n' +
        ',,,,,,,feed,"Short, for the feed",https://example.com/feed.png,,first_comment thread\r\n' +
        ',,,,,,,mastodon,,,,\r\n,,,,,,,mastodon thread,Only on Mastodon,,,\r\n,,,,,,,mastodon thread,,https://example.com/m.png,,\r\n',
    )
  })

  it('refuses what CSV cannot hold, naming the post, and offers JSON', async () => {
    const post = await t.http.post('/v1/posts', { account_id: trip, platforms: ['mastodon', 'feed'], content: 'Text', media_urls: ['https://example.com/only.png'], scheduled_at: `${tomorrow()}T20:00:00.000Z`, overrides: { feed: { content: '' } } }, { key: t.key })
    expect(post.status).toBe(201)
    const file = join(home.dir, 'cannot.csv')
    const res = await smm(['posts', 'export', '--account', 'Round trip', '--output', file])
    expect(res).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: CSV cannot hold every post exactly: post ${post.body.id} has no text on feed (its feed version's content is ""), and an empty content cell means the post's own text. Export with --format json, which holds every field; nothing was written.\n`,
    })
    expect(() => statSync(file)).toThrow()
    const json = await smm(['posts', 'export', '--account', 'Round trip', '--format', 'json'])
    expect(JSON.parse(json.stdout).at(-1)).toMatchObject({ overrides: { feed: { content: '' } } })
    await t.http.delete(`/v1/posts/${post.body.id}`, { key: t.key })
  })
})

describe('an import file edited into an invalid state', () => {
  it('names the line and column of each problem and creates nothing, unless --skip-invalid', async () => {
    const before = await postCount()
    const header = 'account,platforms,at,draft,every,count,until,part,content,media_urls,first_comment,without\n'
    const orphan = await smm(['posts', 'import', csv('orphan.csv', `${header},,,,,,,thread,A part without its post,,,\nBrand,feed,${tomorrow()} 09:00,,,,,,Fine,,,\n`)])
    expect(orphan).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: 1 line of ${join(home.dir, 'orphan.csv')} is invalid; nothing was created:\n  line 2, part: a thread part without its post: it belongs under the line of the post it is part of\n`,
    })
    const lines =
      `${header}Brand,feed,${tomorrow()} 09:00,,1w,,2020-01-01,,Weekly,,,\n` +
      `,,,,,,,thread,Fine part,,,\n` +
      `,,,,,,,thread,,,,\n` +
      `Brand,feed mastodon,${tomorrow()} 10:00,,,,,,Fine post,,,\n` +
      `,,,,,,,mastodon,,,,thread\n` +
      `,,,,,,,mastodon thread,A part that version goes without,,,\n` +
      `Brand,feed,${tomorrow()} 11:00,,,,,,Also fine,,,\n` +
      `,feed,,,,,,thread,Platforms on a part line,,,\n`
    const res = await smm(['posts', 'import', csv('edited.csv', lines)])
    expect(res.code).toBe(2)
    expect(res.stderr).toBe(
      `Error: 2 lines of ${join(home.dir, 'edited.csv')} are invalid; nothing was created:\n` +
        '  line 7, part: the mastodon version of the post on line 5 goes without a thread (its line\'s without): it cannot have thread parts too\n' +
        '  line 9, platforms: belongs on the post\'s own line (line 8); a thread line leaves it empty\n',
    )
    // Fixed, those lines leave what only the daemon can find: a series ending in the past and a blank thread part.
    const daemonSide = await smm(['posts', 'import', csv('edited-2.csv', lines.split('\n').filter((_, i) => i !== 6 && i !== 8).join('\n'))])
    expect(daemonSide.code).toBe(2)
    expect(daemonSide.stderr).toMatch(/^Error: 2 lines of .* are invalid; nothing was created:\n {2}line 2, until: .*\n {2}line 4, content: is required \(and not blank\) unless the part has media: a thread part must say something\n$/)
    expect(await postCount()).toBe(before)
    const skipping = await smm(['posts', 'import', csv('edited-3.csv', lines.split('\n').filter((_, i) => i !== 6 && i !== 8).join('\n')), '--skip-invalid', '--json'])
    expect(skipping.code, skipping.stderr).toBe(0)
    expect(JSON.parse(skipping.stdout).data.map((p: any) => [p.content, p.overrides])).toEqual([
      ['Fine post', { mastodon: { thread: [] } }],
      ['Also fine', {}],
    ])
    expect(skipping.stderr).toMatch(/^Skipped 1 invalid post of .* \(--skip-invalid\):\n {2}line 2, until: .*\n {2}line 4, content: .*\n$/)
    expect(await postCount()).toBe(before + 2)
  })

  it('names the post, its line and the field in a JSON file', async () => {
    const before = await postCount()
    const text = `[\n  {"account_id": "Brand", "platforms": ["feed"], "content": "Fine", "scheduled_at": "tomorrow 9am"},\n  {\n    "account_id": "Brand", "platforms": ["feed"], "content": "Bad part",\n    "thread": [{"content": "ok"}, {"content": " "}]\n  },\n  {"account_id": "Nobody", "platforms": ["feed"], "content": "x", "colour": "red"}\n]\n`
    const res = await smm(['posts', 'import', csv('bad.json', text)])
    expect(res.code).toBe(2)
    expect(res.stderr).toMatch(/^Error: 1 line of .*bad\.json is invalid; nothing was created:\n {2}line 7, account_id \(post 3\): no account is named "Nobody"; .*\n$/)
    const daemonSide = await smm(['posts', 'import', csv('bad-2.json', text.replace('Nobody', 'Brand'))])
    expect(daemonSide.stderr).toMatch(/^Error: 2 lines of .* are invalid; nothing was created:\n {2}line 3, thread\[1\]\.content \(post 2\): is required .*\n {2}line 7, colour \(post 3\): .*\n$/)
    expect(await postCount()).toBe(before)
  })
})
