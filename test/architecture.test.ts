// The house's rules, checked by dependency-cruiser with .dependency-cruiser.cjs: no import
// circles, the daemon independent of the CLI and of the single executable's packaging, the core
// (src/) free of the server and of Koa, Ink only in the calendar, SQL only in the store.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')

describe('the house', () => {
  // dependency-cruiser parses every source file with TypeScript: about 5 s of CPU, and 11 s at
  // load 9 on a core shared with two busy loops, past the 20 s default on a busier machine. The
  // child's own timeout is the guard against a hang (the test waits for it synchronously, so
  // vitest's timer cannot fire while it runs); the test's is set above it.
  it('keeps every import where it belongs, with no circle', { timeout: 130_000 }, () => {
    const run = spawnSync(
      process.execPath,
      ['node_modules/dependency-cruiser/bin/dependency-cruise.mjs', '--config', '.dependency-cruiser.cjs', '--output-type', 'err', 'src', 'daemon', 'commands', 'packaging', 'bin'],
      { cwd: root, encoding: 'utf8', timeout: 120_000 },
    )
    // On a violation the report names the rule, the importing file and what it imports.
    expect(run.stdout + run.stderr).toContain('no dependency violations found')
    expect(run.status).toBe(0)
  })
})
