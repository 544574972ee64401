import type { AiGenerateRequest, AiUsage } from '../../src/api/ai.js'
import type { Target } from './limits.js'

/** What a provider is asked: the validated request, with the defaults applied. */
export type GenerationRequest = AiGenerateRequest

/** One draft for one target, as a provider wrote it (the caller checks it fits). */
export interface ProviderDraft {
  target: Target
  content: string
}

export interface ProviderOutput {
  /** The model that answered (the server may name a more precise one than configured). */
  model: string
  /** `request.variants` drafts for each target, target by target. */
  drafts: ProviderDraft[]
  usage: AiUsage
  /** What could not be done as asked, said plainly. */
  notes: string[]
}

/**
 * Something that writes drafts: the offline helper or a model server. A provider aims under
 * each target's limit; `generate()` in `index.ts` still shortens anything that does not fit.
 */
export interface AiProvider {
  readonly name: 'builtin' | 'openai'
  readonly model: string
  generate(request: GenerationRequest, targets: Target[]): Promise<ProviderOutput>
}
