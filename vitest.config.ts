import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The CLI tests run the built executable: rebuild when the sources are newer.
    globalSetup: ['test/global-setup.ts', 'test/postgres-setup.ts'],
  },
})
