import { describe, expect, it } from 'vitest'
import {
  calendarReducer,
  entriesOn,
  initialState,
  selectedPost,
  visibleRange,
  type CalendarAction,
  type CalendarState,
} from '../../src/tui/calendar-state.js'
import {
  formatTime,
  localeWeekStart,
  monthGrid,
  parseWeekday,
  startOfDayInstant,
  systemLocale,
  weekDays,
  zonedToInstant,
  type Weekday,
} from '../../src/zoned-time.js'
import { postsByDay, visibleFreeSlots } from '../../src/tui/day-entries.js'
import { makePost } from './memory-source.js'

const NOV_21_NOON = Date.parse('2026-11-21T12:00:00Z')

function start(overrides: { timeZone?: string; weekStart?: Weekday; now?: number; date?: string } = {}): CalendarState {
  return initialState({ timeZone: overrides.timeZone ?? 'Europe/Berlin', weekStart: overrides.weekStart ?? 1, now: overrides.now ?? NOV_21_NOON, date: overrides.date })
}

function run(state: CalendarState, ...actions: CalendarAction[]): CalendarState {
  return actions.reduce(calendarReducer, state)
}

const hours = (from: number, to: number) => (to - from) / 3_600_000

describe('navigation', () => {
  it('opens on today in the user zone, not in UTC', () => {
    // 23:30 UTC on the 21st is already the 22nd in Berlin and still the 21st in New York.
    const now = Date.parse('2026-11-21T23:30:00Z')
    expect(start({ now }).cursor).toBe('2026-11-22')
    expect(start({ now, timeZone: 'America/New_York' }).cursor).toBe('2026-11-21')
  })

  it('moves by day and week across month and year edges', () => {
    expect(run(start({ date: '2026-01-31' }), { type: 'move-days', days: 1 }).cursor).toBe('2026-02-01')
    expect(run(start({ date: '2026-03-01' }), { type: 'move-days', days: -1 }).cursor).toBe('2026-02-28')
    expect(run(start({ date: '2026-12-28' }), { type: 'move-days', days: 7 }).cursor).toBe('2027-01-04')
    expect(run(start({ date: '2027-01-03' }), { type: 'move-days', days: -7 }).cursor).toBe('2026-12-27')
  })

  it('moves a month keeping the day, clamped to short months and leap years', () => {
    const month = (date: string, months: number) => run(start({ date }), { type: 'move-months', months }).cursor
    expect(month('2026-01-31', 1)).toBe('2026-02-28')
    expect(month('2028-01-31', 1)).toBe('2028-02-29')
    expect(month('2024-03-31', -1)).toBe('2024-02-29')
    expect(month('2100-01-29', 1)).toBe('2100-02-28') // divisible by 100, not by 400: no leap day
    expect(month('2000-01-29', 1)).toBe('2000-02-29')
    expect(month('2026-12-15', 1)).toBe('2027-01-15')
    expect(month('2026-01-15', -1)).toBe('2025-12-15')
    expect(month('2026-05-31', -1)).toBe('2026-04-30')
  })

  it('returns to today, and today follows the clock past midnight', () => {
    const moved = run(start(), { type: 'move-months', months: 3 }, { type: 'go-today' })
    expect(moved.cursor).toBe('2026-11-21')
    const lateEvening = start({ now: Date.parse('2026-11-21T22:59:00Z') })
    const afterMidnight = run(lateEvening, { type: 'tick', now: Date.parse('2026-11-21T23:01:00Z') }, { type: 'go-today' })
    expect(afterMidnight.today).toBe('2026-11-22')
    expect(afterMidnight.cursor).toBe('2026-11-22')
  })

  it('switches views and opens a day without losing the focused date', () => {
    const s = run(start(), { type: 'set-view', view: 'week' }, { type: 'move-days', days: 2 }, { type: 'open-day' })
    expect(s.view).toBe('day')
    expect(s.cursor).toBe('2026-11-23')
    expect(run(s, { type: 'set-view', view: 'month' }).view).toBe('month')
  })
})

describe('month grid and week start', () => {
  it('lays out whole weeks from the locale first day', () => {
    // 1 November 2026 is a Sunday.
    const monday = monthGrid('2026-11-15', 1)
    expect(monday).toHaveLength(6)
    expect(monday[0]![0]).toBe('2026-10-26')
    expect(monday[5]![6]).toBe('2026-12-06')
    const sunday = monthGrid('2026-11-15', 7)
    expect(sunday).toHaveLength(5)
    expect(sunday[0]![0]).toBe('2026-11-01')
    expect(sunday[4]![6]).toBe('2026-12-05')
    // February 2021 starts on a Monday and has 28 days: exactly four rows.
    expect(monthGrid('2021-02-10', 1)).toHaveLength(4)
    expect(weekDays('2026-11-21', 6)[0]).toBe('2026-11-21')
  })

  it('takes the first day of the week from the locale, Monday when unknown', () => {
    expect(localeWeekStart('en-US')).toBe(7)
    expect(localeWeekStart('de-DE')).toBe(1)
    expect(localeWeekStart('en-GB')).toBe(1)
    expect(localeWeekStart('ar-EG')).toBe(6)
    expect(localeWeekStart('C')).toBe(1)
    expect(localeWeekStart(undefined)).toBe(1)
    expect(localeWeekStart(systemLocale({ LANG: 'en_US.UTF-8' }))).toBe(7)
    expect(localeWeekStart(systemLocale({ LC_TIME: 'de_DE.UTF-8', LANG: 'en_US.UTF-8' }))).toBe(1)
    expect(systemLocale({ LC_ALL: 'fa_IR.UTF-8@calendar=persian', LANG: 'en_US' })).toBe('fa-IR')
    expect(parseWeekday('Sunday')).toBe(7)
    expect(parseWeekday('tu')).toBe(2)
    expect(parseWeekday('t')).toBeUndefined()
  })

  it('loads the whole visible grid, from local midnight to local midnight', () => {
    const range = visibleRange(start({ date: '2026-11-10' }))
    expect(range).toEqual({ from: '2026-10-25T23:00:00.000Z', to: '2026-12-06T23:00:00.000Z' })
  })
})

describe('daylight saving time', () => {
  it('gives a spring-forward week 167 hours and an autumn week 169', () => {
    // Berlin springs forward on 29 March 2026 and falls back on 25 October 2026.
    expect(hours(startOfDayInstant('2026-03-23', 'Europe/Berlin'), startOfDayInstant('2026-03-30', 'Europe/Berlin'))).toBe(167)
    expect(hours(startOfDayInstant('2026-10-19', 'Europe/Berlin'), startOfDayInstant('2026-10-26', 'Europe/Berlin'))).toBe(169)
    // New York: 8 March and 1 November 2026, weeks starting on Sunday.
    expect(hours(startOfDayInstant('2026-03-08', 'America/New_York'), startOfDayInstant('2026-03-15', 'America/New_York'))).toBe(167)
    expect(hours(startOfDayInstant('2026-11-01', 'America/New_York'), startOfDayInstant('2026-11-08', 'America/New_York'))).toBe(169)
    expect(hours(startOfDayInstant('2026-06-28', 'America/New_York'), startOfDayInstant('2026-07-05', 'America/New_York'))).toBe(168)
  })

  it('puts posts on the right local day on both sides of a change', () => {
    const posts = [
      makePost({ id: 'pst_1', scheduled_at: '2026-03-29T00:30:00Z' }), // 01:30 CET, Sunday
      makePost({ id: 'pst_2', scheduled_at: '2026-03-29T22:30:00Z' }), // 00:30 CEST, Monday
      makePost({ id: 'pst_3', scheduled_at: '2026-10-25T22:30:00Z' }), // 23:30 CET, still Sunday
    ]
    const days = postsByDay(posts, 'Europe/Berlin')
    expect(days.get('2026-03-29')!.map((p) => p.id)).toEqual(['pst_1'])
    expect(days.get('2026-03-30')!.map((p) => p.id)).toEqual(['pst_2'])
    expect(days.get('2026-10-25')!.map((p) => p.id)).toEqual(['pst_3'])
    expect(formatTime(Date.parse('2026-03-29T22:30:00Z'), 'Europe/Berlin')).toBe('00:30')
    // 23:30 EST on 1 November; a fixed summer offset would have put it on the 2nd.
    const ny = postsByDay([makePost({ id: 'pst_4', scheduled_at: '2026-11-02T04:30:00Z' })], 'America/New_York')
    expect([...ny.keys()]).toEqual(['2026-11-01'])
  })

  it('turns wall times into instants: skipped times move forward, repeated ones take the first', () => {
    expect(new Date(zonedToInstant('2026-07-01', 9, 0, 'Europe/Berlin')).toISOString()).toBe('2026-07-01T07:00:00.000Z')
    expect(new Date(zonedToInstant('2026-01-15', 9, 0, 'Europe/Berlin')).toISOString()).toBe('2026-01-15T08:00:00.000Z')
    // 02:30 does not exist in Berlin on 29 March 2026: it is 03:30 CEST.
    expect(new Date(zonedToInstant('2026-03-29', 2, 30, 'Europe/Berlin')).toISOString()).toBe('2026-03-29T01:30:00.000Z')
    // 01:30 happens twice in New York on 1 November 2026: the first one is EDT.
    expect(new Date(zonedToInstant('2026-11-01', 1, 30, 'America/New_York')).toISOString()).toBe('2026-11-01T05:30:00.000Z')
    expect(new Date(zonedToInstant('2026-11-01', 3, 0, 'America/New_York')).toISOString()).toBe('2026-11-01T08:00:00.000Z')
  })
})

describe('posts, selection and modes', () => {
  const posts = [
    makePost({ id: 'pst_a', scheduled_at: '2026-11-21T08:00:00Z' }),
    makePost({ id: 'pst_b', scheduled_at: '2026-11-21T10:00:00Z', status: 'published' }),
    makePost({ id: 'pst_c', scheduled_at: '2026-11-21T09:00:00Z', status: 'failed' }),
  ]
  const loaded = () => {
    const s = start()
    return run(s, { type: 'posts-loaded', range: visibleRange(s), posts, at: NOV_21_NOON })
  }

  it('orders a day by time and keeps the selection within it', () => {
    let s = loaded()
    expect(selectedPost(s)?.id).toBe('pst_a')
    s = run(s, { type: 'select', delta: 1 })
    expect(selectedPost(s)?.id).toBe('pst_c')
    s = run(s, { type: 'select', delta: 5 })
    expect(selectedPost(s)?.id).toBe('pst_b')
    s = run(s, { type: 'move-days', days: 1 }, { type: 'move-days', days: -1 })
    expect(selectedPost(s)?.id).toBe('pst_a')
  })

  it('ignores a late answer for a month the user has left', () => {
    const s = start()
    const oldRange = visibleRange(s)
    const moved = run(s, { type: 'move-months', months: 1 }, { type: 'posts-loaded', range: oldRange, posts, at: NOV_21_NOON })
    expect(moved.posts).toEqual([])
  })

  it('edits only scheduled posts and says why not otherwise', () => {
    const failed = run(loaded(), { type: 'select', delta: 1 }, { type: 'open-edit' })
    expect(failed.mode.kind).toBe('browse')
    expect(failed.status).toMatchObject({ tone: 'error' })
    expect(failed.status!.text).toMatch(/smm posts retry pst_c$/)
    // On another profile than the default, the command it suggests says which.
    const elsewhere = run({ ...loaded(), profileFlag: ' --profile work' }, { type: 'select', delta: 1 }, { type: 'open-edit' })
    expect(elsewhere.status!.text).toMatch(/smm posts retry pst_c --profile work$/)
    const published = run(loaded(), { type: 'select', delta: 2 }, { type: 'ask-cancel' })
    expect(published.status!.text).toMatch(/already published/)
    const editing = run(loaded(), { type: 'open-edit' })
    expect(editing.mode).toMatchObject({ kind: 'form', form: { kind: 'edit', postId: 'pst_a', date: '2026-11-21', time: '09:00' } })
  })

  it('asks before cancelling and closes on no', () => {
    const asking = run(loaded(), { type: 'ask-cancel' })
    expect(asking.mode).toEqual({ kind: 'confirm-cancel', postId: 'pst_a', busy: false })
    expect(run(asking, { type: 'close' }).mode.kind).toBe('browse')
    const busy = run(asking, { type: 'cancel-started' })
    expect(run(busy, { type: 'close' }).mode.kind).toBe('confirm-cancel')
  })

  it('clears a failed refresh once a refresh succeeds, but keeps other errors', () => {
    const s = loaded()
    const failed = run(s, { type: 'load-failed', message: 'Loading posts failed: daemon down' })
    expect(run(failed, { type: 'posts-loaded', range: visibleRange(s), posts, at: NOV_21_NOON }).status).toBeNull()
    const conflict = run(s, { type: 'cancel-failed', message: 'Cancelling failed: not editable' })
    expect(run(conflict, { type: 'posts-loaded', range: visibleRange(s), posts, at: NOV_21_NOON }).status?.text).toMatch(/not editable/)
  })

  it('moves to the day of a saved post and selects it', () => {
    const saved = makePost({ id: 'pst_new', scheduled_at: '2026-12-24T17:00:00Z', platforms: ['bluesky'] })
    const s = run(loaded(), { type: 'open-new' }, { type: 'post-saved', post: saved, created: true, queued: false })
    expect(s.mode.kind).toBe('browse')
    expect(s.cursor).toBe('2026-12-24')
    expect(selectedPost(s)?.id).toBe('pst_new')
    expect(s.status).toEqual({ tone: 'success', text: 'Scheduled pst_new for bluesky.' })
  })
})

describe('free queue slots', () => {
  const NY = 'America/New_York'
  // Every day at 09:00, and Sunday at 02:30: on 14 March 2027 New York skips 02:00–03:00.
  const queue = (slots: { day: string; time: string }[]) => ({ timezone: NY, slots: slots as never, next: [] })
  const daily = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => ({ day, time: '09:00' }))
  // Wednesday 10 March 2027, 07:00 in New York: the clock the calendar and the daemon share.
  const now = Date.parse('2027-03-10T12:00:00Z')
  const posts = [
    makePost({ id: 'pst_takes', scheduled_at: '2027-03-15T13:00:00Z' }), // Monday 09:00 EDT: takes that slot
    makePost({ id: 'pst_draft', scheduled_at: '2027-03-16T13:00:00Z', status: 'draft' }), // a draft takes nothing
    makePost({ id: 'pst_gone', scheduled_at: '2027-03-17T13:00:00Z', status: 'cancelled' }), // nor a cancelled post
    makePost({ id: 'pst_other', scheduled_at: '2027-03-18T13:00:00Z', account_id: 'acc_2' }), // nor another account's
  ]
  const accounts = [
    { id: 'acc_1', workspace_id: 'wsp_1', name: 'Acme', created_at: '2026-01-01T00:00:00.000Z', connections: [] },
    { id: 'acc_2', workspace_id: 'wsp_1', name: 'Side', created_at: '2026-01-01T00:00:00.000Z', connections: [] },
  ]
  function ny(date = '2027-03-14'): CalendarState {
    const s = initialState({ timeZone: NY, weekStart: 1, now, date })
    return run(
      s,
      { type: 'accounts-loaded', accounts },
      { type: 'queues-loaded', queues: { acc_1: queue([...daily, { day: 'sunday', time: '02:30' }]), acc_2: queue([]) } },
      { type: 'posts-loaded', range: visibleRange(s), posts, at: now },
    )
  }
  const times = (s: CalendarState, day: string) =>
    entriesOn(s, day).map((e) => `${formatTime(e.at, NY)} ${e.kind === 'post' ? e.post.id : `free ${e.slot.accountName}`}`)

  it('lays the weekly slots over the DST week in the user zone, minus the slots posts take, after now only', () => {
    const s = ny()
    // Before the change, 09:00 is 14:00 UTC; after it, 13:00 UTC. The skipped 02:30 is 03:00 EDT.
    expect(visibleFreeSlots(s).filter((f) => f.at < Date.parse('2027-03-19T00:00:00Z')).map((f) => new Date(f.at).toISOString())).toEqual([
      '2027-03-10T14:00:00.000Z',
      '2027-03-11T14:00:00.000Z',
      '2027-03-12T14:00:00.000Z',
      '2027-03-13T14:00:00.000Z',
      '2027-03-14T07:00:00.000Z',
      '2027-03-14T13:00:00.000Z',
      // Monday's 09:00 is taken by pst_takes.
      '2027-03-16T13:00:00.000Z',
      '2027-03-17T13:00:00.000Z',
      '2027-03-18T13:00:00.000Z',
    ])
    expect(times(s, '2027-03-14')).toEqual(['03:00 free Acme', '09:00 free Acme'])
    expect(times(s, '2027-03-15')).toEqual(['09:00 pst_takes'])
    expect(times(s, '2027-03-16')).toEqual(['09:00 pst_draft', '09:00 free Acme'])
    expect(times(s, '2027-03-18')).toEqual(['09:00 pst_other', '09:00 free Acme'])
    // The slots of days gone by, and of today before now, are not offered: the daemon never queues into the past.
    expect(times(s, '2027-03-09')).toEqual([])
    // The clock moves on: today's 09:00 is gone once it has passed.
    expect(times(run(s, { type: 'tick', now: Date.parse('2027-03-10T14:00:01Z') }), '2027-03-10')).toEqual([])
  })

  it('takes a fall-back day’s repeated hour once, at its first occurrence', () => {
    const s = initialState({ timeZone: NY, weekStart: 1, now: Date.parse('2026-10-20T12:00:00Z'), date: '2026-11-01' })
    const loaded = run(
      s,
      { type: 'queues-loaded', queues: { acc_1: queue([{ day: 'sunday', time: '01:30' }]) } },
      { type: 'posts-loaded', range: visibleRange(s), posts: [], at: s.now },
    )
    expect(entriesOn(loaded, '2026-11-01').map((e) => new Date(e.at).toISOString())).toEqual(['2026-11-01T05:30:00.000Z'])
  })

  it('selects a free slot like a post, and n or Enter in the day view writes a post for it', () => {
    let s = run(ny('2027-03-16'), { type: 'select', delta: 1 })
    expect(selectedPost(s)).toBeUndefined()
    expect(run(s, { type: 'open-edit' }).status?.text).toMatch(/in the selected free slot/)
    const form = run(s, { type: 'open-new' })
    expect(form.mode).toMatchObject({ kind: 'form', form: { kind: 'new', accountId: 'acc_1', date: '2027-03-16', time: '09:00' } })
    // Enter opens the day first; in the day view, on a slot, it opens the form.
    s = run(s, { type: 'open-day' })
    expect(s).toMatchObject({ view: 'day', mode: { kind: 'browse' } })
    expect(run(s, { type: 'open-day' }).mode).toMatchObject({ kind: 'form', form: { date: '2027-03-16', time: '09:00' } })
    // On a post, Enter in the day view does nothing new.
    expect(run(s, { type: 'select', delta: -1 }, { type: 'open-day' }).mode.kind).toBe('browse')
  })

  it('says where a queued post landed, and the slot it took is no longer free', () => {
    const s = ny('2027-03-16')
    const post = makePost({ id: 'pst_q', scheduled_at: '2027-03-14T07:00:00Z' })
    const saved = run(s, { type: 'post-saved', post, created: true, queued: true })
    expect(saved.status).toEqual({ tone: 'success', text: 'Queued pst_q for mastodon in the next free slot, 2027-03-14 03:00.' })
    expect(saved.cursor).toBe('2027-03-14')
    expect(times(saved, '2027-03-14')).toEqual(['03:00 pst_q', '09:00 free Acme'])
    expect(selectedPost(saved)?.id).toBe('pst_q')
  })

  it('shows no free slot before the month’s posts are loaded: they say which are taken', () => {
    const s = run(initialState({ timeZone: NY, weekStart: 1, now, date: '2027-03-14' }), { type: 'queues-loaded', queues: { acc_1: queue(daily) } })
    expect(visibleFreeSlots(s)).toEqual([])
  })
})
