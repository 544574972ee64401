/**
 * A loop that many callers share, one run at a time: each asks for the work due by a time, and
 * one that asks while the loop runs joins that run, raises the time it works to (its horizon)
 * and has it go round at least once more, so nothing asked for is left out and no caller starts
 * a loop of its own. The scheduler's claims and reservations each run in one.
 */
export class SharedLoop<T> {
  private running: Promise<T> | undefined
  private horizon = Number.NEGATIVE_INFINITY
  private asked = 0
  private woken: (() => void) | undefined

  constructor(
    /** What a run adds up, fresh for each run; what its callers get. */
    private readonly fresh: () => T,
    /** One round of the work due by `horizon`: true if more may be left (a full batch), or to go round again anyway. */
    private readonly round: (horizon: number, totals: T) => Promise<boolean>,
    /** The time each round's horizon is raised to at least (now), when what falls due meanwhile belongs to the run. */
    private readonly now?: () => number,
  ) {}

  /** Starts the loop for the work due by `now`, or has the running one cover it; resolves when that run ends. */
  ask(now: number): Promise<T> {
    this.horizon = Math.max(this.horizon, now)
    this.asked++
    this.woken?.()
    this.woken = undefined
    this.running ??= this.run()
    return this.running
  }

  /** Resolves at the next ask: a round that waits for its time can wait for that too. */
  nextAsk(): Promise<void> {
    return new Promise((resolve) => (this.woken = resolve))
  }

  private async run(): Promise<T> {
    const totals = this.fresh()
    try {
      for (;;) {
        if (this.now) this.horizon = Math.max(this.horizon, this.now())
        const asked = this.asked
        // Done once a round leaves nothing, unless a caller asked again meanwhile (for a later time).
        if (!(await this.round(this.horizon, totals)) && this.asked === asked) return totals
      }
    } finally {
      // In the same turn as the last check: a caller from now on starts a new run.
      this.running = undefined
      this.horizon = Number.NEGATIVE_INFINITY
    }
  }
}
