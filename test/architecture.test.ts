// The house's rules, checked by dependency-cruiser with .dependency-cruiser.cjs: no import
// circles, the daemon independent of the CLI and of the single executable's packaging, the core
// (src/) free of the server and of Koa, Ink only in the calendar, SQL only in the store.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')

describe('the house', () => {
  it('keeps every import where it belongs, with no circle', () => {
    const run = spawnSync(
      process.execPath,
      ['node_modules/dependency-cruiser/bin/dependency-cruise.mjs', '--config', '.dependency-cruiser.cjs', '--output-type', 'err', 'src', 'daemon', 'commands', 'packaging', 'bin'],
      { cwd: root, encoding: 'utf8' },
    )
    // On a violation the report names the rule, the importing file and what it imports.
    expect(run.stdout + run.stderr).toContain('no dependency violations found')
    expect(run.status).toBe(0)
  })
})
