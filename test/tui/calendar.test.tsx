import { render } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiError, validationFailed } from '../../src/errors.js'
import { Calendar } from '../../src/tui/calendar.js'
import { CalendarApp, type CalendarOptions, type RefreshTimer } from '../../src/tui/calendar-app.js'
import { calendarReducer, initialState, visibleRange, type View } from '../../src/tui/calendar-state.js'
import { displayWidth } from '../../src/display-width.js'
import { KEY, plain, waitForFrame, waitUntil } from './frames.js'
import { MemorySource, makePost } from './memory-source.js'

// Saturday 21 November 2026, 13:00 in Berlin.
const NOW = Date.parse('2026-11-21T12:00:00Z')

function samplePosts() {
  return [
    makePost({ id: 'pst_a', scheduled_at: '2026-11-21T08:00:00Z', content: 'Launch day is here', platforms: ['mastodon', 'bluesky'] }),
    makePost({ id: 'pst_b', scheduled_at: '2026-11-21T10:30:00Z', content: 'Thanks everyone', status: 'published' }),
    makePost({
      id: 'pst_c',
      scheduled_at: '2026-11-21T15:00:00Z',
      content: 'Evening recap',
      status: 'failed',
      platforms: ['bluesky'],
      targets: [{ platform: 'bluesky', status: 'failed', attempts: 5, platform_post_id: null, url: null, published_at: null, error: { code: 'auth', detail: 'App password revoked' }, parts: [] }],
    }),
    makePost({ id: 'pst_d', scheduled_at: '2026-11-24T09:00:00Z', content: 'Tuesday tips', status: 'cancelled' }),
  ]
}

const apps: { unmount(): void }[] = []
afterEach(() => {
  for (const app of apps.splice(0)) app.unmount()
})

function open(source = new MemorySource(samplePosts()), options: Partial<CalendarOptions> = {}) {
  const app = render(
    <CalendarApp source={source} options={{ timeZone: 'Europe/Berlin', weekStart: 1, now: () => NOW, refreshEveryMs: false, ...options }} />,
  )
  apps.push(app)
  const press = async (key: string, until: (frame: string) => boolean) => {
    app.stdin.write(key)
    return waitForFrame(app.lastFrame, until)
  }
  return { app, source, press, frame: () => plain(app.lastFrame()) }
}

const loaded = (frame: string) => frame.includes('updated')
// Long status lines wrap at the terminal's width; compare their words, not their line breaks.
const flat = (frame: string) => frame.replace(/\s+/g, ' ')

describe('the month grid', () => {
  it('shows counts, times in the user zone, +N more, today and the focused day with platforms', async () => {
    const { app } = open()
    const frame = await waitForFrame(app.lastFrame, loaded)
    expect(frame).toContain('November 2026')
    expect(frame).toMatch(/^ Mon {11}Tue/m)
    expect(frame).toContain('▸21•  3 posts')
    expect(frame).toContain('09:00 ○ Lau…') // 08:00Z is 09:00 in Berlin
    expect(frame).toContain('11:30 ● Tha…')
    expect(frame).toContain('+1 more')
    expect(frame).toMatch(/24 +1 post/)
    expect(frame).toMatch(/▸09:00 ○ scheduled +mastodon, bluesky +Launch day is here/)
    expect(frame).toMatch(/16:00 ✗ failed +bluesky +Evening recap/)
  })

  it('starts weeks on the given day', async () => {
    const { app } = open(undefined, { weekStart: 7 })
    const frame = await waitForFrame(app.lastFrame, loaded)
    expect(frame).toMatch(/^ Sun {11}Mon/m)
  })

  it('moves with hjkl, arrows and PageUp/PageDown, and t comes back to today', async () => {
    const { app, press, source } = open()
    await waitForFrame(app.lastFrame, loaded)
    await press('l', (f) => f.includes('▸22'))
    await press('j', (f) => f.includes('▸29'))
    await press(KEY.left, (f) => f.includes('▸28'))
    await press(KEY.up, (f) => f.includes('▸21•'))
    let frame = await press(KEY.pageDown, (f) => f.includes('December 2026') && f.includes('updated'))
    expect(frame).toContain('▸21')
    await waitUntil(() => source.calls.filter((c) => c.method === 'listPosts').length === 2, 'the December load')
    expect(source.calls.at(-1)?.args[0]).toEqual({ from: '2026-11-29T23:00:00.000Z', to: '2027-01-03T23:00:00.000Z' })
    frame = await press('t', (f) => f.includes('November 2026'))
    expect(frame).toContain('▸21•')
  })
})

describe('the week view and the day agenda', () => {
  it('shows the focused week in columns and the day in detail', async () => {
    const { app, press } = open()
    await waitForFrame(app.lastFrame, loaded)
    let frame = await press('w', (f) => f.includes('week view'))
    expect(frame).toMatch(/Mon 16 +Tue 17/)
    expect(frame).toContain('▸Sat 21•')
    expect(frame).toContain('▸09:00 ○ Lau')
    expect(frame).toMatch(/16:00 ✗ Eve/)
    frame = await press('l', (f) => f.includes('▸Sun 22'))
    expect(frame).toContain('nothing scheduled')
    frame = await press(KEY.enter, (f) => f.includes('day view'))
    expect(frame).toContain('Sun 22 November 2026')
    expect(frame).toContain('Nothing scheduled on this day')
    frame = await press('h', (f) => f.includes('Sat 21 November 2026'))
    expect(frame).toMatch(/▸09:00 ○ scheduled +mastodon, bluesky +Launch day is here/)
    expect(frame).toContain('bluesky: failed — App password revoked')
    frame = await press('j', (f) => f.includes('▸11:30 ● published'))
    expect(frame).not.toContain('▸09:00')
  })

  it('lists each post’s attachments in the day agenda: links, and uploaded media with their alt text', async () => {
    const media = (id: string, alt_text: string | null) => ({ id, url: `https://smm.example/media/${id}.png`, content_type: 'image/png' as const, width: 1200, height: 800, alt_text })
    const { app, press } = open(
      new MemorySource([
        makePost({
          id: 'pst_m',
          scheduled_at: '2026-11-21T08:00:00Z',
          content: 'Office tour',
          media_urls: ['https://example.com/plan.jpg'],
          media: [media('med_1', 'Six desks by a window'), media('med_2', null)],
        }),
      ]),
    )
    await waitForFrame(app.lastFrame, loaded)
    const frame = await press(KEY.enter, (f) => f.includes('day view'))
    expect(frame).toMatch(/Office tour\n.*pst_m .*\n +link https:\/\/example\.com\/plan\.jpg\n +media PNG 1200×800 · alt: “Six desks by a window”\n +media PNG 1200×800 · no alt text\n/)
  })
})

describe('writing a post', () => {
  it('counts characters per platform while typing and schedules the post in the user zone', async () => {
    const { app, press, source } = open()
    await waitForFrame(app.lastFrame, loaded)
    let frame = await press('n', (f) => f.includes('New post'))
    expect(frame).toMatch(/Date +2026-11-21/)
    expect(frame).toMatch(/Time +14:00/)
    frame = await press('Hello from the calendar', (f) => f.includes('mastodon 23/500 · bluesky 23/300'))
    frame = await press('x'.repeat(290), (f) => f.includes('bluesky 313/300 (13 over)'))
    for (let i = 0; i < 290; i++) app.stdin.write(KEY.backspace)
    await waitForFrame(app.lastFrame, (f) => f.includes('bluesky 23/300') && !f.includes('over'))
    await press(KEY.up, (f) => f.includes('› Platforms'))
    await press(' ', (f) => f.includes('[x] mastodon'))
    await press(KEY.tab, (f) => f.includes('› Content') && f.includes('mastodon 23/500') && !f.includes('bluesky 23'))
    await press(KEY.tab, (f) => f.includes('› When'))
    await press(KEY.tab, (f) => f.includes('› Date'))
    await press(KEY.tab, (f) => f.includes('› Time'))
    await press(KEY.backspace + KEY.backspace + KEY.backspace + KEY.backspace + KEY.backspace, (f) => /Time +▏/.test(f))
    await press('08:15', (f) => f.includes('08:15'))
    frame = await press(KEY.ctrlS, (f) => f.includes('Scheduled pst_100'))
    expect(source.calls.find((c) => c.method === 'createPost')?.args[0]).toEqual({
      account_id: 'acc_1',
      content: 'Hello from the calendar',
      platforms: ['mastodon'],
      scheduled_at: '2026-11-21T07:15:00.000Z',
    })
    expect(frame).toContain('month view')
    await waitForFrame(app.lastFrame, (f) => f.includes('▸08:15 ○ scheduled') && f.includes('4 posts'))
  })

  it('shows the daemon validation errors on the fields and in the status line', async () => {
    const source = new MemorySource(samplePosts())
    source.createPost = async () => {
      throw validationFailed([{ pointer: '#/content', code: 'too_long', detail: 'Too long for mastodon (501 of 500).' }])
    }
    const { app, press } = open(source)
    await waitForFrame(app.lastFrame, loaded)
    await press('n', (f) => f.includes('New post'))
    await press(KEY.up, (f) => f.includes('› Platforms'))
    await press(' ', (f) => f.includes('[x] mastodon'))
    await press(KEY.down, (f) => f.includes('› Content'))
    await press('hi', (f) => f.includes('mastodon 2/500'))
    const frame = await press(KEY.ctrlS, (f) => f.includes('Scheduling failed'))
    expect(flat(frame)).toContain('Scheduling failed: The request has 1 invalid field: content. (content: Too long for mastodon (501 of 500).)')
    expect(frame).toMatch(/^ {12}Too long for mastodon \(501 of 500\)\.$/m)
    expect(frame).toContain('New post') // the form stays open with what was typed
    expect(frame).toContain('hi')
  })

  it('edits a scheduled post and refuses, with the reason, to edit a failed one', async () => {
    const { app, press, source } = open()
    await waitForFrame(app.lastFrame, loaded)
    await press(KEY.tab, (f) => f.includes('▸11:30'))
    let frame = await press('e', (f) => f.includes('already published'))
    expect(frame).not.toContain('Edit pst_b')
    await press(KEY.tab, (f) => f.includes('▸16:00'))
    frame = await press('e', (f) => f.includes('smm posts retry pst_c'))
    await press(KEY.shiftTab, (f) => f.includes('▸11:30'))
    await press(KEY.shiftTab, (f) => f.includes('▸09:00'))
    frame = await press('e', (f) => f.includes('Edit pst_a'))
    expect(frame).toContain('Launch day is here')
    expect(frame).toMatch(/Time +09:00/)
    await press(' now', (f) => f.includes('here now'))
    frame = await press(KEY.ctrlS, (f) => f.includes('Updated pst_a'))
    expect(source.calls.find((c) => c.method === 'updatePost')?.args.slice(0, 2)).toEqual([
      'pst_a',
      { content: 'Launch day is here now', platforms: ['mastodon', 'bluesky'], scheduled_at: '2026-11-21T08:00:00.000Z' },
    ])
  })
})

describe('drafts and the queue', () => {
  // Acme posts on Saturdays at 18:00 and Mondays at 10:00, Berlin time.
  function queued() {
    const source = new MemorySource(samplePosts())
    source.now = () => NOW
    source.queues.set('acc_1', [{ day: 'saturday', time: '18:00' }, { day: 'monday', time: '10:00' }])
    return source
  }
  const slotsShown = (f: string) => f.includes('18:00 · free slot · Acme')

  it('shows free slots in the grid, the panel and the day, and a queued post written on one lands there', async () => {
    const { app, press, source } = open(queued())
    let frame = await waitForFrame(app.lastFrame, (f) => loaded(f) && slotsShown(f))
    // The grid counts them per day (◇), after the posts; the panel lists them among the posts.
    expect(frame).toMatch(/▸21• +3 ◇1/)
    expect(frame).toMatch(/ 23 +◇1/)
    expect(frame).toContain('Sat 21 November 2026 · 3 posts · 1 free slot')
    frame = await press(KEY.enter, (f) => f.includes('day view'))
    expect(frame.indexOf('16:00 ✗ failed')).toBeLessThan(frame.indexOf('18:00 · free slot · Acme'))
    await press(KEY.tab, (f) => f.includes('▸11:30'))
    await press(KEY.tab, (f) => f.includes('▸16:00'))
    await press(KEY.tab, (f) => f.includes('▸18:00 · free slot · Acme'))
    frame = await press('n', (f) => f.includes('New post'))
    expect(frame).toMatch(/Account +‹ Acme ›/)
    expect(frame).toMatch(/Date +2026-11-21/)
    expect(frame).toMatch(/Time +18:00/)
    await press(KEY.up, (f) => f.includes('› Platforms'))
    await press(' ', (f) => f.includes('[x] mastodon'))
    await press(KEY.down, (f) => f.includes('› Content'))
    await press('Queued from the calendar', (f) => f.includes('mastodon 24/500'))
    await press(KEY.tab, (f) => f.includes('› When'))
    frame = await press(' ', (f) => f.includes('‹ next free queue slot ›'))
    expect(frame).toContain('now 2026-11-21 18:00')
    expect(frame).toContain('not used: the queue picks the time')
    expect(frame).toContain('[ Queue ]')
    frame = await press(KEY.ctrlS, (f) => f.includes('Queued pst_100'))
    expect(flat(frame)).toContain('Queued pst_100 for mastodon in the next free slot, 2026-11-21 18:00.')
    expect(source.calls.find((c) => c.method === 'createPost')?.args[0]).toEqual({
      account_id: 'acc_1',
      content: 'Queued from the calendar',
      platforms: ['mastodon'],
      queue: true,
    })
    expect(source.posts.find((p) => p.id === 'pst_100')?.scheduled_at).toBe('2026-11-21T17:00:00.000Z')
    // The post sits where the slot was, and the slot is free no more.
    frame = await waitForFrame(app.lastFrame, (f) => f.includes('▸18:00 ○ scheduled') && f.includes('Queued from the calendar'))
    expect(frame).not.toContain('· free slot ·')
  })

  it("shows the daemon's queue_empty refusal in the status line and under the choice", async () => {
    const { app, press } = open(queued())
    await waitForFrame(app.lastFrame, (f) => loaded(f) && slotsShown(f))
    await press('n', (f) => f.includes('New post'))
    await press(KEY.up + KEY.up, (f) => f.includes('› Account'))
    await press(KEY.right, (f) => f.includes('‹ Side project ›') && f.includes('[x] feed'))
    await press(KEY.down + KEY.down, (f) => f.includes('› Content'))
    await press('Nowhere to go', (f) => f.includes('feed 13/'))
    await press(KEY.tab, (f) => f.includes('› When'))
    let frame = await press(' ', (f) => f.includes('‹ next free queue slot ›'))
    expect(flat(frame)).toContain('this account has no queue slots: smm accounts queue set acc_2 --slot "mon 09:00"')
    frame = await press(KEY.ctrlS, (f) => f.includes('Queueing failed'))
    expect(flat(frame)).toContain('(queue: account acc_2 has no queue slots; add some with PUT /v1/accounts/acc_2/queue)')
    expect(frame).toMatch(/^ {12}account acc_2 has no queue slots; add some with PUT/m)
    expect(frame).toContain('New post') // the form stays open with what was typed
  })

  it('says the draft was saved when scheduling it into an empty queue is refused', async () => {
    const source = queued()
    source.posts.push(makePost({ id: 'pst_idea', account_id: 'acc_2', platforms: ['feed'], scheduled_at: '2026-11-21T16:00:00Z', status: 'draft', content: 'Side idea' }))
    const { app, press } = open(source)
    await waitForFrame(app.lastFrame, (f) => loaded(f) && f.includes('17:00 ✎ draft'))
    await press(KEY.tab, (f) => f.includes('▸11:30'))
    await press(KEY.tab, (f) => f.includes('▸16:00'))
    await press(KEY.tab, (f) => f.includes('▸17:00 ✎ draft'))
    await press('e', (f) => f.includes('Edit draft pst_idea'))
    await press(' again', (f) => f.includes('Side idea again'))
    await press(KEY.tab, (f) => f.includes('› When'))
    await press(KEY.right, (f) => f.includes('‹ at the date and time below ›'))
    await press(KEY.right, (f) => f.includes('‹ next free queue slot ›'))
    const frame = await press(KEY.ctrlS, (f) => f.includes('failed'))
    expect(flat(frame)).toContain('Scheduling the draft (its edit is saved) failed')
    expect(flat(frame)).toContain('account acc_2 has no queue slots')
    expect(source.posts.find((p) => p.id === 'pst_idea')).toMatchObject({ status: 'draft', content: 'Side idea again' })
  })

  it('follows slots changed elsewhere on the 30 s refresh', async () => {
    let fire = () => {}
    const timer: RefreshTimer = { every: (_ms, callback) => ((fire = callback), () => {}) }
    const source = queued()
    const { app } = open(source, { timer, refreshEveryMs: 30_000 })
    await waitForFrame(app.lastFrame, (f) => loaded(f) && slotsShown(f))
    source.queues.set('acc_2', [{ day: 'saturday', time: '20:30' }])
    fire()
    const frame = await waitForFrame(app.lastFrame, (f) => f.includes('20:30 · free slot · Side project'))
    expect(frame).toContain('Sat 21 November 2026 · 3 posts · 2 free slots')
  })

  it('saves a draft with no time, then schedules it from its edit', async () => {
    const { app, press, source } = open(queued())
    await waitForFrame(app.lastFrame, (f) => loaded(f) && slotsShown(f))
    await press('n', (f) => f.includes('New post'))
    await press(KEY.up, (f) => f.includes('› Platforms'))
    await press(' ', (f) => f.includes('[x] mastodon'))
    await press(KEY.down, (f) => f.includes('› Content'))
    await press('An idea for later', (f) => f.includes('mastodon 17/500'))
    await press(KEY.tab, (f) => f.includes('› When'))
    await press(' ', (f) => f.includes('‹ next free queue slot ›'))
    let frame = await press(' ', (f) => f.includes('‹ draft ›'))
    expect(frame).toContain('[ Save draft ]')
    await press(KEY.tab, (f) => f.includes('› Date'))
    await press(KEY.backspace.repeat(10), (f) => /Date +▏/.test(f))
    await press(KEY.tab, (f) => f.includes('› Time'))
    await press(KEY.backspace.repeat(5), (f) => /Time +▏/.test(f))
    frame = await press(KEY.ctrlS, (f) => f.includes('Saved draft pst_100'))
    expect(source.calls.find((c) => c.method === 'createPost')?.args[0]).toEqual({ account_id: 'acc_1', content: 'An idea for later', platforms: ['mastodon'], draft: true })
    // A draft with no time sits where it was written, now, without a time of its own.
    frame = await waitForFrame(app.lastFrame, (f) => f.includes('▸--:-- ✎ draft'))

    frame = await press('e', (f) => f.includes('Edit draft pst_100'))
    expect(frame).toContain('‹ draft ›')
    expect(frame).toMatch(/Date +YYYY-MM-DD/) // no planned time: none in the form
    await press(KEY.tab, (f) => f.includes('› When'))
    frame = await press(' ', (f) => f.includes('‹ at the date and time below ›'))
    expect(frame).toContain('[ Save and schedule ]')
    await press(KEY.tab, (f) => f.includes('› Date'))
    await press('2026-11-25', (f) => /Date +2026-11-25/.test(f))
    await press(KEY.tab, (f) => f.includes('› Time'))
    await press('10:00', (f) => /Time +10:00/.test(f))
    frame = await press(KEY.ctrlS, (f) => f.includes('Scheduled pst_100'))
    expect(source.calls.filter((c) => c.method === 'updatePost' || c.method === 'schedulePost').map((c) => [c.method, ...c.args])).toEqual([
      ['updatePost', 'pst_100', { content: 'An idea for later', platforms: ['mastodon'] }],
      ['schedulePost', 'pst_100', { scheduled_at: '2026-11-25T09:00:00.000Z' }],
    ])
    await waitForFrame(app.lastFrame, (f) => f.includes('▸10:00 ○ scheduled') && f.includes('Wed 25 November 2026'))
  })
})

describe('cancelling a post', () => {
  it('asks first, keeps the post on n, and cancels it on y', async () => {
    const { app, press, source } = open()
    await waitForFrame(app.lastFrame, loaded)
    let frame = await press('x', (f) => f.includes('y cancels'))
    expect(frame).toContain('y cancels the 09:00 post on mastodon, bluesky, n or Esc keeps it: “Launch day is here”')
    frame = await press('n', (f) => f.includes('? help'))
    expect(source.calls.some((c) => c.method === 'cancelPost')).toBe(false)
    await press('x', (f) => f.includes('y cancels the 09:00 post'))
    frame = await press('y', (f) => f.includes('Cancelled pst_a.'))
    expect(frame).toMatch(/▸09:00 ⊘ cancelled/)
    expect(source.posts.find((p) => p.id === 'pst_a')?.status).toBe('cancelled')
  })

  it('says why when the daemon refuses because the post started publishing', async () => {
    const source = new MemorySource(samplePosts())
    const { app, press } = open(source)
    await waitForFrame(app.lastFrame, loaded)
    await press('x', (f) => f.includes('y cancels'))
    source.posts[0]!.status = 'publishing' // the scheduler got there first
    const frame = await press('y', (f) => f.includes('Cancelling failed'))
    expect(frame).toContain('Post pst_a is publishing; only a scheduled post or a draft can be changed.')
    await waitForFrame(app.lastFrame, (f) => f.includes('▸09:00 ◐ publishing'))
  })
})

describe('errors, refresh and help', () => {
  it('puts API and connection errors in the status line and keeps the calendar usable', async () => {
    const { app, press, source } = open()
    await waitForFrame(app.lastFrame, loaded)
    source.failWith = new ApiError(429, 'rate_limited', 'Rate limit exceeded for this API key.', { headers: { 'Retry-After': '30' } })
    let frame = await press('r', (f) => f.includes('Try again'))
    expect(frame).toMatch(/Loading (posts|accounts) failed: Rate limit exceeded for this API key\. Try again in 30 s\./)
    expect(frame).toContain('▸21•  3 posts') // what was loaded stays on screen
    source.failWith = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8443'), { code: 'ECONNREFUSED' }) })
    frame = await press('r', (f) => flat(f).includes('cannot reach the smm daemon (ECONNREFUSED)'))
    frame = await press('l', (f) => f.includes('▸22'))
    source.failWith = null
    frame = await press('r', (f) => !f.includes('failed'))
    expect(frame).toContain('? help')
  })

  it('refreshes by itself, so posts created elsewhere appear', async () => {
    let fire = () => {}
    const timer: RefreshTimer = {
      every(ms, callback) {
        expect(ms).toBe(30_000)
        fire = callback
        return () => {}
      },
    }
    const source = new MemorySource(samplePosts())
    const { app } = open(source, { timer, refreshEveryMs: 30_000 })
    await waitForFrame(app.lastFrame, loaded)
    source.posts.push(makePost({ id: 'pst_e', scheduled_at: '2026-11-27T17:00:00Z', content: 'From a script' }))
    fire()
    const frame = await waitForFrame(app.lastFrame, (f) => f.includes('18:00 ○ Fro…'))
    expect(frame).toMatch(/27 +1 post/)
  })

  it('shows the keys on ? and closes the help on any key', async () => {
    const { app, press } = open()
    await waitForFrame(app.lastFrame, loaded)
    const frame = await press('?', (f) => f.includes('Keys'))
    expect(frame).toContain('cancel the selected post or draft (asks first)')
    await press('z', (f) => f.includes('? help'))
  })
})

describe('text that is not ASCII', () => {
  it('keeps the grid and the panel aligned with emoji, skin tones, flags and CJK in posts, measured by grapheme', () => {
    const posts = [
      makePost({ id: 'pst_e', scheduled_at: '2026-11-21T08:00:00Z', content: '👍🏽👩🏽‍🌾🇩🇪 日本語のお知らせ and a long tail of words, more than any cell holds' }),
      makePost({ id: 'pst_f', scheduled_at: '2026-11-22T08:00:00Z', content: 'Plain Sunday' }),
    ]
    const base = initialState({ timeZone: 'Europe/Berlin', weekStart: 1, now: NOW })
    const state = calendarReducer(base, { type: 'posts-loaded', range: visibleRange(base), posts, at: NOW })
    const width = 98
    for (const view of ['month', 'week', 'day'] as View[]) {
      const app = render(<Calendar state={{ ...state, view }} width={width} rows={30} />)
      apps.push(app)
      const lines = plain(app.lastFrame()).split('\n')
      const shown = lines.join('\n')
      for (const line of lines) expect(displayWidth(line), `${view} view:\n${shown}`).toBeLessThanOrEqual(width)
      // The panel (and the agenda) clip the post at the edge, with "…", keeping whole clusters.
      expect(shown, view).toMatch(/👍🏽👩🏽‍🌾🇩🇪 日本語のお知らせ and a .*…/u)
      if (view === 'day') continue
      // Sunday's post starts in Sunday's column, right after Saturday's clipped emoji post.
      const header = lines.find((l) => /Mon .*Sun/.test(l))!
      const row = lines.find((l) => l.includes('○ Pl'))
      if (!row) throw new Error(`${view} view:\n${shown}`)
      const column = (line: string, text: string) => displayWidth(line.slice(0, line.indexOf(text)))
      expect(row, shown).toContain('09:00 ○ 👍🏽…')
      expect(column(row, '○ Pl') - ' 09:00 '.length, shown).toBe(column(header, 'Sun') - 1)
    }
  })
})

describe('a small terminal', () => {
  it('fits every view into 80×24, giving up post lines before the screen overflows', () => {
    const busyDay = Array.from({ length: 12 }, (_, i) =>
      makePost({ id: `pst_${String(i).padStart(2, '0')}`, scheduled_at: `2026-11-21T${String(6 + i).padStart(2, '0')}:00:00Z`, content: `Post number ${i}` }),
    )
    const base = initialState({ timeZone: 'Europe/Berlin', weekStart: 1, now: NOW })
    const state = calendarReducer(base, { type: 'posts-loaded', range: visibleRange(base), posts: busyDay, at: NOW })
    for (const view of ['month', 'week', 'day'] as View[]) {
      for (const selected of [0, 11]) {
        const app = render(<Calendar state={{ ...state, view, selected }} width={80} rows={24} />)
        apps.push(app)
        const frame = plain(app.lastFrame())
        expect(frame.split('\n').length, `${view} view:\n${frame}`).toBeLessThanOrEqual(24)
        expect(frame).toContain(view === 'day' ? 'Sat 21 November 2026' : '12 posts')
        // The selected post stays in view whichever it is.
        expect(frame).toContain(`▸${selected === 0 ? '07:00' : '18:00'}`)
      }
    }
  })
})
