// Keys to actions. The mapping depends on the mode (browsing, form, confirmation, help), and it
// reads the state from the store at each keystroke rather than from the last render, so keys
// typed faster than the screen redraws still go where the user meant them to.

import { useInput, type Key } from 'ink'
import type { CalendarAction, CalendarState } from './calendar-state.js'

/** The side effects the keyboard can ask for; the app runs them against the source. */
export interface CalendarCommands {
  refresh(): void
  submitForm(): void
  confirmCancel(): void
  /** Approves the selected post, if it waits for approval. */
  approve(): void
  /** Sends the post of the reject prompt back with its comment. */
  submitReject(): void
  quit(): void
}

/** What the input hook needs from the calendar's store. */
export interface CalendarInputTarget {
  getState(): CalendarState
  dispatch(action: CalendarAction): void
}

function browseKey(input: string, key: Key, state: CalendarState, dispatch: (a: CalendarAction) => void, commands: CalendarCommands): void {
  const vertical = state.view === 'day' ? (delta: number) => dispatch({ type: 'select', delta }) : (delta: number) => dispatch({ type: 'move-days', days: 7 * delta })
  if (key.leftArrow || input === 'h') dispatch({ type: 'move-days', days: -1 })
  else if (key.rightArrow || input === 'l') dispatch({ type: 'move-days', days: 1 })
  else if (key.upArrow || input === 'k') vertical(-1)
  else if (key.downArrow || input === 'j') vertical(1)
  else if (key.tab) dispatch({ type: 'select', delta: key.shift ? -1 : 1 })
  else if (key.pageUp) dispatch({ type: 'move-months', months: -1 })
  else if (key.pageDown) dispatch({ type: 'move-months', months: 1 })
  else if (key.return) dispatch({ type: 'open-day' })
  else if (input === 't') dispatch({ type: 'go-today' })
  else if (input === 'm') dispatch({ type: 'set-view', view: 'month' })
  else if (input === 'w') dispatch({ type: 'set-view', view: 'week' })
  else if (input === 'n') dispatch({ type: 'open-new' })
  else if (input === 'e') dispatch({ type: 'open-edit' })
  else if (input === 'x') dispatch({ type: 'ask-cancel' })
  else if (input === 'a') commands.approve()
  else if (input === 'R') dispatch({ type: 'ask-reject' })
  else if (input === 'r') commands.refresh()
  else if (input === '?') dispatch({ type: 'toggle-help' })
  else if (input === 'q' || key.escape) commands.quit()
}

function formKey(input: string, key: Key, state: CalendarState, dispatch: (a: CalendarAction) => void, commands: CalendarCommands): void {
  if (state.mode.kind !== 'form') return
  const field = state.mode.form.field
  const form = (action: Extract<CalendarAction, { type: 'form' }>['action']) => dispatch({ type: 'form', action })
  if (key.escape) dispatch({ type: 'close' })
  else if (key.ctrl && input === 's') commands.submitForm()
  else if (key.tab) form({ type: key.shift ? 'previous-field' : 'next-field' })
  else if (key.upArrow) form({ type: 'previous-field' })
  else if (key.downArrow) form({ type: 'next-field' })
  else if (key.leftArrow) form({ type: 'left' })
  else if (key.rightArrow) form({ type: 'right' })
  else if (key.backspace || key.delete || /^[\x7f\b]+$/.test(input)) {
    // Held-down Backspace can reach us as one chunk of several DEL bytes.
    for (let i = 0; i < Math.max(1, input.length); i++) form({ type: 'backspace' })
  }
  else if (key.return) {
    if (field === 'submit') commands.submitForm()
    else if (field === 'content') form({ type: 'type', text: '\n' })
    else form({ type: 'next-field' })
  } else if (input === ' ' && (field === 'platforms' || field === 'when')) form({ type: 'toggle' })
  else if (input && !key.ctrl && !key.meta) {
    // Control characters other than newlines would corrupt the post (and the screen).
    const text = input.replace(/\r\n?/g, '\n').replace(/[\x00-\x09\x0b-\x1f\x7f]/g, '')
    if (text) form({ type: 'type', text })
  }
}

/** One key (or, in the form, a chunk of typed text), in the mode the calendar is in now. */
function handleKey(input: string, key: Key, target: CalendarInputTarget, commands: CalendarCommands): void {
  const state = target.getState()
  const { dispatch } = target
  switch (state.mode.kind) {
    case 'help':
      dispatch({ type: 'toggle-help' })
      return
    case 'confirm-cancel':
      if (state.mode.busy) return
      if (input === 'y' || input === 'Y') commands.confirmCancel()
      else if (input === 'n' || input === 'N' || key.escape || input === 'q') dispatch({ type: 'close' })
      return
    case 'reject':
      if (state.mode.busy) return
      if (key.escape) dispatch({ type: 'close' })
      else if (key.return) commands.submitReject()
      else if (key.backspace || key.delete || /^[\x7f\b]+$/.test(input)) for (let i = 0; i < Math.max(1, input.length); i++) dispatch({ type: 'reject-backspace' })
      else if (input && !key.ctrl && !key.meta) {
        const text = input.replace(/[\x00-\x1f\x7f]/g, ' ')
        if (text) dispatch({ type: 'reject-type', text })
      }
      return
    case 'form':
      formKey(input, key, state, dispatch, commands)
      return
    case 'browse':
      browseKey(input, key, state, dispatch, commands)
  }
}

/** Routes every keystroke to the calendar while it is mounted. */
export function useCalendarInput(target: CalendarInputTarget, commands: CalendarCommands): void {
  useInput((input, key) => {
    // Ink is told not to exit on Ctrl-C itself, so that this quit is the only way out and the
    // terminal is restored by the same path as q.
    if (key.ctrl && input === 'c') return commands.quit()
    // Keys typed faster than we read arrive as one chunk ("?qq", "jjj"): each is taken in the
    // mode the one before it left (? opens the help, q closes it, q quits), reading the store
    // afresh, never a state captured at the last render. Once a key opens the form, the rest of
    // the chunk is text typed into it.
    const burst = input.length > 1 && !key.ctrl && !key.meta && /^[\x21-\x7e]+$/.test(input)
    if (!burst) return handleKey(input, key, target, commands)
    let quitting = false
    const watched: CalendarCommands = { ...commands, quit: () => ((quitting = true), commands.quit()) }
    const chars = [...input]
    for (let i = 0; i < chars.length && !quitting; i++) {
      const kind = target.getState().mode.kind
      if (kind === 'form' || kind === 'reject') return handleKey(chars.slice(i).join(''), key, target, watched)
      handleKey(chars[i]!, { ...key, shift: /[A-Z]/.test(chars[i]!) }, target, watched)
    }
  })
}
