import type { Store } from '../store/index.js'
import { bluesky } from './bluesky.js'
import { discord } from './discord.js'
import { facebook } from './facebook.js'
import { feedPlatform } from './feed.js'
import { instagram } from './instagram.js'
import { linkedin } from './linkedin.js'
import { mastodon } from './mastodon.js'
import { slack } from './slack.js'
import { telegram } from './telegram.js'
import { threads } from './threads.js'
import { x } from './x.js'
import { PLATFORM_NAMES, type Platform, type PlatformName } from './types.js'

/** The platforms this daemon can publish to, by name. The scheduler knows no more than this. */
export interface PlatformRegistry {
  /** The module for a platform, or undefined if this build does not have it (yet). */
  platformFor(name: string): Platform | undefined
  /** Names of the registered platforms. */
  available(): PlatformName[]
}

export interface RegistryDeps {
  store: Store
  /** The daemon's public base URL, for links to what it serves (the feeds). */
  publicUrl: () => string
  /** Replace or add platforms (tests and benchmarks). */
  extra?: Platform[]
}

/** Every platform module, one line each. */
export function createPlatformRegistry(deps: RegistryDeps): PlatformRegistry {
  const modules: Platform[] = [
    feedPlatform(deps.store.feed, deps.publicUrl),
    mastodon,
    bluesky,
    telegram,
    discord,
    slack,
    x,
    threads,
    instagram,
    linkedin,
    facebook,
    ...(deps.extra ?? []),
  ]
  const byName = new Map<string, Platform>()
  for (const platform of modules) byName.set(platform.name, platform)
  return {
    platformFor: (name) => byName.get(name),
    available: () => PLATFORM_NAMES.filter((name) => byName.has(name)),
  }
}
