import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDaemon } from '../daemon/main.js'
import { loadSecretKey } from '../daemon/secret-box.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { eventsOf, liftLimits, otherUser } from './helpers/posts.js'

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon()
  await liftLimits(t)
})
afterAll(() => t.stop())

describe('accounts', () => {
  it('creates an account, connects feed with no credentials, and lists it by platform', async () => {
    const created = await t.http.post('/v1/accounts', { name: '  Acme  ' }, { key: t.key })
    expect(created.status).toBe(201)
    expect(created.headers.location).toBe(`/v1/accounts/${created.body.id}`)
    expect(created.body).toEqual({ id: expect.stringMatching(/^acc_[0-9A-Z]{26}$/), workspace_id: expect.stringMatching(/^wsp_[0-9A-Z]{26}$/), name: 'Acme', connections: [], created_at: new Date(t.clock.now()).toISOString() })

    const connected = await t.http.post(`/v1/accounts/${created.body.id}/connections`, { platform: 'feed' }, { key: t.key })
    expect(connected.status).toBe(201)
    expect(connected.body).toEqual({ platform: 'feed', handle: 'feed', display_name: expect.any(String), status: 'active', connected_at: expect.any(String) })

    const other = await t.http.post('/v1/accounts', { name: 'Unconnected' }, { key: t.key })
    const feedOnly = await t.http.get('/v1/accounts?platform=feed', { key: t.key })
    expect(feedOnly.body.data.map((a: any) => a.id)).toContain(created.body.id)
    expect(feedOnly.body.data.map((a: any) => a.id)).not.toContain(other.body.id)
    const got = await t.http.get(`/v1/accounts/${created.body.id}`, { key: t.key })
    expect(got.body.connections).toEqual([connected.body])

    const [event] = (await eventsOf(t, 'account.connected')).filter((e) => e.data.id === created.body.id)
    expect(event!.data).toMatchObject({ id: created.body.id, platform: 'feed', connections: [{ platform: 'feed', status: 'active' }] })
  })

  it('renames an account, with account.updated, and refuses a blank name or another user\'s account', async () => {
    const acc = await t.http.post('/v1/accounts', { name: 'Old name' }, { key: t.key })
    const renamed = await t.http.patch(`/v1/accounts/${acc.body.id}`, { name: ' New name ' }, { key: t.key })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ id: acc.body.id, name: 'New name' })
    expect((await t.http.get(`/v1/accounts/${acc.body.id}`, { key: t.key })).body.name).toBe('New name')
    expect((await eventsOf(t, 'account.updated')).map((e) => e.data)).toContainEqual(expect.objectContaining({ id: acc.body.id, name: 'New name' }))
    const blank = await t.http.patch(`/v1/accounts/${acc.body.id}`, { name: '  ' }, { key: t.key })
    expect(blank.status).toBe(422)
    expect(blank.body.errors).toEqual([expect.objectContaining({ pointer: '#/name', detail: 'must not be empty' })])
    const mallory = await otherUser(t)
    expect((await t.http.patch(`/v1/accounts/${acc.body.id}`, { name: 'Mine' }, { key: mallory.key })).status).toBe(404)
    expect((await t.http.get(`/v1/accounts/${acc.body.id}`, { key: t.key })).body.name).toBe('New name')
  })

  it('deletes an account only when no post of it is scheduled, unless told to cancel them, in one unit of work', async () => {
    const acc = (await t.http.post('/v1/accounts', { name: 'Going away' }, { key: t.key })).body.id
    await t.http.post(`/v1/accounts/${acc}/connections`, { platform: 'feed' }, { key: t.key })
    const post = await t.http.post('/v1/posts', { account_id: acc, content: 'later', platforms: ['feed'], scheduled_at: new Date(t.clock.now() + 3_600_000).toISOString() }, { key: t.key })

    const refused = await t.http.delete(`/v1/accounts/${acc}`, { key: t.key })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ code: 'account_has_scheduled_posts' })
    expect(refused.body.detail).toBe(`Account ${acc} has 1 scheduled post or draft; nothing was deleted. Cancel them first, or pass cancel_posts=true to cancel them with it.`)
    expect((await t.http.get(`/v1/posts/${post.body.id}`, { key: t.key })).body.status).toBe('scheduled')
    expect((await t.http.delete(`/v1/accounts/${acc}?cancel_posts=maybe`, { key: t.key })).status).toBe(422)

    const mallory = await otherUser(t)
    expect((await t.http.delete(`/v1/accounts/${acc}?cancel_posts=true`, { key: mallory.key })).status).toBe(404)

    const deleted = await t.http.delete(`/v1/accounts/${acc}?cancel_posts=true`, { key: t.key })
    expect(deleted.status).toBe(204)
    expect((await t.http.get(`/v1/accounts/${acc}`, { key: t.key })).status).toBe(404)
    expect((await t.http.get(`/v1/posts/${post.body.id}`, { key: t.key })).status).toBe(404)
    expect((await t.http.get(`/feeds/${acc}.json`)).status).toBe(404)
    // Subscribers learn the post will not go out, then that the account is gone.
    const cancelled = (await eventsOf(t, 'post.cancelled')).filter((e) => e.data.id === post.body.id)
    expect(cancelled.map((e) => e.data.status)).toEqual(['cancelled'])
    expect((await eventsOf(t, 'account.deleted')).map((e) => e.data)).toEqual([expect.objectContaining({ id: acc, name: 'Going away' })])
    expect((await t.http.delete(`/v1/accounts/${acc}`, { key: t.key })).status).toBe(404)
  })

  it('pages through accounts with a cursor', async () => {
    for (let i = 0; i < 5; i++) await t.http.post('/v1/accounts', { name: `Page ${i}` }, { key: t.key })
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const res: any = await t.http.get(`/v1/accounts?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key: t.key })
      expect(res.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...res.body.data.map((a: any) => a.id))
      cursor = res.body.next_cursor
    } while (cursor)
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen.length).toBeGreaterThanOrEqual(5)
  })

  it('says smm refused a private address, and how to allow it, rather than blaming the platform for the credentials', async () => {
    const account = await t.http.post('/v1/accounts', { name: 'Private' }, { key: t.key })
    const res = await t.http.post(`/v1/accounts/${account.body.id}/connections`, { platform: 'mastodon', credentials: { instance_url: 'https://127.0.0.1:9/', access_token: 'token' } }, { key: t.key })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual([{ pointer: '#/credentials', code: 'address_refused', detail: expect.stringMatching(/^smm refused to connect, so mastodon never saw these credentials: .*127\.0\.0\.1.*--allow-private-network/) }])
    expect(res.body.errors[0].detail).not.toContain('refused these credentials')
  })

  it('refuses unknown platforms, platforms not in this build, bad credentials and unknown fields, naming the field', async () => {
    const account = await t.http.post('/v1/accounts', { name: 'Refusals' }, { key: t.key })
    const path = `/v1/accounts/${account.body.id}/connections`
    const unknown = await t.http.post(path, { platform: 'myspace' }, { key: t.key })
    expect(unknown.status).toBe(422)
    expect(unknown.body.errors).toEqual([expect.objectContaining({ pointer: '#/platform', detail: expect.stringContaining('must be one of: feed') })])

    for (const credentials of [[], ['token'], 'token', null]) {
      const res = await t.http.post(path, { platform: 'feed', credentials }, { key: t.key })
      expect(res.status, JSON.stringify(credentials)).toBe(422)
      expect(res.body.errors[0].pointer).toBe('#/credentials')
    }
    const creds = await t.http.post(path, { platform: 'feed', credentials: { token: 'x' } }, { key: t.key })
    expect(creds.status).toBe(422)
    expect(creds.body.errors).toEqual([expect.objectContaining({ pointer: '#/credentials/token', code: 'unknown_field' })])
    // A misspelt credential of a real platform is named too, before anything is sent to it.
    const misspelt = await t.http.post(path, { platform: 'discord', credentials: { webhook_url: 'https://discord.com/api/webhooks/1/x', webhok_url: 'x' } }, { key: t.key })
    expect(misspelt.status).toBe(422)
    expect(misspelt.body.errors).toEqual([expect.objectContaining({ pointer: '#/credentials/webhok_url', code: 'unknown_field' })])

    const typo = await t.http.post('/v1/accounts', { name: 'x', nmae: 'y' }, { key: t.key })
    expect(typo.status).toBe(422)
    expect(typo.body.errors).toEqual([expect.objectContaining({ pointer: '#/nmae', code: 'unknown_field' })])
  })

  it('gives a clear 422 for a platform whose module is not registered in this build', async () => {
    const account = await t.http.post('/v1/accounts', { name: 'Future' }, { key: t.key })
    // Whichever platforms are still to come, each answers the same way until its module lands.
    for (const platform of ['mastodon', 'bluesky', 'telegram', 'discord', 'slack']) {
      const res = await t.http.post(`/v1/accounts/${account.body.id}/connections`, { platform, credentials: {} }, { key: t.key })
      if (res.status === 422 && res.body.errors[0].code === 'platform_unavailable') {
        expect(res.body.errors[0]).toMatchObject({ pointer: '#/platform', detail: expect.stringContaining(`${platform} is not available`) })
      } else {
        // Registered: then empty credentials are refused field by field instead.
        expect(res.status).toBe(422)
        expect(res.body.errors[0].pointer).toMatch(/^#\/credentials/)
      }
    }
  })

  it('disconnects (204, then 404) and records the event', async () => {
    const account = await t.http.post('/v1/accounts', { name: 'Leaving' }, { key: t.key })
    await t.http.post(`/v1/accounts/${account.body.id}/connections`, { platform: 'feed' }, { key: t.key })
    const gone = await t.http.delete(`/v1/accounts/${account.body.id}/connections/feed`, { key: t.key })
    expect(gone.status).toBe(204)
    const again = await t.http.delete(`/v1/accounts/${account.body.id}/connections/feed`, { key: t.key })
    expect(again.status).toBe(404)
    expect((await t.http.get(`/v1/accounts/${account.body.id}`, { key: t.key })).body.connections).toEqual([])
    const events = (await eventsOf(t, 'account.disconnected')).filter((e) => e.data.id === account.body.id)
    expect(events).toHaveLength(1)
    expect(events[0]!.data.platform).toBe('feed')
  })

  it("hides another user's accounts (404) and keeps them out of lists", async () => {
    const mine = await t.http.post('/v1/accounts', { name: 'Mine' }, { key: t.key })
    const other = await otherUser(t)
    expect((await t.http.get(`/v1/accounts/${mine.body.id}`, { key: other.key })).status).toBe(404)
    expect((await t.http.post(`/v1/accounts/${mine.body.id}/connections`, { platform: 'feed' }, { key: other.key })).status).toBe(404)
    expect((await t.http.get('/v1/accounts', { key: other.key })).body.data).toEqual([])
  })

  it('seals credentials with a 0600 key file: the database never holds them in clear', async () => {
    const keyFile = join(t.dataDir, 'secret.key')
    expect(statSync(keyFile).mode & 0o777).toBe(0o600)
    expect(readFileSync(keyFile)).toHaveLength(32)
    const db = new Database(t.daemon.databaseFile, { readonly: true })
    try {
      const rows = db.prepare('SELECT credentials FROM connections').all() as { credentials: Buffer }[]
      expect(rows.length).toBeGreaterThan(0)
      for (const row of rows) {
        expect(row.credentials[0]).toBe(1)
        expect(row.credentials.toString('utf8')).not.toContain('{}')
      }
    } finally {
      db.close()
    }
  })

  it('takes the sealing key from SMM_SECRET_KEY instead (no key file), and refuses a malformed or exposed one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smm-key-'))
    try {
      await expect(startDaemon({ dataDir: dir, host: '127.0.0.1', port: 0, secretKey: 'c2hvcnQ=' })).rejects.toThrow(/SMM_SECRET_KEY must be the base64 of exactly 32/)
      const key = Buffer.alloc(32, 7).toString('base64')
      const daemon = await startDaemon({ dataDir: dir, host: '127.0.0.1', port: 0, secretKey: key })
      await daemon.close()
      expect(existsSync(join(dir, 'secret.key'))).toBe(false)
      loadSecretKey(dir)
      chmodSync(join(dir, 'secret.key'), 0o644)
      expect(() => loadSecretKey(dir)).toThrow(/readable by other users.*chmod 600/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
