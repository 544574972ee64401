// Runs the calendar in the terminal and gives the terminal back as it found it: main screen,
// cursor visible, raw mode off — after q, Esc, Ctrl-C, a termination signal, a render error,
// or the process dying of an uncaught exception.

import { render } from 'ink'
import { CalendarApp, type CalendarOptions } from './calendar-app.js'
import type { CalendarSource } from './calendar-source.js'

/** Thrown when stdin or stdout is not a terminal: the calendar needs one to draw and read keys. */
export class NoTerminalError extends Error {
  constructor() {
    super(
      'smm calendar needs an interactive terminal (stdin and stdout must be a TTY). ' +
        'To list posts from a script or a pipe, use: smm posts list --from 2026-11-01 --to 2026-12-01',
    )
    this.name = 'NoTerminalError'
  }
}

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
  if (!stdin.isTTY || !stdout.isTTY) throw new NoTerminalError()

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
