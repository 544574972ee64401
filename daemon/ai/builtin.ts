import { PHRASEBOOKS, STOPWORDS } from './builtin-phrases.js'
import type { Target } from './limits.js'
import { shorten } from './shorten.js'
import type { AiProvider, GenerationRequest, ProviderDraft, ProviderOutput } from './types.js'

export const BUILTIN_MODEL = 'builtin-drafting-helper-1'

// "Write a short post about X", "Announce that X", "Tell our followers about X": the request
// is the prompt's wrapping, X is the message. English only; other prompts are kept whole.
const INSTRUCTIONS = [
  /^(?:please\s+)?(?:(?:can|could) you\s+)?(?:write|draft|create|compose|generate|make|give me)\s+(?:me\s+|us\s+)?(?:an?\s+|some\s+|\d+\s+)?(?:[\p{L}-]+\s+){0,3}?(?:posts?|tweets?|toots?|messages?|announcements?|updates?|captions?|copy|text)\s+(?:about|on|for|announcing|saying|that says|to announce)\s+/iu,
  /^(?:please\s+)?(?:announce|(?:tell|let) (?:people|everyone|(?:our|my) (?:followers|customers|users|readers|audience))(?: know)?(?: about)?)\s+(?:that\s+)?/iu,
]
const URL = /https?:\/\/\S+/gu

/** The message inside a prompt: its instruction wrapping removed, closing punctuation too. */
export function messageOf(prompt: string): string {
  let message = prompt.replace(/\s+/gu, ' ').trim()
  for (const pattern of INSTRUCTIONS) message = message.replace(pattern, '')
  message = message.replace(/[\s.,;:!]+$/u, '')
  // A prompt that is all wrapping or punctuation is its own message.
  if (message === '') return prompt.trim()
  return message.charAt(0).toLocaleUpperCase() + message.slice(1)
}

// A word as a tag takes it: letters with their combining marks (a decomposed "São" is one word,
// not "Sa" and "o"), digits, and the parts of a compound joined by a hyphen or an apostrophe,
// so "open-air" gives one tag, not "#Open" and "#Air".
const WORD = /\p{L}[\p{L}\p{M}\p{N}]*(?:[-\u2010'\u2019][\p{L}\p{M}\p{N}]+)*/gu

/** A word as a hashtag spells it: no possessive "'s", compounds joined in camel case ("OpenAir"). */
function tagWord(word: string): string {
  const parts = word.replace(/['\u2019]s$/iu, '').replace(/['\u2019]/gu, '').split(/[-\u2010]/u)
  return parts.length === 1 ? parts[0]! : parts.map((p) => p.charAt(0).toLocaleUpperCase() + p.slice(1)).join('')
}

/**
 * Up to three hashtags from the prompt's most frequent long words, first seen first; words the
 * prompt already tags are left out, since the message carries those tags already.
 */
export function hashtagsOf(prompt: string): string[] {
  const text = prompt.normalize('NFC')
  const own = new Set([...text.matchAll(/#([\p{L}\p{M}\p{N}_]+)/gu)].map((m) => m[1]!.toLocaleLowerCase()))
  const counts = new Map<string, { word: string; count: number; first: number }>()
  const words = (text.replace(URL, ' ').replace(/[@#][\p{L}\p{M}\p{N}_.]+/gu, ' ').match(WORD) ?? []).map(tagWord)
  words.forEach((word, index) => {
    const key = word.toLocaleLowerCase()
    if (key.length < 4 || STOPWORDS.has(key) || own.has(key)) return
    const entry = counts.get(key) ?? { word, count: 0, first: index }
    entry.count++
    counts.set(key, entry)
  })
  const ranked = [...counts.values()].sort((a, b) => b.count - a.count || a.first - b.first).map((e) => e.word)
  const tags: string[] = []
  for (const word of ranked) {
    const tag = /\p{Lu}/u.test(word.slice(1)) ? word : word.charAt(0).toLocaleUpperCase() + word.slice(1)
    if (!tags.some((t) => t.toLocaleLowerCase() === tag.toLocaleLowerCase())) tags.push(tag)
    if (tags.length === 3) break
  }
  return tags.map((t) => `#${t}`)
}

/** Puts a message in a frame, without doubling the punctuation where they meet ("?." → "?"). */
function frame(template: string, message: string): string {
  const [before, after = ''] = template.split('{}') as [string, string?]
  // A link at the end takes no full stop either: some platforms would make it part of the link.
  const joined = /[.!?…]$|https?:\/\/\S+$/u.test(message) ? after.replace(/^\s*[.!]/u, '') : after
  return `${before}${message}${joined}`
}

/**
 * One draft: the frame around the whole message, hashtags under it; if that is too long, the
 * message is shortened inside its frame, so the tone's words and the asked-for tags survive.
 */
function draft(template: string, message: string, tags: string[], target: Target): string {
  const tagLine = tags.length > 0 ? `\n\n${tags.join(' ')}` : ''
  const compose = (m: string) => frame(template, m) + tagLine
  const fits = (m: string) => target.measure(compose(m)).fits
  return compose(fits(message) ? message : shorten(message, fits))
}

/**
 * The offline default: a deterministic drafting helper, not a language model. It puts the
 * prompt's message into tone-specific frames (one per variant), adds hashtags from the
 * prompt's keywords, and fits each draft to its platform. Same request, same drafts.
 */
export function builtinProvider(): AiProvider {
  return {
    name: 'builtin',
    model: BUILTIN_MODEL,
    async generate(request: GenerationRequest, targets: Target[]): Promise<ProviderOutput> {
      const notes = ['Drafted by the offline builtin helper from templates, not by a language model; set SMM_AI_BASE_URL to use one.']
      const primary = request.language?.split('-')[0]?.toLowerCase()
      const book = PHRASEBOOKS[primary ?? 'en'] ?? PHRASEBOOKS.en!
      if (primary && primary !== 'en') {
        notes.push(
          PHRASEBOOKS[primary]
            ? `The builtin helper does not translate: the framing words are in ${request.language}, the prompt's own words are kept as written.`
            : `The builtin helper cannot write in ${request.language}: the framing words are in English and the prompt's own words are kept as written.`,
        )
      }
      const message = messageOf(request.prompt)
      const tags = request.hashtags ? hashtagsOf(message) : []
      const frames = book[request.tone]
      const drafts: ProviderDraft[] = targets.flatMap((target) =>
        Array.from({ length: request.variants }, (_, i) => ({ target, content: draft(frames[i % frames.length]!, message, tags, target) })),
      )
      return { model: BUILTIN_MODEL, drafts, usage: { requests: 0, prompt_tokens: null, completion_tokens: null, total_tokens: null }, notes }
    },
  }
}
