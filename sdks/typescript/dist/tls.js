import { X509Certificate } from 'node:crypto';
import https from 'node:https';
import { isIP } from 'node:net';
import tls from 'node:tls';
import { ConnectionError } from './errors.js';
/** A SHA-256 fingerprint as Node and `smm daemon` print it: upper-case hex pairs joined by colons. */
export function normalizeFingerprint(input) {
    const hex = input.trim().replace(/^sha-?256[:=\s]*/i, '').replace(/[:\s]/g, '').toUpperCase();
    if (!/^[0-9A-F]{64}$/.test(hex))
        return undefined;
    return hex.match(/../g).join(':');
}
/** Whether a TLS error code means "the certificate is not trusted" rather than "nobody answered". */
export function isCertificateError(code) {
    return typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME/.test(code);
}
/**
 * An agent that judges each connection's certificate itself when the handshake completes, and
 * only then hands the socket to the request, so no header (and no key) is ever written to a
 * server it has not accepted. Its connections trust no authority (`ca: []`), which also spares
 * Node's parsing of its ~140 root certificates (about 30 ms of a CLI call's start). A judge that
 * answers `'node'` leaves the decision to Node's own verification against `ca`, on a new
 * connection. Session resumption is off so every connection shows its certificate.
 */
class JudgingAgent extends https.Agent {
    judge;
    ca;
    handshakeTimeoutMs;
    constructor(judge, ca, handshakeTimeoutMs, options) {
        super({ ...options, rejectUnauthorized: false, maxCachedSessions: 0 });
        this.judge = judge;
        this.ca = ca;
        this.handshakeTimeoutMs = handshakeTimeoutMs;
    }
    createConnection(options, callback) {
        const host = String(options.servername || options.host);
        const connect = (byNode) => {
            const trust = byNode ? { ca: this.ca, rejectUnauthorized: true } : { ca: [], rejectUnauthorized: false };
            const socket = tls.connect({ ...options, ...trust });
            const fail = (error) => {
                socket.destroy();
                callback?.(error, socket);
            };
            socket.once('error', fail);
            // The request's own timeout starts only once it has this socket: bound the handshake here.
            socket.setTimeout(this.handshakeTimeoutMs, () => fail(new ConnectionError('timeout', `No TLS handshake with ${options.host}:${options.port} within ${this.handshakeTimeoutMs / 1000} s.`)));
            socket.once('secureConnect', () => {
                socket.off('error', fail);
                socket.setTimeout(0);
                const verdict = byNode ? undefined : this.judge(socket, host);
                if (verdict === 'node') {
                    socket.destroy();
                    connect(true);
                }
                else if (verdict) {
                    fail(verdict);
                }
                else {
                    callback?.(null, socket);
                }
            });
        };
        connect(false);
        return undefined;
    }
}
/** Accepts exactly the certificate with this fingerprint. */
function pinnedTo(fingerprint) {
    return (socket) => {
        const seen = socket.getPeerCertificate().fingerprint256;
        if (seen === fingerprint)
            return undefined;
        return new ConnectionError('certificate_mismatch', `The server's TLS certificate (SHA-256 ${seen}) is not the pinned one (${fingerprint}). Nothing was sent. If the daemon's certificate was replaced on purpose, log in again to pin the new one.`);
    };
}
// The extended key usage "TLS server authentication" (RFC 5280, id-kp-serverAuth).
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
/**
 * The certificate of a CA file that holds only a self-signed server certificate (the daemon's
 * tls-cert.pem); undefined for anything else (an authority, a chain, a certificate for other uses).
 */
function selfSignedServerCertificate(ca) {
    const pems = String(ca).match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g);
    if (pems?.length !== 1)
        return undefined;
    try {
        const cert = new X509Certificate(pems[0]);
        const forServers = cert.keyUsage === undefined || cert.keyUsage.includes(SERVER_AUTH);
        // Self-signed: its own issuer, signed by its own key. (Not checkIssued(): OpenSSL's check
        // also wants the issuer to be allowed to sign certificates, which a server's own is not.)
        const selfSigned = cert.issuer === cert.subject && cert.verify(cert.publicKey);
        return !cert.ca && forServers && selfSigned ? cert : undefined;
    }
    catch {
        return undefined;
    }
}
/**
 * What Node's verification against that one certificate decides when the server shows it: its
 * dates and its names are checked. Another certificate goes to Node's verification itself.
 */
function sameAs(cert) {
    return (socket, host) => {
        // Not getPeerX509Certificate(): after it, Node 20's getPeerCertificate() returns {}.
        const shown = socket.getPeerCertificate();
        if (!shown.raw?.equals(cert.raw))
            return 'node';
        const now = Date.now();
        if (now < Date.parse(cert.validFrom))
            return Object.assign(new Error('certificate is not yet valid'), { code: 'CERT_NOT_YET_VALID' });
        if (now > Date.parse(cert.validTo))
            return Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' });
        return tls.checkServerIdentity(host.replace(/^\[|\]$/g, ''), shown);
    };
}
/** The HTTPS agent for a trust setting; keeps connections alive between calls. */
export function createAgent(trust, timeoutMs = 30_000) {
    const options = { keepAlive: true };
    if (trust.fingerprint) {
        const pinned = normalizeFingerprint(trust.fingerprint);
        if (!pinned)
            throw new TypeError(`fingerprint: "${trust.fingerprint}" is not a SHA-256 fingerprint (64 hex digits, colons optional)`);
        return new JudgingAgent(pinnedTo(pinned), undefined, timeoutMs, options);
    }
    const own = trust.ca === undefined ? undefined : selfSignedServerCertificate(trust.ca);
    if (own)
        return new JudgingAgent(sameAs(own), trust.ca, timeoutMs, options);
    return new https.Agent(trust.ca ? { ...options, ca: trust.ca } : options);
}
/** Connects, reads the server's certificate and hangs up without sending a byte of HTTP. */
export function probeCertificate(url, ca, timeoutMs = 10_000) {
    const { hostname, port } = new URL(url);
    const host = hostname.replace(/^\[|\]$/g, '');
    return new Promise((resolve, reject) => {
        const socket = tls.connect({
            host,
            port: Number(port || 443),
            servername: isIP(host) ? undefined : host,
            rejectUnauthorized: false,
            ...(ca ? { ca } : {}),
        });
        socket.setTimeout(timeoutMs, () => socket.destroy(new ConnectionError('timeout', `${url} did not complete a TLS handshake within ${timeoutMs / 1000} s.`)));
        socket.once('error', (error) => reject(error instanceof ConnectionError ? error : new ConnectionError('connection_failed', `Cannot connect to ${url}: ${error.message}`, { cause: error })));
        socket.once('secureConnect', () => {
            const cert = socket.getPeerCertificate();
            const reason = socket.authorizationError;
            resolve({
                fingerprint: cert.fingerprint256,
                subject: [cert.subject?.CN ?? ''].flat().join(', '),
                validTo: cert.valid_to,
                trusted: socket.authorized,
                ...(reason ? { reason: String(reason) } : {}),
            });
            socket.end();
        });
    });
}
