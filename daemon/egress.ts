import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { performance } from 'node:perf_hooks'
import { Readable } from 'node:stream'
import ipaddr from 'ipaddr.js'

/** Why an outbound request did not get a response. */
export type EgressErrorCode = 'invalid_url' | 'forbidden_address' | 'timeout' | 'too_large' | 'network'

export class EgressError extends Error {
  constructor(
    readonly code: EgressErrorCode,
    message: string,
    /**
     * Whether the connection to the server was up (TLS handshake done) when the request failed:
     * the request may then have reached the server, which may have acted on it without us
     * hearing back. False when no connection was made (refused, DNS failure, handshake failure,
     * forbidden address), so the server cannot have seen the request.
     */
    readonly connected = false,
  ) {
    super(message)
    this.name = 'EgressError'
  }

  /** Whether trying again later may succeed (the network, not the request, was at fault). */
  get transient(): boolean {
    return this.code === 'timeout' || this.code === 'network'
  }
}

export interface OutboundRequest {
  method?: string
  headers?: Record<string, string>
  /**
   * A stream is sent as it is read, never held whole (a media file's bytes): give its
   * `content-length` in `headers`. It can be sent once only, so a request with one follows no redirect.
   */
  body?: string | Uint8Array | Readable
  /** Whole-request deadline. Default 15 s. */
  timeoutMs?: number
  /**
   * Fails the request, as a timeout, once no byte has moved either way for this long: a stalled
   * upload is found in seconds while its whole-request deadline allows a slow link minutes.
   */
  idleTimeoutMs?: number
  /** Largest response body read; past it the request fails `too_large`. Default 10 MiB. */
  maxResponseBytes?: number
  /** Redirects to follow, each checked like the first URL. Default 0: a 3xx is returned as is. */
  maxRedirects?: number
}

export interface OutboundResponse {
  status: number
  /** Lower-cased header names; repeated headers joined with ", ". */
  headers: Record<string, string>
  body: Buffer
  /** The URL that answered (after any redirects followed). */
  url: string
  text(): string
  json<T = unknown>(): T
}

/** How smm makes outbound HTTP requests; platforms and webhook delivery are given one. */
export type HttpClient = (url: string, request?: OutboundRequest) => Promise<OutboundResponse>

export interface EgressOptions {
  /**
   * Let requests reach private, loopback and link-local addresses. Off by default: a URL a user
   * supplies must not become a way into the operator's network (SSRF).
   */
  allowPrivateNetwork?: boolean
  /** Also allow plain http:// (only for endpoints the operator configured, never user URLs). */
  allowHttp?: boolean
  /** Extra CA certificates to trust (PEM), e.g. tests' loopback servers. */
  ca?: string | string[]
  /**
   * How host names become addresses. Default: the system resolver. Whatever it answers is
   * filtered like any other address, so tests use it to play a hostile DNS server.
   */
  resolve?: Resolver
}

/** Every address a host name resolves to. */
export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>

const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true, verbatim: true })

/** How long an outbound request may take in all, unless it says otherwise. */
export const DEFAULT_TIMEOUT_MS = 15_000
/** A deadline timer this late fired after a stall, not after the request ran its time. */
const STALL_MS = 250
/** How long a request whose deadline passed during a stall still has to complete. */
const STALL_GRACE_MS = 1_000
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024

function normalise(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address()
  return parsed
}

/** Whether an address is on the public internet (not private, loopback, link-local, reserved…). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  return normalise(address).range() === 'unicast'
}

function forbidden(host: string, address: string): EgressError {
  return new EgressError(
    'forbidden_address',
    `${host} resolves to ${address}, a private, loopback or otherwise non-public address; smm does not connect there (the operator can allow it with --allow-private-network)`,
  )
}

/**
 * A `lookup` for the socket that refuses non-public addresses (unless allowed). Because it
 * filters the very address the socket then connects to, DNS rebinding between a check and the
 * connect is moot.
 */
function lookupFor(options: EgressOptions): net.LookupFunction {
  const resolve = options.resolve ?? systemResolver
  return ((host: string, lookupOptions: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    resolve(host).then(
      (addresses) => {
        const allowed = options.allowPrivateNetwork ? addresses : addresses.filter((a) => isPublicAddress(a.address))
        if (allowed.length === 0) {
          const error = addresses.length === 0 ? new EgressError('network', `${host} has no address`) : forbidden(host, addresses[0]!.address)
          return callback(error)
        }
        if (lookupOptions.all) return callback(null, allowed)
        callback(null, allowed[0]!.address, allowed[0]!.family)
      },
      (error: unknown) => callback(error),
    )
  }) as unknown as net.LookupFunction
}

function headersOf(res: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

function once(url: URL, request: OutboundRequest, options: EgressOptions): Promise<OutboundResponse> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!options.allowPrivateNetwork && net.isIP(host) && !isPublicAddress(host)) return Promise.reject(forbidden(host, host))
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const maxBytes = request.maxResponseBytes ?? DEFAULT_MAX_BYTES
  const transport = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    // Settles exactly once, whichever of request, response or timer fails first: a failure
    // after the response started (size cap, stalled body) must not leave the promise hanging.
    let settled = false
    // Set once the connection is up, i.e. from when request bytes can reach the server.
    let connected = false
    let timer: NodeJS.Timeout | undefined
    const body = request.body
    const settle = () => {
      settled = true
      clearTimeout(timer)
      // A streamed body not sent whole (a refusal came first, or the request failed) is let go of.
      if (body instanceof Readable) body.destroy()
    }
    const fail = (error: unknown) => {
      if (settled) return
      settle()
      req.destroy()
      reject(error instanceof EgressError ? error : new EgressError('network', `${url.host}: ${(error as Error).message}`, connected))
    }
    const req = transport.request(url, {
      method: request.method ?? 'GET',
      headers: { 'user-agent': 'smm (+self-hosted social media manager)', ...request.headers },
      lookup: lookupFor(options),
      ...(options.ca ? { ca: options.ca } : {}),
      agent: false,
    })
    req.on('socket', (socket) => socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => (connected = true)))
    // A stalled clock is not a timeout: after the process was stopped (SIGSTOP, a suspended VM),
    // its overdue timers run before its sockets are read, so a deadline timer that fires late
    // gives what arrived meanwhile a moment to be read before the request is judged timed out.
    // One timer serves the whole-request deadline and, where asked, the idle one.
    const idleMs = request.idleTimeoutMs
    let due = performance.now() + timeoutMs
    let lastActive = performance.now()
    const touch = () => (lastActive = performance.now())
    let firesAt = 0
    const arm = () => {
      firesAt = Math.min(due, idleMs === undefined ? Infinity : lastActive + idleMs)
      timer = setTimeout(onTimer, Math.max(0, firesAt - performance.now()))
    }
    const onTimer = () => {
      const now = performance.now()
      if (now - firesAt > STALL_MS) {
        due = Math.max(due, now + STALL_GRACE_MS)
        lastActive = now
        timer = setTimeout(onTimer, STALL_GRACE_MS)
        firesAt = now + STALL_GRACE_MS
        return
      }
      if (now >= due) return fail(new EgressError('timeout', `no complete answer from ${url.host} within ${timeoutMs} ms`, connected))
      if (idleMs !== undefined && now - lastActive >= idleMs) return fail(new EgressError('timeout', `nothing moved to or from ${url.host} for ${idleMs} ms`, connected))
      arm()
    }
    arm()
    const tooLarge = () => new EgressError('too_large', `the answer from ${url.host} is over ${maxBytes} bytes`)
    req.on('error', fail)
    req.on('response', (res) => {
      if (Number(res.headers['content-length'] ?? 0) > maxBytes) return fail(tooLarge())
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        touch()
        size += chunk.length
        if (size > maxBytes) return fail(tooLarge())
        chunks.push(chunk)
      })
      res.on('error', fail)
      res.on('aborted', () => fail(new EgressError('network', `${url.host} closed the connection mid-answer`, true)))
      res.on('end', () => {
        if (settled) return
        settle()
        const answer = Buffer.concat(chunks)
        resolve({
          status: res.statusCode ?? 0,
          headers: headersOf(res),
          body: answer,
          url: url.toString(),
          text: () => answer.toString('utf8'),
          json: <T>() => JSON.parse(answer.toString('utf8')) as T,
        })
      })
    })
    if (!(body instanceof Readable)) return void req.end(body)
    // A body that fails (the media store, say) fails the request; its bytes count as activity.
    body.on('data', touch)
    body.once('error', (error) => fail(new EgressError('network', `the request body for ${url.host} could not be read: ${error.message}`, connected)))
    body.pipe(req)
  })
}

/**
 * The one way smm reaches addresses users supply (webhook, media, instance and service URLs):
 * https only, bounded in time and size, no redirects unless asked, and never to a non-public
 * address unless the operator allowed it. Checked on the address actually connected to.
 */
export function createHttpClient(options: EgressOptions = {}): HttpClient {
  return async (target, request = {}) => {
    let url: URL
    try {
      url = new URL(target)
    } catch {
      throw new EgressError('invalid_url', `${target} is not an absolute URL`)
    }
    for (let redirects = 0; ; redirects++) {
      if (url.protocol !== 'https:' && !(options.allowHttp && url.protocol === 'http:')) {
        throw new EgressError('invalid_url', `${url.origin} is not https; smm sends requests over https only`)
      }
      if (url.username || url.password) throw new EgressError('invalid_url', 'URLs with credentials in them are refused')
      const response = await once(url, request, options)
      const location = response.headers.location
      // A streamed body has been read: there is nothing to send again to where a redirect points.
      const followable = !(request.body instanceof Readable)
      if (response.status < 300 || response.status > 399 || !location || !followable || redirects >= (request.maxRedirects ?? 0)) return response
      url = new URL(location, url)
    }
  }
}
