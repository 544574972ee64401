import type { TestProject } from 'vitest/node'
import { startEmbeddedPostgres } from './helpers/embedded-postgres.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server's URL, to its `postgres` database, as a superuser: each test file makes its own databases. */
    postgresUrl: string
  }
}

/**
 * The PostgreSQL the store tests run against: `SMM_TEST_DATABASE_URL` when given (a superuser's
 * URL), otherwise a private embedded server started for this run and removed after it.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.SMM_TEST_DATABASE_URL
  if (given) {
    project.provide('postgresUrl', given)
    return undefined
  }
  const server = await startEmbeddedPostgres()
  project.provide('postgresUrl', server.url)
  return () => server.stop()
}
