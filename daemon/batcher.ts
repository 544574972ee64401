/**
 * Group commit for background work: what callers add while a flush is running waits for the
 * next flush, so under load one flush (one transaction) takes everything that arrived
 * meanwhile, up to `max`, and a lone item still goes at once. The first flush waits one turn of
 * the event loop, so that work finishing together (attempts stepping through the same
 * microtasks) shares it.
 */
export class Batcher<T, R> {
  private queue: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = []
  private flushing = false

  constructor(
    /** Flushes a batch: how each item went, in order. */
    private readonly flush: (items: T[]) => Promise<PromiseSettledResult<R>[]>,
    private readonly max = 256,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject })
      if (!this.flushing) void this.run()
    })
  }

  private async run(): Promise<void> {
    this.flushing = true
    await new Promise((resolve) => setImmediate(resolve))
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.max)
      try {
        const results = await this.flush(batch.map((b) => b.item))
        batch.forEach((b, i) => {
          const result = results[i]!
          if (result.status === 'fulfilled') b.resolve(result.value)
          else b.reject(result.reason)
        })
      } catch (error) {
        for (const b of batch) b.reject(error)
      }
    }
    this.flushing = false
  }
}
