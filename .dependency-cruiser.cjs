// The house rules (docs/development.md, "The house"): which part of smm may import which, and no
// import circles. test/architecture.test.ts checks them; `npm run depcruise` prints the report.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle (type-only imports count): split out what both sides need into a module of its own.',
      // A store's migrations take their type from the list that imports them (a type-only circle
      // that costs nothing at run time); landed migrations are history, never edited.
      from: { pathNot: '^daemon/store/[a-z]+/migrations/' },
      to: { circular: true },
    },
    {
      name: 'server-not-cli',
      severity: 'error',
      comment: 'The daemon is the server: it must not depend on the CLI, the calendar or the packaging of smm-daemon.',
      from: { path: '^daemon/' },
      to: { path: '^(commands|src/cli|src/tui|packaging|bin)/' },
    },
    {
      name: 'server-not-cli-frameworks',
      severity: 'error',
      comment: 'Nothing in daemon/ imports oclif, Ink or React.',
      from: { path: '^daemon/' },
      to: { path: 'node_modules/(@oclif|ink|react)/' },
    },
    {
      name: 'core-not-server',
      severity: 'error',
      comment: 'src/ is the shared core, used by the CLI and the daemon alike: it imports neither, nor Koa.',
      from: { path: '^src/', pathNot: '^src/cli/admin-command\\.ts$' },
      to: { path: '^(daemon|commands|packaging|bin)/|node_modules/(koa|@koa)/' },
    },
    {
      name: 'admin-through-the-store-factory',
      severity: 'error',
      comment: "The operator's commands open the store through its factory (daemon/store/index.ts), never its internals.",
      from: { path: '^src/cli/admin-command\\.ts$' },
      to: { path: '^daemon/', pathNot: '^daemon/store/index\\.ts$' },
    },
    {
      name: 'ink-only-in-the-calendar',
      severity: 'error',
      comment: 'Only src/tui/ imports Ink and React: every other command starts without them.',
      from: { pathNot: '^src/tui/' },
      to: { path: 'node_modules/(ink|react)/' },
    },
    {
      name: 'store-internals',
      severity: 'error',
      comment: 'Only the store knows SQL and its drivers: others go through daemon/store/index.ts (the port and its factory).',
      from: { pathNot: '^daemon/store/' },
      to: { path: '^daemon/store/(sqlite|postgres)/' },
    },
    {
      name: 'workers-through-startworker',
      severity: 'error',
      comment:
        "The daemon starts a Worker only through startWorker (daemon/heap.ts): making a Worker's isolate sets V8's young-generation growth back, and startWorker sets it again before the daemon's code goes on.",
      from: { path: '^daemon/', pathNot: '^daemon/heap\\.ts$' },
      to: { path: '(^|:)worker_threads$', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|test|bench|sdks)/' },
  },
}
