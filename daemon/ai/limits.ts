import type { PlatformRegistry } from '../platforms/index.js'
import { graphemeLength } from '../platforms/text.js'
import { PLATFORM_NAMES, type PlatformName } from '../platforms/types.js'

/** How a text measures against one platform's rules: its length counted that platform's way. */
export interface Fit {
  fits: boolean
  length: number
  limit: number
}

/**
 * Measures a text against a platform's text rules (`platformFitCheck` below in the daemon;
 * anything else in tests of the providers alone).
 */
export type FitCheck = (platform: PlatformName, text: string) => Fit

/**
 * The FitCheck of the daemon's platform modules: the same counting and limits (and `check`)
 * that validate posts, for a post with no media on a connection not made yet (an instance's
 * own limit is unknown, so its default applies). Every platform name is registered in a
 * daemon; a missing one is a build error, not a user's.
 */
export function platformFitCheck(registry: PlatformRegistry): FitCheck {
  return (name, text) => {
    const platform = registry.platformFor(name)
    if (!platform) throw new Error(`no ${name} platform module is registered`)
    const draft = { content: text, media_urls: [] }
    const { length, limit } = platform.measure(draft, {})
    // Blank text is not a length problem: only the content rules a rewrite can fix count here.
    const fits = !platform.check(draft, {}).some((e) => e.pointer === '#/content' && e.code !== 'required')
    return { fits, length, limit }
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
export function targetsFor(platforms: readonly PlatformName[] | undefined, check: FitCheck): Target[] {
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
      characters: graphemeLength,
      label: 'every platform',
    },
  ]
}
