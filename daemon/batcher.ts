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
    private readonly options: {
      max?: number
      /**
       * A batch whose flush throws is flushed again item by item, so that one item that cannot be
       * written does not fail the others. Only for a flush that cannot write anything twice that
       * way: one transaction (a failed batch leaves nothing behind), or writes that are no-ops
       * when repeated.
       */
      retryAlone?: boolean
    } = {},
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
      const batch = this.queue.splice(0, this.options.max ?? 256)
      let results: PromiseSettledResult<R>[]
      try {
        results = await this.flush(batch.map((b) => b.item))
      } catch (error) {
        results =
          this.options.retryAlone && batch.length > 1
            ? await Promise.all(batch.map(async (b) => this.flush([b.item]).then(([result]) => result!, (reason: unknown) => ({ status: 'rejected' as const, reason }))))
            : batch.map(() => ({ status: 'rejected' as const, reason: error }))
      }
      batch.forEach((b, i) => {
        const result = results[i]!
        if (result.status === 'fulfilled') b.resolve(result.value)
        else b.reject(result.reason)
      })
    }
    this.flushing = false
  }
}
