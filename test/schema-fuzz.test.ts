import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes } from '../src/contract.js'
import { buildOpenApi } from '../src/openapi.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { httpsClient } from './helpers/http.js'
import { contractCheck } from './helpers/openapi-check.js'
import { png } from './helpers/media-files.js'
import { feedAccount, liftLimits } from './helpers/posts.js'
import { fuzz, type FuzzDoc } from './helpers/schema-fuzz.js'

// The budget: requests of each kind per operation, and the seed. The suite sends the same
// requests every time; `npm run fuzz` sends 100 of each kind per operation from a random seed,
// which it prints (FUZZ_SEED=<seed> sends those again; FUZZ_VERBOSE=1 adds each operation's statuses).
const RUNS = Number(process.env.FUZZ_RUNS ?? 20)
const SEED = process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 32)

let t: TestDaemon
beforeAll(async () => {
  // No background work: a webhook made by the fuzzer is not delivered, a post not published.
  t = await startTestDaemon({ backgroundWorkers: false })
  await liftLimits(t)
})
afterAll(() => t.stop())

describe('a schema fuzzer reading the OpenAPI document', () => {
  it('gets no 5xx, no answer the document does not declare, and a refusal for every request the document refuses', { timeout: 600_000 }, async () => {
    const key = t.key
    const json = (res: { status: number; body: any }) => {
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
      return res.body
    }
    // Resources for the requests to name, so that they reach past 404.
    const account = await feedAccount(t, 'Fuzz')
    const later = new Date(t.clock.now() + 86_400_000).toISOString()
    const post = json(await t.http.post('/v1/posts', { account_id: account, content: 'Scheduled', platforms: ['feed'], scheduled_at: later }, { key })).id
    const draft = json(await t.http.post('/v1/posts', { account_id: account, content: 'Draft', platforms: ['feed'], draft: true }, { key })).id
    const webhook = json(await t.http.post('/v1/webhooks', { url: 'https://93.184.215.14/hooks', events: ['*'] }, { key })).id
    const spareKey = json(await t.http.post('/v1/api-keys', { name: 'spare', scopes: ['posts:read'] }, { key })).id
    const workspace = json(await t.http.post('/v1/workspaces', { name: 'Fuzz team' }, { key })).id
    const media = json(await t.http.request('POST', '/v1/media', { key, raw: png(4, 4), headers: { 'content-type': 'image/png' } }))
    const me = json(await t.http.get('/v1/me', { key }))

    const doc = buildOpenApi(routes, 'test') as unknown as FuzzDoc
    const client = httpsClient(t.url, t.ca)
    const report = await fuzz(doc, {
      runs: RUNS,
      seed: SEED,
      known: {
        // Path parameters, by the segment before them.
        '/posts/': [post, draft],
        '/accounts/': [account],
        '/webhooks/': [webhook],
        '/api-keys/': [spareKey],
        '/workspaces/': [workspace, `wsp_${me.id.slice(4)}`],
        '/media/': [media.id],
        '/members/': [me.id],
        '/feeds/': [account],
        // Body and query fields, by name.
        account_id: [account],
        post_id: [post],
        workspace_id: [workspace],
        platforms: [['feed']],
        content: ['Launch day', 'A thread, in parts'],
        media: [[{ id: media.id }]],
        // Plain posts more often than not: no per-platform version for a platform the post does
        // not target, no draft in a queue, a series of a day's interval, a thread without blanks.
        overrides: [{}],
        draft: [false],
        queue: [false],
        repeat: [{ interval: 'P1D', count: 3 }],
        thread: [[], [{ content: 'And then' }]],
        url: ['https://93.184.215.14/hooks'],
        // Mostly a fresh key: one sent again with another request is refused, as it should be.
        'Idempotency-Key': fc.noBias(fc.uuid()),
        // tus's version, without which every upload request is 412.
        'Tus-Resumable': ['1.0.0'],
      },
      send: (method, path, { headers, raw, key: needsKey }) => client.request(method, path, { headers, raw, key: needsKey ? key : undefined }),
      check: contractCheck(),
    })
    client.close()
    console.log(`schema fuzz (seed ${SEED}, ${RUNS} runs a kind): ${report.requests} requests, ${report.positive} the document allows, ${report.negative} it refuses; statuses ${JSON.stringify(report.byStatus)}`)
    const refused = Object.entries(report.allowedRefused).sort(([, a], [, b]) => b.count - a.count)
    console.log(`allowed by the document, refused by the server (422):\n${refused.map(([where, { count, example }]) => `  ${count} × ${where} (${example})`).join('\n')}`)
    if (process.env.FUZZ_VERBOSE) console.log(Object.entries(report.byOperation).map(([op, statuses]) => `${op} ${JSON.stringify(statuses)}`).join('\n'))
    expect(report.failures).toEqual([])
    // Every operation was tried both ways, and requests got through to real work.
    expect(report.requests).toBeGreaterThan(Object.values(routes).length * RUNS)
    expect(report.negative).toBeGreaterThan(report.requests / 4)
    for (const status of [200, 201, 404, 422]) expect(report.byStatus[status], `no ${status} answered`).toBeGreaterThan(0)
  })
})
