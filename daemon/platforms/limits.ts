import type { FieldError } from '../../src/errors.js'
import { formatNumber as formatCount, formatSize } from '../../src/numbers.js'
import { measureText, utf8Length } from '../../src/text-length.js'
import type { Draft, DraftMedia, MediaKindRules, PlatformLimits, TextMeasure } from './types.js'

/** Who allows what, in an error's words: the platform's label, or "this Mastodon instance". */
interface Wording {
  label: string
  /** Who sets the limits, where not the platform itself; default the label. */
  who?: string
}

/** Whether a draft has media of either sort: URLs, or uploaded. */
export const hasMedia = (draft: Draft) => draft.media_urls.length > 0 || (draft.media?.length ?? 0) > 0

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
  const captioned = hasMedia(draft) && limits.text.caption_max != null
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
  const uploaded = draft.media ?? []
  const media = draft.media_urls.length + uploaded.length
  // Counted together: the platform sees one list, the URLs' media first.
  const listed = uploaded.length > 0 ? '#/media' : '#/media_urls'
  if (limits.media.max !== null && media > limits.media.max) {
    const counted = uploaded.length > 0 && draft.media_urls.length > 0 ? ' (media_urls and media together)' : ''
    errors.push({ pointer: listed, code: 'too_many_media', detail: `has ${media} items${counted}; ${who} takes at most ${limits.media.max}${mediaNoun(limits)} per post` })
  }
  if (limits.media.required && media === 0) {
    errors.push({ pointer: '#/media_urls', code: 'required', detail: `must have at least one item: ${who} publishes no post without media` })
  }
  errors.push(...checkMedia(limits, uploaded, { label, who }))
  return errors
}

/** Whether a platform keeps the alt text of an uploaded item of this kind, as its rules declare. */
export function keepsAltText(limits: PlatformLimits, kind: 'image' | 'video'): boolean {
  return limits.media.alt_text_max != null && limits.media[kind]?.alt_text !== false
}

/**
 * Uploaded media that would go out without the alt text they carry, where the platform's rules
 * declare no place for it (none at all, or none for this kind): notes at each item, not errors,
 * since the post goes out all the same.
 */
export function altTextNotSent(limits: PlatformLimits, media: readonly DraftMedia[], label: string): FieldError[] {
  const notes: FieldError[] = []
  media.forEach((item, index) => {
    const kind = item.content_type.startsWith('video/') ? 'video' : 'image'
    if (!item.alt_text || !limits.media[kind] || keepsAltText(limits, kind)) return
    const where = limits.media.alt_text_max == null ? `${label} has no alt text` : `${label} keeps alt text for ${kind === 'video' ? 'images' : 'videos'} only`
    notes.push({ pointer: `#/media/${index}`, code: 'alt_text_not_sent', detail: `has alt text, but ${where}: this ${kind} goes out without it` })
  })
  return notes
}

const pixels = (n: number) => `${formatCount(n)} pixels`
const ratio = (r: number) => Number(r.toFixed(2)).toString()
function duration(ms: number): string {
  const seconds = Math.round(ms / 100) / 10
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  const rest = Math.round(seconds - minutes * 60)
  return rest ? `${minutes} min ${rest} s` : `${minutes} min`
}

/** One uploaded item against the rules of its kind: what is wrong with it, each rule at most once. */
function itemErrors(item: DraftMedia, rules: MediaKindRules, noun: string, who: string): { code: string; detail: string }[] {
  const out: { code: string; detail: string }[] = []
  const refuse = (code: string, detail: string) => out.push({ code, detail })
  if (!rules.types.includes(item.content_type)) {
    return [{ code: 'media_type_unsupported', detail: `is ${item.content_type}; ${who} takes ${noun}s of type ${rules.types.join(', ')}: convert it to one of them, or leave this platform out` }]
  }
  const ownLimit = rules.max_bytes_by_type?.[item.content_type]
  const maxBytes = ownLimit ?? rules.max_bytes
  if (maxBytes != null && item.bytes > maxBytes) refuse('media_too_large', `is ${formatSize(item.bytes)}; ${who} takes ${ownLimit != null ? item.content_type : `${noun}s`} up to ${formatSize(maxBytes)}`)
  const { width, height } = item
  if (width !== null && height !== null) {
    const size = `${width}×${height}`
    if (rules.min_width != null && width < rules.min_width) refuse('media_too_small', `is ${pixels(width)} across (${size}); ${who} takes ${noun}s at least ${pixels(rules.min_width)} across`)
    if (rules.max_width != null && width > rules.max_width) refuse('media_too_big', `is ${pixels(width)} across (${size}); ${who} takes ${noun}s at most ${pixels(rules.max_width)} across`)
    if (rules.min_height != null && height < rules.min_height) refuse('media_too_small', `is ${pixels(height)} high (${size}); ${who} takes ${noun}s at least ${pixels(rules.min_height)} high`)
    if (rules.max_height != null && height > rules.max_height) refuse('media_too_big', `is ${pixels(height)} high (${size}); ${who} takes ${noun}s at most ${pixels(rules.max_height)} high`)
    if (rules.max_pixels != null && width * height > rules.max_pixels) refuse('media_too_big', `has ${pixels(width * height)} (${size}); ${who} takes ${noun}s of at most ${pixels(rules.max_pixels)}`)
    const aspect = width / height
    const range = `${ratio(rules.min_aspect_ratio ?? 0)}${rules.max_aspect_ratio != null ? ` to ${ratio(rules.max_aspect_ratio)}` : ' or more'}`
    if ((rules.min_aspect_ratio != null && aspect < rules.min_aspect_ratio) || (rules.max_aspect_ratio != null && aspect > rules.max_aspect_ratio)) {
      refuse('media_aspect_ratio', `has an aspect ratio of ${ratio(aspect)} (${size}, width divided by height); ${who} takes ${noun}s from ${range}: crop it`)
    }
  }
  if (item.duration_ms !== null) {
    if (rules.min_duration_ms != null && item.duration_ms < rules.min_duration_ms) refuse('media_too_short', `lasts ${duration(item.duration_ms)}; ${who} takes ${noun}s of at least ${duration(rules.min_duration_ms)}`)
    if (rules.max_duration_ms != null && item.duration_ms > rules.max_duration_ms) refuse('media_too_long', `lasts ${duration(item.duration_ms)}; ${who} takes ${noun}s up to ${duration(rules.max_duration_ms)}`)
  }
  return out
}

/**
 * Uploaded media against a platform's declared rules, each error at its item (`#/media/2`, its
 * alt text at `#/media/2/alt_text`) with the rule it breaks in words: the kind taken at all,
 * type, size, dimensions, aspect ratio, length, alt text; and at the list, images and video mixed
 * where they may not be, or too many of one kind.
 */
export function checkMedia(limits: PlatformLimits, media: readonly DraftMedia[], { label, who = label }: Wording): FieldError[] {
  const errors: FieldError[] = []
  const rules = limits.media
  const count = { image: 0, video: 0 }
  media.forEach((item, index) => {
    const kind = item.content_type.startsWith('video/') ? 'video' : 'image'
    count[kind]++
    const pointer = `#/media/${index}`
    const kindRules = rules[kind]
    if (!kindRules) {
      errors.push({ pointer, code: 'media_type_unsupported', detail: `is ${kind === 'video' ? 'a video' : 'an image'}; ${who} takes no ${kind}s from smm: leave it out for ${label} with an override` })
      return
    }
    for (const e of itemErrors(item, kindRules, kind, who)) errors.push({ pointer, ...e })
    const altMax = rules.alt_text_max
    if (item.alt_text !== null && altMax != null && item.alt_text.length > altMax) {
      errors.push({ pointer: `${pointer}/alt_text`, code: 'too_long', detail: `is ${formatCount(item.alt_text.length)} characters; ${who} keeps alt text of at most ${formatCount(altMax)}` })
    }
  })
  if (rules.mixed === false && count.image > 0 && count.video > 0) {
    errors.push({ pointer: '#/media', code: 'media_mixed', detail: `mixes images and a video; ${who} takes images or one video per post, not both: move one to a thread part` })
  }
  for (const kind of ['image', 'video'] as const) {
    const most = rules[kind]?.max
    // Said once: a kind's cap no lower than the post's, broken, is the post's cap broken (checkLimits says so).
    const saidAlready = rules.max !== null && most != null && most >= rules.max && media.length > rules.max
    if (most != null && count[kind] > most && !saidAlready) errors.push({ pointer: '#/media', code: 'too_many_media', detail: `has ${count[kind]} ${kind}s; ${who} takes at most ${most} ${kind}${most === 1 ? '' : 's'} per post` })
  }
  return errors
}
