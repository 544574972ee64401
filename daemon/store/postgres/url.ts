// What a daemon that does not use PostgreSQL still needs of it (how a database URL is shown,
// the error for one it cannot use), without loading the driver.

/** A database URL as it may be shown: never its password. */
export function describeDatabase(url: string): string {
  try {
    const u = new URL(url)
    const user = u.username ? `${decodeURIComponent(u.username)}@` : ''
    return `postgres://${user}${u.host || 'localhost'}${u.pathname}`
  } catch {
    return 'the database URL (not a valid URL)'
  }
}

export class DatabaseUnreachableError extends Error {
  constructor(url: string, cause: string) {
    super(`Cannot use the database ${describeDatabase(url)}: ${cause}`)
    this.name = 'DatabaseUnreachableError'
  }
}
