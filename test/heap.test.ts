import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { OLD_SPACE_GROWTH_PERCENT, SEMI_SPACE_CAP_MB, STREAMING_OLD_SPACE_GROWTH_PERCENT } from '../daemon/heap.js'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * Runs `body` in a fresh Node process (V8's flags are the whole process's, and this one is shared
 * by other test files) after allocating enough that survives scavenges for V8 to grow its young
 * generation as far as it may; prints the semi-space size it ended with, in MB.
 */
function semiSpaceAfter(body: string): number {
  const code = `
    import { getHeapSpaceStatistics } from 'node:v8'
    import { Worker } from 'node:worker_threads'
    import { afterWorkerOnline, holdHeapDown } from './daemon/heap.ts'
    let kept = []
    // In slices with the event loop turning between them, as the daemon's work is.
    const churn = async () => {
      for (let slice = 0; slice < 40; slice++) {
        for (let i = 0; i < 50000; i++) { kept.push({ i, text: 'post ' + i }); if (kept.length > 50000) kept = [] }
        await tick()
      }
    }
    const tick = () => new Promise((resolve) => setImmediate(resolve))
    const semiSpace = () => { const s = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space'); return Math.ceil((s.space_used_size + s.space_available_size) / 1048576) }
    ${body}
    for (let round = 0; round < 3; round++) await churn()
    console.log(semiSpace())`
  const res = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8', timeout: 60_000 })
  expect(res.stderr).toBe('')
  return Number(res.stdout.trim())
}

// Each test runs one or two fresh Node processes (tsx, then some 6 million allocations), each
// guarded against a hang by its own 60 s timeout; one takes 3.5 s at load 13 and 8-17 s on a
// core shared with two busy loops, so the 20 s default for a test timed out the first test's
// two on a loaded machine. A test's timeout covers its processes' guards.
describe('the daemon holding its heap down', { timeout: 130_000 }, () => {
  it('keeps the young generation at the cap, where V8 alone takes it to 16 MB', () => {
    expect(semiSpaceAfter('')).toBe(16)
    expect(semiSpaceAfter('holdHeapDown()')).toBeLessThanOrEqual(SEMI_SPACE_CAP_MB)
  })

  it('keeps it there after a Worker starts, whose isolate sets V8 back to growing it, once told it is online', () => {
    const atCapThenWorker = `
      holdHeapDown()
      for (let round = 0; round < 3; round++) await churn()
      const worker = new Worker('setTimeout(() => {}, 60000)', { eval: true })
      await new Promise((resolve) => worker.once('online', resolve))
      afterWorkerOnline()
      worker.unref()`
    expect(semiSpaceAfter(atCapThenWorker)).toBeLessThanOrEqual(SEMI_SPACE_CAP_MB)
  })

  it('lets the old generation grow four times over while bytes stream through, and holds it again once they stop', () => {
    // Full collections before two overlapping streams, during the second, once it ended while
    // the first still runs, and after both: V8 prints the factor each sets the next limit by.
    const code = `
      import { holdHeapDown, whileStreaming } from './daemon/heap.ts'
      holdHeapDown()
      gc()
      let end
      const first = whileStreaming(() => new Promise((resolve) => (end = resolve)))
      await whileStreaming(async () => gc())
      gc()
      end()
      await first
      gc()`
    const res = spawnSync(process.execPath, ['--expose-gc', '--trace-gc-verbose', '--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8', timeout: 60_000 })
    expect(res.stderr).toBe('')
    const factors = [...res.stdout.matchAll(/\[HeapController\] Limit: .*\((\d+\.\d)\)$/gm)].map((m) => Number(m[1]))
    const held = 1 + OLD_SPACE_GROWTH_PERCENT / 100
    const streaming = 1 + STREAMING_OLD_SPACE_GROWTH_PERCENT / 100
    expect(factors).toEqual([held, streaming, streaming, held])
  })
})
