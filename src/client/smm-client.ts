import { randomUUID } from 'node:crypto'
import https from 'node:https'
import { VERSION } from '../config.js'
import { routes, type OperationId, type RouteDef, type Routes } from '../contract.js'
import { ApiError, type Problem } from '../errors.js'
import type { Page } from '../pagination.js'
import { ConnectionError } from './errors.js'
import { createAgent, isCertificateError, type TlsTrust } from './tls.js'
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
  /** An API key (`smm_…`), sent as a bearer token to every route that needs one. */
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

interface RawResponse {
  status: number
  headers: Record<string, string>
  text: string
}

interface LooseInput {
  params?: Record<string, unknown>
  query?: Record<string, unknown>
  body?: unknown
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true })
  })

/** Retry-After in seconds: delta-seconds or an HTTP date. */
function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
}

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && typeof (value as Problem).code === 'string' && typeof (value as Problem).status === 'number'
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined // the caller reports a body that is not what the daemon sends
  }
}

/**
 * The typed client of the smm API: one method per operation of `src/contract.ts`, named by its
 * operation id, taking `{params, query, body}` as the contract declares them and resolving to
 * the response body. Errors are `ApiError` (the problem document) or `ConnectionError`.
 *
 * ```ts
 * const smm = new SmmClient({ url: 'https://127.0.0.1:8443', apiKey, ca: readFileSync('tls-cert.pem') })
 * const me = await smm.getMe()
 * const key = await smm.createApiKey({ body: { name: 'ci', scopes: ['posts:write'] } })
 * await smm.revokeApiKey({ params: { id: key.id } })
 * ```
 */
export class SmmClient {
  readonly baseUrl: string
  readonly #apiKey: string | undefined
  readonly #agent: https.Agent
  readonly #options: SmmClientOptions

  constructor(options: SmmClientOptions) {
    const url = new URL(options.url)
    if (url.protocol !== 'https:') {
      throw new TypeError(`url: ${options.url} must start with https:// (the daemon serves HTTPS only; a key sent in clear is leaked)`)
    }
    this.baseUrl = `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')}`
    this.#apiKey = options.apiKey
    this.#agent = createAgent(options, options.timeoutMs ?? 30_000)
    this.#options = options
  }

  /** Calls one operation by its id: what every typed method does. */
  async request<K extends OperationId>(operationId: K, ...[input, options]: CallArgs<Routes[K]>): Promise<Awaited<ReturnType<RouteMethods[K]>>> {
    const def: RouteDef = routes[operationId]
    const { params = {}, query = {}, body } = (input ?? {}) as LooseInput
    const path = def.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = params[name]
      if (value === undefined || value === '') throw new TypeError(`${operationId}: params.${name} is required`)
      return encodeURIComponent(String(value))
    })
    const url = new URL(this.baseUrl + path)
    for (const [name, value] of Object.entries(query)) {
      for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined && item !== null) url.searchParams.append(name, String(item))
    }
    const headers: Record<string, string> = {
      ...options?.headers,
      accept: 'application/json, application/problem+json',
      'user-agent': this.#options.userAgent ?? `smm-client/${VERSION} node/${process.versions.node}`,
    }
    if (this.#apiKey && def.scope) headers.authorization = `Bearer ${this.#apiKey}`
    // One key for the call, not per attempt: the retry must be recognised as the same request.
    if (def.method === 'POST') headers['idempotency-key'] = options?.idempotencyKey ?? randomUUID()
    const payload = body === undefined ? undefined : JSON.stringify(body)
    if (payload !== undefined) headers['content-type'] = 'application/json'

    const maxWait = this.#options.maxRetryWaitSeconds ?? 10
    for (let attempt = 0; ; attempt++) {
      const res = await this.#send(def.method, url, headers, payload, options?.signal)
      if (res.status < 400) {
        options?.onHeaders?.(res.headers)
        return this.#success(res) as never
      }
      const error = this.#failure(res)
      const wait = retryAfterSeconds(res.headers['retry-after'])
      const retryable = error.status === 429 || error.status === 503 || error.code === 'idempotency_key_in_use'
      if (attempt > 0 || !retryable || wait === undefined || wait > maxWait) throw error
      this.#options.onRetry?.({ operationId, error, waitSeconds: wait })
      await (this.#options.sleep ?? defaultSleep)(wait * 1000, options?.signal)
    }
  }

  /** Every item of a list operation, fetching page after page as the loop asks for more. */
  async *paginate<K extends ListOperationId>(operationId: K, ...[input, options]: CallArgs<Routes[K]>): AsyncGenerator<ListItem<K>> {
    const base = (input ?? {}) as LooseInput
    const call = this.request as (id: OperationId, input: LooseInput, options?: CallOptions) => Promise<Page<ListItem<K>>>
    let cursor: string | null = null
    do {
      const page: Page<ListItem<K>> = await call.call(this, operationId, { ...base, query: { ...base.query, ...(cursor ? { cursor } : {}) } }, options)
      yield* page.data
      cursor = page.has_more ? page.next_cursor : null
    } while (cursor)
  }

  /** Closes idle kept-alive connections (they never hold the process open anyway). */
  close(): void {
    this.#agent.destroy()
  }

  #success(res: RawResponse): unknown {
    if (res.status === 204 || res.text === '') return undefined
    if (!/json/.test(res.headers['content-type'] ?? '')) return res.text
    const value = parseJson(res.text)
    if (value === undefined) throw new ApiError(res.status, 'unexpected_response', `${this.baseUrl} answered HTTP ${res.status} with a body that is not JSON.`)
    return value
  }

  #failure(res: RawResponse): ApiError {
    const problem = /json/.test(res.headers['content-type'] ?? '') ? parseJson(res.text) : undefined
    if (isProblem(problem)) return ApiError.fromProblem(problem, res.headers)
    return new ApiError(res.status, 'unexpected_response', `${this.baseUrl} answered HTTP ${res.status} without a problem document: is it an smm daemon?`, {
      headers: res.headers,
    })
  }

  #send(method: string, url: URL, headers: Record<string, string>, payload: string | undefined, signal?: AbortSignal): Promise<RawResponse> {
    const timeoutMs = this.#options.timeoutMs ?? 30_000
    return new Promise((resolve, reject) => {
      const req = https.request(url, { method, headers, agent: this.#agent, signal }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('error', (error) => reject(this.#connectionError(error)))
        res.on('end', () => {
          const flat: Record<string, string> = {}
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value
          resolve({ status: res.statusCode ?? 0, headers: flat, text: Buffer.concat(chunks).toString('utf8') })
        })
      })
      req.setTimeout(timeoutMs, () => req.destroy(new ConnectionError('timeout', `${this.baseUrl} did not answer within ${timeoutMs / 1000} s.`)))
      req.on('error', (error) => reject(this.#connectionError(error)))
      req.end(payload)
    })
  }

  #connectionError(error: Error & { code?: string }): Error {
    if (error instanceof ConnectionError || error.name === 'AbortError') return error
    if (isCertificateError(error.code)) {
      return new ConnectionError(
        'certificate_untrusted',
        `The TLS certificate of ${this.baseUrl} is not trusted (${error.code}). Trust the daemon's certificate file (ca) or pin its SHA-256 fingerprint. Nothing was sent.`,
        { cause: error },
      )
    }
    return new ConnectionError('connection_failed', `Cannot reach ${this.baseUrl}: ${error.message}`, { cause: error })
  }
}

// The typed methods are generated from the contract: a new route is a new method, no code here.
export interface SmmClient extends RouteMethods {}
for (const operationId of Object.keys(routes) as OperationId[]) {
  Object.defineProperty(SmmClient.prototype, operationId, {
    value(this: SmmClient, input?: unknown, options?: CallOptions) {
      return (this.request as (id: OperationId, input?: unknown, options?: CallOptions) => Promise<unknown>)(operationId, input, options)
    },
    writable: true,
    configurable: true,
  })
}
