// The calendar as a running program: a store around the pure reducer, the requests to the
// source (loading the visible month, saving, cancelling), the refresh timer, and the keyboard.

import { useApp, useStdout } from 'ink'
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { ApiError } from '../errors.js'
import { Calendar } from './calendar.js'
import { calendarReducer, initialState, visibleRange, waiting, type CalendarAction, type CalendarState } from './calendar-state.js'
import type { Account, CalendarSource, Post, Queue } from './calendar-source.js'
import type { CivilDate, Weekday } from '../zoned-time.js'
import { describeFailure } from './describe-failure.js'
import { formErrorsFrom, formRequest } from './post-form.js'
import { useCalendarInput, type CalendarCommands } from './use-calendar-input.js'

const NAVIGATION_SETTLE_MS = 150

/**
 * Every account's queue, by account id. An account deleted since the list was read (404) has
 * none to show; any other failure fails the load, and the next refresh tries again.
 */
async function queuesOf(source: CalendarSource, accounts: Account[]): Promise<Record<string, Queue>> {
  const queues: Record<string, Queue> = {}
  await Promise.all(
    accounts.map(async (account) => {
      try {
        queues[account.id] = await source.getQueue(account.id)
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error
      }
    }),
  )
  return queues
}

/** Something that calls back every `ms` until stopped; tests pass one they fire by hand. */
export interface RefreshTimer {
  every(ms: number, callback: () => void): () => void
}

export const intervalTimer: RefreshTimer = {
  every(ms, callback) {
    const handle = setInterval(callback, ms)
    return () => clearInterval(handle)
  },
}

/** How the calendar runs, beyond the source it shows. */
export interface CalendarOptions {
  /** IANA zone every date and time is shown and entered in. */
  timeZone: string
  weekStart: Weekday
  /** The clock "today" follows (default Date.now). */
  now?: () => number
  /** How often to reload in the background, in ms; false turns it off (default 30 s). */
  refreshEveryMs?: number | false
  timer?: RefreshTimer
  /** The day to open on (default today). */
  initialDate?: CivilDate
  /** ` --profile NAME` for the commands the calendar suggests, when not on the default profile. */
  profileFlag?: string
}

interface CalendarStore {
  getState(): CalendarState
  dispatch(action: CalendarAction): void
  subscribe(listener: () => void): () => void
}

// A store rather than useReducer: the input hook and the request callbacks need the state as of
// now, not as of the last render.
function createStore(initial: CalendarState): CalendarStore {
  let state = initial
  const listeners = new Set<() => void>()
  return {
    getState: () => state,
    dispatch(action) {
      const next = calendarReducer(state, action)
      if (next === state) return
      state = next
      for (const listener of listeners) listener()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

// Ink does not re-render on a terminal resize by itself; the grid must follow the new size.
// A stream that does not know its height (a test's) is taken as a roomy 40 lines.
function useTerminalSize(stdout: NodeJS.WriteStream): { width: number; rows: number } {
  const read = () => ({ width: stdout.columns || 80, rows: stdout.rows || 40 })
  const [size, setSize] = useState(read)
  useEffect(() => {
    const onResize = () => setSize(read())
    stdout.on('resize', onResize)
    return () => void stdout.off('resize', onResize)
  }, [stdout])
  return size
}

/** The interactive calendar over a source; it exits the Ink app when the user quits. */
export function CalendarApp({ source, options }: { source: CalendarSource; options: CalendarOptions }) {
  const { exit } = useApp()
  const { stdout } = useStdout()
  const now = options.now ?? Date.now
  const store = useMemo(
    () => createStore(initialState({ timeZone: options.timeZone, weekStart: options.weekStart, now: now(), date: options.initialDate, profileFlag: options.profileFlag })),
    // The store lives as long as the app: options are read once, at start.
    [],
  )
  const state = useSyncExternalStore(store.subscribe, store.getState)
  const { width, rows } = useTerminalSize(stdout)
  const [generation, setGeneration] = useState(0)
  const mounted = useRef(true)
  useEffect(() => () => void (mounted.current = false), [])
  const dispatch = (action: CalendarAction) => {
    if (mounted.current) store.dispatch(action)
  }
  // A request's outcome that the calendar cannot take in (a post it cannot read, say) is a bug:
  // end the app with the error, so the terminal is restored and the error printed, rather than
  // leave an unhandled rejection to kill the process mid-screen.
  const crash = (error: unknown) => exit(error instanceof Error ? error : new Error(String(error)))

  const range = visibleRange(state)
  const lastLoad = useRef({ generation: -1 })
  useEffect(() => {
    let current = true
    // Holding PageDown crosses a month per key repeat: wait for the keys to settle before asking
    // the daemon, or a few seconds of paging would spend a minute's rate limit. A refresh (a new
    // generation) and the first load go at once.
    const settle = lastLoad.current.generation === generation ? NAVIGATION_SETTLE_MS : 0
    lastLoad.current.generation = generation
    const timer = setTimeout(() => {
      store.dispatch({ type: 'load-started' })
      source.listPosts(range).then(
        (posts) => current && store.dispatch({ type: 'posts-loaded', range, posts, at: now() }),
        (error: unknown) => current && store.dispatch({ type: 'load-failed', message: describeFailure('Loading posts', error) }),
      ).catch(crash)
    }, settle)
    return () => {
      current = false
      clearTimeout(timer)
    }
    // The range is compared by value: a new object for the same month must not reload.
  }, [range.from, range.to, generation])

  // Accounts and their queue slots change rarely: loaded at start and on every refresh (a save
  // is one), not on every month. The free slots are worked out from the slots here, for any month.
  useEffect(() => {
    let current = true
    source.listAccounts().then(
      (accounts) => {
        if (!current) return
        store.dispatch({ type: 'accounts-loaded', accounts })
        return queuesOf(source, accounts).then(
          (queues) => current && store.dispatch({ type: 'queues-loaded', queues }),
          (error: unknown) => current && store.dispatch({ type: 'load-failed', message: describeFailure('Loading queue slots', error) }),
        )
      },
      (error: unknown) => current && store.dispatch({ type: 'load-failed', message: describeFailure('Loading accounts', error) }),
    ).catch(crash)
    return () => void (current = false)
  }, [source, store, generation])

  // A daemon's platforms and their limits do not change while it runs: read once.
  useEffect(() => {
    let current = true
    source.listPlatforms().then(
      (platforms) => current && store.dispatch({ type: 'platforms-loaded', platforms }),
      (error: unknown) => current && store.dispatch({ type: 'load-failed', message: describeFailure('Loading platforms', error) }),
    ).catch(crash)
    return () => void (current = false)
  }, [source, store])

  const refresh = () => setGeneration((g) => g + 1)

  useEffect(() => {
    if (options.refreshEveryMs === false) return
    return (options.timer ?? intervalTimer).every(options.refreshEveryMs ?? 30_000, () => {
      store.dispatch({ type: 'tick', now: now() })
      setGeneration((g) => g + 1)
    })
  }, [])

  /** A decision's call to the daemon: the post as it now is, or why not. */
  const decide = (call: Promise<Post>, approved: boolean) =>
    call.then(
      (post) => {
        dispatch({ type: 'post-decided', post, approved })
        refresh()
      },
      (error: unknown) => {
        dispatch({ type: 'decision-failed', message: describeFailure(approved ? 'Approving' : 'Sending it back', error) })
        refresh()
      },
    ).catch(crash)

  const commands: CalendarCommands = {
    approve() {
      const post = waiting(store.getState())
      if ('tone' in post) return dispatch({ type: 'decision-failed', message: post.text })
      dispatch({ type: 'approve-started', postId: post.id })
      decide(source.approvePost(post.id), true)
    },
    submitReject() {
      const { mode } = store.getState()
      if (mode.kind !== 'reject' || mode.busy) return
      if (mode.comment.trim() === '') return dispatch({ type: 'decision-failed', message: 'Say what should change: sending a post back needs a comment.' })
      dispatch({ type: 'reject-started' })
      decide(source.rejectPost(mode.postId, mode.comment.trim()), false)
    },
    refresh,
    quit: () => exit(),
    submitForm() {
      const current = store.getState()
      if (current.mode.kind !== 'form' || current.mode.form.submitting) return
      const form = current.mode.form
      const request = formRequest(form, current.timeZone, current.profileFlag)
      if (!request.ok) return dispatch({ type: 'form-invalid', errors: request.errors })
      dispatch({ type: 'submit-started' })
      const { schedule } = request
      // A draft to schedule is saved first (PUT), then scheduled: two calls, so a refusal of the
      // second leaves the draft saved, and the status line says which step failed.
      let edited = false
      const saving = form.postId
        ? source.updatePost(form.postId, request.update).then((post) => {
            edited = true
            return schedule ? source.schedulePost(post.id, schedule) : post
          })
        : source.createPost(request.create)
      const queued = request.create.queue === true || schedule?.queue === true
      const doing = () =>
        form.kind === 'new' ? (form.when === 'draft' ? 'Saving the draft' : queued ? 'Queueing' : 'Scheduling') : edited ? 'Scheduling the draft (its edit is saved)' : 'Saving'
      saving.then(
        (post) => {
          dispatch({ type: 'post-saved', post, created: form.kind === 'new', queued, scheduledDraft: schedule !== null })
          refresh()
        },
        (error: unknown) => {
          const errors = error instanceof ApiError ? formErrorsFrom(error) : {}
          dispatch({ type: 'submit-failed', message: describeFailure(doing(), error), errors })
          // A conflict means the post changed elsewhere, and a draft saved but not scheduled has
          // changed here: show what it is now.
          if (edited || (error instanceof ApiError && (error.status === 409 || error.status === 412))) refresh()
        },
      ).catch(crash)
    },
    confirmCancel() {
      const current = store.getState()
      if (current.mode.kind !== 'confirm-cancel' || current.mode.busy) return
      dispatch({ type: 'cancel-started' })
      source.cancelPost(current.mode.postId).then(
        (post) => {
          dispatch({ type: 'post-cancelled', post })
          refresh()
        },
        (error: unknown) => {
          dispatch({ type: 'cancel-failed', message: describeFailure('Cancelling', error) })
          refresh()
        },
      ).catch(crash)
    },
  }
  useCalendarInput(store, commands)

  return <Calendar state={state} width={width} rows={rows} />
}
