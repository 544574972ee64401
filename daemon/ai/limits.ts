import type { PlatformRegistry } from '../platforms/index.js'
import { graphemeLength } from '../../src/text-length.js'
import type { Platform, PlatformLimits, PlatformName } from '../platforms/types.js'

/** How a text measures against one platform's rules: its length counted that platform's way. */
export interface Fit {
  fits: boolean
  length: number
  limit: number
}

/**
 * How a text measures against one platform's rules, for a post with no media on a connection
 * not made yet (an instance's own limit is unknown, so its default applies): the same counting
 * and limits (and `check`) that validate posts, read from the platform modules.
 */
export function fitOf(platform: Platform, text: string): Fit {
  const draft = { content: text, media_urls: [] }
  const { length, limit } = platform.measure(draft, {})
  // Blank text is not a length problem: only the content rules a rewrite can fix count here.
  const fits = !platform.check(draft, {}).some((e) => e.pointer === '#/content' && e.code !== 'required')
  return { fits, length, limit }
}

/** Where a set of drafts is headed: one platform, or (platform null) anywhere at all. */
export interface Target {
  platform: PlatformName | null
  /** The platform's declared limits (how it counts, links included); null for the neutral target. */
  limits: PlatformLimits | null
  /** The text against this target's rules; a neutral target takes the strictest verdict. */
  measure(text: string): Fit
  /** The count shown to the user as `characters`. */
  characters(text: string): number
  /** For prompts and messages: "Bluesky", "every platform". */
  label: string
}

/**
 * The targets of a request: each named platform, or, when none is named, one platform-neutral
 * target that a draft fits only if it fits every platform this daemon has, so it can be posted
 * anywhere. Every platform name a request may carry is registered in a daemon; a missing one is
 * a build error, not a user's.
 */
export function targetsFor(platforms: readonly PlatformName[] | undefined, registry: PlatformRegistry): Target[] {
  const moduleOf = (name: PlatformName): Platform => {
    const platform = registry.platformFor(name)
    if (!platform) throw new Error(`no ${name} platform module is registered`)
    return platform
  }
  if (platforms && platforms.length > 0) {
    return platforms.map((name) => {
      const platform = moduleOf(name)
      return {
        platform: name,
        limits: platform.limits,
        measure: (text) => fitOf(platform, text),
        characters: (text) => fitOf(platform, text).length,
        // The feed is read by people in a reader, not on a site with a name.
        label: name === 'feed' ? 'an RSS/Atom feed' : platform.label,
      }
    })
  }
  const every = registry.available().map(moduleOf)
  return [
    {
      platform: null,
      limits: null,
      measure(text) {
        const fits = every.map((p) => fitOf(p, text))
        // The failing rule if any, else the tightest one: what a rewrite must aim under.
        return fits.find((f) => !f.fits) ?? fits.reduce((a, b) => (b.limit < a.limit ? b : a))
      },
      characters: graphemeLength,
      label: 'every platform',
    },
  ]
}
