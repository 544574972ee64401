import { PLATFORM_NAMES, type PlatformName } from '../platforms/types.js'

/** How a text measures against one platform's rules: its length counted that platform's way. */
export interface Fit {
  fits: boolean
  length: number
  limit: number
}

/**
 * Measures a text against a platform's text rules. The default below encodes SPEC §7; the
 * platform registry's own `check` can stand in for it without touching the providers.
 */
export type FitCheck = (platform: PlatformName, text: string) => Fit

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' })

/** What a reader calls characters: "é" and "👍🏽" are one each. */
export function graphemes(text: string): number {
  let count = 0
  for (const _ of segmenter.segment(text)) count++
  return count
}

// Mastodon counts every http(s) URL as 23 characters, whatever its length, and a remote
// mention `@user@domain` as `@user` (see its StatusLengthValidator).
const MASTODON_URL = /https?:\/\/[^\s<>"]+/g
const MASTODON_MENTION = /(@[\p{L}\p{N}_]+)@[\p{L}\p{N}.-]+[\p{L}\p{N}]/gu
const MASTODON_URL_LENGTH = 23

function mastodonLength(text: string): number {
  return graphemes(text.replace(MASTODON_MENTION, '$1').replace(MASTODON_URL, 'x'.repeat(MASTODON_URL_LENGTH)))
}

function within(length: number, limit: number, extra = true): Fit {
  return { fits: length <= limit && extra, length, limit }
}

/**
 * SPEC §7's limits, counted as each platform counts. Where a platform's own counting is not
 * documented (Discord, Slack, the feed), UTF-16 code units: never fewer than the characters a
 * platform could count, so a draft that fits here fits there.
 */
export const defaultFitCheck: FitCheck = (platform, text) => {
  switch (platform) {
    case 'feed':
      return within(text.length, 10_000)
    case 'mastodon':
      // The instance's `max_characters` is only known for a connection; 500 is Mastodon's default.
      return within(mastodonLength(text), 500)
    case 'bluesky':
      return within(graphemes(text), 300, Buffer.byteLength(text, 'utf8') <= 3_000)
    case 'telegram':
      // Telegram measures messages (and entity offsets) in UTF-16 code units.
      return within(text.length, 4_096)
    case 'discord':
      return within(text.length, 2_000)
    case 'slack':
      return within(text.length, 40_000)
  }
}

/** Where a set of drafts is headed: one platform, or (platform null) anywhere at all. */
export interface Target {
  platform: PlatformName | null
  /** The text against this target's rules; a neutral target takes the strictest verdict. */
  measure(text: string): Fit
  /** The count shown to the user as `characters`. */
  characters(text: string): number
  /** For prompts and messages: "Bluesky", "every platform". */
  label: string
}

const LABELS: Record<PlatformName, string> = {
  feed: 'an RSS/Atom feed',
  mastodon: 'Mastodon',
  bluesky: 'Bluesky',
  telegram: 'Telegram',
  discord: 'Discord',
  slack: 'Slack',
}

/**
 * The targets of a request: each named platform, or, when none is named, one platform-neutral
 * target that a draft fits only if it fits every platform, so it can be posted anywhere.
 */
export function targetsFor(platforms: readonly PlatformName[] | undefined, check: FitCheck = defaultFitCheck): Target[] {
  if (platforms && platforms.length > 0) {
    return platforms.map((platform) => ({
      platform,
      measure: (text) => check(platform, text),
      characters: (text) => check(platform, text).length,
      label: LABELS[platform],
    }))
  }
  return [
    {
      platform: null,
      measure(text) {
        const fits = PLATFORM_NAMES.map((p) => check(p, text))
        // The failing rule if any, else the tightest one: what a rewrite must aim under.
        return fits.find((f) => !f.fits) ?? fits.reduce((a, b) => (b.limit < a.limit ? b : a))
      },
      characters: graphemes,
      label: 'every platform',
    },
  ]
}
