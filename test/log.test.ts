import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')

/** Runs `code` (an ES module that may import daemon/log.ts) in a Node process of its own. */
function run(code: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8', timeout: 20_000 })
}

describe("the daemon's log", () => {
  it('writes the lines of a turn in order, and a line logged just before the process exits is not lost', () => {
    const result = run(`
      import { daemonLogger } from './daemon/log.ts'
      const log = daemonLogger('info')
      log.info({ msg: 'first', n: 1 })
      log.debug({ msg: 'below the level' })
      log.error({ msg: 'fatal', n: 2 })
      process.exit(3)
    `)
    expect(result.status).toBe(3)
    const lines = result.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line))
    expect(lines).toMatchObject([
      { level: 30, msg: 'first', n: 1 },
      { level: 50, msg: 'fatal', n: 2 },
    ])
  })

  it('writes a line at the end of its turn, without waiting for more lines', () => {
    const result = run(`
      import { writeSync } from 'node:fs'
      import { daemonLogger } from './daemon/log.ts'
      const log = daemonLogger('info')
      log.info({ msg: 'one' })
      setImmediate(() => setImmediate(() => {
        writeSync(1, 'after\\n')
        process.kill(process.pid, 'SIGKILL')
      }))
    `)
    // Killed without an exit handler running: only what was written by then is there.
    expect(result.signal).toBe('SIGKILL')
    expect(result.stdout.split('\n').filter(Boolean)).toEqual([expect.stringContaining('"msg":"one"'), 'after'])
  })
})
