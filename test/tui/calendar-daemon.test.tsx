// The calendar wired to the real daemon over TLS: the same source `smm calendar` opens, so what
// the form sends and what the grid shows are what the API really accepts and answers.

import { render } from 'ink-testing-library'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SmmClient } from '../../src/client/smm-client.js'
import { openApiCalendarSource } from '../../src/tui/api-source.js'
import { CalendarApp } from '../../src/tui/calendar-app.js'
import type { CalendarSource } from '../../src/tui/calendar-source.js'
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js'
import { feedAccount, liftLimits } from '../helpers/posts.js'
import { KEY, waitForFrame } from './frames.js'

let t: TestDaemon
let client: SmmClient
let account: string
const apps: { unmount(): void }[] = []

beforeAll(async () => {
  // The daemon's clock: Saturday 21 November 2026, 12:00 UTC (13:00 in Berlin).
  t = await startTestDaemon({ backgroundWorkers: false })
  await liftLimits(t)
  account = await feedAccount(t, 'Brand')
  client = new SmmClient({ url: t.url, apiKey: t.key, ca: t.ca })
})
afterAll(async () => {
  for (const app of apps) app.unmount()
  client.close()
  await t.stop()
})

const get = async (path: string) => (await t.http.get(path, { key: t.key })).body
// Long status lines wrap at the terminal's width; compare their words, not their line breaks.
const flat = (frame: string) => frame.replace(/\s+/g, ' ')

function open(source: CalendarSource) {
  const app = render(<CalendarApp source={source} options={{ timeZone: 'Europe/Berlin', weekStart: 1, now: () => t.clock.now(), refreshEveryMs: false }} />)
  apps.push(app)
  const press = (key: string, until: (frame: string) => boolean, ms?: number) => {
    app.stdin.write(key)
    return waitForFrame(app.lastFrame, until, ms)
  }
  return { app, press }
}

describe('smm calendar against the daemon', () => {
  it('opens with the user time zone and shows a day of more posts than one page holds', async () => {
    // 101 posts on Friday the 27th: more than the largest page (100) the list gives at once.
    const at = Date.parse('2026-11-27T09:00:00Z')
    for (let batch = 0; batch < 101; batch += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, 101 - batch) }, (_, i) =>
          t.http.post('/v1/posts', { account_id: account, content: `Batch ${batch + i}`, platforms: ['feed'], scheduled_at: new Date(at + (batch + i) * 60_000).toISOString() }, { key: t.key }),
        ),
      )
    }
    const { source, timeZone } = await openApiCalendarSource(client)
    expect(timeZone).toBe((await get('/v1/me')).timezone)
    const { app } = open(source)
    const frame = await waitForFrame(app.lastFrame, (f) => f.includes('updated'))
    expect(frame).toContain('November 2026')
    expect(frame).toMatch(/27 +101 posts/)
  })

  it('schedules a post from the new-post form, and shows the daemon’s own field errors', async () => {
    const { source } = await openApiCalendarSource(client)
    const { app, press } = open(source)
    await waitForFrame(app.lastFrame, (f) => f.includes('updated'))

    // The form's defaults: the only account, its only platform, today at the next full hour.
    let frame = await press('n', (f) => f.includes('New post'))
    expect(frame).toMatch(/Date +2026-11-21/)
    expect(frame).toMatch(/Time +14:00/)
    await press('Hello from the calendar', (f) => f.includes('feed 23/10,000'))
    frame = await press(KEY.ctrlS, (f) => /Scheduled pst_\w{26}/.test(f), 5_000)
    const id = /Scheduled (pst_\w{26})/.exec(frame)![1]
    expect(await get(`/v1/posts/${id}`)).toMatchObject({
      account_id: account,
      content: 'Hello from the calendar',
      platforms: ['feed'],
      scheduled_at: '2026-11-21T13:00:00.000Z',
      status: 'scheduled',
    })
    await waitForFrame(app.lastFrame, (f) => f.includes('▸14:00 ○ scheduled') && f.includes('Hello from the calendar'))

    // 08:00 in Berlin is hours ago by the daemon's clock: its 422 lands on the form.
    await press('n', (f) => f.includes('New post'))
    await press('Too late', (f) => f.includes('feed 8/10,000'))
    await press(KEY.tab, (f) => f.includes('› When'))
    await press(KEY.tab, (f) => f.includes('› Date'))
    await press(KEY.tab, (f) => f.includes('› Time'))
    await press(KEY.backspace.repeat(5), (f) => /Time +▏/.test(f))
    await press('08:00', (f) => /Time +08:00/.test(f))
    frame = await press(KEY.ctrlS, (f) => f.includes('Scheduling failed'), 5_000)
    expect(frame.replace(/\s+/g, ' ')).toContain('scheduled_at: is more than 5 minutes in the past')
    expect(frame).toContain('New post') // the form stays open with what was typed
    expect((await get('/v1/posts?from=2026-11-21T00:00:00Z&to=2026-11-22T00:00:00Z')).data.map((p: { id: string }) => p.id)).toEqual([id])

    // Cancelling from the calendar cancels on the daemon.
    await press(KEY.escape, (f) => !f.includes('New post'))
    await press('x', (f) => f.includes('y cancels'))
    await press('y', (f) => f.includes(`Cancelled ${id}.`), 5_000)
    expect((await get(`/v1/posts/${id}`)).status).toBe('cancelled')
  })

  it('queues a post into a free slot, saves a draft and schedules it, and shows queue_empty, all through the API', async () => {
    // Slots are wall-clock times in the user's zone: Berlin here, as the calendar shows.
    expect((await t.http.patch('/v1/me', { timezone: 'Europe/Berlin' }, { key: t.key })).status).toBe(200)
    const queue = (slots: unknown[]) => t.http.put(`/v1/accounts/${account}/queue`, { slots }, { key: t.key })
    expect((await queue([{ day: 'monday', time: '10:00' }])).status).toBe(200)
    const { source } = await openApiCalendarSource(client)
    const { app, press } = open(source)
    let frame = await waitForFrame(app.lastFrame, (f) => f.includes('updated') && / 23 +◇1/.test(f))
    expect(frame).toMatch(/ 30 +◇1/)

    // Monday the 23rd: its free slot, selected, and a post written for it through the queue.
    await press('ll', (f) => f.includes('▸10:00 · free slot · Brand'))
    frame = await press('n', (f) => f.includes('New post'))
    expect(frame).toMatch(/Date +2026-11-23/)
    expect(frame).toMatch(/Time +10:00/)
    await press('Queued from the calendar', (f) => f.includes('feed 24/10,000'))
    await press(KEY.tab, (f) => f.includes('› When'))
    await press(' ', (f) => f.includes('now 2026-11-23 10:00'))
    frame = await press(KEY.ctrlS, (f) => /Queued pst_\w{26}/.test(f), 5_000)
    const queued = /Queued (pst_\w{26})/.exec(frame)![1]
    expect(flat(frame)).toContain('in the next free slot, 2026-11-23 10:00.')
    expect(await get(`/v1/posts/${queued}`)).toMatchObject({ status: 'scheduled', scheduled_at: '2026-11-23T09:00:00.000Z', content: 'Queued from the calendar' })
    frame = await waitForFrame(app.lastFrame, (f) => f.includes('▸10:00 ○ scheduled') && f.includes('Mon 23 November 2026 · 1 post'))
    expect(frame).not.toContain('· free slot ·')
    expect(frame).not.toMatch(/ 23 +1 ◇1/)

    // A draft with a planned time, kept; then scheduled at that time from its edit.
    await press('n', (f) => f.includes('New post'))
    await press('A draft from the calendar', (f) => f.includes('feed 25/10,000'))
    await press(KEY.tab, (f) => f.includes('› When'))
    await press(' ', (f) => f.includes('‹ next free queue slot ›'))
    await press(' ', (f) => f.includes('‹ draft ›'))
    frame = await press(KEY.ctrlS, (f) => /Saved draft pst_\w{26}/.test(f), 5_000)
    const draft = /Saved draft (pst_\w{26})/.exec(frame)![1]
    expect(await get(`/v1/posts/${draft}`)).toMatchObject({ status: 'draft', scheduled_at: '2026-11-23T08:00:00.000Z' })
    await waitForFrame(app.lastFrame, (f) => f.includes('▸09:00 ✎ draft'))
    await press('e', (f) => f.includes(`Edit draft ${draft}`))
    await press(KEY.tab, (f) => f.includes('› When'))
    await press(' ', (f) => f.includes('‹ at the date and time below ›'))
    await press(KEY.ctrlS, (f) => f.includes(`Scheduled ${draft}`), 5_000)
    expect(await get(`/v1/posts/${draft}`)).toMatchObject({ status: 'scheduled', scheduled_at: '2026-11-23T08:00:00.000Z' })
    await waitForFrame(app.lastFrame, (f) => f.includes('▸09:00 ○ scheduled'))

    // No slots left: the daemon's 422 queue_empty, in its words, in the status line.
    expect((await queue([])).status).toBe(200)
    await press('n', (f) => f.includes('New post'))
    await press('Nowhere to go', (f) => f.includes('feed 13/10,000'))
    await press(KEY.tab, (f) => f.includes('› When'))
    await press(' ', (f) => f.includes('‹ next free queue slot ›'))
    frame = await press(KEY.ctrlS, (f) => f.includes('Queueing failed'), 5_000)
    expect(flat(frame)).toContain(`(queue: account ${account} has no queue slots; add some with PUT /v1/accounts/${account}/queue)`)
  })
})
