// The calendar's whole state and the pure reducer over it. Nothing here talks to the API or the
// terminal: the app runs requests and reports their outcome as actions, so every behaviour a
// user sees can be checked by feeding actions in and reading state out.

import {
  addDays,
  addMonths,
  formatTime,
  monthGrid,
  startOfDayInstant,
  zonedParts,
  type CivilDate,
  type Weekday,
} from '../zoned-time.js'
import type { Account, PlatformInfo, Post, Queue, TimeRange } from './calendar-source.js'
import { entriesByDay, visibleFreeSlots, type DayEntry } from './day-entries.js'
import { editPostForm, formReducer, newPostForm, type FormAction, type PostForm } from './post-form.js'
import { isEditable, placedAt, statusWord } from './post-style.js'

/** The three ways to look at the calendar. */
export type View = 'month' | 'week' | 'day'

/** What the keyboard is talking to. */
export type Mode =
  | { kind: 'browse' }
  | { kind: 'form'; form: PostForm }
  | { kind: 'confirm-cancel'; postId: string; busy: boolean }
  /** Asking for changes to a post waiting for approval: the comment being typed. */
  | { kind: 'reject'; postId: string; comment: string; busy: boolean }
  | { kind: 'help' }

/** The one-line message under the calendar. */
export interface StatusMessage {
  tone: 'info' | 'success' | 'error'
  text: string
  /** A failed refresh: the next successful one clears it, while other errors stay put. */
  fromLoad?: boolean
}

/** Everything the calendar shows. */
export interface CalendarState {
  timeZone: string
  weekStart: Weekday
  /** The time of the last clock tick; "today" follows it. */
  now: number
  today: CivilDate
  /** The focused day. */
  cursor: CivilDate
  view: View
  /** Posts of `loadedRange`, as last loaded or changed here. */
  posts: Post[]
  loadedRange: TimeRange | null
  loadedAt: number | null
  loading: boolean
  /** Index of the selected entry (a post or a free queue slot) among the focused day's. */
  selected: number
  accounts: Account[]
  /** Each account's queue slots, by account id (an account whose queue could not be read is absent). */
  queues: Readonly<Record<string, Queue>>
  /** The daemon's platforms and their limits (empty until loaded): what the form counts against. */
  platforms: PlatformInfo[]
  mode: Mode
  status: StatusMessage | null
  /** ` --profile NAME` for the commands the calendar suggests, when it runs on a profile other than the default. */
  profileFlag: string
}

/** Everything that can happen to the calendar. */
export type CalendarAction =
  | { type: 'move-days'; days: number }
  | { type: 'move-months'; months: number }
  | { type: 'go-today' }
  | { type: 'set-view'; view: View }
  | { type: 'open-day' }
  | { type: 'select'; delta: number }
  | { type: 'tick'; now: number }
  | { type: 'load-started' }
  | { type: 'posts-loaded'; range: TimeRange; posts: Post[]; at: number }
  | { type: 'accounts-loaded'; accounts: Account[] }
  | { type: 'queues-loaded'; queues: Record<string, Queue> }
  | { type: 'platforms-loaded'; platforms: PlatformInfo[] }
  | { type: 'load-failed'; message: string }
  | { type: 'open-new' }
  | { type: 'open-edit' }
  | { type: 'form'; action: FormAction }
  | { type: 'form-invalid'; errors: PostForm['errors'] }
  | { type: 'submit-started' }
  | { type: 'submit-failed'; message: string; errors: PostForm['errors'] }
  | { type: 'post-saved'; post: Post; created: boolean; queued: boolean; scheduledDraft?: boolean }
  | { type: 'ask-cancel' }
  | { type: 'cancel-started' }
  | { type: 'cancel-failed'; message: string }
  | { type: 'post-cancelled'; post: Post }
  /** `a`: approve the selected post, if it waits for approval (the app then calls the daemon). */
  | { type: 'approve-started'; postId: string }
  | { type: 'ask-reject' }
  | { type: 'reject-type'; text: string }
  | { type: 'reject-backspace' }
  | { type: 'reject-started' }
  | { type: 'post-decided'; post: Post; approved: boolean }
  | { type: 'decision-failed'; message: string }
  | { type: 'close' }
  | { type: 'toggle-help' }

/** How the calendar starts. */
export interface CalendarInit {
  timeZone: string
  weekStart: Weekday
  now: number
  view?: View
  date?: CivilDate
  profileFlag?: string
}

export function initialState(init: CalendarInit): CalendarState {
  const today = zonedParts(init.now, init.timeZone).date
  return {
    timeZone: init.timeZone,
    weekStart: init.weekStart,
    now: init.now,
    today,
    cursor: init.date ?? today,
    view: init.view ?? 'month',
    posts: [],
    loadedRange: null,
    loadedAt: null,
    loading: false,
    selected: 0,
    accounts: [],
    queues: {},
    platforms: [],
    mode: { kind: 'browse' },
    status: null,
    profileFlag: init.profileFlag ?? '',
  }
}

/**
 * The instants to load: the whole grid of the focused day's month. It holds the focused week and
 * day too, so switching views never needs a new request, and moving within a month never does.
 */
export function visibleRange(state: Pick<CalendarState, 'cursor' | 'weekStart' | 'timeZone'>): TimeRange {
  const grid = monthGrid(state.cursor, state.weekStart)
  const first = grid[0]![0]!
  const last = grid[grid.length - 1]![6]!
  return {
    from: new Date(startOfDayInstant(first, state.timeZone)).toISOString(),
    to: new Date(startOfDayInstant(addDays(last, 1), state.timeZone)).toISOString(),
  }
}

/** Every day's posts and free slots, in time order. */
export function dayEntries(state: CalendarState): Map<CivilDate, DayEntry[]> {
  return entriesByDay(state.posts, visibleFreeSlots(state), state.timeZone)
}

export function entriesOn(state: CalendarState, day: CivilDate): DayEntry[] {
  return dayEntries(state).get(day) ?? []
}

/** The post or free slot the selection points at on the focused day, if any. */
export function selectedEntry(state: CalendarState): DayEntry | undefined {
  return entriesOn(state, state.cursor)[state.selected]
}

/** The post the selection points at on the focused day, if it points at one. */
export function selectedPost(state: CalendarState): Post | undefined {
  const entry = selectedEntry(state)
  return entry?.kind === 'post' ? entry.post : undefined
}

// The new-post form: at the selected free slot (its account, day and time), else on the focused day.
function openNew(state: CalendarState): CalendarState {
  const entry = selectedEntry(state)
  const at = entry?.kind === 'slot' ? { accountId: entry.slot.accountId, at: entry.at } : undefined
  return { ...state, mode: { kind: 'form', form: newPostForm(state.accounts, state.cursor, state.now, state.timeZone, at) }, status: null }
}

// Why a post that is not scheduled cannot be changed, and what to do instead.
function notChangeable(post: Post, verb: 'edited' | 'cancelled', profileFlag: string): string {
  switch (post.status) {
    case 'publishing':
      return `This post is being published right now; it can no longer be ${verb}.`
    case 'published':
      return `This post is already published; only scheduled posts can be ${verb}.`
    case 'partially_published':
    case 'failed':
      return `This post ${statusWord(post.status)}; only scheduled posts can be ${verb}. Retry it with: smm posts retry ${post.id}${profileFlag}`
    case 'cancelled':
      return `This post was cancelled; press n to write a new one.`
    case 'draft':
    case 'scheduled':
    case 'pending_approval':
    case 'rejected':
      return ''
  }
}

const error = (text: string): StatusMessage => ({ tone: 'error', text })

/** The selected post if it waits for approval (what `a` and `R` decide on), else why not. */
export function waiting(state: CalendarState): Post | StatusMessage {
  const post = selectedPost(state)
  if (!post) return error('No post selected on this day to approve or send back.')
  if (post.status !== 'pending_approval') return error(`This post is ${statusWord(post.status)}; only a post waiting for approval can be approved or sent back.`)
  return post
}

function moveTo(state: CalendarState, cursor: CivilDate): CalendarState {
  return cursor === state.cursor ? state : { ...state, cursor, selected: 0 }
}

function upsert(posts: Post[], post: Post): Post[] {
  const at = posts.findIndex((p) => p.id === post.id)
  if (at === -1) return [...posts, post]
  const next = [...posts]
  next[at] = post
  return next
}

function withForm(state: CalendarState, change: (form: PostForm) => PostForm): CalendarState {
  if (state.mode.kind !== 'form') return state
  return { ...state, mode: { kind: 'form', form: change(state.mode.form) } }
}

export function calendarReducer(state: CalendarState, action: CalendarAction): CalendarState {
  switch (action.type) {
    case 'move-days':
      return moveTo(state, addDays(state.cursor, action.days))
    case 'move-months':
      return moveTo(state, addMonths(state.cursor, action.months))
    case 'go-today':
      return moveTo(state, state.today)
    case 'set-view':
      return { ...state, view: action.view }
    case 'open-day':
      // In the day view, Enter on a free slot writes a post for it.
      if (state.view === 'day' && selectedEntry(state)?.kind === 'slot') return openNew(state)
      return { ...state, view: 'day' }
    case 'select': {
      const count = entriesOn(state, state.cursor).length
      if (count === 0) return state
      return { ...state, selected: Math.min(count - 1, Math.max(0, state.selected + action.delta)) }
    }
    case 'tick':
      return { ...state, now: action.now, today: zonedParts(action.now, state.timeZone).date }
    case 'load-started':
      return { ...state, loading: true }
    case 'posts-loaded': {
      // A slow answer for a month the user has already left must not replace the current one.
      const current = visibleRange(state)
      if (current.from !== action.range.from || current.to !== action.range.to) return state
      const loaded = { ...state, posts: action.posts, loadedRange: action.range, loadedAt: action.at, loading: false }
      const count = entriesOn(loaded, state.cursor).length
      const status = state.status?.fromLoad ? null : state.status
      return { ...loaded, selected: Math.min(state.selected, Math.max(0, count - 1)), status }
    }
    case 'accounts-loaded':
      return { ...state, accounts: action.accounts }
    case 'queues-loaded':
      return { ...state, queues: action.queues }
    case 'platforms-loaded':
      return { ...state, platforms: action.platforms }
    case 'load-failed':
      return { ...state, loading: false, status: { ...error(action.message), fromLoad: true } }
    case 'open-new':
      return openNew(state)
    case 'open-edit': {
      const post = selectedPost(state)
      if (!post) return { ...state, status: error(`No post selected on this day. Press n to write one${selectedEntry(state) ? ' in the selected free slot' : ''}.`) }
      if (!isEditable(post)) return { ...state, status: error(notChangeable(post, 'edited', state.profileFlag)) }
      return { ...state, mode: { kind: 'form', form: editPostForm(post, state.timeZone) }, status: null }
    }
    case 'form':
      return withForm(state, (form) => formReducer(form, action.action, state.accounts))
    case 'form-invalid':
      return {
        ...withForm(state, (form) => ({ ...form, errors: action.errors })),
        status: error(`Check the form: ${Object.values(action.errors).join(' ')}`),
      }
    case 'submit-started':
      return { ...withForm(state, (form) => ({ ...form, submitting: true, errors: {} })), status: { tone: 'info', text: 'Saving…' } }
    case 'submit-failed':
      return {
        ...withForm(state, (form) => ({ ...form, submitting: false, errors: action.errors })),
        status: error(action.message),
      }
    case 'post-saved': {
      const { post } = action
      const at = zonedParts(placedAt(post), state.timeZone)
      const moved = { ...state, posts: upsert(state.posts, post), cursor: at.date, mode: { kind: 'browse' } as const }
      const index = entriesOn(moved, at.date).findIndex((e) => e.kind === 'post' && e.post.id === post.id)
      const verb =
        post.status === 'draft' ? (action.created ? 'Saved draft' : 'Updated draft') : action.queued ? 'Queued' : action.created || action.scheduledDraft ? 'Scheduled' : 'Updated'
      // A queued post's time is the daemon's pick: say which slot it took.
      const when = action.queued ? ` in the next free slot, ${at.date} ${formatTime(placedAt(post), state.timeZone)}` : ''
      return { ...moved, selected: Math.max(0, index), status: { tone: 'success', text: `${verb} ${post.id} for ${post.platforms.join(', ')}${when}.` } }
    }
    case 'ask-cancel': {
      const post = selectedPost(state)
      if (!post) return { ...state, status: error('No post selected on this day to cancel.') }
      if (!isEditable(post)) return { ...state, status: error(notChangeable(post, 'cancelled', state.profileFlag)) }
      return { ...state, mode: { kind: 'confirm-cancel', postId: post.id, busy: false }, status: null }
    }
    case 'cancel-started':
      return state.mode.kind === 'confirm-cancel' ? { ...state, mode: { ...state.mode, busy: true } } : state
    case 'cancel-failed':
      return { ...state, mode: { kind: 'browse' }, status: error(action.message) }
    case 'post-cancelled':
      return {
        ...state,
        posts: upsert(state.posts, action.post),
        mode: { kind: 'browse' },
        status: { tone: 'success', text: `Cancelled ${action.post.id}.` },
      }
    case 'approve-started':
      return { ...state, status: { tone: 'info', text: `Approving ${action.postId}…` } }
    case 'ask-reject': {
      const post = waiting(state)
      if ('tone' in post) return { ...state, status: post }
      return { ...state, mode: { kind: 'reject', postId: post.id, comment: '', busy: false }, status: null }
    }
    case 'reject-type':
      return state.mode.kind === 'reject' && !state.mode.busy ? { ...state, mode: { ...state.mode, comment: state.mode.comment + action.text } } : state
    case 'reject-backspace':
      return state.mode.kind === 'reject' && !state.mode.busy ? { ...state, mode: { ...state.mode, comment: [...state.mode.comment].slice(0, -1).join('') } } : state
    case 'reject-started':
      return state.mode.kind === 'reject' ? { ...state, mode: { ...state.mode, busy: true }, status: null } : state
    case 'post-decided':
      return {
        ...state,
        posts: upsert(state.posts, action.post),
        mode: { kind: 'browse' },
        status: { tone: 'success', text: action.approved ? `Approved ${action.post.id}: it is ${statusWord(action.post.status)}.` : `Sent ${action.post.id} back for changes.` },
      }
    case 'decision-failed':
      return { ...state, mode: { kind: 'browse' }, status: error(action.message) }
    case 'close':
      if (state.mode.kind === 'form' && state.mode.form.submitting) return state
      if ((state.mode.kind === 'confirm-cancel' || state.mode.kind === 'reject') && state.mode.busy) return state
      return { ...state, mode: { kind: 'browse' } }
    case 'toggle-help':
      return { ...state, mode: state.mode.kind === 'help' ? { kind: 'browse' } : { kind: 'help' } }
  }
}
