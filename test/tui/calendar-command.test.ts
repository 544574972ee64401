import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import Calendar from '../../commands/calendar.js'
import { cliHome, runCli } from '../helpers/cli.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

// The command renders its own failure as one line on stderr and sets the exit code, as
// every smm command does; this catches that line.
async function runCalendar(argv: string[]): Promise<{ message: string; exit: number | undefined }> {
  const write = process.stderr.write
  let message = ''
  process.stderr.write = ((chunk: string) => ((message += chunk), true)) as typeof process.stderr.write
  try {
    await Calendar.run(argv, ROOT)
  } finally {
    process.stderr.write = write
  }
  return { message, exit: process.exitCode === undefined ? undefined : Number(process.exitCode) }
}

describe('smm calendar', () => {
  const stdinTTY = Object.getOwnPropertyDescriptor(process.stdin, 'isTTY')
  afterEach(() => {
    if (stdinTTY) Object.defineProperty(process.stdin, 'isTTY', stdinTTY)
    else delete (process.stdin as { isTTY?: boolean }).isTTY
    // oclif's catch sets the exit code of the process the command runs in: this test's worker.
    process.exitCode = undefined
  })

  it('rejects an unknown --tz with a usage error naming the flag', async () => {
    const home = cliHome()
    const result = await runCli(['calendar', '--tz', 'Mars/Olympus_Mons'], { env: home.env })
    home.remove()
    expect(result.code).toBe(2)
    expect(result.stderr).toBe('Error: --tz: "Mars/Olympus_Mons" is not an IANA time zone: use a name like Europe/Berlin, America/New_York or UTC\n')
  })

  it('refuses to start in a pipe and points to smm posts list for the month', async () => {
    Object.defineProperty(process.stdin, 'isTTY', { value: undefined, configurable: true })
    const result = await runCalendar(['--tz', 'Pacific/Auckland'])
    expect(result.exit).toBe(2)
    expect(result.message).toMatch(/^Error: smm calendar needs an interactive terminal .* smm posts list --from \d{4}-\d{2}-01 --to \d{4}-\d{2}-01 --every-status\n$/)
  })

  it('loads Ink only when the calendar runs: nothing it imports statically reaches ink or react', () => {
    // Follow the static (non-type) imports from the command through our own files.
    const seen = new Set<string>()
    const external = new Set<string>()
    const visit = (file: string) => {
      if (seen.has(file)) return
      seen.add(file)
      const source = readFileSync(file, 'utf8')
      for (const m of source.matchAll(/^import (?!type )[^'"]*?from '([^']+)'/gm)) {
        const spec = m[1]!
        if (!spec.startsWith('.')) external.add(spec.split('/')[0]!)
        else {
          const target = resolve(dirname(file), spec).replace(/\.js$/, '')
          visit([`${target}.ts`, `${target}.tsx`].find((f) => existsSync(f))!)
        }
      }
    }
    visit(resolve(ROOT, 'commands/calendar.ts'))
    expect(seen.has(resolve(ROOT, 'src/zoned-time.ts'))).toBe(true)
    expect([...external].filter((name) => name === 'ink' || name === 'react')).toEqual([])
  })
})
