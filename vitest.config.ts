import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

const include = ['test/**/*.test.ts', 'test/**/*.test.tsx']

// Files that need a process of their own. render-calendar loads Ink after setting CI=false (Ink
// reads CI once, at import); in a shared worker another file may have loaded Ink already.
const ISOLATED = ['test/tui/render-calendar.test.tsx']

// The timeouts guard against a hang; they are no limit on slow work. Much of the suite runs
// processes (the CLI, daemons, SDK runners), whose time grows with the machine's load: a test
// that takes 5 s with two busy loops beside the suite passed 20 s in another such run.
const common = { testTimeout: 60_000, hookTimeout: 60_000, pool: 'forks' as const }

export default defineConfig({
  test: {
    // The CLI tests run the built executable: rebuild when the sources are newer. The store
    // tests get a PostgreSQL server for the run.
    globalSetup: ['test/global-setup.ts', 'test/postgres-setup.ts'],
    // A worker per core, not vitest's default of one fewer: much of a file's time is spent
    // waiting on processes it started (the CLI, daemons, SDK runners), and on a 2-core machine
    // the default ran every file one after another.
    maxWorkers: availableParallelism(),
    projects: [
      // A fresh process per file cost more than the tests in most files: starting Node and
      // vitest, and loading and compiling the daemon's modules again (JIT-cold each time).
      // These files share their workers; each leaves the process as it found it (time zone,
      // fake timers, umask, stdin, exit code, daemons and servers stopped).
      { test: { ...common, name: 'shared', include, exclude: ISOLATED, isolate: false } },
      { test: { ...common, name: 'isolated', include: ISOLATED } },
    ],
  },
})
