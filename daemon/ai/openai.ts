import { ApiError } from '../../src/errors.js'
import { EgressError, type HttpClient, type OutboundResponse } from '../egress.js'
import type { Target } from './limits.js'
import { shortenKeepingTags } from './shorten.js'
import type { AiProvider, GenerationRequest, ProviderDraft, ProviderOutput } from './types.js'

/** An OpenAI-compatible chat-completions server, as the operator configured it. */
export interface OpenAiConfig {
  /** Up to the version segment: https://api.openai.com/v1, http://localhost:11434/v1 … */
  baseUrl: string
  apiKey?: string
  model: string
  /** Per request to the server. */
  timeoutMs: number
}

interface Message {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/** Model calls and token counts of one generation; null until the server reports a count. */
interface Tally {
  requests: number
  prompt: number | null
  completion: number | null
  total: number | null
}

interface Completion {
  content: string
  model?: string
}

const MAX_ANSWER_BYTES = 2 * 1024 * 1024

/** Error text from the server, made safe to show: no key, nothing token-like, one short line. */
function summarise(text: string, apiKey: string | undefined): string {
  let out = text
  if (apiKey) out = out.split(apiKey).join('[redacted]')
  out = out.replace(/\b(sk|pk|rk)-[\w*-]{6,}/g, '[redacted]').replace(/Bearer\s+\S+/gi, 'Bearer [redacted]')
  out = out.replace(/\s+/g, ' ').trim()
  return out.length > 200 ? `${out.slice(0, 199)}…` : out
}

function providerError(detail: string, providerStatus?: number): ApiError {
  return new ApiError(502, 'ai_provider_error', detail, providerStatus ? { extensions: { provider_status: providerStatus } } : {})
}

/** The message of an error answer: OpenAI's `{"error":{"message":…}}`, Ollama's `{"error":"…"}`, or the text. */
function errorMessage(response: OutboundResponse): string {
  try {
    const body = response.json<{ error?: { message?: unknown } | string; message?: unknown }>()
    if (typeof body.error === 'string') return body.error
    if (typeof body.error?.message === 'string') return body.error.message
    if (typeof body.message === 'string') return body.message
  } catch {
    // Not JSON (a proxy's HTML page, say): its text is the best account of what went wrong.
  }
  return response.text() || 'no explanation given'
}

/** A model's answer as a post: reasoning blocks and wrapping quotes removed. */
function cleanAnswer(content: string): string {
  let text = content.replace(/<think>[\s\S]*?<\/think>/g, '').trim()
  const quoted = /^(["“«'])([\s\S]*)(["”»'])$/u.exec(text)
  if (quoted && !quoted[2]!.includes(quoted[1]!)) text = quoted[2]!.trim()
  return text
}

/** Where the platform counts every link at one length (Mastodon's 23), the model must know to use links freely. */
function linkNote(target: Target): string {
  const urlLength = target.limits?.text.url_length
  return urlLength == null ? '' : ` (a link counts as ${urlLength})`
}

function systemPrompt(request: GenerationRequest, target: Target): string {
  const limit = target.measure('').limit
  const fitting =
    target.platform === null
      ? `The post must fit every social platform, so it must be at most ${limit} characters.`
      : `The post is for ${target.label} and must be at most ${limit} characters${linkNote(target)}; stay well under that.`
  return [
    'You write social media posts.',
    fitting,
    `Tone: ${request.tone}.`,
    request.language ? `Write in the language whose BCP 47 tag is ${request.language}.` : 'Write in the language of the request.',
    request.hashtags ? 'End with one to three relevant hashtags.' : 'Do not add hashtags.',
    'Answer with the text of the post only: no title, no quotes around it, no notes or explanations.',
  ].join(' ')
}

/**
 * Drafts from an OpenAI-compatible `/chat/completions` server. Each target gets one
 * conversation, one draft per turn, the model shown what it already wrote so the drafts
 * differ. (`n` would save requests on OpenAI, but llama.cpp's server refuses any `n` but 1 and
 * Ollama ignores it.) Targets are drafted in parallel. A draft over the limit is re-asked once
 * with the count and limit stated, then cut at a sentence or word boundary: never returned
 * too long. Any failure of the server fails the whole generation with 502.
 */
export function openAiProvider(config: OpenAiConfig, http: HttpClient): AiProvider {
  const endpoint = `${config.baseUrl.replace(/\/+$/, '')}/chat/completions`
  const host = new URL(endpoint).host

  async function complete(messages: Message[], tally: Tally): Promise<Completion> {
    let response: OutboundResponse
    tally.requests++
    try {
      response = await http(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
        body: JSON.stringify({ model: config.model, messages }),
        timeoutMs: config.timeoutMs,
        maxResponseBytes: MAX_ANSWER_BYTES,
      })
    } catch (error) {
      if (!(error instanceof EgressError)) throw error
      if (error.code === 'timeout') throw providerError(`The AI provider at ${host} did not answer within ${config.timeoutMs / 1000} s.`)
      throw providerError(`The AI provider at ${host} could not be reached: ${summarise(error.message, config.apiKey)}`)
    }
    if (response.status < 200 || response.status > 299) {
      throw providerError(`The AI provider at ${host} answered ${response.status}: ${summarise(errorMessage(response), config.apiKey)}`, response.status)
    }
    let body: { choices?: { message?: { content?: unknown; refusal?: unknown } }[]; model?: unknown; usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown } }
    try {
      body = response.json()
    } catch {
      throw providerError(`The AI provider at ${host} answered with something other than JSON; is SMM_AI_BASE_URL its OpenAI-compatible /v1 address?`)
    }
    const message = Array.isArray(body?.choices) ? body.choices[0]?.message : undefined
    const content = message?.content
    if (typeof message?.refusal === 'string' && message.refusal) {
      throw providerError(`The model at ${host} declined to write this post: ${summarise(message.refusal, config.apiKey)}`)
    }
    if (typeof content !== 'string') {
      throw providerError(`The AI provider at ${host} answered without a message in choices[0].message.content: not a chat completion.`)
    }
    const draft = cleanAnswer(content)
    if (draft === '') throw providerError(`The AI provider at ${host} answered with an empty draft.`)
    const add = (sum: number | null, value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? (sum ?? 0) + value : sum)
    tally.prompt = add(tally.prompt, body.usage?.prompt_tokens)
    tally.completion = add(tally.completion, body.usage?.completion_tokens)
    tally.total = add(tally.total, body.usage?.total_tokens)
    return { content: draft, model: typeof body.model === 'string' && body.model ? body.model : undefined }
  }

  return {
    name: 'openai',
    model: config.model,
    async generate(request: GenerationRequest, targets: Target[]): Promise<ProviderOutput> {
      const tally: Tally = { requests: 0, prompt: null, completion: null, total: null }
      let answeredBy: string | undefined

      async function fitted(base: Message[], draft: string, target: Target): Promise<string> {
        const first = target.measure(draft)
        if (first.fits) return draft
        const ask = `That draft is ${first.length} characters as ${target.label} counts them; the limit is ${first.limit}. Rewrite it to at most ${first.limit} characters, keeping its meaning and tone. Answer with the post text only.`
        const { content: second } = await complete([...base, { role: 'assistant', content: draft }, { role: 'user', content: ask }], tally)
        return target.measure(second).fits ? second : shortenKeepingTags(second, (text) => target.measure(text).fits)
      }

      async function draftsFor(target: Target): Promise<ProviderDraft[]> {
        const base: Message[] = [
          { role: 'system', content: systemPrompt(request, target) },
          { role: 'user', content: request.prompt },
        ]
        const answers: string[] = []
        while (answers.length < request.variants) {
          const shown = answers.flatMap((a): Message[] => [
            { role: 'assistant', content: a },
            { role: 'user', content: 'Write another draft of this post, clearly different from the previous ones.' },
          ])
          const completion = await complete([...base, ...shown], tally)
          answeredBy ??= completion.model
          answers.push(completion.content)
        }
        const contents = await Promise.all(answers.map((a) => fitted(base, a, target)))
        return contents.map((content) => ({ target, content }))
      }

      const drafts = (await Promise.all(targets.map(draftsFor))).flat()
      return {
        model: answeredBy ?? config.model,
        drafts,
        usage: { requests: tally.requests, prompt_tokens: tally.prompt, completion_tokens: tally.completion, total_tokens: tally.total },
        notes: [],
      }
    },
  }
}
