import { describe, expect, it } from 'vitest'
import { Batcher } from '../daemon/batcher.js'

/** A flush that writes all or nothing, like a transaction: any item it cannot write fails the whole batch. */
function writer() {
  const written: number[] = []
  const batches: number[][] = []
  const flush = async (items: number[]) => {
    batches.push(items)
    if (items.some((n) => n < 0)) throw new Error(`cannot write ${items.find((n) => n < 0)}`)
    written.push(...items)
    return items.map((n) => ({ status: 'fulfilled' as const, value: n * 10 }))
  }
  return { written, batches, flush }
}

describe('Batcher', () => {
  it('writes what is added in the same turn as one batch, and what arrives during a flush as the next', async () => {
    const w = writer()
    let open: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (open = resolve))
    const batcher = new Batcher(async (items: number[]) => {
      const results = await w.flush(items)
      if (items[0] === 1) await gate
      return results
    })
    const first = [1, 2, 3].map((n) => batcher.add(n))
    while (w.batches.length === 0) await new Promise((resolve) => setImmediate(resolve))
    const later = [4, 5].map((n) => batcher.add(n))
    open()
    expect(await Promise.all([...first, ...later])).toEqual([10, 20, 30, 40, 50])
    expect(w.batches).toEqual([[1, 2, 3], [4, 5]])
  })

  it('writes the other items of a failed batch one by one when asked to, and fails only the one that cannot be written', async () => {
    const w = writer()
    const batcher = new Batcher(w.flush, { retryAlone: true })
    const results = await Promise.allSettled([1, -2, 3].map((n) => batcher.add(n)))
    expect(results).toEqual([
      { status: 'fulfilled', value: 10 },
      { status: 'rejected', reason: new Error('cannot write -2') },
      { status: 'fulfilled', value: 30 },
    ])
    expect(w.written).toEqual([1, 3])
  })

  it('fails the whole batch otherwise', async () => {
    const w = writer()
    const batcher = new Batcher(w.flush)
    const results = await Promise.allSettled([1, -2, 3].map((n) => batcher.add(n)))
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected'])
    expect(w.written).toEqual([])
  })
})
