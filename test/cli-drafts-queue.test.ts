import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../src/time.js'
import { cliHomeFor, runCli, type CliResult } from './helpers/cli.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { feedAccount, liftLimits } from './helpers/posts.js'

let t: TestDaemon
let home: ReturnType<typeof cliHomeFor>
let brand: string

beforeAll(async () => {
  // The daemon's clock starts at the machine's time: the CLI reads "in 2h" from the machine's.
  t = await startTestDaemon({ clock: new ManualClock(Date.now()), backgroundWorkers: false })
  await liftLimits(t)
  home = cliHomeFor(t)
  brand = await feedAccount(t, 'Brand')
})
afterAll(async () => {
  home.remove()
  await t.stop()
})

const smm = (args: string[]) => runCli(args, { env: home.env })
const json = (res: CliResult) => JSON.parse(res.stdout)
/** An API time as `localTime` prints it in the tests' TZ=UTC. */
const shown = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`

describe('drafts from the CLI', () => {
  it('saves a draft with no time, lists it by status, and schedules it', async () => {
    const saved = await smm(['posts', 'create', '--account', 'Brand', '--platform', 'feed', '--text', 'An idea', '--draft'])
    expect(saved.code).toBe(0)
    const [, id] = /^Saved draft (pst_\w{26}) for feed\.\nSchedule it with: smm posts schedule \1 --at … \(or --queue\)\n$/.exec(saved.stdout) ?? []
    expect(id).toBeDefined()

    const listed = await smm(['posts', 'list', '--status', 'draft'])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\s+-\\s+draft\\s+feed\\s+An idea\\s*$`, 'm'))

    const scheduled = await smm(['posts', 'schedule', id!, '--in', '2h', '--json'])
    expect(scheduled.code).toBe(0)
    expect(json(scheduled)).toMatchObject({ id, status: 'scheduled' })
    expect(Math.abs(Date.parse(json(scheduled).scheduled_at) - (Date.now() + 7_200_000))).toBeLessThan(60_000)

    const again = await smm(['posts', 'schedule', id!])
    expect(again.code).toBe(5)
    expect(again.stderr).toBe(`Error: Post ${id} is scheduled; only a draft can be scheduled.\n`)
  })

  it('refuses --queue with --at or --draft as a usage error', async () => {
    const [withAt, withDraft, scheduleBoth] = await Promise.all([
      smm(['posts', 'create', '--account', 'Brand', '--platform', 'feed', '--text', 'x', '--queue', '--at', 'tomorrow 9am']),
      smm(['posts', 'create', '--account', 'Brand', '--platform', 'feed', '--text', 'x', '--queue', '--draft']),
      smm(['posts', 'schedule', 'pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A', '--queue', '--in', '2h']),
    ])
    for (const res of [withAt, withDraft, scheduleBoth]) {
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(/--queue|--at|--in|--draft/)
    }
    expect(withAt.stderr).toContain('cannot also be provided')
  })
})

describe('queue slots from the CLI', () => {
  it('says how to add slots when a queued post finds none', async () => {
    const res = await smm(['posts', 'create', '--account', 'Brand', '--platform', 'feed', '--text', 'Queued', '--queue'])
    expect(res).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: The request has 1 invalid field: --queue.\n  --queue: account ${brand} has no queue slots; add some with \`smm accounts queue set ${brand} --slot "mon 09:00"\`\n`,
    })
  })

  it('sets slots by account name, shows them with the next free times, and fills them with --queue', async () => {
    const bad = await smm(['accounts', 'queue', 'set', 'Brand', '--slot', 'funday 09:00'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('"funday 09:00" is not a slot: give a day and a time of day as --at takes one, like "mon 09:00", "wednesday 13:30" or "fri 5:30pm"')
    const late = await smm(['accounts', 'queue', 'set', 'Brand', '--slot', 'mon 25:00'])
    expect(late).toMatchObject({ code: 2, stderr: 'Error: --slot: "mon 25:00" is not a slot: "25:00" is not a time of day; use a time of day like 09:00, 17:30, 9am or 5:30pm\n' })
    const none = await smm(['accounts', 'queue', 'set', 'Brand'])
    expect(none.code).toBe(2)

    // A time of day as --at takes one: 24-hour, or 9am and 5:30pm as people say them.
    const said = json(await smm(['accounts', 'queue', 'set', 'Brand', '--slot', 'fri 9am', '--slot', 'tue 5:30pm', '--slot', 'sun noon', '--json']))
    expect(said.slots).toEqual([
      { day: 'tuesday', time: '17:30' },
      { day: 'friday', time: '09:00' },
      { day: 'sunday', time: '12:00' },
    ])
    const set = await smm(['accounts', 'queue', 'set', 'Brand', '--slot', 'wed 13:30', '--slot', 'Mon 9:00', '--json'])
    expect(set.code).toBe(0)
    const queue = json(set)
    expect(queue).toMatchObject({ timezone: 'UTC', slots: [{ day: 'monday', time: '09:00' }, { day: 'wednesday', time: '13:30' }] })
    expect(queue.next).toHaveLength(10)

    const shownQueue = await smm(['accounts', 'queue', brand])
    expect(shownQueue.code).toBe(0)
    expect(shownQueue.stdout).toContain(`Brand (${brand})`)
    expect(shownQueue.stdout).toMatch(/^monday\s+09:00$/m)
    expect(shownQueue.stdout).toMatch(/^wednesday\s+13:30$/m)
    expect(shownQueue.stdout).toContain(`Next free slots:\n  ${shown(queue.next[0])}\n  ${shown(queue.next[1])}\n`)

    const queued = await smm(['posts', 'create', '--account', 'Brand', '--platform', 'feed', '--text', 'Queued', '--queue'])
    expect(queued.code).toBe(0)
    expect(queued.stdout).toMatch(new RegExp(`^Scheduled post pst_\\w{26} for ${shown(queue.next[0])} on feed\\.\\n`))
    const draft = json(await smm(['posts', 'create', '--account', 'Brand', '--platform', 'feed', '--text', 'Later', '--draft', '--json']))
    const fromDraft = await smm(['posts', 'schedule', draft.id, '--queue', '--json'])
    expect(json(fromDraft)).toMatchObject({ status: 'scheduled', scheduled_at: queue.next[1] })

    const cleared = await smm(['accounts', 'queue', 'set', 'Brand', '--clear'])
    expect(cleared.code).toBe(0)
    expect(cleared.stdout).toContain('No queue slots yet.')
  })

  it('completes the new commands and flags', async () => {
    expect((await smm(['__complete', '--', 'accounts', 'queue', 's'])).stdout).toBe('set\tReplace an account\'s weekly queue slots, or empty the queue with --clear.\n')
    expect((await smm(['__complete', '--', 'posts', 'create', '--q'])).stdout).toMatch(/^--queue\t/)
    expect((await smm(['__complete', '--', 'posts', 'sch'])).stdout).toMatch(/^schedule\t/)
    expect((await smm(['__complete', '--', 'posts', 'list', '--status', 'dr'])).stdout).toBe('draft\n')
  })
})
