import type { FieldError } from '../../src/errors.js'
import { formatNumber as formatCount } from '../../src/numbers.js'
import { measureText, utf8Length } from '../../src/text-length.js'
import type { Draft, PlatformLimits, TextMeasure } from './types.js'

/** Who allows what, in an error's words: the platform's label, or "this Mastodon instance". */
interface Wording {
  label: string
  /** Who sets the limits, where not the platform itself; default the label. */
  who?: string
}

/** The text measured against `limits`: what `measure` answers for a platform that needs no more. */
export function measureDraft(limits: PlatformLimits, draft: Draft): TextMeasure {
  return measureText(limits, draft.content, draft.media_urls)
}

/** How the count was made, when it is not plain characters: what a person needs to make sense of the number. */
function countedAs(limits: PlatformLimits, label: string): string {
  if (limits.text.count === 'mastodon') return ` as ${label} counts them (each link counts ${limits.text.url_length})`
  if (limits.text.count === 'threads') return ` as ${label} counts them (an emoji counts its UTF-8 bytes)`
  if (limits.text.count === 'x_weighted') return ` as ${label} counts them (each link ${limits.text.url_length}, CJK characters and emoji 2)`
  if (limits.text.media_links) return ' with its media links'
  return ''
}

/** Media are "images" where the platform takes nothing else. */
function mediaNoun(limits: PlatformLimits): string {
  const types = limits.media.types
  return types && types.length > 0 && types.every((type) => type.startsWith('image/')) ? ' images' : ''
}

/**
 * A draft's length and media count against a platform's declared limits, with errors people can
 * act on: `too_long` at `#/content` (counted the platform's way, or in UTF-8 bytes), and
 * `too_many_media` or `required` at `#/media_urls`. Every module's `check` starts from this and
 * adds only its own rules.
 */
export function checkLimits(limits: PlatformLimits, draft: Draft, { label, who = label }: Wording): FieldError[] {
  const errors: FieldError[] = []
  const { length, limit } = measureDraft(limits, draft)
  const captioned = draft.media_urls.length > 0 && limits.text.caption_max != null
  if (length > limit) {
    errors.push({
      pointer: '#/content',
      code: 'too_long',
      detail: `is ${formatCount(length)} characters${countedAs(limits, label)}; ${who} allows ${formatCount(limit)}${captioned ? ' as a caption under media' : ''}`,
    })
  } else if (limits.text.max_bytes != null) {
    // Reported only when the characters fit: one fix at a time, the one a person counts first.
    const bytes = utf8Length(draft.content)
    if (bytes > limits.text.max_bytes) errors.push({ pointer: '#/content', code: 'too_long', detail: `is ${formatCount(bytes)} bytes in UTF-8; ${who} allows ${formatCount(limits.text.max_bytes)}` })
  }
  const media = draft.media_urls.length
  if (limits.media.max !== null && media > limits.media.max) {
    errors.push({ pointer: '#/media_urls', code: 'too_many_media', detail: `has ${media} items; ${who} takes at most ${limits.media.max}${mediaNoun(limits)} per post` })
  }
  if (limits.media.required && media === 0) {
    errors.push({ pointer: '#/media_urls', code: 'required', detail: `must have at least one item: ${who} publishes no post without media` })
  }
  return errors
}
