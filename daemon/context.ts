import type { RouterMiddleware } from '@koa/router'
import type Koa from 'koa'
import type { Logger } from 'pino'
import type { Clock } from '../src/time.js'
import type { AiProvider } from './ai/index.js'
import type { HttpClient } from './egress.js'
import type { MediaService } from './media/settings.js'
import type { PlatformRegistry } from './platforms/index.js'
import type { Prometheus } from './prometheus/registry.js'
import type { OAuthApps } from './platforms/oauth-apps.js'
import type { Scheduler } from './scheduler/index.js'
import type { SecretBox } from './secret-box.js'
import type { Principal, Store } from './store/index.js'

/** What the daemon's HTTP layer is built from; tests pass a temporary store and a manual clock. */
export interface AppDeps {
  store: Store
  clock: Clock
  log: Logger
  version: string
  /** Transport policy: direct TLS, or plain HTTP from a trusted TLS-terminating proxy. */
  transport: TransportPolicy
  /** Failed authentications allowed per client address per minute before 429. */
  authFailuresPerMinute?: number
  /** Outbound HTTP to user-supplied URLs, through the egress policy. */
  http: HttpClient
  /**
   * The same, for webhook deliveries, when the operator trusts more CAs for receivers than for
   * everything else (`--webhook-ca-file`); unset: `http`.
   */
  webhookHttp?: HttpClient
  /** Writes drafts for `POST /v1/ai/generate`: the configured model server, or the builtin helper. */
  ai: AiProvider
  /** Whether user-supplied URLs may point at private addresses (checked again at creation). */
  allowPrivateNetwork: boolean
  /** Every platform module, by name. */
  platforms: PlatformRegistry
  /** The operator's apps with OAuth platforms, and the redirect URI they were registered with. */
  oauthApps: OAuthApps
  /** Seals secrets smm must read back (platform credentials, webhook signing secrets) at rest. */
  secrets: SecretBox
  /**
   * The URL people reach the daemon at (`--public-url`, else the listening URL), with no trailing
   * slash: every absolute URL the daemon writes starts with it, never with a request's Host.
   */
  publicUrl: () => string
  /** Publishes due posts; routes wake it when posts change. */
  scheduler: Scheduler
  /** Where this node's Prometheus metrics are registered, served on `--metrics-port`; unset when metrics are off. */
  prometheus?: Prometheus
  /** Where uploaded media's bytes go, and how much a user may upload. */
  media: MediaService
}

export type TransportPolicy = { mode: 'tls' } | { mode: 'proxy'; trustedProxies: string[] }

/** What middleware leaves on `ctx.state` for the layers below it. */
export interface State {
  requestId: string
  clientIp: string
  principal?: Principal
  /** The handler of the request's route, found by the route table before the body is read. */
  handler?: RouterMiddleware<State>
  /** The route's body is bytes its handler streams (an upload): the JSON body reader leaves it alone. */
  rawBody?: boolean
  /** The matched route's fields that an idempotent replay must not carry (RouteDef.shownOnce). */
  shownOnce?: readonly string[]
  /** When the request log began timing the request (`performance.now()`), if it times it: see requestLog. */
  started?: number
}

export type Ctx = Koa.ParameterizedContext<State>
