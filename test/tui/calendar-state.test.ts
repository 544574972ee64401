import { describe, expect, it } from 'vitest'
import {
  calendarReducer,
  initialState,
  postsByDay,
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
