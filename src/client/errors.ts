/** Why a request never got an HTTP answer. */
export type ConnectionErrorCode =
  /** The server's certificate is not signed by a trusted authority (the daemon's self-signed one, say). */
  | 'certificate_untrusted'
  /** The server's certificate is not the one whose fingerprint was pinned. */
  | 'certificate_mismatch'
  /** Nothing answered, the connection broke, or the name did not resolve. */
  | 'connection_failed'
  /** The server took longer than the client's timeout. */
  | 'timeout'

/**
 * A request that got no HTTP response. Nothing was sent on a certificate error: the key never
 * leaves the machine unless the server proved who it is.
 */
export class ConnectionError extends Error {
  readonly code: ConnectionErrorCode

  constructor(code: ConnectionErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options)
    this.name = 'ConnectionError'
    this.code = code
  }
}
