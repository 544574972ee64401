import { VERSION } from '../config.js'
import { isClientOperation, routes, type ClientOperationId, type OperationId, type Routes } from '../contract.js'
import { ApiError } from '../errors.js'
import { ApiCore, SmmApiError, type RequestInput } from '../../sdks/typescript/src/index.js'
import type { TlsTrust } from './tls.js'
import type { CallArgs, CallOptions, ListItem, ListOperationId, RouteMethods } from './types.js'

/** What the client was told to wait for before retrying once. */
export interface RetryEvent {
  operationId: OperationId
  error: ApiError
  waitSeconds: number
}

export interface SmmClientOptions extends TlsTrust {
  /** The daemon's base URL, `https://host:8443` (a trailing `/v1` is accepted). */
  url: string
  /** An API key (`smm_…`), sent as a bearer token. */
  apiKey?: string
  /** Per attempt; default 30 s. */
  timeoutMs?: number
  /**
   * A 429 or 503 (or a POST whose first attempt is still running) with a Retry-After up to
   * this many seconds is waited out and retried once; longer waits throw at once. Default 10;
   * 0 turns retries off.
   */
  maxRetryWaitSeconds?: number
  /** Told before each wait, to say why nothing seems to happen. */
  onRetry?: (event: RetryEvent) => void
  /** How to wait; tests pass one that moves their clock instead. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  userAgent?: string
}

/** The API's answer as the CLI and the daemon know it: the problem document as an `ApiError`. */
const asApiError = (error: SmmApiError) => ApiError.fromProblem(error.problem, error.headers)

/**
 * The CLI's client: the TypeScript SDK's transport (sdks/typescript) with one method per
 * operation of `src/contract.ts`, named by its operation id, taking `{params, query, body}` as
 * the contract declares them (typed from the valibot schemas, which the SDK must not need).
 * It waits out a short Retry-After once and says so; errors are `ApiError` or `ConnectionError`.
 *
 * ```ts
 * const smm = new SmmClient({ url: 'https://127.0.0.1:8443', apiKey, ca: readFileSync('tls-cert.pem') })
 * const me = await smm.getMe()
 * ```
 */
export class SmmClient {
  readonly #core: ApiCore
  /** The API's base, with `/v1`. */
  readonly baseUrl: string

  constructor(options: SmmClientOptions) {
    const maxWait = options.maxRetryWaitSeconds ?? 10
    try {
      this.#core = new ApiCore({
        baseUrl: options.url,
        apiKey: options.apiKey,
        ca: options.ca,
        fingerprint: options.fingerprint,
        timeoutMs: options.timeoutMs,
        env: {}, // the CLI resolves SMM_URL, SMM_API_KEY and SMM_CA_FILE against its profiles itself
        maxRetries: maxWait > 0 ? 1 : 0,
        maxRetryAfterSeconds: maxWait,
        // Only when the daemon said when: a CLI user is told, and waits once.
        shouldRetry: (error) => error instanceof SmmApiError && error.headers['retry-after'] !== undefined,
        onRetry: (event) =>
          options.onRetry?.({ operationId: event.operationId, error: asApiError(event.error as SmmApiError), waitSeconds: event.delayMs / 1000 }),
        sleep: options.sleep,
        userAgent: options.userAgent ?? `smm-client/${VERSION} node/${process.versions.node}`,
      })
    } catch (error) {
      throw new TypeError((error as Error).message.replace(/^baseUrl:/, 'url:'))
    }
    this.baseUrl = this.#core.baseUrl.replace(/\/v1$/, '')
  }

  /** Calls one operation by its id: what every typed method does. */
  async request<K extends ClientOperationId>(operationId: K, ...[input, options]: CallArgs<Routes[K]>): Promise<Awaited<ReturnType<RouteMethods[K]>>> {
    try {
      return (await this.#core.request(operationId, input as RequestInput, options)) as never
    } catch (error) {
      throw error instanceof SmmApiError ? asApiError(error) : error
    }
  }

  /** Every item of a list operation, fetching page after page as the loop asks for more. */
  paginate<K extends ListOperationId>(operationId: K, ...[input, options]: CallArgs<Routes[K]>): AsyncGenerator<ListItem<K>> {
    const all = this.#core.paginate<ListItem<K>>(operationId, input as RequestInput, options)
    return (async function* () {
      try {
        yield* all
      } catch (error) {
        throw error instanceof SmmApiError ? asApiError(error) : error
      }
    })()
  }

  /** Closes idle kept-alive connections (they never hold the process open anyway). */
  close(): void {
    this.#core.close()
  }
}

// The typed methods are generated from the contract: a new route is a new method, no code here.
export interface SmmClient extends RouteMethods {}
for (const operationId of (Object.keys(routes) as OperationId[]).filter(isClientOperation)) {
  Object.defineProperty(SmmClient.prototype, operationId, {
    value(this: SmmClient, input?: unknown, options?: CallOptions) {
      return (this.request as (id: ClientOperationId, input?: unknown, options?: CallOptions) => Promise<unknown>)(operationId, input, options)
    },
    writable: true,
    configurable: true,
  })
}
