import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { inject } from 'vitest'

/**
 * A new, empty database on the test run's PostgreSQL server, and a function that drops it: each
 * test (or file) gets its own, so suites never see each other's rows.
 */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = inject('postgresUrl')
  const name = `smm_test_${randomBytes(6).toString('hex')}`
  const sql = postgres(admin, { max: 1, onnotice: () => undefined })
  try {
    await sql.unsafe(`CREATE DATABASE ${name}`)
  } finally {
    await sql.end()
  }
  const url = new URL(admin)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const sql = postgres(admin, { max: 1, onnotice: () => undefined })
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      } finally {
        await sql.end()
      }
    },
  }
}
