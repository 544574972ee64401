// Kept apart from render-calendar.tsx so the command can refuse a pipe before loading Ink.

/** Thrown when stdin or stdout is not a terminal: the calendar needs one to draw and read keys. */
export class NoTerminalError extends Error {
  /** `month` ('YYYY-MM') makes the suggested command list that month; default: this month in UTC. */
  /** `profileFlag` (` --profile NAME`) goes into that command when the calendar runs on another profile. */
  constructor(month: string = new Date().toISOString().slice(0, 7), profileFlag = '') {
    const [year, m] = month.split('-').map(Number) as [number, number]
    const next = m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`
    super(
      'smm calendar needs an interactive terminal (stdin and stdout must be a TTY). ' +
        `To list posts from a script or a pipe, use: smm posts list --from ${month}-01 --to ${next}-01 --every-status${profileFlag}`,
    )
    this.name = 'NoTerminalError'
  }
}

/** Whether the calendar can run on these streams. */
export function isInteractive(stdin: { isTTY?: boolean }, stdout: { isTTY?: boolean }): boolean {
  return stdin.isTTY === true && stdout.isTTY === true
}
