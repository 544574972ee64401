import { Console } from 'node:console'
import { EventEmitter } from 'node:events'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { Post } from '../../src/tui/calendar-source.js'
import type { RenderCalendarOptions } from '../../src/tui/render-calendar.js'
import { KEY, waitUntil } from './frames.js'
import { MemorySource, makePost } from './memory-source.js'

// A terminal as Ink uses one: stdin in raw mode that is read on 'readable', stdout with a size.
class FakeStdin extends EventEmitter {
  isTTY = true
  rawModes: boolean[] = []
  private pending: string[] = []
  setRawMode(mode: boolean) {
    this.rawModes.push(mode)
    return this
  }
  setEncoding() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read(): string | null {
    return this.pending.shift() ?? null
  }
  press(data: string) {
    this.pending.push(data)
    this.emit('readable')
  }
}

class FakeStdout extends EventEmitter {
  isTTY = true
  columns = 100
  rows = 40
  written = ''
  write(chunk: string) {
    this.written += chunk
    return true
  }
}

function terminal(isTTY = true) {
  const stdin = new FakeStdin()
  const stdout = new FakeStdout()
  const stderr = new FakeStdout()
  stdin.isTTY = isTTY
  const signals = new EventEmitter()
  const options = {
    timeZone: 'Europe/Berlin',
    weekStart: 1,
    now: () => Date.parse('2026-11-21T12:00:00Z'),
    refreshEveryMs: false,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    signals,
  } satisfies RenderCalendarOptions
  return { stdin, stdout, signals, options }
}

const LEAVE = '\x1b[?1049l\x1b[?25h'

async function started(source: MemorySource) {
  await waitUntil(() => source.calls.some((c) => c.method === 'listPosts'), 'the first load')
}

function expectRestored(t: ReturnType<typeof terminal>) {
  expect(t.stdout.written.startsWith('\x1b[?1049h')).toBe(true)
  expect(t.stdout.written.endsWith(LEAVE)).toBe(true)
  expect(t.stdin.rawModes).toContain(true)
  expect(t.stdin.rawModes.at(-1)).toBe(false)
}

describe('renderCalendar', () => {
  let renderCalendar: typeof import('../../src/tui/render-calendar.js').renderCalendar
  let NoTerminalError: typeof import('../../src/tui/render-calendar.js').NoTerminalError
  beforeAll(async () => {
    // Ink patches the console through console.Console, which vitest's console replacement lacks.
    const c = console as Console & { Console?: unknown }
    c.Console ??= Console
    // Under CI=true Ink draws only the last frame; these tests read the frames in between, so
    // Ink is loaded (it reads CI once, at import) as on a person's terminal.
    vi.stubEnv('CI', 'false')
    vi.stubEnv('CONTINUOUS_INTEGRATION', 'false')
    ;({ renderCalendar, NoTerminalError } = await import('../../src/tui/render-calendar.js'))
    vi.unstubAllEnvs()
  })

  it('refuses to run without a terminal and points to smm posts list', async () => {
    const t = terminal(false)
    const source = new MemorySource()
    const error = await renderCalendar(source, t.options).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NoTerminalError)
    expect((error as Error).message).toContain('smm posts list --from 2026-11-01 --to 2026-12-01')
    expect(t.stdout.written).toBe('') // nothing drawn, nothing to restore
    expect(source.calls).toEqual([])
  })

  it('resolves on q and gives the terminal back', async () => {
    const t = terminal()
    const source = new MemorySource()
    const done = renderCalendar(source, t.options)
    await started(source)
    t.stdin.press('q')
    await done
    expectRestored(t)
  })

  it('takes keys typed in one burst one after another: ?qq opens the help, closes it and quits', async () => {
    const t = terminal()
    const source = new MemorySource()
    const done = renderCalendar(source, t.options)
    await started(source)
    t.stdin.press('?qq')
    await done
    expectRestored(t)
  })

  it('after n in a burst, the rest of the burst is the post text: nqq types "qq"', async () => {
    const t = terminal()
    const source = new MemorySource()
    const done = renderCalendar(source, t.options)
    await started(source)
    t.stdin.press('nqq')
    await waitUntil(() => t.stdout.written.includes('mastodon 2/500'), 'the qq in the form')
    t.stdin.press(KEY.ctrlC)
    await done
    expectRestored(t)
  })

  it('resolves on Ctrl-C, even from inside the post form', async () => {
    const t = terminal()
    const source = new MemorySource()
    const done = renderCalendar(source, t.options)
    await started(source)
    t.stdin.press('n')
    await waitUntil(() => t.stdout.written.includes('New post'), 'the form')
    t.stdin.press('q') // typed into the form, not a quit
    await waitUntil(() => t.stdout.written.includes('mastodon 1/500'), 'the q in the form')
    t.stdin.press(KEY.ctrlC)
    await done
    expectRestored(t)
  })

  it('resolves on SIGTERM', async () => {
    const t = terminal()
    const source = new MemorySource()
    const done = renderCalendar(source, t.options)
    await started(source)
    t.signals.emit('SIGTERM')
    await done
    expectRestored(t)
    expect(t.signals.listenerCount('SIGTERM')).toBe(0)
  })

  it('rejects with the error when rendering throws, and still restores the terminal', async () => {
    const t = terminal()
    // A post the daemon should never send: no platforms list. Rendering it throws.
    const broken = { ...makePost({ id: 'pst_bad', scheduled_at: '2026-11-21T08:00:00Z' }), platforms: null as unknown as Post['platforms'] }
    const source = new MemorySource([broken])
    const exitListeners = process.listenerCount('exit')
    const error = await renderCalendar(source, t.options).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    expectRestored(t)
    expect(process.listenerCount('exit')).toBe(exitListeners) // the last-resort restore is removed
  })

  it('ends with the error, terminal restored, when an answer cannot be read', async () => {
    const t = terminal()
    const source = new MemorySource([])
    source.listPosts = async () => [makePost({ id: 'pst_bad', scheduled_at: 'next tuesday' })]
    const error = await renderCalendar(source, t.options).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RangeError)
    expectRestored(t)
  })
})
