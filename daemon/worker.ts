/** A background loop of the daemon: started after the listener, stopped (drained) on shutdown. */
export interface Worker {
  name: string
  start(): void
  /** Stops taking new work and resolves when work in flight is done or safely abandoned. */
  stop(): Promise<void>
  /** Does the work due at `now` and resolves when it is done: tests drive loops with it. */
  tick?(now: number): Promise<void>
}
