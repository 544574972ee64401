import postgres from 'postgres'
import { StoreUnavailableError } from '../port.js'
import { DatabaseUnreachableError } from './url.js'

export { DatabaseUnreachableError, describeDatabase } from './url.js'

/**
 * How the PostgreSQL store talks to its database: integers as numbers (times are milliseconds,
 * counts fit in 2^53), statements prepared per connection by the driver, notices kept quiet.
 */
export type Sql = postgres.Sql<{ bigint: number }>
/** The pool, or one transaction of it: what a unit of work runs its statements on. */
export type Queryable = Sql | postgres.TransactionSql<{ bigint: number }>

/** What went wrong, in words, without anything the error may carry about the password. */
function causeOf(error: unknown): string {
  const e = error as { code?: string; message?: string; errno?: string }
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is PostgreSQL running and listening there?)'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'no such host'
    case 'CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return 'no answer within 5 s'
    case '28P01':
    case '28000':
      return 'the server refused the user name or password'
    case '3D000':
      return 'no such database (create it first: createdb, or CREATE DATABASE)'
    default:
      return (e.message ?? String(error)).replace(/password[^\s,]*\s*\S*/gi, 'password …')
  }
}

// What a lost or refused connection looks like, from the driver (its own codes and Node's) and
// from the server (class 08: connection exception; 57P01-57P03: the server shutting down or starting).
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', '57P01', '57P02', '57P03'])

/** Whether an error says the database is out of reach (rather than that a statement failed). */
export function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code
  return typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))
}

/**
 * The same family with every method's lost connection reported as StoreUnavailableError: the
 * API answers 503 for it, and the pool reconnects on the next call by itself.
 */
export function reportingLoss<T extends object>(family: T): T {
  return Object.fromEntries(
    Object.entries(family).map(([name, member]) => [
      name,
      typeof member === 'function'
        ? async (...args: unknown[]) => {
            try {
              return await member.apply(family, args)
            } catch (error) {
              if (isConnectionLoss(error)) throw new StoreUnavailableError(causeOf(error))
              throw error
            }
          }
        : member,
    ]),
  ) as T
}

export interface ConnectOptions {
  /** Connections in the pool. */
  max?: number
}

/**
 * A pool on the database at `url`, checked with one round trip so that a wrong or unreachable
 * URL fails within seconds, with the host and the cause (never the password).
 */
export async function connectPostgres(url: string, options: ConnectOptions = {}): Promise<Sql> {
  if (!/^postgres(ql)?:\/\//.test(url)) throw new DatabaseUnreachableError(url, 'the URL must start with postgres:// or postgresql://')
  const sql = postgres(url, {
    max: options.max ?? 10,
    connect_timeout: 5,
    idle_timeout: 60,
    onnotice: () => undefined,
    types: { bigint: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) } },
  }) as unknown as Sql
  try {
    await sql`SELECT 1`
    return sql
  } catch (error) {
    await sql.end({ timeout: 1 })
    throw new DatabaseUnreachableError(url, causeOf(error))
  }
}
