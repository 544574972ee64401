// Runs the calendar in the terminal and gives the terminal back as it found it: main screen,
// cursor visible, raw mode off — after q, Esc, Ctrl-C, a termination signal, a render error,
// or the process dying of an uncaught exception.

import { render } from 'ink'
import { CalendarApp, type CalendarOptions } from './calendar-app.js'
import type { CalendarSource } from './calendar-source.js'
import { zonedParts } from '../zoned-time.js'
import { NoTerminalError, isInteractive } from './no-terminal-error.js'

export { NoTerminalError }

/** Where the calendar draws and reads, and where it hears termination signals (default: this process). */
export interface RenderCalendarOptions extends CalendarOptions {
  stdin?: NodeJS.ReadStream
  stdout?: NodeJS.WriteStream
  stderr?: NodeJS.WriteStream
  signals?: NodeJS.EventEmitter
}

// The alternate screen keeps the calendar out of the scrollback: on exit the shell's screen
// comes back exactly as it was, whatever was drawn.
const ENTER_ALTERNATE_SCREEN = '\x1b[?1049h'
const LEAVE_ALTERNATE_SCREEN = '\x1b[?1049l'
const SHOW_CURSOR = '\x1b[?25h'
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/** Shows the calendar until the user quits; rejects with NoTerminalError without a TTY. */
export async function renderCalendar(source: CalendarSource, options: RenderCalendarOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin
  const stdout = options.stdout ?? process.stdout
  const stderr = options.stderr ?? process.stderr
  const signals = options.signals ?? process
  if (!isInteractive(stdin, stdout)) {
    throw new NoTerminalError(zonedParts((options.now ?? Date.now)(), options.timeZone).date.slice(0, 7), options.profileFlag)
  }

  let restored = false
  const restore = () => {
    if (restored) return
    restored = true
    // Ink turns raw mode off when it unmounts; this covers the paths where it never gets to.
    if (stdin.isTTY && typeof stdin.setRawMode === 'function') stdin.setRawMode(false)
    stdout.write(LEAVE_ALTERNATE_SCREEN + SHOW_CURSOR)
  }
  // An uncaught exception ends the process without unwinding to our finally; 'exit' still runs.
  process.once('exit', restore)
  stdout.write(ENTER_ALTERNATE_SCREEN)
  try {
    const instance = render(<CalendarApp source={source} options={options} />, {
      stdin,
      stdout,
      stderr,
      exitOnCtrlC: false,
      patchConsole: true,
    })
    const stop = () => instance.unmount()
    for (const signal of SIGNALS) signals.on(signal, stop)
    try {
      await instance.waitUntilExit()
    } finally {
      for (const signal of SIGNALS) signals.off(signal, stop)
      instance.unmount()
    }
  } finally {
    restore()
    process.off('exit', restore)
  }
}
