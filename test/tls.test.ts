import { X509Certificate } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generate } from 'selfsigned'
import { describe, expect, it } from 'vitest'
import { SCOPES } from '../src/api/common.js'
import { httpsClient } from './helpers/http.js'
import { startTestDaemon } from './helpers/daemon.js'

describe('TLS', () => {
  it('generates a self-signed ECDSA certificate once, for localhost and loopback, and keeps it across restarts', async () => {
    const t = await startTestDaemon()
    try {
      const cert = new X509Certificate(readFileSync(t.daemon.tls!.certPath))
      expect(cert.subjectAltName).toContain('DNS:localhost')
      expect(cert.subjectAltName).toContain('IP Address:127.0.0.1')
      expect(cert.subjectAltName).toMatch(/IP Address:0:0:0:0:0:0:0:1|IP Address:::1/)
      expect(cert.publicKey.asymmetricKeyType).toBe('ec')
      expect(t.daemon.tls!.fingerprint).toBe(cert.fingerprint256)
      const before = t.daemon.tls!.fingerprint
      await t.restart()
      expect(t.daemon.tls!.fingerprint).toBe(before)
      expect((await t.http.get('/healthz')).status).toBe(200)
    } finally {
      await t.stop()
    }
  })

  it('serves the operator certificate given with --tls-cert/--tls-key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-cert-'))
    const pems = await generate([{ name: 'commonName', value: 'operator' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    })
    writeFileSync(join(dir, 'cert.pem'), pems.cert)
    writeFileSync(join(dir, 'key.pem'), pems.private)
    const t = await startTestDaemon({ tlsCert: join(dir, 'cert.pem'), tlsKey: join(dir, 'key.pem') })
    try {
      expect(t.daemon.tls!.selfSigned).toBe(false)
      const client = httpsClient(t.url, pems.cert)
      expect((await client.get('/v1/me', { key: t.key })).status).toBe(200)
      client.close()
    } finally {
      await t.stop()
    }
  })
})

describe('first start', () => {
  it('creates the owner and a key with every scope once; a restart prints no key', async () => {
    const t = await startTestDaemon()
    try {
      expect(t.daemon.firstStart?.secret).toMatch(/^smm_[0-9A-Za-z]{36}$/)
      const keys = await t.http.get('/v1/api-keys', { key: t.key })
      expect(keys.body.data).toHaveLength(1)
      expect(keys.body.data[0].scopes).toEqual([...SCOPES])
      await t.restart()
      expect(t.daemon.firstStart).toBeUndefined()
      expect((await t.http.get('/v1/api-keys', { key: t.key })).body.data).toHaveLength(1)
    } finally {
      await t.stop()
    }
  })
})
