import { distinct, PLATFORM_NAMES, type PlatformName } from './common.js'
import * as v from 'valibot'
import { route } from './route.js'

/** The voices a draft can be written in. */
export const TONES = ['neutral', 'friendly', 'professional', 'witty', 'enthusiastic'] as const
export type Tone = (typeof TONES)[number]

/** The most drafts asked per platform; each costs a model call where the server lacks `n`. */
export const MAX_VARIANTS = 5

function isLanguageTag(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1
  } catch {
    // RangeError is how Intl says "not a BCP 47 tag": exactly the answer wanted here.
    return false
  }
}

export const AiGenerateRequest = v.strictObject({
  prompt: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'must not be empty: say what the post should be about'),
    v.maxLength(4000, 'must be at most 4,000 characters'),
    v.description('What the posts should say: a topic, an announcement, notes to turn into a post'),
  ),
  platforms: v.optional(
    v.pipe(
      v.array(v.picklist(PLATFORM_NAMES, `must be one of: ${PLATFORM_NAMES.join(', ')}`)),
      v.minLength(1, 'must name at least one platform, or be left out for platform-neutral drafts'),
      ...distinct<PlatformName>('must not repeat a platform'),
      v.description('Draft for each of these, fitting its rules; left out: one platform-neutral set that fits every platform'),
    ),
  ),
  tone: v.optional(v.picklist(TONES, `must be one of: ${TONES.join(', ')}`), 'neutral'),
  variants: v.optional(
    v.pipe(
      v.number('must be a whole number from 1 to 5'),
      v.integer('must be a whole number from 1 to 5'),
      v.minValue(1, 'must be a whole number from 1 to 5'),
      v.maxValue(MAX_VARIANTS, 'must be a whole number from 1 to 5'),
      v.description('Drafts per platform (default 1)'),
    ),
    1,
  ),
  language: v.optional(
    v.pipe(
      v.string(),
      // Before the transform: the OpenAPI generator stops reading a pipe at a transform.
      v.description('BCP 47 tag of the language to write in (default: the language of the prompt)'),
      // The shape of a tag (subtags of 1 to 8 letters and digits), which the document can state.
      v.regex(/^[A-Za-z]{2,8}(?:-[A-Za-z\d]{1,8})*$/, 'must be a BCP 47 language tag such as en, fr or pt-BR'),
      v.check(isLanguageTag, 'must be a BCP 47 language tag such as en, fr or pt-BR'),
      v.transform((tag) => Intl.getCanonicalLocales(tag)[0]!),
    ),
  ),
  hashtags: v.optional(v.boolean('must be true or false'), false),
})
export type AiGenerateRequest = v.InferOutput<typeof AiGenerateRequest>

export const AiVariant = v.object({
  content: v.string(),
  platform: v.pipe(v.nullable(v.picklist(PLATFORM_NAMES)), v.description('null for the platform-neutral set')),
  characters: v.pipe(
    v.number(),
    v.integer(),
    v.description("Length counted the platform's way (graphemes, URLs as 23 on Mastodon…); graphemes for a platform-neutral draft"),
  ),
})
export type AiVariant = v.InferOutput<typeof AiVariant>

export const AiUsage = v.pipe(
  v.object({
    requests: v.pipe(v.number(), v.integer(), v.description('Calls made to the model (0 for the builtin helper)')),
    prompt_tokens: v.nullable(v.number()),
    completion_tokens: v.nullable(v.number()),
    total_tokens: v.nullable(v.number()),
  }),
  v.description('Token counts as the model server reported them; null where it reported none'),
)
export type AiUsage = v.InferOutput<typeof AiUsage>

/** The answer to a generation request: drafts, never published or stored. */
export const AiGeneration = v.pipe(
  v.object({
    id: v.string(),
    provider: v.pipe(v.picklist(['builtin', 'openai']), v.description('builtin: the offline drafting helper; openai: the configured chat-completions server')),
    model: v.string(),
    variants: v.array(AiVariant),
    usage: AiUsage,
    notes: v.pipe(v.array(v.string()), v.description('What the provider could not do as asked (a language it cannot write, say)')),
  }),
  v.title('AiGeneration'),
)
export type AiGeneration = v.InferOutput<typeof AiGeneration>

export const aiRoutes = {
  generateContent: route({
    method: 'POST',
    path: '/v1/ai/generate',
    summary: 'Draft posts that fit each platform, from the configured model or the offline helper',
    tag: 'ai',
    scope: 'ai:generate',
    body: AiGenerateRequest,
    status: 200,
    response: AiGeneration,
    problems: { 502: 'ai_provider_error: the model server failed, timed out or gave no usable answer' },
  }),
}
