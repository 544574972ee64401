import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generate } from 'selfsigned'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import { ApiError, ConnectionError, SmmClient, type ApiKeyWithSecret, type User } from '../src/index.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'

let t: TestDaemon
let smm: SmmClient
/** How many GET /v1/me requests a daemon has logged: a refused certificate must leave it unchanged. */
const meRequests = (d: TestDaemon) => d.logs.filter((line) => line.includes('"route":"/v1/me"')).length
beforeAll(async () => {
  t = await startTestDaemon()
  smm = new SmmClient({ url: t.url, apiKey: t.key, ca: t.ca })
})
afterAll(async () => {
  smm.close()
  await t.stop()
})

describe('SmmClient', () => {
  it('has one typed method per route of the contract, returning the API object', async () => {
    const me = await smm.getMe()
    expectTypeOf(me).toEqualTypeOf<User>()
    expect(me).toEqual((await t.http.get('/v1/me', { key: t.key })).body)

    const key = await smm.createApiKey({ body: { name: 'ci', scopes: ['posts:read'] } })
    expectTypeOf(key).toEqualTypeOf<ApiKeyWithSecret>()
    expect(key).toMatchObject({ id: expect.stringMatching(/^key_/), name: 'ci', scopes: ['posts:read'], secret: expect.stringMatching(/^smm_/) })

    const page = await smm.listApiKeys({ query: { limit: 1 } })
    expect(page).toMatchObject({ data: [expect.objectContaining({ name: 'owner (first start)' })], has_more: true })

    expect(await smm.revokeApiKey({ params: { id: key.id } })).toBeUndefined()
    const revoked = (await smm.listApiKeys()).data.find((k) => k.id === key.id)
    expect(revoked?.revoked_at).toBe(new Date(t.clock.now()).toISOString())

    // @ts-expect-error a body is required to create a key
    await expect(smm.createApiKey()).rejects.toBeInstanceOf(ApiError)
    // @ts-expect-error the path parameter is required
    await expect(smm.revokeApiKey({})).rejects.toThrow('revokeApiKey: params.id is required')
  })

  it('sends extra headers and reports response headers: a safe update with If-Match', async () => {
    const account = await smm.createAccount({ body: { name: 'Etag Co' } })
    await smm.connectAccount({ params: { id: account.id }, body: { platform: 'feed' } })
    const at = new Date(t.clock.now() + 3_600_000).toISOString()
    const post = await smm.createPost({ body: { account_id: account.id, content: 'v1', platforms: ['feed'], scheduled_at: at } })
    let etag = ''
    await smm.getPost({ params: { id: post.id } }, { onHeaders: (h) => (etag = h.etag!) })
    expect(etag).toMatch(/^"v\d+"$/)
    const updated = await smm.updatePost({ params: { id: post.id }, body: { content: 'v2' } }, { headers: { 'if-match': etag } })
    expect(updated.content).toBe('v2')
    // The same ETag again is stale now: the daemon refuses rather than overwrite.
    const stale = await smm.updatePost({ params: { id: post.id }, body: { content: 'v3' } }, { headers: { 'if-match': etag } }).catch((e: unknown) => e)
    expect(stale).toBeInstanceOf(ApiError)
    expect((stale as ApiError).status).toBe(412)
  })

  it('throws the problem document as an ApiError with every field error', async () => {
    const error = await smm
      .createApiKey({ body: { name: ' ', scopes: ['posts:read', 'posts:read'] } })
      .then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_error',
      errors: [
        { pointer: '#/name', code: 'invalid_value', detail: 'must not be empty' },
        { pointer: '#/scopes', code: 'invalid_value', detail: 'must not repeat a scope' },
      ],
    })
    expect((error as ApiError).headers['x-request-id']).toMatch(/^req_/)

    await expect(smm.revokeApiKey({ params: { id: 'key_nope' } })).rejects.toMatchObject({ status: 404, code: 'not_found', message: 'No API key with id key_nope.' })
    await expect(new SmmClient({ url: t.url, apiKey: 'smm_wrong', ca: t.ca }).getMe()).rejects.toMatchObject({ status: 401, code: 'invalid_token' })
  })

  it('sends an Idempotency-Key with every POST: a fresh one per call, or the caller\'s to replay', async () => {
    const a = await smm.createApiKey({ body: { name: 'twice' } })
    const b = await smm.createApiKey({ body: { name: 'twice' } })
    expect(a.id).not.toBe(b.id)

    const first = await smm.createApiKey({ body: { name: 'once' } }, { idempotencyKey: 'deploy-42' })
    const again = await smm.createApiKey({ body: { name: 'once' } }, { idempotencyKey: 'deploy-42' })
    // The replay is the same key, less its secret: that is shown in the first answer only.
    const { secret, ...resource } = first
    expect(secret).toMatch(/^smm_/)
    expect(again).toEqual(resource)
    const keys: string[] = []
    for await (const key of smm.paginate('listApiKeys', { query: { limit: 2 } })) keys.push(key.name)
    expect(keys.filter((name) => name === 'once')).toHaveLength(1)
    expect(keys).toEqual(expect.arrayContaining(['owner (first start)', 'ci', 'twice', 'once']))
  })

  it('pins the daemon\'s self-signed certificate by its SHA-256 fingerprint, and sends nothing to another', async () => {
    const pinned = new SmmClient({ url: t.url, apiKey: t.key, fingerprint: t.daemon.tls!.fingerprint.replace(/:/g, '').toLowerCase() })
    expect((await pinned.getMe()).id).toMatch(/^usr_/)
    pinned.close()

    const before = meRequests(t)
    expect(before).toBeGreaterThan(0)
    const wrong = new SmmClient({ url: t.url, apiKey: t.key, fingerprint: 'AA'.repeat(32) })
    const error = await wrong.getMe().then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error).toMatchObject({ code: 'certificate_mismatch' })
    expect((error as Error).message).toContain(t.daemon.tls!.fingerprint)
    expect(meRequests(t)).toBe(before)

    const untrusting = new SmmClient({ url: t.url, apiKey: t.key })
    await expect(untrusting.getMe()).rejects.toMatchObject({ name: 'ConnectionError', code: 'certificate_untrusted' })
    await expect(new SmmClient({ url: 'https://127.0.0.1:1', ca: t.ca }).getHealth()).rejects.toMatchObject({ code: 'connection_failed' })
    expect(() => new SmmClient({ url: t.url.replace('https:', 'http:') })).toThrow('must start with https://')
  })

  it('trusts a CA file of one self-signed certificate as Node would: that certificate, for the host it names, while valid; sends nothing otherwise', async () => {
    const DAY = 86_400_000
    const certificate = (altNames: { type: 2 | 7; value?: string; ip?: string }[], from: number, to: number) =>
      generate([{ name: 'commonName', value: 'smm test' }], {
        keyType: 'ec',
        curve: 'P-256',
        algorithm: 'sha256',
        notBeforeDate: new Date(from),
        notAfterDate: new Date(to),
        extensions: [{ name: 'basicConstraints', cA: false }, { name: 'extKeyUsage', serverAuth: true }, { name: 'subjectAltName', altNames }],
      })
    const now = Date.now()
    const elsewhere = await certificate([{ type: 2, value: 'smm.example' }], now - DAY, now + 365 * DAY)
    const expired = await certificate([{ type: 7, ip: '127.0.0.1' }], now - 400 * DAY, now - DAY)
    const dir = mkdtempSync(join(tmpdir(), 'smm-ca-file-'))
    const daemons: TestDaemon[] = []
    try {
      for (const [pems, code] of [[elsewhere, 'ERR_TLS_CERT_ALTNAME_INVALID'], [expired, 'CERT_HAS_EXPIRED']] as const) {
        const name = String(daemons.length)
        writeFileSync(join(dir, `${name}.pem`), pems.cert)
        writeFileSync(join(dir, `${name}.key`), pems.private)
        const d = await startTestDaemon({ tlsCert: join(dir, `${name}.pem`), tlsKey: join(dir, `${name}.key`) })
        daemons.push(d)
        const client = new SmmClient({ url: d.url, apiKey: d.key, ca: pems.cert })
        const error = await client.getMe().then(() => undefined, (e: unknown) => e)
        expect(error).toMatchObject({ name: 'ConnectionError', code: 'certificate_untrusted' })
        expect((error as Error).message).toContain(code)
        expect(meRequests(d)).toBe(0)
        client.close()
      }

      // Another server's certificate is Node's to judge against the file, and it refuses it.
      const before = meRequests(t)
      const other = new SmmClient({ url: t.url, apiKey: t.key, ca: elsewhere.cert })
      await expect(other.getMe()).rejects.toMatchObject({ name: 'ConnectionError', code: 'certificate_untrusted' })
      other.close()
      expect(meRequests(t)).toBe(before)
    } finally {
      for (const d of daemons) await d.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('gives up on a server that never completes the handshake, pinned or not', async () => {
    const silent = net.createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const url = `https://127.0.0.1:${(silent.address() as net.AddressInfo).port}`
    try {
      for (const trust of [{ fingerprint: t.daemon.tls!.fingerprint }, { ca: t.ca }]) {
        const client = new SmmClient({ url, apiKey: t.key, timeoutMs: 150, ...trust })
        await expect(client.getMe()).rejects.toMatchObject({ name: 'ConnectionError', code: 'timeout' })
        client.close()
      }
    } finally {
      silent.close()
    }
  })

  it('waits out a short Retry-After once, and gives up at once on a long one', async () => {
    const me = await smm.getMe()
    await t.daemon.store.users.setPlan(me.id, 'enterprise', { per_minute: 1, per_hour: 1000, per_day: 1000 })
    t.clock.advance(60_000)
    const waits: number[] = []
    const patient = new SmmClient({
      url: t.url,
      apiKey: t.key,
      ca: t.ca,
      maxRetryWaitSeconds: 60,
      onRetry: (event) => waits.push(event.waitSeconds),
      sleep: async (ms) => t.clock.advance(ms),
    })
    await patient.getMe()
    const created = await patient.createApiKey({ body: { name: 'after a wait' } })
    expect(created.name).toBe('after a wait')
    expect(waits).toHaveLength(1)
    expect(waits[0]).toBeGreaterThanOrEqual(1)

    const hasty = new SmmClient({ url: t.url, apiKey: t.key, ca: t.ca, maxRetryWaitSeconds: 0, onRetry: () => waits.push(-1) })
    await expect(hasty.getMe()).rejects.toMatchObject({ status: 429, code: 'rate_limited', extensions: { violated: ['minute'] } })
    expect(waits).toHaveLength(1)
    await t.daemon.store.users.setPlan(me.id, 'standard')
    t.clock.advance(60_000)
  })
})
