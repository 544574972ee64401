import { existsSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startDaemon } from '../daemon/main.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'

/** What the model server received. */
interface Received {
  method: string
  path: string
  authorization: string | undefined
  body: { model: string; messages: { role: string; content: string }[]; n?: number }
}
type Answer = (request: Received, res: http.ServerResponse) => void

const API_KEY = 'sk-test-4f8a1c9e2b7d6a5f3e1c0b9a8d7e6f5a'

/**
 * A loopback server speaking OpenAI's chat-completions protocol over plain HTTP, as Ollama and
 * llama.cpp do on localhost: POST /v1/chat/completions, answers and error bodies as documented.
 */
function modelServer() {
  const received: Received[] = []
  let answer: Answer = () => undefined
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const request = { method: req.method!, path: req.url!, authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }
      received.push(request)
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') return error(res, 404, 'Unknown request URL', 'invalid_request_error', 'unknown_url')
      answer(request, res)
    })
  })
  return {
    server,
    received,
    set answer(next: Answer) {
      answer = next
    },
  }
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

/** OpenAI's documented error body. */
function error(res: http.ServerResponse, status: number, message: string, type: string, code: string | null): void {
  json(res, status, { error: { message, type, param: null, code } })
}

let completionCount = 0
function completion(contents: string[], model = 'gpt-test-2026-01-01') {
  return {
    id: `chatcmpl-${++completionCount}`,
    object: 'chat.completion',
    created: 1_790_000_000,
    model,
    choices: contents.map((content, index) => ({ index, message: { role: 'assistant', content }, finish_reason: 'stop' })),
    usage: { prompt_tokens: 50, completion_tokens: 20 * contents.length, total_tokens: 50 + 20 * contents.length },
  }
}

const model = modelServer()
let t: TestDaemon
// The model's address and key, as a daemon is configured with them; the AI timeout stays at its
// default but for the test of it: a busy machine's answer may take more than a short one.
let ai: { aiBaseUrl: string; aiApiKey: string; aiModel: string }
beforeAll(async () => {
  await new Promise<void>((resolve) => model.server.listen(0, '127.0.0.1', resolve))
  const { port } = model.server.address() as AddressInfo
  ai = { aiBaseUrl: `http://127.0.0.1:${port}/v1`, aiApiKey: API_KEY, aiModel: 'gpt-test' }
  t = await startTestDaemon(ai)
})
afterAll(async () => {
  await t.stop()
  model.server.closeAllConnections()
  await new Promise((resolve) => model.server.close(resolve))
})
beforeEach(() => {
  model.received.length = 0
})

const generate = (body: unknown, headers?: Record<string, string>) => t.http.post('/v1/ai/generate', body, { key: t.key, headers })

describe('POST /v1/ai/generate with an OpenAI-compatible server', () => {
  it('asks the configured model with the platform rules and returns its drafts', async () => {
    model.answer = (req, res) => json(res, 200, completion([`Draft ${req.body.messages.length / 2}: our café opens at 7am. #coffee`]))
    const res = await generate({ prompt: 'Our café now opens at 7am', platforms: ['mastodon'], tone: 'witty', variants: 2, language: 'en', hashtags: true })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      provider: 'openai',
      model: 'gpt-test-2026-01-01',
      variants: [
        { platform: 'mastodon', content: 'Draft 1: our café opens at 7am. #coffee', characters: 39 },
        { platform: 'mastodon', content: 'Draft 2: our café opens at 7am. #coffee', characters: 39 },
      ],
      usage: { requests: 2, prompt_tokens: 100, completion_tokens: 40, total_tokens: 140 },
      notes: [],
    })
    expect(res.body.id).toMatch(/^gen_/)
    expect(model.received).toHaveLength(2)
    const [sent, next] = model.received
    expect(sent!.authorization).toBe(`Bearer ${API_KEY}`)
    expect(sent!.body.model).toBe('gpt-test')
    // llama.cpp's server refuses any n but 1: one draft per turn instead.
    expect(sent!.body.n).toBeUndefined()
    expect(sent!.body.messages[0]!.role).toBe('system')
    expect(sent!.body.messages[0]!.content).toMatch(/Mastodon and must be at most 500 characters \(a link counts as 23\)/)
    expect(sent!.body.messages[0]!.content).toMatch(/Tone: witty\..*BCP 47 tag is en\..*hashtags/)
    expect(sent!.body.messages[1]).toEqual({ role: 'user', content: 'Our café now opens at 7am' })
    expect(next!.body.messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Draft 1: our café opens at 7am. #coffee' },
      { role: 'user', content: 'Write another draft of this post, clearly different from the previous ones.' },
    ])
  })

  it('holds one conversation per platform, and strips reasoning blocks and quotes from answers', async () => {
    let i = 0
    model.answer = (_req, res) => json(res, 200, completion([`<think>keep it short</think>"Answer ${++i}"`]))
    const res = await generate({ prompt: 'Spring menu is out', platforms: ['bluesky', 'discord'], variants: 3 })
    expect(model.received.every((r) => r.body.n === undefined)).toBe(true)
    expect(res.status).toBe(200)
    expect(res.body.variants.map((v: { platform: string }) => v.platform)).toEqual(['bluesky', 'bluesky', 'bluesky', 'discord', 'discord', 'discord'])
    expect(new Set(res.body.variants.map((v: { content: string }) => v.content)).size).toBe(6)
    expect(res.body.variants[0].content).toMatch(/^Answer \d$/)
    expect(res.body.usage.requests).toBe(6)
    const third = model.received.find((r) => r.body.messages.length === 6)!
    expect(third.body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user'])
    expect(third.body.messages[5]!.content).toMatch(/different from the previous ones/)
  })

  it('re-asks once with the limit stated when a draft is too long, and returns the shorter answer', async () => {
    model.answer = (req, res) => {
      const retry = req.body.messages.length > 2
      json(res, 200, completion([retry ? 'Short and sweet: new hours from Monday.' : `${'Long words here. '.repeat(40)}`]))
    }
    const res = await generate({ prompt: 'New opening hours', platforms: ['mastodon'] })
    expect(res.status).toBe(200)
    expect(res.body.variants).toEqual([{ platform: 'mastodon', content: 'Short and sweet: new hours from Monday.', characters: 39 }])
    expect(model.received).toHaveLength(2)
    const ask = model.received[1]!.body.messages
    expect(ask.at(-2)!.role).toBe('assistant')
    expect(ask.at(-1)!.content).toMatch(/That draft is 679 characters as Mastodon counts them; the limit is 500/)
    expect(res.body.usage.requests).toBe(2)
  })

  it('cuts at a sentence end when the second answer is still too long: never returned over the limit', async () => {
    const sentence = 'Our roastery opens its doors to visitors this Saturday morning. '
    model.answer = (_req, res) => json(res, 200, completion([sentence.repeat(20).trim()]))
    const res = await generate({ prompt: 'Open day', platforms: ['bluesky'] })
    expect(res.status).toBe(200)
    const [variant] = res.body.variants
    expect(variant.content).toBe(sentence.repeat(4).trim())
    expect(variant.characters).toBe(variant.content.length)
    expect(variant.characters).toBeLessThanOrEqual(300)
    expect(model.received).toHaveLength(2)
  })

  it('keeps the hashtags that end a draft whole when it cuts one to fit, cutting the text before them', async () => {
    const sentence = 'Our roastery opens its doors to visitors this Saturday morning. '
    model.answer = (_req, res) => json(res, 200, completion([`${sentence.repeat(20).trim()}\n\n#Coffee #OpenDay #Leith`]))
    const res = await generate({ prompt: 'Open day', platforms: ['bluesky'], hashtags: true })
    expect(res.status).toBe(200)
    const [variant] = res.body.variants
    expect(variant.content).toMatch(/^(Our roastery opens its doors to visitors this Saturday morning\. ?)+\n\n#Coffee #OpenDay #Leith$/)
    expect(variant.characters).toBeLessThanOrEqual(300)
  })
})

describe('AI provider failures', () => {
  const cases = [
    { status: 401, message: `Incorrect API key provided: ${API_KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`, type: 'invalid_request_error', code: 'invalid_api_key' },
    { status: 429, message: 'Rate limit reached for gpt-test on requests per min (RPM): Limit 3, Used 3, Requested 1.', type: 'requests', code: 'rate_limit_exceeded' },
    { status: 500, message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', code: null },
  ]
  for (const c of cases) {
    it(`turns the server's ${c.status} into 502 ai_provider_error, saying why without leaking the key`, async () => {
      model.answer = (_req, res) => error(res, c.status, c.message, c.type, c.code)
      const res = await generate({ prompt: 'Hello', platforms: ['slack'] })
      expect(res.status).toBe(502)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(res.body).toMatchObject({ code: 'ai_provider_error', provider_status: c.status })
      expect(res.body.detail).toMatch(new RegExp(`^The AI provider at 127\\.0\\.0\\.1:\\d+ answered ${c.status}: `))
      expect(res.body.detail).toContain(c.message.replace(API_KEY, '[redacted]').slice(0, 60))
      expect(res.text).not.toContain(API_KEY)
      expect(res.text).not.toContain(API_KEY.slice(8))
      const logs = t.logs.join('\n')
      expect(logs).toContain(`answered ${c.status}`)
      expect(logs).not.toContain(API_KEY.slice(8))
    })
  }

  it('gives up on a server that does not answer within the configured timeout', async () => {
    model.answer = () => undefined // holds the request open; closed at the end of the file
    const impatient = await startTestDaemon({ ...ai, aiTimeoutMs: 300 })
    try {
      const started = performance.now()
      const res = await impatient.http.post('/v1/ai/generate', { prompt: 'Hello', platforms: ['telegram'] }, { key: impatient.key })
      expect(res.status).toBe(502)
      expect(res.body.code).toBe('ai_provider_error')
      expect(res.body.detail).toMatch(/did not answer within 0\.3 s/)
      expect(performance.now() - started).toBeLessThan(2_000)
    } finally {
      await impatient.stop()
    }
  })

  it('refuses an answer that is not a chat completion, or a refusal, saying which', async () => {
    model.answer = (_req, res) => json(res, 200, { object: 'list', data: [] })
    const shape = await generate({ prompt: 'Hello' })
    expect(shape.status).toBe(502)
    expect(shape.body.detail).toMatch(/without a message in choices\[0\]\.message\.content/)

    model.answer = (_req, res) =>
      json(res, 200, { ...completion(['']), choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: "I'm sorry, I can't help with that." }, finish_reason: 'stop' }] })
    const refused = await generate({ prompt: 'Hello' })
    expect(refused.status).toBe(502)
    expect(refused.body.detail).toMatch(/declined to write this post: I'm sorry, I can't help with that\./)

    model.answer = (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>It works!</html>')
    const html = await generate({ prompt: 'Hello' })
    expect(html.status).toBe(502)
    expect(html.body.detail).toMatch(/something other than JSON/)
  })
})

describe('Idempotency-Key on POST /v1/ai/generate', () => {
  it('replays the first generation without asking the model again; another body with the key is 422', async () => {
    let i = 0
    model.answer = (_req, res) => json(res, 200, completion([`Generated ${++i}`]))
    const body = { prompt: 'Weekend opening hours', platforms: ['discord'] }
    const first = await generate(body, { 'Idempotency-Key': 'gen-weekend-1' })
    const again = await generate(body, { 'Idempotency-Key': 'gen-weekend-1' })
    expect(first.status).toBe(200)
    expect(again.status).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.body).toEqual(first.body)
    expect(model.received).toHaveLength(1)

    const other = await generate({ ...body, tone: 'witty' }, { 'Idempotency-Key': 'gen-weekend-1' })
    expect(other.status).toBe(422)
    expect(other.body.code).toBe('idempotency_key_reused')
    const fresh = await generate(body, { 'Idempotency-Key': 'gen-weekend-2' })
    expect(fresh.body.variants[0].content).toBe('Generated 2')
  })
})

describe('AI provider configuration', () => {
  it('answers 502 when nothing listens at the configured address (Ollama not started, say)', async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise((resolve) => closed.close(resolve))
    const other = await startTestDaemon({ aiBaseUrl: `http://127.0.0.1:${port}/v1`, aiModel: 'llama3.2' })
    try {
      const res = await other.http.post('/v1/ai/generate', { prompt: 'Hello' }, { key: other.key })
      expect(res.status).toBe(502)
      expect(res.body.code).toBe('ai_provider_error')
      expect(res.body.detail).toMatch(new RegExp(`^The AI provider at 127\\.0\\.0\\.1:${port} could not be reached: .*ECONNREFUSED`))
    } finally {
      await other.stop()
    }
  })


  it('refuses to start with a base URL but no model, naming the setting, before touching the data dir', async () => {
    const dataDir = join(tmpdir(), `smm-ai-config-${process.pid}`)
    const options = { dataDir, host: '127.0.0.1', port: 0 }
    await expect(startDaemon({ ...options, aiBaseUrl: 'http://127.0.0.1:11434/v1' })).rejects.toThrow(/SMM_AI_MODEL \(--ai-model\) is required/)
    await expect(startDaemon({ ...options, aiBaseUrl: 'localhost:11434', aiModel: 'llama3.2' })).rejects.toThrow(/--ai-base-url\) must be an http or https URL/)
    expect(existsSync(dataDir)).toBe(false)
  })
})
