import { writeFileSync } from 'node:fs'
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
const postCount = async () => (await t.daemon.store.posts.list((await t.http.get('/v1/me', { key: t.key })).body.id, { order: 'asc' }, 10_000)).length
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)

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
        '  line 4, content: is required (and not blank) unless media_urls has at least one URL\n' +
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
      'account,platforms,content,at,media_urls,first_comment\r\n' +
        `${brand},mastodon,With a comment,${tomorrow()}T07:00:00.000Z,,"Link, and more: https://example.com"\r\n` +
        `${brand},mastodon feed,Without,${tomorrow()}T07:30:00.000Z,,\r\n`,
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
    expect(res.stderr).toMatch(new RegExp(`^Skipped 2 invalid lines of ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(--skip-invalid\\):\n  line 3, account: .*Nobody.*\n  line 4, at: is more than 5 minutes in the past; leave it out to publish now\n$`))
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
      'account,platforms,content,at,media_urls,first_comment\r\n' +
        `${account},feed,Plain,${tomorrow()}T08:00:00.000Z,,\r\n` +
        `${account},feed,"Quote "" and, comma\nand a second line",${tomorrow()}T11:00:00.000Z,https://example.com/x.png,\r\n`,
    )
    const asJson = await smm(['posts', 'export', '--account', 'Exported', '--format', 'json'])
    expect(JSON.parse(asJson.stdout)).toEqual([
      { account, platforms: 'feed', content: 'Plain', at: `${tomorrow()}T08:00:00.000Z`, media_urls: '', first_comment: '' },
      { account, platforms: 'feed', content: 'Quote " and, comma\nand a second line', at: `${tomorrow()}T11:00:00.000Z`, media_urls: 'https://example.com/x.png', first_comment: '' },
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
