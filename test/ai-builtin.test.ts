import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'

let t: TestDaemon
beforeAll(async () => {
  t = await startTestDaemon()
})
afterAll(() => t.stop())

const generate = (body: unknown, headers?: Record<string, string>) => t.http.post('/v1/ai/generate', body, { key: t.key, headers })

// Counted here independently of the daemon, the way each platform documents it.
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' })
const graphemes = (s: string) => [...segmenter.segment(s)].length
const RULES: Record<string, (s: string) => boolean> = {
  feed: (s) => s.length <= 10_000,
  mastodon: (s) => graphemes(s.replace(/https?:\/\/\S+/g, 'x'.repeat(23))) <= 500,
  bluesky: (s) => graphemes(s) <= 300 && Buffer.byteLength(s) <= 3_000,
  telegram: (s) => s.length <= 4_096,
  discord: (s) => s.length <= 2_000,
  slack: (s) => s.length <= 4_000,
}
const PLATFORMS = Object.keys(RULES)

// A prompt over every limit but the feed's and Slack's: sentences, a long URL, emoji, accents.
const LONG_PROMPT = [
  'Write a post about our autumn roastery open day in Lyon.',
  'Visitors can taste six single-origin coffees, watch the roaster at work and meet the growers from Huila who travelled to be with us 👩🏽‍🌾☕.',
  'Details and tickets: https://example.com/events/autumn-open-day-2026?utm_source=social&utm_medium=post&utm_campaign=roastery-open-day.',
  ...Array.from({ length: 28 }, (_, i) => `Session ${i + 1} is about brewing method number ${i + 1}, with a café crème tasting and a short talk about sourcing.`),
].join(' ')

describe('POST /v1/ai/generate with the builtin helper', () => {
  it('says honestly what it is, and gives the same drafts for the same request', async () => {
    const body = { prompt: 'Announce that our new Ethiopian coffee blend is in all stores from Monday', platforms: ['mastodon', 'bluesky'], tone: 'friendly', variants: 3 }
    const first = await generate(body)
    const second = await generate(body)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ provider: 'builtin', model: 'builtin-drafting-helper-1', usage: { requests: 0, total_tokens: null } })
    expect(first.body.id).toMatch(/^gen_[0-9A-Z]{26}$/)
    expect(second.body.id).not.toBe(first.body.id)
    expect(second.body.variants).toEqual(first.body.variants)
    expect(first.body.notes.join(' ')).toMatch(/not by a language model/)
    expect(first.body.variants.map((v: { platform: string }) => v.platform)).toEqual(['mastodon', 'mastodon', 'mastodon', 'bluesky', 'bluesky', 'bluesky'])
    const mastodon = first.body.variants.slice(0, 3).map((v: { content: string }) => v.content)
    expect(new Set(mastodon).size).toBe(3)
    for (const content of mastodon) expect(content).toContain('Our new Ethiopian coffee blend is in all stores from Monday')
    expect(first.body.variants[0].characters).toBe(graphemes(first.body.variants[0].content))
  })

  it('fits a long prompt to every platform, cutting at sentence ends and keeping each tone and the hashtags', async () => {
    const res = await generate({ prompt: LONG_PROMPT, platforms: PLATFORMS, tone: 'enthusiastic', variants: 5, hashtags: true })
    expect(res.status).toBe(200)
    expect(res.body.variants).toHaveLength(PLATFORMS.length * 5)
    for (const variant of res.body.variants) {
      expect(RULES[variant.platform]!(variant.content), `${variant.platform}: ${variant.content.length}`).toBe(true)
    }
    const bluesky = res.body.variants.filter((v: { platform: string }) => v.platform === 'bluesky')
    expect(new Set(bluesky.map((v: { content: string }) => v.content)).size).toBe(5)
    // Cut at the last sentence that fits, before the link (which Bluesky counts in full).
    expect(bluesky[0].content).toBe(
      'Big news! Our autumn roastery open day in Lyon. Visitors can taste six single-origin coffees, watch the roaster at work and meet the growers from Huila who travelled to be with us 👩🏽‍🌾☕. 🎉\n\n#Session #Brewing #Method',
    )
    expect(bluesky[0].characters).toBe(graphemes(bluesky[0].content))
    // Mastodon counts the link as 23, so its drafts keep it whole where Bluesky's cannot.
    const mastodon = res.body.variants.find((v: { platform: string }) => v.platform === 'mastodon')
    expect(mastodon.content).toMatch(/sourcing\. 🎉\n\n#Session #Brewing #Method$/u)
    expect(mastodon.characters).toBeGreaterThan(400)
    expect(mastodon.content).toContain('https://example.com/events/autumn-open-day-2026?utm_source=social&utm_medium=post&utm_campaign=roastery-open-day')
    // Slack takes the whole prompt, with hashtags from its most frequent words.
    const slack = res.body.variants.find((v: { platform: string }) => v.platform === 'slack')
    expect(slack.content).toMatch(/\n\n#Session #Brewing #Method$/)
  })

  it('gives one platform-neutral set, short enough for every platform, when none is named', async () => {
    const res = await generate({ prompt: LONG_PROMPT, variants: 2 })
    expect(res.status).toBe(200)
    expect(res.body.variants).toHaveLength(2)
    for (const variant of res.body.variants) {
      expect(variant.platform).toBeNull()
      for (const platform of PLATFORMS) expect(RULES[platform]!(variant.content)).toBe(true)
      expect(variant.characters).toBe(graphemes(variant.content))
    }
    // Default tone is neutral: the first frame is the bare message.
    expect(res.body.variants[0].content.startsWith('Our autumn roastery open day in Lyon.')).toBe(true)
  })

  it('keeps each hashtag one word: marks stay with their letters, compounds and possessives are not split', async () => {
    // "São Tomé" typed with combining accents, as some keyboards and pastes produce it.
    const prompt = 'Open-air tasting of São Tomé cacao at Maria\u2019s open-air stall, Saturday\u2019s open-air market'.normalize('NFD')
    const res = await generate({ prompt, platforms: ['discord'], hashtags: true })
    const tags = res.body.variants[0].content.split('\n\n').at(-1)
    expect(tags).toBe('#OpenAir #Tasting #Tomé')
    for (const tag of tags.split(' ')) expect(tag).toMatch(/^#[\p{L}\p{N}]+$/u)
  })

  it('writes each tone differently and adds hashtags from the prompt only when asked', async () => {
    const prompt = 'Our bakery now opens at 7am on weekdays, with fresh sourdough bread and sourdough pastries'
    const tones = ['neutral', 'friendly', 'professional', 'witty', 'enthusiastic']
    const drafts = await Promise.all(tones.map((tone) => generate({ prompt, tone, platforms: ['discord'] })))
    const contents = drafts.map((d) => d.body.variants[0].content)
    expect(new Set(contents).size).toBe(5)
    expect(contents[2]).toBe(`We are pleased to announce: ${prompt}.`)
    expect(contents.some((c) => c.includes('#'))).toBe(false)
    const tagged = await generate({ prompt, platforms: ['discord'], hashtags: true })
    expect(tagged.body.variants[0].content).toBe(`${prompt}.\n\n#Sourdough #Bakery #Opens`)
  })

  it('strips the request wrapping from the prompt and puts no full stop after a closing link', async () => {
    const res = await generate({ prompt: 'Write a short post about our new vegan menu, launching Friday at https://example.com/menu', hashtags: true, platforms: ['bluesky'] })
    expect(res.body.variants[0].content).toBe('Our new vegan menu, launching Friday at https://example.com/menu\n\n#Vegan #Menu #Friday')
  })

  it('frames drafts in French, and says it does not translate the prompt; says so too for a language it lacks', async () => {
    const fr = await generate({ prompt: 'Notre boulangerie ouvre à 7 h en semaine', tone: 'enthusiastic', language: 'fr-FR', platforms: ['telegram'] })
    expect(fr.body.variants[0].content).toBe('Grande nouvelle ! Notre boulangerie ouvre à 7 h en semaine ! 🎉')
    expect(fr.body.notes.join(' ')).toMatch(/does not translate: the framing words are in fr-FR/)
    const ja = await generate({ prompt: 'New opening hours from Monday', language: 'ja', platforms: ['telegram'] })
    expect(ja.status).toBe(200)
    expect(ja.body.notes.join(' ')).toMatch(/cannot write in ja/)
  })
})

describe('POST /v1/ai/generate validation', () => {
  it('lists every invalid field at once', async () => {
    const res = await generate({ prompt: '   ', platforms: ['mastodon', 'myspace'], tone: 'sarcastic', variants: 6, language: 'not a tag!', hashtags: 'yes' })
    expect(res.status).toBe(422)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.body.code).toBe('validation_error')
    const pointers = res.body.errors.map((e: { pointer: string }) => e.pointer).sort()
    expect(pointers).toEqual(['#/hashtags', '#/language', '#/platforms/1', '#/prompt', '#/tone', '#/variants'])
    const detail = (pointer: string) => res.body.errors.find((e: { pointer: string }) => e.pointer === pointer).detail
    expect(detail('#/platforms/1')).toMatch(/must be one of: feed, mastodon, bluesky/)
    expect(detail('#/variants')).toBe('must be a whole number from 1 to 5')
    expect(detail('#/tone')).toMatch(/neutral, friendly, professional, witty, enthusiastic/)
  })

  it('refuses a platform named twice, and an empty list of platforms', async () => {
    const twice = await generate({ prompt: 'Hello', platforms: ['bluesky', 'bluesky'] })
    expect(twice.body.errors).toEqual([{ pointer: '#/platforms', code: 'invalid_value', detail: 'must not repeat a platform' }])
    const empty = await generate({ prompt: 'Hello', platforms: [] })
    expect(empty.body.errors[0].detail).toMatch(/at least one platform, or be left out/)
  })

  it('refuses a prompt over 4,000 characters, a missing prompt, and an unknown field', async () => {
    const long = await generate({ prompt: 'x'.repeat(4001) })
    expect(long.status).toBe(422)
    expect(long.body.errors).toEqual([{ pointer: '#/prompt', code: 'invalid_value', detail: 'must be at most 4,000 characters' }])
    expect((await generate({ prompt: 'x'.repeat(4000) })).status).toBe(200)

    const missing = await generate({ platforms: ['feed'] })
    expect(missing.body.errors).toEqual([{ pointer: '#/prompt', code: 'required', detail: 'is required' }])

    const typo = await generate({ prompt: 'Hello', platfroms: ['feed'] })
    expect(typo.status).toBe(422)
    expect(typo.body.code).toBe('unknown_field')
    expect(typo.body.errors).toEqual([{ pointer: '#/platfroms', code: 'unknown_field', detail: 'is not a field of this request; check its spelling' }])
  })

  it('needs the ai:generate scope', async () => {
    const created = await t.http.post('/v1/api-keys', { name: 'reader', scopes: ['posts:read'] }, { key: t.key })
    const res = await t.http.post('/v1/ai/generate', { prompt: 'Hello' }, { key: created.body.secret })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('insufficient_scope')
  })

  it('is in the OpenAPI document', async () => {
    const res = await t.http.get('/v1/openapi.json')
    const operation = res.body.paths['/v1/ai/generate'].post
    expect(operation.operationId).toBe('generateContent')
    expect(operation['x-required-scope']).toBe('ai:generate')
    expect(operation.requestBody.content['application/json'].schema.required).toEqual(['prompt'])
    expect(operation.responses['502'].content['application/problem+json']).toBeDefined()
  })
})
