import type { AiGeneration } from '../../src/api/ai.js'
import type { HttpClient } from '../egress.js'
import { builtinProvider } from './builtin.js'
import type { PlatformRegistry } from '../platforms/index.js'
import { targetsFor } from './limits.js'
import { openAiProvider } from './openai.js'
import { shorten } from './shorten.js'
import type { AiProvider, GenerationRequest } from './types.js'

export type { AiProvider } from './types.js'

/** How the operator set the AI provider up: `SMM_AI_*`. No base URL: the builtin helper. */
export interface AiOptions {
  baseUrl?: string
  apiKey?: string
  model?: string
  timeoutMs?: number
}

export const DEFAULT_AI_TIMEOUT_MS = 30_000

/**
 * The provider the options describe. `http` must be the operator's trusted client (plain http
 * and private addresses allowed: a local Ollama is the common case), not the user-URL one.
 */
export function createAiProvider(options: AiOptions, http: HttpClient): AiProvider {
  if (!options.baseUrl) return builtinProvider()
  let url: URL
  try {
    url = new URL(options.baseUrl)
  } catch {
    throw new Error(`SMM_AI_BASE_URL (--ai-base-url) is not a URL: ${options.baseUrl}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('SMM_AI_BASE_URL (--ai-base-url) must be an http or https URL')
  if (!options.model) {
    throw new Error('SMM_AI_MODEL (--ai-model) is required with SMM_AI_BASE_URL: name the model the server should use, e.g. gpt-4o-mini or llama3.2')
  }
  return openAiProvider({ baseUrl: url.toString(), apiKey: options.apiKey || undefined, model: options.model, timeoutMs: options.timeoutMs ?? DEFAULT_AI_TIMEOUT_MS }, http)
}

/**
 * Drafts for every requested platform (or one platform-neutral set), each checked against its
 * platform's rules here as well as by the provider: whatever a provider returns, nothing too
 * long leaves this function. The rules are the platform modules' own.
 */
export async function generate(provider: AiProvider, request: GenerationRequest, platforms: PlatformRegistry): Promise<Omit<AiGeneration, 'id'>> {
  const output = await provider.generate(request, targetsFor(request.platforms, platforms))
  const variants = output.drafts.map(({ target, content }) => {
    const fitted = target.measure(content).fits ? content : shorten(content, (text) => target.measure(text).fits)
    return { content: fitted, platform: target.platform, characters: target.characters(fitted) }
  })
  return { provider: provider.name, model: output.model, variants, usage: output.usage, notes: output.notes }
}
