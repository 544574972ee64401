// The text limits the new-post form counts against while the user types. The daemon checks the
// real rules (instance limits, byte caps, media captions) on submit; this is a guide, and is to
// be connected to the platform rules in one place once they are shared with the client.

/** How a platform measures text: Unicode code points, or user-perceived characters (graphemes). */
export type CountUnit = 'characters' | 'graphemes'

/** One platform's text limit and how it counts. */
export interface PlatformLimit {
  max: number
  unit: CountUnit
  /** Mastodon counts every URL as this many characters, whatever its length. */
  urlLength?: number
}

export const platformLimits: Record<string, PlatformLimit> = {
  feed: { max: 10_000, unit: 'characters' },
  mastodon: { max: 500, unit: 'characters', urlLength: 23 },
  bluesky: { max: 300, unit: 'graphemes' },
  telegram: { max: 4_096, unit: 'characters' },
  discord: { max: 2_000, unit: 'characters' },
  slack: { max: 4_000, unit: 'characters' },
}

const URL = /https?:\/\/[^\s]+/g
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/** The length of `text` as `platform` counts it, and its limit (undefined for an unknown platform). */
export function measure(platform: string, text: string): { length: number; max: number | undefined } {
  const limit = platformLimits[platform]
  if (!limit) return { length: [...text].length, max: undefined }
  const counted = limit.urlLength ? text.replace(URL, 'x'.repeat(limit.urlLength)) : text
  const length = limit.unit === 'graphemes' ? [...segmenter.segment(counted)].length : [...counted].length
  return { length, max: limit.max }
}
