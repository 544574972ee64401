import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../src/time.js'
import { cliHomeFor, runCli, type CliResult } from './helpers/cli.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { feedAccount, liftLimits } from './helpers/posts.js'

// The CLI runs with TZ=UTC (see cliHome): every time below that is not UTC comes from the
// user's profile zone or --tz, never from the machine.
let t: TestDaemon
let home: ReturnType<typeof cliHomeFor>
beforeAll(async () => {
  t = await startTestDaemon({ clock: new ManualClock(Date.now()), backgroundWorkers: false })
  await liftLimits(t)
  await feedAccount(t)
  home = cliHomeFor(t)
})
afterAll(async () => {
  home.remove()
  await t.stop()
})

const smm = (args: string[], env = home.env) => runCli(args, { env })
const json = (res: CliResult) => JSON.parse(res.stdout)
// 1 December next year: New York is on EST (UTC-5), Tokyo on JST (UTC+9).
const day = `${new Date().getUTCFullYear() + 1}-12-01`

describe('one time zone for one person', () => {
  it('lets a user set their own zone, then reads and shows times in it, with --tz to override', async () => {
    const set = await smm(['profile', 'set', '--timezone', 'america/new_york'])
    expect(set).toMatchObject({ code: 0, stderr: '' })
    expect(set.stdout).toMatch(/^\S.* \(usr_\w+\) now sees times in America\/New_York\.\n$/)

    const created = await smm(['posts', 'create', '--text', 'Nine in New York', '--at', `${day} 09:00`])
    expect(created).toMatchObject({ code: 0, stderr: '' })
    expect(created.stdout).toContain(`for ${day} 09:00 EST on feed.`)
    const id = /(pst_\w{26})/.exec(created.stdout)![1]
    expect((await t.http.get(`/v1/posts/${id}`, { key: t.key })).body.scheduled_at).toBe(`${day}T14:00:00.000Z`)

    const listed = await smm(['posts', 'list', '--status', 'scheduled'])
    expect(listed.stdout).toContain(`${day} 09:00 EST`)
    const tokyo = await smm(['posts', 'list', '--status', 'scheduled', '--tz', 'Asia/Tokyo'])
    expect(tokyo.stdout).toContain(`${day} 23:00 GMT+9`)
    // --json is the API's object: UTC, with seconds.
    expect(json(await smm(['posts', 'list', '--status', 'scheduled', '--json'])).data[0].scheduled_at).toBe(`${day}T14:00:00.000Z`)

    const whoami = await smm(['whoami'])
    expect(whoami.stdout).toMatch(/Time zone: +America\/New_York/)
  })

  it('reads --from as the start of the day in the user\'s zone, so a day\'s posts are that day\'s', async () => {
    const next = `${day.slice(0, 8)}02`
    const late = await smm(['posts', 'create', '--text', 'Late in New York', '--at', `${day} 23:30`, '--json'])
    expect(json(late).scheduled_at).toBe(`${next}T04:30:00.000Z`)
    const ofThatDay = json(await smm(['posts', 'list', '--from', day, '--to', next, '--json']))
    expect(ofThatDay.data.map((p: { content: string }) => p.content)).toEqual(['Nine in New York', 'Late in New York'])
  })

  it('refuses a zone that is not one, and an empty change, naming the flag and changing nothing', async () => {
    const bad = await smm(['profile', 'set', '--timezone', 'Mars/Olympus'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe('Error: --timezone: "Mars/Olympus" is not an IANA time zone: use a name like Europe/Berlin, America/New_York or UTC\n')
    const nothing = await smm(['profile', 'set'])
    expect(nothing).toMatchObject({ code: 2, stderr: 'Error: Nothing to change: give --name, --timezone or both.\n' })
    expect((await t.http.get('/v1/me', { key: t.key })).body.timezone).toBe('America/New_York')
  })

  it('says durations in the words the user typed, never in milliseconds', async () => {
    const both = await smm(['posts', 'create', '--text', 'x', '--at', 'tomorrow 9am', '--in', '5m'])
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('--in=5m')
    expect(both.stderr).not.toContain('300000')
    // US clocks jump from 02:00 to 03:00 on the second Sunday of March.
    const year = new Date().getUTCFullYear() + 1
    const jump = `${year}-03-${8 + ((7 - new Date(Date.UTC(year, 2, 8)).getUTCDay()) % 7)} 02:30`
    const gap = await smm(['posts', 'create', '--text', 'x', '--at', jump])
    expect(gap).toMatchObject({ code: 2, stderr: `Error: --at: "${jump}" does not exist in America/New_York (the clocks skip it for daylight saving time)\n` })
  })
})
