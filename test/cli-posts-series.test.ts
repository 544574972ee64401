import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseIntervalInput } from '../src/cli/time-input.js'
import { ManualClock } from '../src/time.js'
import { cliHomeFor, runCli, type CliResult } from './helpers/cli.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { feedAccount, liftLimits } from './helpers/posts.js'

let t: TestDaemon
let home: ReturnType<typeof cliHomeFor>

beforeAll(async () => {
  // The daemon's clock starts at the machine's time: the CLI reads "tomorrow 9am" from the machine's.
  t = await startTestDaemon({ clock: new ManualClock(Date.now()), backgroundWorkers: false })
  await liftLimits(t)
  home = cliHomeFor(t)
  await feedAccount(t, 'Brand')
})
afterAll(async () => {
  home.remove()
  await t.stop()
})

const smm = (args: string[]) => runCli(args, { env: home.env })
const json = (res: CliResult) => JSON.parse(res.stdout)
const year = new Date().getUTCFullYear() + 1

describe('--every', () => {
  it('reads intervals as people write them, and refuses 1m: minutes or months?', () => {
    expect(['1h', '12h', '2d', '1w', '2 weeks', '1mo', 'month', '3 months', '1y', 'P1W', 'pt6h', '90min'].map(parseIntervalInput)).toEqual([
      'PT1H', 'PT12H', 'P2D', 'P1W', 'P2W', 'P1M', 'P1M', 'P3M', 'P1Y', 'P1W', 'PT6H', 'PT90M',
    ])
    expect(() => parseIntervalInput('1m')).toThrow('"1m" could be minutes or months: write 1mo for months (the shortest interval is 1h)')
    expect(() => parseIntervalInput('weekly')).toThrow(/is not an interval: use a number and a unit, like 1h, 2d, 1w, 1mo or 1y/)
  })
})

describe('smm posts create --every', () => {
  it('creates a series that ends --until a day (that day included) or after --count occurrences', async () => {
    const weekly = await smm(['posts', 'create', '--text', 'Office hours', '--at', `${year}-01-04 09:00`, '--every', '1w', '--until', `${year}-03-01`])
    expect(weekly).toMatchObject({ code: 0, stderr: '' })
    const [, id, seriesId] = /^Scheduled post (pst_\w{26}) for .+\nIt repeats every week until .+: series (ser_\w{26}); see it with smm posts list --series \2\n/.exec(weekly.stdout) ?? []
    expect(seriesId).toBeDefined()
    const post = (await t.http.get(`/v1/posts/${id}`, { key: t.key })).body
    expect(post.repeat).toMatchObject({ interval: 'P1W', count: null, until: `${year}-03-01T23:59:59.999Z`, timezone: 'UTC' })

    const checked = await smm(['posts', 'create', '--text', 'Tip', '--at', `${year}-01-31 08:00`, '--every', '1mo', '--count', '12', '--dry-run'])
    expect(checked).toMatchObject({ code: 0, stdout: `Valid: would be scheduled for ${year}-01-31 08:00 UTC on feed (3/10,000).\nIt would repeat every month, 12 times.\n` })
    const monthly = await smm(['posts', 'create', '--text', 'Tip', '--at', `${year}-01-31 08:00`, '--every', '1mo', '--count', '12', '--json'])
    expect(monthly.code).toBe(0)
    expect(json(monthly)).toMatchObject({ occurrence: 1, repeat: { interval: 'P1M', count: 12, until: null } })
  })

  it('says what is wrong in the flags’ words', async () => {
    const [minutes, short, endless, tooLong, orphan] = await Promise.all([
      smm(['posts', 'create', '--text', 'x', '--in', '2h', '--every', '1m', '--count', '3']),
      smm(['posts', 'create', '--text', 'x', '--in', '2h', '--every', '30min', '--count', '3']),
      smm(['posts', 'create', '--text', 'x', '--in', '2h', '--every', '1w']),
      smm(['posts', 'create', '--text', 'x', '--in', '2h', '--every', '1w', '--count', '60']),
      smm(['posts', 'create', '--text', 'x', '--in', '2h', '--count', '3']),
    ])
    expect(minutes).toMatchObject({ code: 2, stderr: 'Error: --every: "1m" could be minutes or months: write 1mo for months (the shortest interval is 1h)\n' })
    expect(short).toMatchObject({ code: 2, stderr: 'Error: The request has 1 invalid field: --every.\n  --every: is under one hour: a series repeats at most every hour (PT1H)\n' })
    expect(endless).toMatchObject({ code: 2, stderr: expect.stringContaining('--every: needs count or until') })
    expect(tooLong).toMatchObject({ code: 2, stderr: expect.stringMatching(/--count: makes the series too long: occurrence 60 would fall on .*beyond a year/) })
    expect(orphan.code).toBe(2)
    expect(orphan.stderr).toMatch(/--every/)
  })
})

describe('smm posts list --series, show, cancel --series', () => {
  it('lists a series’ occurrences, shows the series, skips one occurrence and stops the series', async () => {
    const created = json(await smm(['posts', 'create', '--text', 'Daily tip', '--at', `${year}-02-01 09:00`, '--every', '1d', '--count', '5', '--json']))
    const shown = await smm(['posts', 'show', created.id])
    expect(shown.stdout).toMatch(new RegExp(`Series: +${created.series_id}, occurrence 1 of 5: repeats every day, 5 times\\n`))

    const skipped = await smm(['posts', 'cancel', created.id, '--yes'])
    expect(skipped).toMatchObject({ code: 0, stderr: '' })
    expect(skipped.stdout).toContain(`Series ${created.series_id} goes on with its next occurrence (smm posts list --series ${created.series_id}); to stop it, add --series.`)

    const listed = await smm(['posts', 'list', '--series', created.series_id])
    expect(listed.code).toBe(0)
    const rows = listed.stdout.trim().split('\n')
    expect(rows[0]).toMatch(/^ID +OCCURRENCE +SCHEDULED +STATUS/)
    expect(rows.slice(1).map((r) => r.split(/ {2,}/).slice(1, 4))).toEqual([
      ['#1', `${year}-02-01 09:00 UTC`, 'cancelled'],
      ['#2', `${year}-02-02 09:00 UTC`, 'scheduled'],
    ])
    const second = json(await smm(['posts', 'list', '--series', created.series_id, '--status', 'scheduled', '--json'])).data[0]

    const stopped = await smm(['posts', 'cancel', second.id, '--series', '--yes'])
    expect(stopped).toMatchObject({ code: 0, stderr: '' })
    expect(stopped.stdout).toContain(`Stopped series ${created.series_id}: no more occurrences follow`)
    expect(json(await smm(['posts', 'list', '--series', created.series_id, '--json'])).data.map((p: any) => p.status)).toEqual(['cancelled', 'cancelled'])

    const single = json(await smm(['posts', 'create', '--text', 'Once', '--in', '3h', '--json']))
    const refused = await smm(['posts', 'cancel', single.id, '--series', '--yes'])
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining(`--series: ${single.id} is not an occurrence of a series: cancel it without --series`) })
  })

  it('completes the new flags', async () => {
    const flags = await smm(['__complete', '--', 'posts', 'create', '--ev'])
    expect(flags.stdout).toMatch(/^--every\t/m)
    const cancel = await smm(['__complete', '--', 'posts', 'cancel', 'pst_1', '--se'])
    expect(cancel.stdout).toMatch(/^--series\t/m)
    const list = await smm(['__complete', '--', 'posts', 'list', '--ser'])
    expect(list.stdout).toMatch(/^--series\t/m)
  })
})
