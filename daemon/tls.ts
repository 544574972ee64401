import { X509Certificate } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import type { Prometheus } from './prometheus/registry.js'

export interface TlsMaterial {
  cert: string
  key: string
  certPath: string
  /** SHA-256 fingerprint of the certificate, colon-separated hex, as browsers and curl show it. */
  fingerprint: string
  selfSigned: boolean
}

function fingerprintOf(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256
}

/** Loads the operator's certificate and key, with a clear error naming any file that is missing. */
export function loadTls(certPath: string, keyPath: string): TlsMaterial {
  for (const [flag, file] of [['--tls-cert', certPath], ['--tls-key', keyPath]]) {
    if (!existsSync(file!)) throw new Error(`${flag} ${file}: no such file`)
  }
  const cert = readFileSync(certPath, 'utf8')
  return { cert, key: readFileSync(keyPath, 'utf8'), certPath, fingerprint: fingerprintOf(cert), selfSigned: false }
}

/**
 * The daemon's own certificate: generated once into the data dir (ECDSA P-256, SHA-256, valid
 * for localhost, 127.0.0.1, ::1 and this host's name), then reused, so a client that trusted it
 * once keeps trusting it.
 */
export async function ensureSelfSigned(dataDir: string, now: Date = new Date()): Promise<TlsMaterial> {
  const certPath = join(dataDir, 'tls-cert.pem')
  const keyPath = join(dataDir, 'tls-key.pem')
  if (!existsSync(certPath) || !existsSync(keyPath)) {
    const host = hostname()
    const altNames = [
      { type: 2 as const, value: 'localhost' },
      { type: 7 as const, ip: '127.0.0.1' },
      { type: 7 as const, ip: '::1' },
      ...(host && host !== 'localhost' ? [{ type: 2 as const, value: host }] : []),
    ]
    // Loaded only to make the certificate, once per data dir: it (and the X.509 library under
    // it) is over half a second of every start and about 18 MB of memory otherwise.
    const { generate } = await import('selfsigned')
    const notAfter = new Date(now)
    notAfter.setUTCFullYear(notAfter.getUTCFullYear() + 10)
    const pems = await generate([{ name: 'commonName', value: 'smm daemon' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: now,
      notAfterDate: notAfter,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames },
      ],
    })
    writeFileSync(keyPath, pems.private, { mode: 0o600 })
    writeFileSync(certPath, pems.cert, { mode: 0o600 })
  }
  const cert = readFileSync(certPath, 'utf8')
  return { cert, key: readFileSync(keyPath, 'utf8'), certPath, fingerprint: fingerprintOf(cert), selfSigned: true }
}

/** `smm_tls_certificate_expiry_timestamp_seconds`: when the certificate this daemon serves expires, for an alert weeks before. */
export function certificateExpiryGauge({ client, registry }: Prometheus, tls: TlsMaterial): void {
  new client.Gauge({
    name: 'smm_tls_certificate_expiry_timestamp_seconds',
    help: 'When the TLS certificate this node serves expires (notAfter), in seconds since the epoch; absent behind a TLS-terminating proxy.',
    registers: [registry],
  }).set(Date.parse(new X509Certificate(tls.cert).validTo) / 1000)
}
