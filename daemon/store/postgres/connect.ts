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
      return 'no answer within the connect timeout (connect_timeout in the URL, 10 s unless it says otherwise)'
    case 'ETIMEDOUT':
      return 'no answer (the connection timed out)'
    case '28P01':
    case '28000':
      return 'the server refused the user name or password'
    case '3D000':
      return 'no such database (create it first: createdb, or CREATE DATABASE)'
    case '57014':
      return 'a statement ran past statement_timeout (the database is overloaded, or a lock is held)'
    case '25P03':
      return 'the server ended a transaction left idle past idle_in_transaction_session_timeout (this process was stopped mid-transaction)'
    case '25P04':
      return 'the server ended a transaction open past transaction_timeout (this process was stopped mid-transaction, or the database is overloaded)'
    default:
      return (e.message ?? String(error)).replace(/password[^\s,]*\s*\S*/gi, 'password …')
  }
}

// What a lost or refused connection looks like, from the driver (its own codes and Node's) and
// from the server (class 08: connection exception; 57P01-57P03: the server shutting down or starting).
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', '57P01', '57P02', '57P03'])
// A statement cut off by statement_timeout, a session by idle_in_transaction_session_timeout or
// transaction_timeout: the database is there, but this unit of work was not done; the same call
// may succeed a moment later.
const CUT_OFF_CODES = new Set(['57014', '25P03', '25P04'])

/** Whether an error says the database is out of reach (rather than that a statement failed). */
export function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code
  return typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))
}

/**
 * Whether the database answers, as this pool last found it. Once a call finds it out of reach,
 * every call fails at once with StoreUnavailableError (the API answers 503 in milliseconds, not
 * after the driver's reconnect attempts and their back-off) until a probe, every quarter second,
 * gets an answer again.
 */
export class StoreGate {
  private cause: string | undefined
  private probing: Promise<void> | undefined
  private closed = false

  constructor(private readonly sql: Sql) {}

  /** Throws StoreUnavailableError while the database is known to be out of reach. */
  check(): void {
    if (this.cause !== undefined) throw new StoreUnavailableError(this.cause)
  }

  /** A call found the database out of reach: fail the next ones fast, and probe until it answers. */
  lost(cause: string): void {
    if (this.closed) return
    this.cause ??= cause
    this.probing ??= this.probe().finally(() => (this.probing = undefined))
  }

  close(): void {
    this.closed = true
  }

  private async probe(): Promise<void> {
    while (!this.closed && this.cause !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS))
      try {
        await Promise.race([this.sql`SELECT 1`, new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 1 s')), 1_000))])
        this.cause = undefined
      } catch (error) {
        // Still away: the next probe tries again; its cause is the one calls report meanwhile.
        this.cause = causeOf(error)
      }
    }
  }
}

const PROBE_EVERY_MS = 250

/**
 * The same family with every method's lost connection reported as StoreUnavailableError: the
 * API answers 503 for it, and the pool reconnects on its own once the gate's probe gets through.
 * While the gate is shut, methods fail at once without reaching the driver.
 */
export function reportingLoss<T extends object>(family: T, gate: StoreGate): T {
  return Object.fromEntries(
    Object.entries(family).map(([name, member]) => [
      name,
      typeof member === 'function'
        ? async (...args: unknown[]) => {
            gate.check()
            try {
              return await member.apply(family, args)
            } catch (error) {
              if (isConnectionLoss(error)) {
                gate.lost(causeOf(error))
                throw new StoreUnavailableError(causeOf(error))
              }
              if (CUT_OFF_CODES.has((error as { code?: string }).code ?? '')) throw new StoreUnavailableError(causeOf(error))
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
  /**
   * The shortest lease a claim on this database runs under. Each session then cuts off a
   * statement running past half of it, a transaction open past two thirds of it and one left
   * idle past a quarter of it (5 s at most), so a node stopped mid-transaction (SIGSTOP, a
   * suspended VM) holds no row lock past its lease: its claims lapse and other nodes take its
   * work over. Unset (a bulk copy): no limits.
   */
  leaseMs?: number
}

/**
 * Seconds a connection may take to open, unless the URL's `connect_timeout` (libpq's parameter)
 * says otherwise: a host that never answers is reported once they have passed (a server that
 * refuses, at once). Not fewer: a connection that is slow to open on a busy machine is no
 * database away, yet taken for one it shut the store's gate and the daemon answered 503 until
 * a probe got through; three pools opening their 30 connections at once took up to 1.6 s with
 * their process at a seventh of a core, and the daemon's own requests add to that.
 */
const CONNECT_TIMEOUT_S = 10

/** A session's limits that keep a stopped node's locks within its lease (see ConnectOptions). */
export interface SessionLimits {
  statement_timeout: number
  idle_in_transaction_session_timeout: number
  transaction_timeout?: number
}

/**
 * The session limits for `leaseMs`. `transaction_timeout` (PostgreSQL 17 and newer, where
 * `withTransactionTimeout`) is the one that holds whatever the stopped client was doing: the
 * driver sends a statement new to a connection as Parse, Describe and Flush, and sends its Bind
 * and Execute once the description is back. A client stopped in between leaves its session
 * `active`, waiting for the rest of the statement: no longer idle, and no statement running, so
 * neither of the other two limits applies, and the transaction's row locks stay until it wakes.
 */
export function sessionLimits(leaseMs: number, withTransactionTimeout: boolean): SessionLimits {
  return {
    statement_timeout: Math.floor(leaseMs / 2),
    idle_in_transaction_session_timeout: Math.floor(Math.min(5_000, leaseMs / 4)),
    ...(withTransactionTimeout ? { transaction_timeout: Math.floor((leaseMs * 2) / 3) } : {}),
  }
}

/**
 * A pool on the database at `url`. A first connection checks it, so that a wrong or unreachable
 * URL fails within seconds, with the host and the cause (never the password), and asks whether
 * the server has `transaction_timeout`; the pool's sessions then carry the limits for
 * `options.leaseMs`.
 */
export async function connectPostgres(url: string, options: ConnectOptions = {}): Promise<Sql> {
  if (!/^postgres(ql)?:\/\//.test(url)) throw new DatabaseUnreachableError(url, 'the URL must start with postgres:// or postgresql://')
  const pool = (max: number, limits: SessionLimits | undefined) =>
    postgres(url, {
      max,
      ...(new URL(url).searchParams.has('connect_timeout') ? {} : { connect_timeout: CONNECT_TIMEOUT_S }),
      // Between a lost connection's attempts to reconnect (the driver's own back-off grows to 20 s,
      // which held a node back that long after its database returned).
      backoff: () => 0.25 + Math.random() / 4,
      idle_timeout: 60,
      onnotice: () => undefined,
      connection: { application_name: 'smm', ...limits },
      types: { bigint: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) } },
    }) as unknown as Sql
  const probe = pool(1, undefined)
  let limits: SessionLimits | undefined
  try {
    const [server] = await probe<{ transaction_timeout: boolean }[]>`SELECT current_setting('transaction_timeout', true) IS NOT NULL AS transaction_timeout`
    if (options.leaseMs) limits = sessionLimits(options.leaseMs, server!.transaction_timeout)
  } catch (error) {
    throw new DatabaseUnreachableError(url, causeOf(error))
  } finally {
    await probe.end({ timeout: 1 })
  }
  return pool(options.max ?? 10, limits)
}
