// Approving and sending back from the calendar, against the real daemon: the keys reach the same
// endpoints an admin's API call does, and an editor's post shows as waiting until then.

import { render } from 'ink-testing-library'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SmmClient } from '../../src/client/smm-client.js'
import { openApiCalendarSource } from '../../src/tui/api-source.js'
import { CalendarApp } from '../../src/tui/calendar-app.js'
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js'
import { liftLimits, person } from '../helpers/posts.js'
import { KEY, waitForFrame } from './frames.js'

let t: TestDaemon
const clients: SmmClient[] = []
const apps: { unmount(): void }[] = []

beforeAll(async () => {
  // The daemon's clock: Saturday 21 November 2026, 12:00 UTC.
  t = await startTestDaemon({ backgroundWorkers: false })
  await liftLimits(t)
})
afterAll(async () => {
  for (const app of apps) app.unmount()
  for (const client of clients) client.close()
  await t.stop()
})

const flat = (frame: string) => frame.replace(/\s+/g, ' ')

async function open(key: string) {
  const client = new SmmClient({ url: t.url, apiKey: key, ca: t.ca })
  clients.push(client)
  const { source } = await openApiCalendarSource(client)
  const app = render(<CalendarApp source={source} options={{ timeZone: 'UTC', weekStart: 1, now: () => t.clock.now(), refreshEveryMs: false }} />)
  apps.push(app)
  await waitForFrame(app.lastFrame, (f) => f.includes('updated'))
  const press = (keys: string, until: (frame: string) => boolean) => {
    app.stdin.write(keys)
    return waitForFrame(app.lastFrame, (f) => until(flat(f)))
  }
  return { app, press }
}

describe('approval in the calendar', () => {
  it('marks posts waiting for approval; a approves the selected one, R sends it back with a comment; an editor is refused', async () => {
    const workspace = (await t.http.post('/v1/workspaces', { name: 'Agency', approval_required: true }, { key: t.key })).body
    const account = (await t.http.post('/v1/accounts', { name: 'Client', workspace_id: workspace.id }, { key: t.key })).body.id
    expect((await t.http.post(`/v1/accounts/${account}/connections`, { platform: 'feed' }, { key: t.key })).status).toBe(201)
    const editor = await person(t, 'Ed')
    expect((await t.http.post(`/v1/workspaces/${workspace.id}/members`, { user_id: editor.userId, role: 'editor' }, { key: t.key })).status).toBe(201)
    const write = async (content: string, at: string) =>
      (await t.http.post('/v1/posts', { account_id: account, content, platforms: ['feed'], scheduled_at: at }, { key: editor.key })).body.id as string
    const first = await write('First draft of the launch', '2026-11-21T16:00:00Z')
    const second = await write('Second one', '2026-11-21T17:00:00Z')

    // The editor sees them waiting, and may not decide.
    const asEditor = await open(editor.key)
    expect(flat(asEditor.app.lastFrame()!)).toContain('First draft of the launch')
    let frame = await asEditor.press('a', (f) => f.includes('approving posts needs admin or owner'))
    expect((await t.http.get(`/v1/posts/${first}`, { key: t.key })).body.status).toBe('pending_approval')

    const asOwner = await open(t.key)
    frame = await asOwner.press('a', (f) => f.includes(`Approved ${first}: it is scheduled.`))
    expect((await t.http.get(`/v1/posts/${first}`, { key: t.key })).body.status).toBe('scheduled')
    // Approved, it is no longer waiting: a second a says so.
    frame = await asOwner.press('a', (f) => f.includes('only a post waiting for approval can be approved'))

    asOwner.app.stdin.write(KEY.tab)
    frame = await asOwner.press('R', (f) => f.includes(`Enter sends ${second} back`))
    // Enter with nothing typed: a comment is needed.
    frame = await asOwner.press(KEY.enter, (f) => f.includes('sending a post back needs a comment'))
    await asOwner.press('R', (f) => f.includes(`Enter sends ${second} back`))
    await asOwner.press('Shorter, please', (f) => f.includes('Shorter, please▏'))
    frame = await asOwner.press(KEY.enter, (f) => f.includes(`Sent ${second} back for changes.`))
    expect((await t.http.get(`/v1/posts/${second}`, { key: t.key })).body.status).toBe('rejected')
    const comments = (await t.http.get(`/v1/posts/${second}/comments`, { key: t.key })).body.data
    expect(comments).toEqual([expect.objectContaining({ body: 'Shorter, please', decision: 'rejected' })])
  })
})
