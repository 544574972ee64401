/**
 * Counting semaphores by key (a platform, a connection): at most `limitFor(key)` holders of a
 * key at once, the rest wait in arrival order.
 */
export class KeyedLimiter {
  private readonly slots = new Map<string, { active: number; waiting: (() => void)[] }>()

  constructor(private readonly limitFor: (key: string) => number) {}

  /** Waits for a slot of every key, in the order given; resolves to the function that frees them. */
  async acquire(keys: string[]): Promise<() => void> {
    const held: string[] = []
    for (const key of keys) {
      await this.take(key)
      held.push(key)
    }
    let released = false
    return () => {
      if (released) return
      released = true
      for (const key of held.reverse()) this.give(key)
    }
  }

  private take(key: string): Promise<void> {
    let slot = this.slots.get(key)
    if (!slot) this.slots.set(key, (slot = { active: 0, waiting: [] }))
    if (slot.active < this.limitFor(key)) {
      slot.active++
      return Promise.resolve()
    }
    return new Promise((resolve) => slot.waiting.push(resolve))
  }

  private give(key: string): void {
    const slot = this.slots.get(key)!
    const next = slot.waiting.shift()
    // The slot passes straight to the next waiter, so `active` stays as it is.
    if (next) return next()
    slot.active--
    if (slot.active === 0) this.slots.delete(key)
  }
}
