import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import type { Duplex } from 'node:stream'
import type { Logger } from 'pino'
import { ApiError, httpsRequired } from '../src/errors.js'
import { newId } from '../src/ids.js'
import type { TlsMaterial } from './tls.js'

type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void

// Limits on what a client may hold open before it has said anything useful.
const FIRST_BYTE_TIMEOUT_MS = 10_000
const HANDSHAKE_TIMEOUT_MS = 10_000
const HEADERS_TIMEOUT_MS = 20_000
const REQUEST_TIMEOUT_MS = 60_000

function problemBytes(error: ApiError, requestId: string): string {
  return JSON.stringify(error.toProblem(requestId))
}

/** Answers a request the server refused before the app: on a raw socket, then closes it. */
function writeRawProblem(socket: Duplex, error: ApiError): void {
  const requestId = newId('req')
  const body = problemBytes(error, requestId)
  socket.end(
    `HTTP/1.1 ${error.status} ${error.toProblem().title}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  )
}

/** Malformed requests Node's parser rejects (oversized headers, garbage) still get a problem body. */
function onClientError(log: Logger) {
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
    log.warn({ msg: 'client error', code: error.code, status: apiError.status })
    writeRawProblem(socket, apiError)
  }
}

function tune(server: http.Server): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS
  server.requestTimeout = REQUEST_TIMEOUT_MS
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
}

/**
 * One port that speaks TLS and refuses plain HTTP. The first byte of each connection decides:
 * 0x16 opens a TLS handshake and goes to the HTTPS server; anything else goes to a server that
 * only ever answers 403 `https_required`.
 */
export function tlsListener(tls: TlsMaterial, handler: RequestListener, log: Logger): Listener {
  const secure = https.createServer({ cert: tls.cert, key: tls.key, handshakeTimeout: HANDSHAKE_TIMEOUT_MS }, handler)
  const plain = http.createServer(rejectPlainHttp(log))
  for (const s of [secure, plain]) {
    tune(s)
    s.on('clientError', onClientError(log))
  }
  secure.on('tlsClientError', (error) => log.debug({ msg: 'tls handshake failed', err: error.message }))
  const server = net.createServer((socket) => {
    socket.on('error', (error) => log.debug({ msg: 'socket error', err: error.message }))
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy())
    socket.once('data', (chunk: Buffer) => {
      socket.setTimeout(0)
      socket.pause()
      socket.unshift(chunk)
      ;(chunk[0] === 0x16 ? secure : plain).emit('connection', socket)
      process.nextTick(() => socket.resume())
    })
  })
  return { server, httpServers: [secure, plain] }
}

/** Plain HTTP for use behind a TLS-terminating proxy; the app admits only trusted proxies. */
export function proxyListener(handler: RequestListener, log: Logger): Listener {
  const server = http.createServer(handler)
  tune(server)
  server.on('clientError', onClientError(log))
  return { server, httpServers: [server] }
}
