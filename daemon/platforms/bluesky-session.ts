import { createHash } from 'node:crypto'
import type { AtpAgent, AtpSessionData } from '@atproto/api'
import * as v from 'valibot'
import { egressFetch } from './egress-fetch.js'
import { retryAfterMs } from './platform-http.js'
import { PlatformError, type PlatformContext } from './types.js'

export const LABEL = 'Bluesky'

type AtprotoApi = Pick<typeof import('@atproto/api'), 'AtpAgent' | 'XRPCError' | 'RichText'>
let api: AtprotoApi | undefined

/**
 * @atproto/api, loaded at the first Bluesky call rather than when the daemon starts: some 400
 * modules, over a second of a small server's start and about 35 MB of its memory, for a
 * platform many daemons use rarely or never.
 */
export async function atproto(): Promise<AtprotoApi> {
  return (api ??= await import('@atproto/api'))
}

export interface BlueskyCredentials {
  service_url: string
  identifier: string
  app_password: string
}

/** A session kept with the credentials after verify, so a restart resumes it instead of logging in. */
const StoredSession = v.object({ did: v.string(), handle: v.string(), accessJwt: v.string(), refreshJwt: v.string(), active: v.optional(v.boolean(), true) })

// XRPC error names that mean the credentials (or the account) no longer work.
const AUTH_ERRORS = new Set([
  'AuthenticationRequired',
  'ExpiredToken',
  'InvalidToken',
  'AuthMissing',
  'AuthFactorTokenRequired',
  'AccountTakedown',
  'AccountDeactivated',
])

/**
 * What an @atproto/api call threw, as a PlatformError: the egress failure in its cause if
 * there is one, else the XRPC error name and message the PDS sent.
 */
export function blueskyError(error: unknown, now: number): PlatformError {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof PlatformError) return cause
  }
  // Only the library throws XRPC errors: not loaded, it threw none.
  if (!api || !(error instanceof api.XRPCError)) throw error
  const detail = `${LABEL}: ${error.error}${error.message && error.message !== error.error ? `: ${error.message}` : ''}`
  if (AUTH_ERRORS.has(error.error) || error.status === 401) return new PlatformError('auth', 'credentials_rejected', detail)
  if (error.status === 429) return new PlatformError('transient', 'rate_limited', detail, retryAfterMs(Object.fromEntries(Object.entries(error.headers ?? {}).filter((e): e is [string, string] => e[1] !== undefined)), now))
  // 1 and 2 are the library's "no (valid) answer": the network or a broken proxy.
  if (error.status >= 500 || error.status < 100) return new PlatformError('transient', 'platform_unavailable', detail)
  return new PlatformError('permanent', 'platform_rejected', detail)
}

interface Cached {
  fingerprint: string
  agent: AtpAgent
}

// One logged-in agent per connection for the life of the daemon: the library refreshes its
// access token when it expires, so a post does not cost a createSession (which the PDS rate
// limits hard, 30 per 5 minutes on bsky.social).
const agents = new Map<string, Cached>()

function fingerprintOf(credentials: BlueskyCredentials): string {
  return createHash('sha256').update(`${credentials.service_url}\n${credentials.identifier}\n${credentials.app_password}`).digest('hex')
}

async function newAgent(credentials: BlueskyCredentials, ctx: PlatformContext): Promise<AtpAgent> {
  const { AtpAgent } = await atproto()
  return new AtpAgent({ service: credentials.service_url, fetch: egressFetch(ctx, LABEL) })
}

/** Logs in with the app password: the one call that creates a session. */
export async function login(credentials: BlueskyCredentials, ctx: PlatformContext): Promise<AtpAgent> {
  const agent = await newAgent(credentials, ctx)
  try {
    await agent.login({ identifier: credentials.identifier, password: credentials.app_password })
  } catch (error) {
    throw blueskyError(error, ctx.clock.now())
  }
  return agent
}

export function sessionToStore(agent: AtpAgent): v.InferOutput<typeof StoredSession> {
  const { did, handle, accessJwt, refreshJwt, active } = agent.session!
  return { did, handle, accessJwt, refreshJwt, active }
}

/**
 * The credentials to store when the agent's session is no longer the stored one (the library
 * refreshed its tokens, or we logged in again), so a restart resumes the live session: the
 * refresh token rotates on every refresh and the stored one would be spent.
 */
export function refreshedCredentials(agent: AtpAgent, credentials: BlueskyCredentials, stored: unknown): Record<string, unknown> | undefined {
  const session = sessionToStore(agent)
  const before = v.safeParse(StoredSession, stored)
  if (before.success && before.output.accessJwt === session.accessJwt && before.output.refreshJwt === session.refreshJwt) return undefined
  return { ...credentials, session }
}

async function agentFor(accountId: string, credentials: BlueskyCredentials, stored: unknown, ctx: PlatformContext): Promise<{ agent: AtpAgent; fresh: boolean }> {
  const fingerprint = fingerprintOf(credentials)
  const cached = agents.get(accountId)
  if (cached?.fingerprint === fingerprint && cached.agent.hasSession) {
    cached.agent.sessionManager.setFetch(egressFetch(ctx, LABEL))
    return { agent: cached.agent, fresh: false }
  }
  const session = v.safeParse(StoredSession, stored)
  if (session.success) {
    const agent = await newAgent(credentials, ctx)
    try {
      await agent.resumeSession(session.output as AtpSessionData)
      if (agent.hasSession) {
        agents.set(accountId, { fingerprint, agent })
        return { agent, fresh: false }
      }
    } catch (error) {
      // A stale stored session (its refresh token rotated since) is expected after a restart:
      // log in again below. Anything else is the PDS or the network failing.
      const failure = blueskyError(error, ctx.clock.now())
      if (failure.kind !== 'auth') throw failure
      ctx.log.info({ accountId }, 'stored Bluesky session no longer valid; logging in with the app password')
    }
  }
  const agent = await login(credentials, ctx)
  agents.set(accountId, { fingerprint, agent })
  return { agent, fresh: true }
}

/**
 * Runs `work` with a logged-in agent for the connection. If the session was revoked behind our
 * back, logs in once more with the app password before giving up: only an app password that
 * no longer works is an auth failure.
 */
export async function withAgent<T>(accountId: string, credentials: BlueskyCredentials, stored: unknown, ctx: PlatformContext, work: (agent: AtpAgent) => Promise<T>): Promise<T> {
  const { agent, fresh } = await agentFor(accountId, credentials, stored, ctx)
  try {
    return await work(agent)
  } catch (error) {
    const failure = blueskyError(error, ctx.clock.now())
    if (failure.kind !== 'auth' || fresh) throw failure
    agents.delete(accountId)
    const again = await login(credentials, ctx)
    agents.set(accountId, { fingerprint: fingerprintOf(credentials), agent: again })
    try {
      return await work(again)
    } catch (retryError) {
      throw blueskyError(retryError, ctx.clock.now())
    }
  }
}
