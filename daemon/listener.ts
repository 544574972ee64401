import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import type tls from 'node:tls'
import type { Duplex } from 'node:stream'
import type { Logger } from 'pino'
import { ApiError, httpsRequired } from '../src/errors.js'
import { newId } from '../src/ids.js'
import type { TlsMaterial } from './tls.js'

type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void

/**
 * What a client may hold open. A connection that says nothing, never finishes its TLS
 * handshake, dribbles its headers or body, or idles between requests is cut off, so a few
 * clients cannot hold the daemon's descriptors (slowloris and friends).
 */
export interface ConnectionLimits {
  /** From accept to the connection's first byte. */
  firstByteMs: number
  /** From the first byte to a completed TLS handshake. */
  handshakeMs: number
  /** For a request's headers to arrive in full. */
  headersMs: number
  /** For a whole request, body included, to arrive. */
  requestMs: number
  /** An idle keep-alive connection is closed after this long. */
  keepAliveMs: number
  /** Connections one client address may hold at once; the rest are closed at once. */
  perAddress: number
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  firstByteMs: 10_000,
  handshakeMs: 10_000,
  headersMs: 20_000,
  requestMs: 60_000,
  keepAliveMs: 5_000,
  perAddress: 256,
}

/** Why `host:port` could not be listened on, naming the flag that chose the port. */
export function listenFailure(error: NodeJS.ErrnoException, host: string, port: number, flag: string): Error {
  if (error.code === 'EADDRINUSE') return new Error(`${flag} ${port}: ${host}:${port} is already in use (another smm daemon?): stop it, or choose another ${flag}. (EADDRINUSE)`)
  if (error.code === 'EACCES') return new Error(`${flag} ${port}: not allowed to listen on ${host}:${port}: ports below 1024 need privileges; choose another ${flag}. (EACCES)`)
  return error
}

/** Logs a cut-off connection once per address, kind and minute: a flood must not flood the log. */
function throttledLog(log: Logger) {
  const last = new Map<string, number>()
  return (kind: string, address: string | undefined, fields: Record<string, unknown> = {}) => {
    const now = Date.now()
    const key = `${kind} ${address}`
    if ((last.get(key) ?? 0) > now - 60_000) return
    if (last.size > 10_000) for (const [k, at] of last) if (at <= now - 60_000) last.delete(k)
    last.set(key, now)
    log.warn({ msg: `connection cut off: ${kind}`, ip: address, ...fields })
  }
}

function problemBytes(error: ApiError, requestId: string): string {
  return JSON.stringify(error.toProblem(requestId))
}

/** Answers a request the server refused before the app: on a raw socket, then closes it. */
function writeRawProblem(socket: Duplex, error: ApiError): void {
  const requestId = newId('req')
  const body = problemBytes(error, requestId)
  // Closed for good once the answer is out: a client that never closes its side (and keeps
  // sending) must not keep the descriptor. The second's grace lets the answer be read.
  socket.once('finish', () => setTimeout(() => socket.destroy(), 1_000).unref())
  socket.end(
    `HTTP/1.1 ${error.status} ${error.toProblem().title}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  )
}

/** Malformed requests Node's parser rejects (oversized headers, garbage) still get a problem body. */
function onClientError(report: ReturnType<typeof throttledLog>) {
  return (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The parser reports every further chunk of a bad request too; once the answer is on its
    // way (the socket no longer writable) there is nothing to add, and destroying would cut it.
    if (!socket.writable) return
    if (error.code === 'ECONNRESET') {
      socket.destroy()
      return
    }
    const apiError =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? new ApiError(431, 'headers_too_large', 'The request headers are larger than this server accepts (16 KiB).')
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new ApiError(408, 'request_timeout', 'The request took too long to arrive.')
          : new ApiError(400, 'bad_request', 'The request is not valid HTTP/1.1.')
    report(apiError.code, (socket as net.Socket).remoteAddress, { code: error.code, status: apiError.status })
    writeRawProblem(socket, apiError)
  }
}

function tune(server: http.Server, limits: ConnectionLimits): void {
  server.headersTimeout = limits.headersMs
  server.requestTimeout = limits.requestMs
  server.keepAliveTimeout = limits.keepAliveMs
}

/** A plain-HTTP request on the TLS port: 403, nothing read, nothing redirected, nothing processed. */
function rejectPlainHttp(log: Logger): RequestListener {
  return (req, res) => {
    const requestId = newId('req')
    log.warn({ msg: 'plain http rejected', req_id: requestId, method: req.method, ip: req.socket.remoteAddress })
    const body = problemBytes(httpsRequired(), requestId)
    res.writeHead(403, {
      'Content-Type': 'application/problem+json',
      'Content-Length': Buffer.byteLength(body),
      'X-Request-Id': requestId,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      Connection: 'close',
    })
    res.end(body)
  }
}

export interface Listener {
  /** The server that accepts connections (for `listen` and `close`). */
  server: net.Server
  /** Every HTTP server that carries requests, to drain on shutdown. */
  httpServers: http.Server[]
  /**
   * Closes every connection that has not started a request: accepted but silent, in its TLS
   * handshake, or connected and waiting. Node's closeIdleConnections leaves those alone, so a
   * client that keeps a connection ready (a calendar between refreshes, a pool that pre-connects)
   * held a stopping daemon for the whole of its first-byte or header timeout.
   */
  closeUnused(): void
}

/** The connections that have not carried a request yet, by peer; they go once one arrives. */
function unusedConnections() {
  const unused = new Map<string, net.Socket>()
  // The sockets that have carried one: `used` runs on every request, and only a first one matters.
  const served = new WeakSet<net.Socket>()
  const peer = (socket: net.Socket) => `${socket.remoteAddress}|${socket.remotePort}`
  return {
    accepted(socket: net.Socket) {
      const key = peer(socket)
      unused.set(key, socket)
      socket.once('close', () => {
        if (unused.get(key) === socket) unused.delete(key)
      })
    },
    /**
     * A request arrived on this socket (the TLS socket over the accepted one has the same peer):
     * true if it is the socket's first.
     */
    used(socket: net.Socket): boolean {
      if (served.has(socket)) return false
      served.add(socket)
      unused.delete(peer(socket))
      return true
    },
    /**
     * `handler`, noting first each request's socket as used (and, on its first request,
     * `first`). One listener: every 'request' listener added to a server is one more call, and
     * with more than one Node copies the listener list, on every request.
     */
    wrap(handler: RequestListener, first?: (socket: net.Socket) => void): RequestListener {
      return (req, res) => {
        if (this.used(req.socket)) first?.(req.socket)
        handler(req, res)
      }
    },
    closeAll() {
      for (const socket of unused.values()) socket.destroy()
      unused.clear()
    },
  }
}

/** Counts the connections each client address holds, refusing those over the cap. */
function perAddressCap(limit: number, report: ReturnType<typeof throttledLog>) {
  const open = new Map<string, number>()
  return (socket: net.Socket): boolean => {
    const address = socket.remoteAddress ?? ''
    const count = open.get(address) ?? 0
    if (count >= limit) {
      report('too many connections', address, { limit })
      socket.destroy()
      return false
    }
    open.set(address, count + 1)
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1
      if (left > 0) open.set(address, left)
      else open.delete(address)
    })
    return true
  }
}

/** How often Node's servers look for connections past their deadlines. */
const checkEvery = (limits: ConnectionLimits) => Math.max(10, Math.min(1_000, Math.floor(Math.min(limits.headersMs, limits.requestMs) / 4)))

/**
 * One port that speaks TLS and refuses plain HTTP. The first byte of each connection decides:
 * 0x16 opens a TLS handshake and goes to the HTTPS server; anything else goes to a server that
 * only ever answers 403 `https_required`.
 */
export function tlsListener(tls: TlsMaterial, handler: RequestListener, log: Logger, limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS): Listener {
  const report = throttledLog(log)
  const connectionsCheckingInterval = checkEvery(limits)
  const unused = unusedConnections()
  // Node's headersTimeout starts with a request's first byte; until a connection sends one, it
  // may idle no longer than a request's headers may take (plus two checks of Node's, so that a
  // half-sent request gets Node's 408 rather than this silent close).
  const awaitingRequest = new WeakMap<net.Socket, () => void>()
  const firstRequest = (socket: net.Socket) => {
    const idle = awaitingRequest.get(socket)
    if (!idle) return
    awaitingRequest.delete(socket)
    socket.removeListener('timeout', idle)
    socket.setTimeout(0)
  }
  const secure = https.createServer({ cert: tls.cert, key: tls.key, connectionsCheckingInterval }, unused.wrap(handler, firstRequest))
  const plain = http.createServer({ connectionsCheckingInterval }, unused.wrap(rejectPlainHttp(log)))
  for (const s of [secure, plain]) {
    tune(s, limits)
    s.on('clientError', onClientError(report))
  }
  // The https server's handshakeTimeout does not fire on handed-over sockets: the sniffer times
  // handshakes itself, from the first byte to 'secureConnection', keeping each raw connection by peer.
  const raw = new Map<string, { socket: net.Socket; handshake: NodeJS.Timeout }>()
  const peer = (socket: net.Socket) => `${socket.remoteAddress}|${socket.remotePort}`
  secure.on('tlsClientError', (error: Error, socket: net.Socket) => {
    report('tls handshake failed', socket.remoteAddress, { err: error.message })
    raw.get(peer(socket))?.socket.destroy()
  })
  secure.on('secureConnection', (socket: tls.TLSSocket) => {
    const connection = raw.get(peer(socket))
    if (connection) clearTimeout(connection.handshake)
    const idle = () => {
      report('no request', socket.remoteAddress, { ms: limits.headersMs })
      socket.destroy()
    }
    awaitingRequest.set(socket, idle)
    socket.setTimeout(limits.headersMs + 2 * connectionsCheckingInterval)
    socket.once('timeout', idle)
  })
  const admit = perAddressCap(limits.perAddress, report)
  const server = net.createServer((socket) => {
    socket.on('error', (error) => log.debug({ msg: 'socket error', err: error.message }))
    if (!admit(socket)) return
    unused.accepted(socket)
    socket.setTimeout(limits.firstByteMs, () => {
      report('no first byte', socket.remoteAddress, { ms: limits.firstByteMs })
      socket.destroy()
    })
    socket.once('data', (chunk: Buffer) => {
      socket.setTimeout(0)
      socket.pause()
      socket.unshift(chunk)
      if (chunk[0] === 0x16) {
        const key = peer(socket)
        const handshake = setTimeout(() => {
          report('tls handshake too slow', socket.remoteAddress, { ms: limits.handshakeMs })
          socket.destroy()
        }, limits.handshakeMs)
        raw.set(key, { socket, handshake })
        socket.once('close', () => {
          clearTimeout(handshake)
          raw.delete(key)
        })
      }
      ;(chunk[0] === 0x16 ? secure : plain).emit('connection', socket)
      process.nextTick(() => socket.resume())
    })
  })
  // Node checks headersTimeout and requestTimeout only on connections its server tracks, and it
  // starts tracking on 'listening'. These servers never listen themselves (the sniffer hands
  // them sockets), so they are told when the real one does: without it, a half-sent request
  // held its connection forever.
  server.on('listening', () => {
    for (const s of [secure, plain]) s.emit('listening')
  })
  return { server, httpServers: [secure, plain], closeUnused: () => unused.closeAll() }
}

/** Plain HTTP for use behind a TLS-terminating proxy; the app admits only trusted proxies. */
export function proxyListener(handler: RequestListener, log: Logger, limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS): Listener {
  const unused = unusedConnections()
  const server = http.createServer({ connectionsCheckingInterval: checkEvery(limits) }, unused.wrap(handler))
  tune(server, limits)
  server.on('clientError', onClientError(throttledLog(log)))
  server.on('connection', (socket: net.Socket) => unused.accepted(socket))
  return { server, httpServers: [server], closeUnused: () => unused.closeAll() }
}
